// The right-hand-side program (domains/ctde/rhs_program.hpp): the built-in
// kernels of Integrator, Gain and Sum compute exactly what their virtual
// evaluate() and derivatives() compute, and are used where the widths fit.
#include <doctest/doctest.h>

#include <array>
#include <memory>
#include <sstream>

#include "actors/continuous/integrator.hpp"
#include "actors/math/gain.hpp"
#include "actors/math/sum.hpp"
#include "actors/sources/constant.hpp"
#include "actors/sources/sine.hpp"
#include "core/actor_context.hpp"
#include "core/csv_results.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"
#include "domains/ctde/rhs_program.hpp"

using namespace ctde;

namespace {

/// The same actors without their kernels: the director calls them virtually.
class PlainIntegrator final : public Integrator {
 public:
  using Integrator::Integrator;
  [[nodiscard]] Kernel kernel() const override { return {}; }
};
class PlainGain final : public Gain {
 public:
  using Gain::Gain;
  [[nodiscard]] Kernel kernel() const override { return {}; }
};
class PlainSum final : public Sum {
 public:
  using Sum::Sum;
  [[nodiscard]] Kernel kernel() const override { return {}; }
};

/// Runs `model` to `stop_time` (rtol 1e-9, atol 1e-12, a row every
/// `interval` s besides the step ends), recording model.record() into `csv`.
RunResult run_recorded(Model& model, double stop_time, double interval, std::string& csv) {
  const FlatModel flat = validate(model);
  RunOptions options;
  options.stop_time = stop_time;
  options.rtol = 1e-9;
  options.atol = 1e-12;
  options.output_interval = interval;
  std::ostringstream out;
  RunResult result;
  {
    CsvResults results(out, resolve_record(flat, model.record()));
    Director director(flat, options, model.name(), nullptr, &results);
    result = director.run();
  }
  csv = out.str();
  return result;
}

/// x' = 2.5 sin(t) - x (scalar), and a width-2 chain y' = -0.5 y + [1, -2]
/// through a vector Gain and Sum; records every output.
template <class I, class G, class S>
std::string run_models(RunStatistics* stats = nullptr) {
  Model model("kernels");
  model.add<Sine>("u");
  model.add<G>("k").set_parameter("k", 2.5);
  model.add<S>("e").set_parameter("signs", std::string("+-"));
  model.add<I>("x");
  model.connect("u.out", "k.in");
  model.connect("k.out", "e.in0");
  model.connect("x.out", "e.in1");
  model.connect("e.out", "x.in");
  model.add<Constant>("c").set_parameter("value", std::vector<double>{1.0, -2.0});
  model.add<G>("half").set_parameter("k", -0.5);
  model.add<S>("f").set_parameter("signs", std::string("++"));
  model.add<I>("y").set_parameter("initial", std::vector<double>{3.0, 4.0});
  model.connect("y.out", "half.in");
  model.connect("half.out", "f.in0");
  model.connect("c.out", "f.in1");
  model.connect("f.out", "y.in");
  model.record() = {"x.out", "k.out", "e.out", "y.out", "half.out", "f.out"};
  std::string csv;
  const RunResult result = run_recorded(model, 5, 0.25, csv);
  REQUIRE(result.status == RunStatus::kOk);
  if (stats != nullptr) *stats = result.stats;
  return csv;
}

}  // namespace

TEST_CASE("the kernels of Integrator, Gain and Sum give the results of their virtual calls, bit for bit") {
  RunStatistics with_kernels;
  RunStatistics plain;
  const std::string fast = run_models<Integrator, Gain, Sum>(&with_kernels);
  const std::string slow = run_models<PlainIntegrator, PlainGain, PlainSum>(&plain);
  CHECK(fast.size() > 1000);
  CHECK(fast == slow);
  CHECK(with_kernels.steps == plain.steps);
  CHECK(with_kernels.rhs_evals == plain.rhs_evals);
}

TEST_CASE("the program uses a kernel where the widths fit and a virtual call elsewhere") {
  RunBuffers b;
  // Actor 0: an integrator of width 2 whose input is width 2; actor 1: a
  // scalar Gain reading a width-2 signal (does not fit: virtual call).
  Integrator x("x");
  Gain k("k");
  k.set_parameter("k", 2.0);
  ParameterScope scope;
  scope.resolve();
  x.resolve_parameters(scope);
  k.resolve_parameters(scope);
  b.actors = {ActorSlots{InputId{0}, OutputId{0}, StateSlice{StateIndex{0}, 2}, {}},
              ActorSlots{InputId{3}, OutputId{1}, {}, {}}};
  b.outputs = {SignalSlice{SignalIndex{0}, 2}, SignalSlice{SignalIndex{2}, 1}};
  b.inputs = {SignalSlice{SignalIndex{2}, 2}, SignalSlice{}, SignalSlice{},
              SignalSlice{SignalIndex{0}, 2}};  // x: in, reset, impulse; k: in
  const std::vector<const Actor*> actors{&x, &k};
  const std::vector<ActorId> depths{ActorId{0}, ActorId{1}};
  const RhsProgram outputs(RhsProgram::Part::kOutputs, depths, actors, b);
  const RhsProgram::Shape shape = outputs.shape();
  CHECK(shape.copies == 2);  // the integrator's two state elements
  CHECK(shape.scales == 0);  // in width 2, out width 1: the gain is called
  CHECK(shape.calls == std::vector<ActorId>{ActorId{1}});
  CHECK(shape.levels == 2);  // the gain reads the integrator's output
  const RhsProgram derivatives(RhsProgram::Part::kDerivatives, std::vector<ActorId>{ActorId{0}}, actors, b);
  CHECK(derivatives.shape().copies == 2);
  CHECK(derivatives.shape().calls.empty());

  // Running it: the state to the output, the input to the derivatives.
  b.signals = {0, 0, 7, 8};
  std::vector<double> x_values{1.5, -2.5};
  b.x = x_values.data();
  int virtual_calls = 0;
  outputs.run_outputs(b, [&](ActorId d) {
    CHECK(d == ActorId{1});
    ++virtual_calls;
  });
  CHECK(virtual_calls == 1);
  CHECK(b.signals[0] == 1.5);
  CHECK(b.signals[1] == -2.5);
  std::vector<double> dx(2, 0.0);
  derivatives.run_derivatives(b, dx.data(), [&](ActorId) { FAIL("no virtual call expected"); });
  CHECK(dx[0] == 7);
  CHECK(dx[1] == 8);
}

namespace {
/// y = 2 u, counting its evaluations.
class CountingDouble final : public Actor {
 public:
  CountingDouble(std::string name, int& calls)
      : Actor(std::move(name), "CountingDouble", TimeMode::kContinuous), calls_(calls) {
    in_ = declare_input("in", PortKind::kContinuous, 1);
    out_ = declare_output("out", PortKind::kContinuous, 1);
  }
  void evaluate(EvalContext& context) const override {
    ++calls_;
    context.output(out_)[0] = 2 * context.input(in_)[0];
  }

 private:
  InputPort in_;
  OutputPort out_;
  int& calls_;
};
}  // namespace

TEST_CASE("an output that no derivative reads is evaluated at rows and events, not in every RHS evaluation") {
  // x' = 1 - x; y = 2 x is only recorded. One read by the derivatives
  // (z' = y) is evaluated in every RHS evaluation.
  for (const bool read_by_derivatives : {false, true}) {
    CAPTURE(read_by_derivatives);
    int calls = 0;
    Model model("rows");
    model.add<Constant>("one").set_parameter("value", 1.0);
    model.add<Sum>("err").set_parameter("signs", std::string("+-"));
    model.add<Integrator>("x");
    model.add<CountingDouble>("y", calls);
    model.connect("one.out", "err.in0");
    model.connect("x.out", "err.in1");
    model.connect("err.out", "x.in");
    model.connect("x.out", "y.in");
    if (read_by_derivatives) {
      model.add<Integrator>("z");
      model.connect("y.out", "z.in");
    }
    model.record() = {"x.out", "y.out"};
    std::string csv;
    const RunResult result = run_recorded(model, 3, 0.1, csv);
    REQUIRE(result.status == RunStatus::kOk);
    // Every recorded y is 2 x of its row.
    std::istringstream rows(csv);
    std::string line;
    std::getline(rows, line);
    std::size_t n_rows = 0;
    while (std::getline(rows, line)) {
      std::istringstream cells(line);
      std::string t, n, x, y;
      std::getline(cells, t, ',');
      std::getline(cells, n, ',');
      std::getline(cells, x, ',');
      std::getline(cells, y, ',');
      CHECK(std::stod(y) == 2 * std::stod(x));
      ++n_rows;
    }
    if (read_by_derivatives) {
      CHECK(static_cast<std::uint64_t>(calls) >= result.stats.rhs_evals);
    } else {
      // A row each, and the step end again after a step's interval rows.
      CHECK(static_cast<std::uint64_t>(calls) <= n_rows + result.stats.steps + 2);
      CHECK(static_cast<std::uint64_t>(calls) < result.stats.rhs_evals);
    }
  }
}

TEST_CASE("the program runs in levels that keep every dependency of the schedule") {
  // x (an integrator, output at signal 0) feeds k1 (signal 1) and k3
  // (signal 3); k2 (signal 2) reads k1.
  Integrator x("x");
  Gain k1("k1");
  Gain k2("k2");
  Gain k3("k3");
  k1.set_parameter("k", 2.0);
  k2.set_parameter("k", 3.0);
  k3.set_parameter("k", -1.0);
  ParameterScope scope;
  scope.resolve();
  for (Actor* a : std::initializer_list<Actor*>{&x, &k1, &k2, &k3}) a->resolve_parameters(scope);
  RunBuffers b;
  b.actors = {ActorSlots{InputId{0}, OutputId{0}, StateSlice{StateIndex{0}, 1}, {}},
              ActorSlots{InputId{3}, OutputId{1}, {}, {}}, ActorSlots{InputId{4}, OutputId{2}, {}, {}},
              ActorSlots{InputId{5}, OutputId{3}, {}, {}}};
  b.outputs = {SignalSlice{SignalIndex{0}, 1}, SignalSlice{SignalIndex{1}, 1}, SignalSlice{SignalIndex{2}, 1},
               SignalSlice{SignalIndex{3}, 1}};
  b.inputs = {SignalSlice{},
              SignalSlice{},
              SignalSlice{},
              SignalSlice{SignalIndex{0}, 1},
              SignalSlice{SignalIndex{1}, 1},
              SignalSlice{SignalIndex{0}, 1}};  // x: 3 unconnected
  const std::vector<const Actor*> actors{&x, &k1, &k2, &k3};
  std::vector<double> state{1.5};
  b.x = state.data();

  SUBCASE("read after write: the schedule's order") {
    const RhsProgram program(RhsProgram::Part::kOutputs,
                             std::vector<ActorId>{ActorId{0}, ActorId{1}, ActorId{2}, ActorId{3}}, actors, b);
    CHECK(program.shape().levels == 3);  // x; k1 and k3; k2
    CHECK(program.shape().scales == 3);
    b.signals = {0, 0, 0, 0};
    program.run_outputs(b, [](ActorId) { FAIL("no virtual call expected"); });
    CHECK(b.signals == std::vector<double>{1.5, 3.0, 9.0, -1.5});
  }
  SUBCASE("write after read: a reader scheduled before the writer reads the value from before") {
    // k1 before x (as in a loop closed through x's state): k1 sees the old x.
    const RhsProgram program(RhsProgram::Part::kOutputs, std::vector<ActorId>{ActorId{1}, ActorId{0}}, actors,
                             b);
    CHECK(program.shape().levels == 2);
    b.signals = {5.0, 0, 0, 0};
    program.run_outputs(b, [](ActorId) {});
    CHECK(b.signals[1] == 10.0);
    CHECK(b.signals[0] == 1.5);
  }
}

namespace {
/// `prefix` followed by the number `i`.
std::string indexed(const char* prefix, int i) {
  std::string text = prefix;
  text += std::to_string(i);
  return text;
}

/// A line of `masses` unit masses between two walls, each tied to its
/// neighbours by springs 1 and dampers 0.1, the first driven by sin t: per
/// mass two integrators, two sums, two gains and one more sum (as
/// bench/ct's chain1000). Records every output but the drive's.
template <class I, class G, class S>
std::string run_chain(int masses) {
  Model model("chain");
  const auto name = [](const char* prefix, int i) { return indexed(prefix, i); };
  for (int i = 0; i < masses; ++i) {
    model.add<I>(name("p", i));
    model.add<I>(name("v", i)).set_parameter("initial", 0.1 * i);
    std::string signs = "--";
    if (i > 0) signs += "+";
    if (i + 1 < masses) signs += "+";
    model.add<S>(name("ps", i)).set_parameter("signs", signs);
    model.add<S>(name("vs", i)).set_parameter("signs", signs);
    model.add<G>(name("k", i)).set_parameter("k", 1.0);
    model.add<G>(name("c", i)).set_parameter("k", 0.1);
    model.add<S>(name("a", i)).set_parameter("signs", std::string(i == 0 ? "+++" : "++"));
  }
  model.add<Sine>("drive");
  for (int i = 0; i < masses; ++i) {
    for (const char* kind : {"p", "v"}) {
      const std::string sum = name((std::string(kind) + "s").c_str(), i);
      const std::string self = name(kind, i);
      model.connect(self + ".out", sum + ".in0");
      model.connect(self + ".out", sum + ".in1");
      int next = 2;
      if (i > 0) model.connect(name(kind, i - 1) + ".out", sum + ".in" + std::to_string(next++));
      if (i + 1 < masses) model.connect(name(kind, i + 1) + ".out", sum + ".in" + std::to_string(next));
    }
    model.connect(name("ps", i) + ".out", name("k", i) + ".in");
    model.connect(name("vs", i) + ".out", name("c", i) + ".in");
    model.connect(name("k", i) + ".out", name("a", i) + ".in0");
    model.connect(name("c", i) + ".out", name("a", i) + ".in1");
    if (i == 0) model.connect("drive.out", "a0.in2");
    model.connect(name("a", i) + ".out", name("v", i) + ".in");
    model.connect(name("v", i) + ".out", name("p", i) + ".in");
  }
  for (const char* kind : {"p", "v", "ps", "vs", "k", "c", "a"}) {
    for (int i = 0; i < masses; ++i) model.record().push_back(name(kind, i) + ".out");
  }
  std::string csv;
  const RunResult result = run_recorded(model, 10, 0.5, csv);
  REQUIRE(result.status == RunStatus::kOk);
  return csv;
}
}  // namespace

TEST_CASE(
    "a network of repeated actors, run as merged kernels, gives the results of their virtual calls, bit for "
    "bit") {
  const std::string fast = run_chain<Integrator, Gain, Sum>(12);
  const std::string slow = run_chain<PlainIntegrator, PlainGain, PlainSum>(12);
  CHECK(fast.size() > 10000);
  CHECK(fast == slow);
}

TEST_CASE("operations whose indices step evenly merge into runs, strided or contiguous") {
  // x0..x4: integrators (states 0..4, signals 0..4); g_i = k_i x_(4-i)
  // (signals 5..9: read backwards); s_i = g_i - x0 for i < 4, s4 = -g4 + x0
  // (signals 10..14: x0 read by all; s4's other weights end the run);
  // x_i' = s_i.
  constexpr std::uint32_t kN = 5;
  std::vector<std::unique_ptr<Actor>> owned;
  for (std::uint32_t i = 0; i < kN; ++i)
    owned.push_back(std::make_unique<Integrator>(indexed("x", static_cast<int>(i))));
  const std::array<double, kN> gains{2.0, 3.0, -1.0, 0.5, 4.0};
  for (std::uint32_t i = 0; i < kN; ++i) {
    owned.push_back(std::make_unique<Gain>(indexed("g", static_cast<int>(i))));
    owned.back()->set_parameter("k", gains[i]);
  }
  for (std::uint32_t i = 0; i < kN; ++i) {
    owned.push_back(std::make_unique<Sum>(indexed("s", static_cast<int>(i))));
    owned.back()->set_parameter("signs", std::string(i + 1 < kN ? "+-" : "-+"));
  }
  ParameterScope scope;
  scope.resolve();
  std::vector<const Actor*> actors;
  for (const auto& a : owned) {
    a->resolve_parameters(scope);
    actors.push_back(a.get());
  }
  RunBuffers b;
  // Inputs: each integrator's in, reset, impulse (0..14); the gains' (15..19);
  // the sums' two each (20..29).
  const auto sig = [](std::uint32_t i) { return SignalSlice{SignalIndex{i}, 1}; };
  for (std::uint32_t i = 0; i < kN; ++i) {
    b.actors.push_back(ActorSlots{InputId{3 * i}, OutputId{i}, StateSlice{StateIndex{i}, 1}, {}});
    b.inputs.insert(b.inputs.end(), {sig(2 * kN + i), {}, {}});
  }
  for (std::uint32_t i = 0; i < kN; ++i) {
    b.actors.push_back(ActorSlots{InputId{3 * kN + i}, OutputId{kN + i}, {}, {}});
    b.inputs.push_back(sig(kN - 1 - i));
  }
  for (std::uint32_t i = 0; i < kN; ++i) {
    b.actors.push_back(ActorSlots{InputId{4 * kN + 2 * i}, OutputId{2 * kN + i}, {}, {}});
    b.inputs.insert(b.inputs.end(), {sig(kN + i), sig(0)});
  }
  for (std::uint32_t o = 0; o < 3 * kN; ++o) b.outputs.push_back(sig(o));
  std::vector<ActorId> depths;
  for (std::uint32_t d = 0; d < 3 * kN; ++d) depths.push_back(ActorId{d});
  const RhsProgram outputs(RhsProgram::Part::kOutputs, depths, actors, b);
  const RhsProgram::Shape shape = outputs.shape();
  CHECK(shape.levels == 3);
  CHECK(shape.copies == kN);
  CHECK(shape.scales == kN);
  CHECK(shape.sums == kN);
  CHECK(shape.runs == 4);  // the copies, the scales, s0..s3, s4
  CHECK(shape.calls.empty());
  const std::vector<ActorId> stateful(depths.begin(), depths.begin() + kN);
  const RhsProgram derivatives(RhsProgram::Part::kDerivatives, stateful, actors, b);
  CHECK(derivatives.shape().copies == kN);
  CHECK(derivatives.shape().runs == 1);

  std::vector<double> state{1.5, -2.0, 0.25, 4.0, -0.5};
  b.x = state.data();
  b.signals.assign(3 * kN, 0.0);
  outputs.run_outputs(b, [](ActorId) { FAIL("no virtual call expected"); });
  const std::vector<double> sums{-2.5, 10.5, -1.75, -2.5, -4.5};
  std::vector<double> expected = state;
  expected.insert(expected.end(), {-1.0, 12.0, -0.25, -1.0, 6.0});
  expected.insert(expected.end(), sums.begin(), sums.end());
  CHECK(b.signals == expected);
  std::vector<double> dx(kN, 0.0);
  derivatives.run_derivatives(b, dx.data(), [](ActorId) { FAIL("no virtual call expected"); });
  CHECK(dx == sums);

  SUBCASE("fewer operations than a run's minimum stay single") {
    const std::vector<ActorId> three(depths.begin(), depths.begin() + 3);
    const RhsProgram short_outputs(RhsProgram::Part::kOutputs, three, actors, b);
    CHECK(short_outputs.shape().copies == 3);
    CHECK(short_outputs.shape().runs == 3);
  }
}
