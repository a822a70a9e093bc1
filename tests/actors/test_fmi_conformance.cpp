// FMI import against test FMUs as strict as real ones (tests/fmi/: the
// runtimes refuse every call the FMI state machine forbids, reading the
// variables' causality and variability from their own modelDescription.xml):
// discrete inputs of every type in Model Exchange and Co-Simulation, inputs
// set in Initialization Mode, the event iteration, one instance per
// process, the communication points, and the resource URI.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "actors/fmi/fmi2_instance.hpp"
#include "actors/fmi/fmi2_library.hpp"
#include "actors/fmi/fmu_archive.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "support/cli_helpers.hpp"
#include "support/closed_forms.hpp"
#include "support/fmi_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;
namespace fs = std::filesystem;

namespace {

/// The token sources of the discrete inputs: DiscreteClocks sending each
/// value once, at 0.05, 0.15 and 0.25 s (between communication points of 0.1).
const char* const kDiscreteSources = R"(,
    {"name": "r", "type": "DiscreteClock", "params": {"period": "inf", "offsets": [0.05, 0.15, 0.25], "values": [0.5, -1.25, 2]}},
    {"name": "i", "type": "DiscreteClock", "params": {"period": "inf", "offsets": [0.05, 0.15, 0.25], "values": [3, -7, 12]}},
    {"name": "b", "type": "DiscreteClock", "params": {"period": "inf", "offsets": [0.05, 0.15, 0.25], "values": [1, 0, 1]}},
    {"name": "e", "type": "DiscreteClock", "params": {"period": "inf", "offsets": [0.05, 0.15, 0.25], "values": [2, 3, 1]}},
    {"name": "t", "type": "Ramp", "params": {"slope": 2}})";

/// Each source to its input (FMI 3's Enumeration is an Int64).
const char* const kDiscreteWiring =
    R"(["t.out", "a.u"], ["r.out", "a.r_in"], ["i.out", "a.i_in"], ["b.out", "a.b_in"], ["e.out", "a.e_in"])";

/// The value each discrete input holds at time t (start values before 0.05).
double held(double t, double start, const std::vector<double>& values) {
  const double times[] = {0.05, 0.15, 0.25};
  double value = start;
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (t > times[k] + 1e-12) value = values[k];
  }
  return value;
}

/// A temporary folder whose name needs percent-encoding in a URI.
struct TmpDir {
  explicit TmpDir(const fs::path& folder)
      : old(std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "") {
    fs::create_directories(folder);
    setenv("TMPDIR", folder.c_str(), 1);
  }
  ~TmpDir() {
    if (old.empty()) {
      unsetenv("TMPDIR");
    } else {
      setenv("TMPDIR", old.c_str(), 1);
    }
  }
  TmpDir(const TmpDir&) = delete;
  TmpDir& operator=(const TmpDir&) = delete;
  TmpDir(TmpDir&&) = delete;
  TmpDir& operator=(TmpDir&&) = delete;
  std::string old;
};

}  // namespace

TEST_CASE("discrete inputs of every type are set at events in Model Exchange and equal the outputs") {
  for (const std::string name : {"discrete_inputs", "discrete_inputs3"}) {
    CAPTURE(name);
    const auto run = run_model(fmu_model(name, "", R"("stop_time": 0.4, "output_interval": 0.02)",
                                         R"("a.y", "a.r_out", "a.i_out", "a.b_out", "a.e_out")",
                                         kDiscreteSources, kDiscreteWiring));
    REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
    std::size_t checked = 0;
    for (const auto& row : run.rows) {
      CAPTURE(row.t);
      CAPTURE(row.n);
      CHECK(row.values[0] == doctest::Approx(2 * row.t).epsilon(1e-12));
      // A token sent at (0.05, 0) fires the FMU at (0.05, 1): the row of
      // microstep 0 shows the left side, the later ones the right side.
      const double t = row.n == 0 ? row.t - 1e-9 : row.t + 1e-9;
      CHECK(row.values[1] == held(t, 0, {0.5, -1.25, 2}));
      CHECK(row.values[2] == held(t, 0, {3, -7, 12}));
      CHECK(row.values[3] == held(t, 0, {1, 0, 1}));
      CHECK(row.values[4] == held(t, 1, {2, 3, 1}));  // FMI 3: an Enumeration is an Int64
      ++checked;
    }
    CHECK(checked > 20);
  }
}

TEST_CASE("discrete inputs of every type are set at communication points in Co-Simulation") {
  for (const std::string name : {"discrete_inputs", "discrete_inputs3"}) {
    CAPTURE(name);
    const auto run = run_model(fmu_model(name, R"("interface": "co-simulation", "communication_step": 0.1)",
                                         R"("stop_time": 0.4)", "", kDiscreteSources, kDiscreteWiring));
    REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
    // The FMU computes its discrete outputs in fmi2DoStep, from the inputs
    // set at the previous point: at t_k they are the last tokens before t_{k-1}.
    const auto check = [&](const std::string& port, double start, const std::vector<double>& values) {
      const auto sent = events_of(run, "a", port);
      REQUIRE(sent.size() == 5);
      for (const auto& [t, value] : sent) {
        CAPTURE(port);
        CAPTURE(t);
        CHECK(value == (t < 0.05 ? start : held(t - 0.1, start, values)));
      }
    };
    check("r_out", 0, {0.5, -1.25, 2});
    check("i_out", 0, {3, -7, 12});
    check("b_out", 0, {1, 0, 1});
    check("e_out", 1, {2, 3, 1});
    for (const auto& [t, value] : events_of(run, "a", "y"))
      CHECK(value == doctest::Approx(2 * t).epsilon(1e-12));
  }
}

TEST_CASE("an integer input outside the range of an FMI Integer ends the run naming the input") {
  const auto run = run_model(fmu_model("discrete_inputs", "", R"("stop_time": 0.2)", "",
                                       R"(, {"name": "big", "type": "DiscreteClock",
                                             "params": {"period": "inf", "offsets": [0.1], "values": [3e10]}})",
                                       R"(["big.out", "a.i_in"])"));
  CHECK(run.result.status == RunStatus::kError);
  CHECK_MESSAGE(run.result.message.find("actor 'a' (FMU): input 'i_in' is 3e+10, outside the range of an FMI "
                                        "Integer (-2147483648..2147483647)") != std::string::npos,
                run.result.message);
}

TEST_CASE("connected inputs are set in Initialization Mode: a state initialized from an input") {
  // x' = -x, x(0) = x0: the input's value at the start, not its start value 0.
  for (const std::string name : {"init_input", "init_input3"}) {
    CAPTURE(name);
    const auto run = run_model(fmu_model(
        name, "", R"("stop_time": 1, "rtol": 1e-10, "atol": 1e-12)", R"("a.x")",
        R"(, {"name": "c", "type": "Constant", "params": {"value": 2.5}})", R"(["c.out", "a.x0"])"));
    REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
    for (const auto& row : run.rows)
      CHECK(row.values[0] == doctest::Approx(2.5 * std::exp(-row.t)).epsilon(1e-8));
    // Unconnected, x0 keeps its start value 0.
    const auto alone = run_model(fmu_model(name, "", R"("stop_time": 1)", R"("a.x")"));
    REQUIRE_MESSAGE(alone.result.status == RunStatus::kOk, alone.result.message);
    for (const auto& row : alone.rows) CHECK(row.values[0] == 0);
  }
  // A continuous driver gives its value at the start (1.5 + 2 sin 0); an FMU
  // driven by another FMU is initialized after it: b.x(0) = a.x(0).
  const auto chain = run_model(
      fmu_model("init_input", "", R"("stop_time": 1, "rtol": 1e-10, "atol": 1e-12)", R"("a.x", "b.x")",
                R"(, {"name": "b", "type": "FMU", "params": {"file": ")" + fmu("init_input") + R"("}},
                                            {"name": "s", "type": "Sine", "params": {"amplitude": 2, "bias": 1.5}})",
                R"(["a.x", "b.x0"], ["s.out", "a.x0"])"));
  REQUIRE_MESSAGE(chain.result.status == RunStatus::kOk, chain.result.message);
  for (const auto& row : chain.rows) {
    CHECK(row.values[0] == doctest::Approx(1.5 * std::exp(-row.t)).epsilon(1e-8));
    CHECK(row.values[1] == doctest::Approx(1.5 * std::exp(-row.t)).epsilon(1e-8));
  }
  // Co-Simulation too (the FMU's Euler substeps: 1e-3 relative).
  const auto cs = run_model(fmu_model(
      "init_input", R"("interface": "co-simulation", "communication_step": 0.1)", R"("stop_time": 1)", "",
      R"(, {"name": "c", "type": "Constant", "params": {"value": 2.5}})", R"(["c.out", "a.x0"])"));
  REQUIRE_MESSAGE(cs.result.status == RunStatus::kOk, cs.result.message);
  const auto sent = events_of(cs, "a", "x");
  REQUIRE(sent.size() == 11);
  CHECK(sent.front().second == 2.5);
  for (const auto& [t, x] : sent) CHECK(x == doctest::Approx(2.5 * std::exp(-t)).epsilon(1e-3));
}

TEST_CASE(
    "an event that needs k passes of the event iteration gets them; one that never settles is an error") {
  for (const std::string name : {"iterate", "iterate3"}) {
    CAPTURE(name);
    for (const int passes : {1, 3, 7}) {
      CAPTURE(passes);
      const auto run = run_model(fmu_model(name, R"("start": {"passes": )" + std::to_string(passes) + "}",
                                           R"("stop_time": 1)", R"("a.count", "a.events")"));
      REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
      CHECK(run.rows.back().values[0] == passes);
      CHECK(run.rows.back().values[1] == 1);
    }
    const auto never =
        run_model(fmu_model(name, R"("start": {"passes": -1})", R"("stop_time": 1)", R"("a.count")"));
    CHECK(never.result.status == RunStatus::kError);
    const std::string call = name == "iterate" ? "fmi2NewDiscreteStates" : "fmi3UpdateDiscreteStates";
    CHECK_MESSAGE(
        never.result.message.find("actor 'a' (FMU): the event iteration did not converge in 1000 calls of " +
                                  call) != std::string::npos,
        never.result.message);
  }
}

TEST_CASE(
    "the bouncing ball with the strict runtime: impacts within 1e-9 s of the closed form, FMI 2 and 3") {
  for (const std::string name : {"ball", "ball3"}) {
    CAPTURE(name);
    const auto run =
        run_model(fmu_model(name, R"("start": {"e": 0.7, "h": 1.5})",
                            R"("stop_time": 2.9, "rtol": 1e-10, "atol": 1e-12)", R"("a.h", "a.v")"));
    REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
    const std::vector<double> expected = impact_times(1.5, 9.81, 0.7, 2.9);
    const std::vector<double> impacts = reset_times(run, "a");
    REQUIRE(impacts.size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
      CAPTURE(k);
      CHECK(std::fabs(impacts[k] - expected[k]) < 1e-9);
    }
  }
}

TEST_CASE("the strict runtime refuses what FMI forbids, as a real FMU does") {
  SUBCASE("states set in Event Mode") {
    OneInstance d("ball", true, false);
    Fmi2Instance& fmu = *d.instance;
    const auto& f = fmu.f();
    REQUIRE(f.setup_experiment(fmu.component(), 0, 0, 0, 0, 0) == fmi2::Status::kOK);
    REQUIRE(f.enter_initialization_mode(fmu.component()) == fmi2::Status::kOK);
    REQUIRE(f.exit_initialization_mode(fmu.component()) == fmi2::Status::kOK);  // now in Event Mode
    const double x[2] = {1, 0};
    CHECK(f.set_continuous_states(fmu.component(), x, 2) == fmi2::Status::kError);
    CHECK(fmu.last_message().find("fmi2SetContinuousStates") != std::string::npos);
    CHECK(fmu.last_message().find("Event Mode") != std::string::npos);
  }
  SUBCASE("a discrete input set in Continuous-Time Mode") {
    OneInstance d("discrete_inputs", true, false);
    Fmi2Instance& fmu = *d.instance;
    const auto& f = fmu.f();
    enter_continuous_time(fmu);
    const unsigned int u = 0;  // the continuous Real input: allowed
    const double value = 1;
    CHECK(f.set_real(fmu.component(), &u, 1, &value) == fmi2::Status::kOK);
    const unsigned int i_in = 0;  // the discrete Integer input: refused
    const int three = 3;
    CHECK(f.set_integer(fmu.component(), &i_in, 1, &three) == fmi2::Status::kError);
    CHECK(fmu.last_message().find("i_in") != std::string::npos);
  }
  SUBCASE("a co-simulation step from the wrong communication point") {
    OneInstance d("feedthrough", false, false);
    Fmi2Instance& fmu = *d.instance;
    const auto& f = fmu.f();
    REQUIRE(f.setup_experiment(fmu.component(), 0, 0, 0, 0, 0) == fmi2::Status::kOK);
    REQUIRE(f.enter_initialization_mode(fmu.component()) == fmi2::Status::kOK);
    REQUIRE(f.exit_initialization_mode(fmu.component()) == fmi2::Status::kOK);
    CHECK(f.do_step(fmu.component(), 0.0, 0.1, 1) == fmi2::Status::kOK);
    CHECK(f.do_step(fmu.component(), 0.3, 0.1, 1) == fmi2::Status::kError);  // the FMU is at 0.1
    CHECK(fmu.last_message().find("0.3") != std::string::npos);
  }
  SUBCASE("a second live instance of an FMU that allows one per process") {
    OneInstance d("once", true, false);
    // ctde refuses it before calling (once_per_process) ...
    CHECK_THROWS_WITH_AS(
        Fmi2Instance(d.library, "j", fmi2::Type::kModelExchange, d.guid, d.uri, true, "second"),
        doctest::Contains("can be instantiated only once per process"), RunError);
    // ... and so does the FMU itself when asked.
    CHECK_THROWS_WITH_AS(
        Fmi2Instance(d.library, "j", fmi2::Type::kModelExchange, d.guid, d.uri, false, "second"),
        doctest::Contains("fmi2Instantiate failed"), RunError);
  }
}

TEST_CASE("ctde checks each call against the mode table before making it") {
  OneInstance d("ball", true, false);
  Fmi2Instance& fmu = *d.instance;
  CHECK(fmu.mode() == FmiMode::kInstantiated);
  fmu.call(FmiCall::kSetupExperiment,
           [&] { return fmu.f().setup_experiment(fmu.component(), 0, 0, 0, 0, 0); });
  bool called = false;
  CHECK_THROWS_WITH_AS(
      fmu.call(FmiCall::kSetContinuousStates,
               [&] {
                 called = true;
                 return fmi2::Status::kOK;
               }),
      doctest::Contains("ctde called fmi2SetContinuousStates in Instantiated, which FMI 2.0 does "
                        "not allow"),
      std::logic_error);
  CHECK_FALSE(called);
  fmu.call(FmiCall::kEnterInitializationMode,
           [&] { return fmu.f().enter_initialization_mode(fmu.component()); });
  CHECK(fmu.mode() == FmiMode::kInitialization);
  fmu.call(FmiCall::kExitInitializationMode,
           [&] { return fmu.f().exit_initialization_mode(fmu.component()); });
  CHECK(fmu.mode() == FmiMode::kEvent);
}

TEST_CASE(
    "the resource location is percent-encoded: an FMU under a folder named 'a b%41' finds its description") {
  const fs::path folder = scratch_file("ctde_fmi_conformance_test", "a b%41");
  const TmpDir tmp(folder);
  // The strict runtime reads its modelDescription.xml through the resource URI it is given.
  for (const std::string name : {"ball", "ball3"}) {
    const auto run = run_model(fmu_model(name, "", R"("stop_time": 0.1)", R"("a.h")"));
    CHECK_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  }
}

TEST_CASE("the van der Pol FMU agrees with a high-accuracy solution to 1e-8, FMI 2") {
  // The reference: the same ODE as a native network, at tolerances a thousand times tighter.
  const auto reference = run_model(R"({"ctde": 1, "name": "vdp", "parameters": {"mu": 1.5},
    "director": {"stop_time": 5, "rtol": 1e-13, "atol": 1e-15, "output_interval": 0.25}, "actors": [
      {"name": "x0", "type": "Integrator", "params": {"initial": 2}},
      {"name": "x1", "type": "Integrator", "params": {"initial": 0}},
      {"name": "f", "type": "Expression", "params": {"expr": "mu * (1 - in0 * in0) * in1 - in0", "inputs": 2}}],
    "connections": [["x1.out", "x0.in"], ["x0.out", "f.in0"], ["x1.out", "f.in1"], ["f.out", "x1.in"]],
    "record": ["x0.out", "x1.out"]})");
  REQUIRE_MESSAGE(reference.result.status == RunStatus::kOk, reference.result.message);
  const auto run = run_model(fmu_model(
      "van_der_pol", R"("start": {"mu": 1.5})",
      R"("stop_time": 5, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.25)", R"("a.x0", "a.x1")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  // The rows of the output_interval grid (the step ends differ between the two runs).
  const auto grid = [](const Run& r) {
    std::vector<Row> rows;
    for (const Row& row : r.rows) {
      const bool on_grid = std::fabs(row.t - 0.25 * std::round(row.t / 0.25)) < 1e-12;
      if (on_grid && (rows.empty() || rows.back().t != row.t))
        rows.push_back(row);  // a step end may repeat one
    }
    return rows;
  };
  const std::vector<Row> mine = grid(run);
  const std::vector<Row> theirs = grid(reference);
  REQUIRE(mine.size() == 21);
  REQUIRE(theirs.size() == 21);
  double worst = 0;
  for (std::size_t r = 0; r < mine.size(); ++r) {
    CHECK(mine[r].t == theirs[r].t);
    for (std::size_t c = 0; c < 2; ++c)
      worst = std::max(worst, std::fabs(mine[r].values[c] - theirs[r].values[c]));
  }
  CHECK(worst < 1e-8);
  CHECK(worst > 0);  // two different runs: not the same numbers by construction
}

TEST_CASE("an FMU integrates under bdf and auto, its Jacobian by finite differences over its structure") {
  const auto run = [](const std::string& solver) {
    return run_model(fmu_model(
        "van_der_pol", R"("start": {"mu": 1.5})",
        R"("stop_time": 5, "rtol": 1e-9, "atol": 1e-11, "output_interval": 0.5, "solver": ")" + solver + "\"",
        R"("a.x0", "a.x1")"));
  };
  const auto reference = run("erk45");
  REQUIRE_MESSAGE(reference.result.status == RunStatus::kOk, reference.result.message);
  for (const std::string solver : {"bdf", "auto", "dirk"}) {
    CAPTURE(solver);
    const auto other = run(solver);
    REQUIRE_MESSAGE(other.result.status == RunStatus::kOk, other.result.message);
    CHECK(std::fabs(other.rows.back().values[0] - reference.rows.back().values[0]) < 1e-6);
    CHECK(std::fabs(other.rows.back().values[1] - reference.rows.back().values[1]) < 1e-6);
  }
}

namespace {

/// Each FMI 3 integer type's input gets three tokens (at 0.05, 0.15, 0.25 s)
/// spanning its range, Float32 a ramp.
struct TypedInput {
  const char* port;
  std::vector<double> values;
};
const std::vector<TypedInput> kTypedInputs{
    {"i8", {-128, 127, -5}},
    {"u8", {255, 0, 7}},
    {"i16", {-32768, 32767, 12}},
    {"u16", {65535, 0, 1}},
    {"u32", {4294967295.0, 0, 65536}},
    {"i64", {-9007199254740992.0, 9007199254740992.0, -1}},
    {"u64", {9007199254740992.0, 0, 18446744073709549568.0}},
};

std::string typed_model(const std::string& params) {
  std::string actors = R"(, {"name": "t", "type": "Ramp", "params": {"slope": 0.1}})";
  std::string wiring = R"(["t.out", "a.f32_in"])";
  std::string record = R"("a.f32_out")";
  for (const auto& [port, values] : kTypedInputs) {
    std::string list;
    for (const double v : values) list += (list.empty() ? "" : ", ") + format_double(v);
    actors += std::string(R"(, {"name": ")") + port +
              R"(", "type": "DiscreteClock", "params": {"period": "inf",
        "offsets": [0.05, 0.15, 0.25], "values": [)" +
              list + "]}}";
    wiring += std::string(R"(, [")") + port + R"(.out", "a.)" + port + R"(_in"])";
    record += std::string(R"(, "a.)") + port + R"(_out")";
  }
  return fmu_model("all_types3", params, R"("stop_time": 0.4, "output_interval": 0.1)", record, actors,
                   wiring);
}

}  // namespace

TEST_CASE("every FMI 3 numeric type goes through its own Get and Set, extremes of its range included") {
  const auto run = run_model(typed_model(""));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    CAPTURE(row.n);
    // Float32: the ramp rounded to float.
    CHECK(row.values[0] == static_cast<double>(static_cast<float>(0.1 * row.t)));
    const double t = row.n == 0 ? row.t - 1e-9 : row.t + 1e-9;
    for (std::size_t k = 0; k < kTypedInputs.size(); ++k) {
      CAPTURE(kTypedInputs[k].port);
      CHECK(row.values[k + 1] == held(t, 0, kTypedInputs[k].values));
    }
  }
  // Co-Simulation: the same values at the communication points after the tokens.
  const auto cs = run_model(typed_model(R"("interface": "co-simulation", "communication_step": 0.1)"));
  REQUIRE_MESSAGE(cs.result.status == RunStatus::kOk, cs.result.message);
  for (const auto& [port, values] : kTypedInputs) {
    const auto sent = events_of(cs, "a", std::string(port) + "_out");
    REQUIRE(sent.size() == 5);
    for (const auto& [t, value] : sent) CHECK(value == held(t, 0, values));
  }
}

TEST_CASE("a value outside an FMI 3 type's range ends the run naming the input and the range") {
  const auto out_of_range = [](const std::string& port, double value) {
    return run_model(fmu_model("all_types3", "", R"("stop_time": 0.2)", "",
                               R"(, {"name": "s", "type": "DiscreteClock",
                                     "params": {"period": "inf", "offsets": [0.1], "values": [)" +
                                   format_double(value) + "]}}",
                               R"(["s.out", "a.)" + port + R"("])"));
  };
  const auto u8 = out_of_range("u8_in", 256);
  CHECK(u8.result.status == RunStatus::kError);
  CHECK_MESSAGE(u8.result.message.find("input 'u8_in' is 256, outside the range of an FMI UInt8 (0..255)") !=
                    std::string::npos,
                u8.result.message);
  const auto i8 = out_of_range("i8_in", -129);
  CHECK(i8.result.message.find("outside the range of an FMI Int8 (-128..127)") != std::string::npos);
  const auto u64 = out_of_range("u64_in", -1);
  CHECK(u64.result.message.find("outside the range of an FMI UInt64") != std::string::npos);
  // Float32 is a continuous input: a constant, set in Initialization Mode.
  const auto f32 = run_model(fmu_model("all_types3", "", R"("stop_time": 0.2)", "",
                                       R"(, {"name": "s", "type": "Constant", "params": {"value": 1e39}})",
                                       R"(["s.out", "a.f32_in"])"));
  CHECK(f32.result.status == RunStatus::kError);
  CHECK_MESSAGE(f32.result.message.find("input 'f32_in' is 1e+39, outside the range of an FMI Float32") !=
                    std::string::npos,
                f32.result.message);
  // 127.4 rounds to 127: in range.
  CHECK(out_of_range("i8_in", 127.4).result.status == RunStatus::kOk);
}

TEST_CASE("String and Binary variables take start values; a String output has no port") {
  const auto run = run_model(fmu_model("all_types3", R"("start": {"label": "pump 3", "blob": "0a0bff"})",
                                       R"("stop_time": 0.1)", R"("a.label_length", "a.blob_sum")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  CHECK(run.rows.back().values[0] == 6);
  CHECK(run.rows.back().values[1] == 10 + 11 + 255);
  // The description's own start values when none is given: "none", 0x0A 0x0B.
  const auto defaults =
      run_model(fmu_model("all_types3", "", R"("stop_time": 0.1)", R"("a.label_length", "a.blob_sum")"));
  CHECK(defaults.rows.back().values[0] == 4);
  CHECK(defaults.rows.back().values[1] == 21);
  // FMI 2: fmi2SetString.
  const auto two = run_model(
      fmu_model("all_types", R"("start": {"label": "hello"})", R"("stop_time": 0.1)", R"("a.label_length")"));
  REQUIRE_MESSAGE(two.result.status == RunStatus::kOk, two.result.message);
  CHECK(two.rows.back().values[0] == 5);
  // Wrong kinds of start values, and a connection to the String output.
  CHECK(model_file_error(fmu_model("all_types3", R"("start": {"label": 3})", R"("stop_time": 1)", ""))
            .find("the start value of String variable 'label' must be a string") != std::string::npos);
  CHECK(model_file_error(fmu_model("all_types3", R"("start": {"blob": "0a0"})", R"("stop_time": 1)", ""))
            .find("must be an even number of hexadecimal digits, got \"0a0\"") != std::string::npos);
  CHECK(model_file_error(fmu_model("all_types3", R"("start": {"u8_in": 300})", R"("stop_time": 1)", ""))
            .find("the start value 300 of 'u8_in' is outside the range of an FMI UInt8 (0..255)") !=
        std::string::npos);
  const std::string message =
      model_file_error(fmu_model("all_types3", "", R"("stop_time": 1)", "",
                                 R"(, {"name": "g", "type": "Gain"})", R"(["a.label_out", "g.in"])"));
  CHECK_MESSAGE(
      message.find("actor 'a' (FMU): 'label_out' is an output of type String, which ctde's ports do not "
                   "carry") != std::string::npos,
      message);
}

TEST_CASE("an FMI 3 array state is a vector of states, an array input and output vector ports") {
  // x' = (x2, -x1, -0.5 k x3): x = (a cos t, -a sin t, e^(-k t / 2)) from x(0) = (a, 0, 1).
  const auto run = run_model(fmu_model(
      "array3", R"("start": {"x": [2, 0, 1], "k": 2})",
      R"("stop_time": 2, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.25)", R"("a.x", "a.y")",
      R"(, {"name": "c", "type": "Constant", "params": {"value": [1, -2, 3.5]}})", R"(["c.out", "a.u"])"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    CHECK(row.values[run.column("a.x[0]")] == doctest::Approx(2 * std::cos(row.t)).epsilon(1e-8));
    CHECK(row.values[run.column("a.x[1]")] == doctest::Approx(-2 * std::sin(row.t)).scale(1).epsilon(1e-8));
    CHECK(row.values[run.column("a.x[2]")] == doctest::Approx(std::exp(-row.t)).epsilon(1e-8));
    CHECK(row.values[run.column("a.y[0]")] == 2);
    CHECK(row.values[run.column("a.y[1]")] == -4);
    CHECK(row.values[run.column("a.y[2]")] == 7);
  }
  // The start value of an array needs every element.
  CHECK(model_file_error(fmu_model("array3", R"("start": {"x": [1, 2]})", R"("stop_time": 1)", ""))
            .find("the start value of 'x' has 2 elements; 'x' has 3") != std::string::npos);
  CHECK(model_file_error(fmu_model("array3", R"("start": {"x": 1})", R"("stop_time": 1)", ""))
            .find("must be an array of 3 numbers") != std::string::npos);
  // Co-Simulation: the FMU's own Euler substeps of 5 ms (x1 within 1e-2 of cos t).
  const auto cs = run_model(fmu_model(
      "array3", R"("interface": "co-simulation", "communication_step": 0.5)", R"("stop_time": 2)", "",
      R"(, {"name": "c", "type": "Constant", "params": {"value": [1, -2, 3.5]}})", R"(["c.out", "a.u"])"));
  REQUIRE_MESSAGE(cs.result.status == RunStatus::kOk, cs.result.message);
  int points = 0;
  for (const auto& line : cs.lines) {
    if (line["kind"] != "event" || line["actor"] != "a" || line["port"] != "x") continue;
    const double t = line["t"].get<double>();
    CHECK(line["value"].size() == 3);
    CHECK(line["value"][0].get<double>() == doctest::Approx(std::cos(t)).epsilon(1e-2));
    ++points;
  }
  CHECK(points == 5);
}
