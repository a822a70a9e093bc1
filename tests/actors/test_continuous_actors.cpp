// The continuous sources, the continuous actors and the converters, called
// directly through hand-made contexts: no director, no solver.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>
#include <vector>

#include "actors/continuous/integrator.hpp"
#include "actors/continuous/state_space.hpp"
#include "actors/continuous/transfer_function.hpp"
#include "actors/converters/first_order_hold.hpp"
#include "actors/converters/periodic_sampler.hpp"
#include "actors/converters/sampler.hpp"
#include "actors/converters/zero_order_hold.hpp"
#include "actors/sources/clock.hpp"
#include "actors/sources/ramp.hpp"
#include "actors/sources/sine.hpp"
#include "actors/sources/step.hpp"
#include "actors/sources/time_table.hpp"
#include "core/actor_context.hpp"
#include "core/param.hpp"

using namespace ctde;

namespace {

using Values = std::vector<double>;

constexpr Tick kSecond = 1'000'000'000'000;  // ticks per second at 1e-12 s

/// Records what the actor asks of the director.
class FakeDirector final : public DirectorServices {
 public:
  struct Emitted {
    std::uint32_t output = 0;
    Values token;
  };

  void emit(std::uint32_t /*actor*/, std::uint32_t output, std::span<const double> token) override {
    emitted.push_back({output, Values(token.begin(), token.end())});
  }
  void fire_at(std::uint32_t /*actor*/, Tick time) override { requested.push_back(time); }
  void request_stop(std::uint32_t /*actor*/) override { stop_requested = true; }
  void states_changing(std::uint32_t /*actor*/) override { ++states_changes; }
  void mode_changed(std::uint32_t /*actor*/, std::string_view /*from*/, std::string_view /*via*/,
                    std::string_view /*to*/) override {}
  [[nodiscard]] const TimeResolution& resolution() const override { return resolution_; }
  [[nodiscard]] Tick start_tick() const override { return start; }
  [[nodiscard]] Tick stop_tick() const override { return stop; }

  std::vector<Emitted> emitted;
  std::vector<Tick> requested;
  int states_changes = 0;
  bool stop_requested = false;
  Tick start = 0;
  Tick stop = 10 * kSecond;

 private:
  TimeResolution resolution_{1e-12};
};

/// One configured actor with its run buffers laid out by hand: outputs then
/// inputs in `signals`, one token slice per input, its continuous states.
/// Not copyable, not movable (the buffers point into themselves).
class Bench {
 public:
  Bench(Actor& actor, const std::vector<std::uint32_t>& input_widths,
        const std::vector<std::uint32_t>& output_widths)
      : actor_(actor) {
    ParameterScope scope;
    scope.resolve();
    actor.resolve_parameters(scope);
    const auto state_count = static_cast<std::uint32_t>(actor.state_size());
    b.actors.push_back(ActorSlots{0, 0, Slice{0, state_count}, Slice{}});
    std::uint32_t offset = 0;
    std::uint32_t widest = 1;
    for (const std::uint32_t w : output_widths) {
      b.outputs.push_back({offset, w});
      offset += w;
      widest = std::max(widest, w);
    }
    std::uint32_t token_offset = 0;
    for (const std::uint32_t w : input_widths) {
      b.inputs.push_back({offset, w});
      b.input_tokens.push_back({token_offset, w});
      offset += w;
      token_offset += w;
      widest = std::max(widest, w);
    }
    b.signals.assign(offset, 0.0);
    b.tokens_now.assign(token_offset, 0.0);
    b.present_now.assign(input_widths.size(), 0);
    b.states.push_back(nullptr);
    b.scratch.assign(widest, 0.0);
    b.x_storage.assign(state_count, 0.0);
    b.x = b.x_storage.data();
  }
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;
  Bench(Bench&&) = delete;
  Bench& operator=(Bench&&) = delete;
  ~Bench() = default;

  /// A firing's context at `tick`, microstep `n`.
  FireContext at(Tick tick, std::uint32_t n = 0, bool time_event = false) {
    return {b, &director, 0, Tag{tick, n}, director.resolution().to_seconds(tick), time_event};
  }
  /// An evaluation's context at `t` seconds, as the solver's evaluations see it.
  EvalContext at_seconds(double t) { return {b, &director, 0, Tag{director.resolution().to_ticks(t), 0}, t}; }

  /// initialize(), then (as the director does) the continuous outputs.
  void initialize() {
    b.states[0] = actor_.make_state();
    auto context = at(director.start);
    actor_.initialize(context);
    refresh(context);
  }
  Values evaluate(double t, std::size_t output = 0) {
    auto context = at_seconds(t);
    actor_.evaluate(context);
    return out(output);
  }
  Values derivatives(double t = 0.0) {
    Values dx(actor_.state_size(), 0.0);
    const auto context = at_seconds(t);
    actor_.derivatives(context, dx);
    return dx;
  }
  /// Fires at (tick, n); the tokens given before are delivered, then
  /// cleared. Then, as the director does, continuous outputs are evaluated
  /// again (an actor never refreshes its own outputs when it fires).
  void fire(Tick tick, std::uint32_t n = 0, bool time_event = false) {
    auto context = at(tick, n, time_event);
    actor_.fire(context);
    std::fill(b.present_now.begin(), b.present_now.end(), std::uint8_t{0});
    refresh(context);
  }
  /// The director's refresh of an actor's continuous outputs after it acts,
  /// at the tag of `fired`.
  void refresh(const FireContext& fired) {
    const auto& outputs = actor_.outputs();
    const auto continuous = [](const PortSpec& p) { return p.kind == PortKind::kContinuous; };
    if (!std::any_of(outputs.begin(), outputs.end(), continuous)) return;
    EvalContext context(b, &director, 0, fired.tag(), fired.time());
    actor_.evaluate(context);
  }
  /// A time event at (tick, n), as requested by fire_at.
  void time_event(Tick tick, std::uint32_t n = 0) { fire(tick, n, true); }

  void set_input(std::size_t i, const Values& value) {
    REQUIRE(value.size() == b.inputs[i].width);
    std::copy(value.begin(), value.end(), b.signals.begin() + b.inputs[i].offset);
  }
  void give_token(std::size_t i, const Values& token) {
    REQUIRE(token.size() == b.input_tokens[i].width);
    std::copy(token.begin(), token.end(), b.tokens_now.begin() + b.input_tokens[i].offset);
    b.present_now[i] = 1;
  }
  void set_states(const Values& x) {
    REQUIRE(x.size() == b.x_storage.size());
    std::copy(x.begin(), x.end(), b.x_storage.begin());
  }
  [[nodiscard]] Values out(std::size_t o = 0) const {
    const Slice s = b.outputs[o];
    return {b.signals.begin() + s.offset, b.signals.begin() + s.offset + s.width};
  }
  [[nodiscard]] Values states() const { return b.x_storage; }

  RunBuffers b;
  FakeDirector director;

 private:
  Actor& actor_;
};

void check_close(const Values& got, const Values& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == doctest::Approx(expected[i]).epsilon(1e-12));
  }
}

}  // namespace

// ---- continuous actors

TEST_CASE("Integrator: initial states, derivatives, reset then impulse") {
  Integrator integrator("x");
  integrator.set_parameter("initial", Values{1, 2});
  Bench bench(integrator, {2, 2, 2}, {2});
  CHECK(integrator.state_size() == 2);
  CHECK_FALSE(integrator.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{1, 2});
  CHECK(bench.out() == Values{1, 2});

  bench.set_input(0, {3, -4});
  CHECK(bench.derivatives() == Values{3, -4});

  bench.set_states({1.5, 2.5});  // as the solver moved them
  CHECK(bench.evaluate(0.5) == Values{1.5, 2.5});

  const int changes = bench.director.states_changes;
  bench.fire(kSecond);  // no token: nothing changes
  CHECK(bench.director.states_changes == changes);
  CHECK(bench.states() == Values{1.5, 2.5});

  bench.give_token(1, {10, 20});  // reset
  bench.give_token(2, {1, -1});   // impulse at the same tag: after the reset
  bench.fire(kSecond);
  CHECK(bench.director.states_changes == changes + 1);
  CHECK(bench.states() == Values{11, 19});
  CHECK(bench.out() == Values{11, 19});

  bench.give_token(2, {0.5, 0.5});
  bench.fire(kSecond, 1);
  CHECK(bench.states() == Values{11.5, 19.5});

  bench.give_token(1, {-3, 0});
  bench.fire(2 * kSecond);
  CHECK(bench.states() == Values{-3, 0});
  CHECK(bench.director.emitted.empty());
  CHECK(bench.director.requested.empty());
}

TEST_CASE("Integrator: a scalar initial value gives one state") {
  Integrator integrator("x");
  integrator.set_parameter("initial", 5.0);
  Bench bench(integrator, {1, 1, 1}, {1});
  CHECK(integrator.state_size() == 1);
  bench.initialize();
  CHECK(bench.states() == Values{5});
  bench.set_input(0, {-2});
  CHECK(bench.derivatives() == Values{-2});
}

TEST_CASE("StateSpace: outputs and derivatives of a 2-state system") {
  StateSpace ss("ss");
  ss.set_parameter("A", Matrix{2, 2, {0, 1, -2, -3}});
  ss.set_parameter("B", Matrix{2, 1, {0, 1}});
  ss.set_parameter("C", Matrix{1, 2, {1, 2}});
  ss.set_parameter("D", Matrix{1, 1, {0.5}});
  ss.set_parameter("initial", Values{1, -1});
  Bench bench(ss, {1}, {1});
  CHECK(ss.state_size() == 2);
  CHECK(ss.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{1, -1});
  bench.set_input(0, {4});
  // y = C x + D u = 1 - 2 + 2; x' = A x + B u = (-1, -2 + 3 + 4)
  check_close(bench.evaluate(0.0), {1});
  check_close(bench.derivatives(), {-1, 5});

  bench.set_states({0.5, 2});
  bench.set_input(0, {-2});
  check_close(bench.evaluate(0.1), {0.5 + 4 - 1});
  check_close(bench.derivatives(), {2, -1 - 6 - 2});
}

TEST_CASE("StateSpace: D = 0 (the scalar) means no feedthrough; initial broadcasts") {
  StateSpace ss("ss");
  ss.set_parameter("A", Matrix{2, 2, {-1, 0, 1, -2}});
  ss.set_parameter("B", Matrix{2, 2, {1, 0, 0, 3}});
  ss.set_parameter("C", Matrix{2, 2, {1, 0, 3, 4}});
  ss.set_parameter("initial", 2.0);
  Bench bench(ss, {2}, {2});
  CHECK_FALSE(ss.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{2, 2});
  // The input is not read by evaluate: a NaN there does not reach the output.
  bench.set_input(0, {std::nan(""), std::nan("")});
  check_close(bench.evaluate(0.0), {2, 14});
  bench.set_input(0, {1, -1});
  check_close(bench.derivatives(), {-2 + 1, 2 - 4 - 3});
}

TEST_CASE("TransferFunction: 1/(s^2 + 3s + 2) in controllable canonical form") {
  TransferFunction tf("tf");
  tf.set_parameter("num", Values{1});
  tf.set_parameter("den", Values{1, 3, 2});
  Bench bench(tf, {1}, {1});
  CHECK(tf.state_size() == 2);
  CHECK_FALSE(tf.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{0, 0});
  CHECK(bench.out() == Values{0});

  // x1 = z, x2 = z': x1' = x2, x2' = u - 2 x1 - 3 x2; y = x1.
  bench.set_states({0.5, -1});
  bench.set_input(0, {2});
  check_close(bench.derivatives(), {-1, 2 - 1 + 3});
  check_close(bench.evaluate(0.0), {0.5});
  // The steady state for u = 2 is x = (1, 0): y = H(0) u = 1.
  bench.set_states({1, 0});
  check_close(bench.derivatives(), {0, 0});
  check_close(bench.evaluate(0.0), {1});
}

TEST_CASE("TransferFunction: a proper one has a direct term; normalised by den[0]") {
  // (2s^2 + 3s + 6) / (2s^2 + 6s + 4) = 1 + (-1.5 s + 1) / (s^2 + 3s + 2)
  TransferFunction tf("tf");
  tf.set_parameter("num", Values{2, 3, 6});
  tf.set_parameter("den", Values{2, 6, 4});
  Bench bench(tf, {1}, {1});
  CHECK(tf.state_size() == 2);
  CHECK(tf.feeds_through(0));
  bench.initialize();
  bench.set_states({0.5, -1});
  bench.set_input(0, {2});
  check_close(bench.derivatives(), {-1, 4});
  check_close(bench.evaluate(0.0), {2 + 1.5 + 0.5});  // u - 1.5 x2 + x1
  // Steady state for u = 2: x = (1, 0), y = H(0) u = 1.5 * 2.
  bench.set_states({1, 0});
  check_close(bench.evaluate(0.0), {3});
}

TEST_CASE("TransferFunction: a first-order lag with leading zeros in num") {
  TransferFunction tf("tf");
  tf.set_parameter("num", Values{0, 0, 4});
  tf.set_parameter("den", Values{2, 1});  // 4 / (2s + 1) = 2 / (s + 0.5)
  Bench bench(tf, {1}, {1});
  CHECK(tf.state_size() == 1);
  CHECK_FALSE(tf.feeds_through(0));
  bench.initialize();
  bench.set_states({3});
  bench.set_input(0, {1});
  check_close(bench.derivatives(), {1 - 1.5});
  check_close(bench.evaluate(0.0), {6});
}

// ---- sources

TEST_CASE("Clock and Sine: values, no time events") {
  Clock clock("clock");
  Bench clock_bench(clock, {}, {1});
  clock_bench.initialize();
  CHECK(clock_bench.evaluate(2.5) == Values{2.5});
  CHECK(clock_bench.director.requested.empty());

  Sine sine("sine");
  sine.set_parameter("amplitude", 2.0);
  sine.set_parameter("frequency", 0.5);
  sine.set_parameter("phase", 0.25);
  sine.set_parameter("bias", 1.0);
  Bench sine_bench(sine, {}, {1});
  sine_bench.initialize();
  check_close(sine_bench.evaluate(0.3), {2 * std::sin(std::numbers::pi * 0.3 + 0.25) + 1});
  check_close(sine_bench.evaluate(0.0), {2 * std::sin(0.25) + 1});
  CHECK(sine_bench.director.requested.empty());
}

TEST_CASE("Step: before until its time event, after from it") {
  Step step("step");
  step.set_parameter("time", 1.5);
  step.set_parameter("before", 2.0);
  step.set_parameter("after", 5.0);
  Bench bench(step, {}, {1});
  bench.initialize();
  CHECK(bench.director.requested == std::vector<Tick>{kSecond * 3 / 2});
  CHECK(bench.out() == Values{2});
  CHECK(bench.evaluate(1.0) == Values{2});
  CHECK(bench.evaluate(1.5) == Values{2});  // the solver reaching the jump: still before
  bench.time_event(kSecond * 3 / 2);
  CHECK(bench.out() == Values{5});
  CHECK(bench.evaluate(1.5) == Values{5});
  CHECK(bench.evaluate(7.0) == Values{5});
  CHECK(bench.director.requested.size() == 1);
}

TEST_CASE("Step: a time before the start shows after from the start; at the start it jumps there") {
  {
    Step step("early");
    step.set_parameter("time", 1.0);
    Bench bench(step, {}, {1});
    bench.director.start = 2 * kSecond;
    bench.initialize();
    CHECK(bench.director.requested.empty());
    CHECK(bench.out() == Values{1});
    CHECK(bench.evaluate(2.0) == Values{1});
  }
  {
    Step step("at_start");
    step.set_parameter("time", 2.0);
    Bench bench(step, {}, {1});
    bench.director.start = 2 * kSecond;
    bench.initialize();
    CHECK(bench.director.requested == std::vector<Tick>{2 * kSecond});
    CHECK(bench.evaluate(2.0) == Values{0});
    bench.time_event(2 * kSecond);
    CHECK(bench.evaluate(2.0) == Values{1});
  }
  {
    Step step("late");
    step.set_parameter("time", 20.0);  // after the stop time: never
    Bench bench(step, {}, {1});
    bench.initialize();
    CHECK(bench.director.requested.empty());
    CHECK(bench.evaluate(9.0) == Values{0});
  }
}

TEST_CASE("Ramp: 0 until start_time, a time event at the kink, then slope * (t - start_time)") {
  Ramp ramp("ramp");
  ramp.set_parameter("slope", 2.0);
  ramp.set_parameter("start_time", 1.0);
  Bench bench(ramp, {}, {1});
  bench.initialize();
  CHECK(bench.director.requested == std::vector<Tick>{kSecond});
  CHECK(bench.out() == Values{0});
  CHECK(bench.evaluate(0.5) == Values{0});
  CHECK(bench.evaluate(1.0) == Values{0});
  bench.time_event(kSecond);
  CHECK(bench.out() == Values{0});
  check_close(bench.evaluate(3.0), {4});
  check_close(bench.evaluate(1.25), {0.5});

  Ramp early("early");
  early.set_parameter("slope", -1.0);
  early.set_parameter("start_time", 0.5);
  Bench early_bench(early, {}, {1});
  early_bench.director.start = kSecond;
  early_bench.initialize();
  CHECK(early_bench.director.requested.empty());
  check_close(early_bench.out(), {-0.5});
  check_close(early_bench.evaluate(2.0), {-1.5});
}

TEST_CASE("TimeTable: linear segments, and a jump as two time events at one tick") {
  TimeTable table("table");
  table.set_parameter("points", Matrix{5, 2, {0, 0, 1, 10, 2, 20, 2, -5, 3, 0}});
  Bench bench(table, {}, {1});
  bench.initialize();
  auto& requested = bench.director.requested;
  CHECK(requested == std::vector<Tick>{0});  // the point at the start
  CHECK(bench.out() == Values{0});

  bench.time_event(0);
  CHECK(requested.back() == kSecond);
  check_close(bench.evaluate(0.5), {5});
  CHECK(bench.evaluate(1.0) == Values{10});
  bench.time_event(kSecond);
  CHECK(requested.back() == 2 * kSecond);
  check_close(bench.evaluate(1.5), {15});

  // The jump at t = 2: the left value until both events have fired.
  CHECK(bench.evaluate(2.0) == Values{20});
  bench.time_event(2 * kSecond, 0);
  CHECK(requested.back() == 2 * kSecond);  // fire_at(now): the next microstep
  CHECK(requested.size() == 4);
  CHECK(bench.evaluate(2.0) == Values{20});
  bench.time_event(2 * kSecond, 1);
  CHECK(requested.back() == 3 * kSecond);
  CHECK(bench.evaluate(2.0) == Values{-5});
  check_close(bench.evaluate(2.5), {-2.5});

  bench.time_event(3 * kSecond);
  CHECK(requested == std::vector<Tick>{0, kSecond, 2 * kSecond, 2 * kSecond, 3 * kSecond});
  CHECK(bench.evaluate(3.0) == Values{0});
  CHECK(bench.evaluate(8.0) == Values{0});  // after the last point: the last value
}

TEST_CASE("TimeTable: hold interpolation, several columns, points before the start") {
  {
    TimeTable table("hold");
    table.set_parameter("points", Matrix{2, 3, {1, 7, 70, 2, 9, 90}});
    table.set_parameter("interpolation", "hold");
    Bench bench(table, {}, {2});
    bench.initialize();
    CHECK(bench.director.requested == std::vector<Tick>{kSecond});
    CHECK(bench.out() == Values{7, 70});  // before the first point: the first value
    bench.time_event(kSecond);
    CHECK(bench.evaluate(1.5) == Values{7, 70});
    CHECK(bench.evaluate(2.0) == Values{7, 70});
    bench.time_event(2 * kSecond);
    CHECK(bench.evaluate(2.0) == Values{9, 90});
    CHECK(bench.director.requested.size() == 2);
  }
  {
    TimeTable table("late_start");
    table.set_parameter("points", Matrix{3, 2, {0, 0, 1, 10, 2, 20}});
    Bench bench(table, {}, {1});
    bench.director.start = kSecond * 3 / 2;
    bench.initialize();
    CHECK(bench.director.requested == std::vector<Tick>{2 * kSecond});
    check_close(bench.out(), {15});
    check_close(bench.evaluate(1.75), {17.5});
  }
}

// ---- converters

TEST_CASE("ZeroOrderHold: initial (broadcast) until the first token, then the last token") {
  ZeroOrderHold zoh("zoh");
  zoh.set_parameter("initial", 3.0);
  Bench bench(zoh, {2}, {2});
  bench.initialize();
  CHECK(bench.out() == Values{3, 3});
  CHECK(bench.evaluate(0.5) == Values{3, 3});
  bench.give_token(0, {1, 2});
  bench.fire(kSecond);
  CHECK(bench.out() == Values{1, 2});
  CHECK(bench.evaluate(1.7) == Values{1, 2});
  bench.fire(2 * kSecond);  // no token: keeps holding
  CHECK(bench.evaluate(2.5) == Values{1, 2});
  bench.give_token(0, {-4, 8});
  bench.fire(3 * kSecond);
  CHECK(bench.evaluate(3.0) == Values{-4, 8});
}

TEST_CASE("FirstOrderHold: holds until two tokens, then extrapolates from the last two") {
  FirstOrderHold foh("foh");
  foh.set_parameter("initial", Values{0.5});
  Bench bench(foh, {1}, {1});
  bench.initialize();
  CHECK(bench.out() == Values{0.5});
  bench.give_token(0, {1});
  bench.fire(kSecond);
  CHECK(bench.out() == Values{1});
  CHECK(bench.evaluate(1.8) == Values{1});  // one token: hold
  bench.give_token(0, {3});
  bench.fire(2 * kSecond);
  check_close(bench.out(), {3});
  check_close(bench.evaluate(2.5), {4});
  check_close(bench.evaluate(3.0), {5});
  bench.give_token(0, {2});
  bench.fire(4 * kSecond);  // slope (2 - 3) / 2
  check_close(bench.evaluate(5.0), {1.5});
}

TEST_CASE("PeriodicSampler: exact ticks start + offset + k * period, emitting the input") {
  PeriodicSampler sampler("sampler");
  sampler.set_parameter("period", 0.25);
  sampler.set_parameter("offset", 0.1);
  Bench bench(sampler, {2}, {2});
  bench.director.start = kSecond;
  bench.director.stop = 2 * kSecond;
  bench.initialize();
  const Tick first = kSecond + kSecond / 10;
  const Tick period = kSecond / 4;
  auto& requested = bench.director.requested;
  CHECK(requested == std::vector<Tick>{first});

  bench.set_input(0, {2.5, -1});
  bench.time_event(first);
  REQUIRE(bench.director.emitted.size() == 1);
  CHECK(bench.director.emitted[0].output == 0);
  CHECK(bench.director.emitted[0].token == Values{2.5, -1});
  CHECK(requested.back() == first + period);

  bench.set_input(0, {7, 8});
  bench.time_event(first + period);
  CHECK(bench.director.emitted.back().token == Values{7, 8});
  bench.time_event(first + 2 * period);
  bench.time_event(first + 3 * period);  // 1.85 s; the next, 2.1 s, is after the stop
  CHECK(requested == std::vector<Tick>{first, first + period, first + 2 * period, first + 3 * period});
  CHECK(bench.director.emitted.size() == 4);

  bench.fire(first + 3 * period, 1);  // not a time event: nothing
  CHECK(bench.director.emitted.size() == 4);
}

TEST_CASE("PeriodicSampler: no drift over many periods") {
  PeriodicSampler sampler("sampler");
  sampler.set_parameter("period", 0.1);
  Bench bench(sampler, {1}, {1});
  bench.director.stop = 1000 * kSecond;
  bench.initialize();
  auto& requested = bench.director.requested;
  for (int k = 0; k < 5000; ++k) bench.time_event(requested.back());
  REQUIRE(requested.size() == 5001);
  for (std::size_t k = 0; k < requested.size(); ++k) {
    CAPTURE(k);
    CHECK(requested[k] == static_cast<Tick>(k) * (kSecond / 10));
  }
}

TEST_CASE("Sampler: emits the input on each trigger token") {
  Sampler sampler("sampler");
  Bench bench(sampler, {2, 1}, {2});
  bench.initialize();
  bench.set_input(0, {4, 5});
  bench.fire(kSecond);  // no trigger
  CHECK(bench.director.emitted.empty());
  bench.give_token(1, {1});
  bench.fire(kSecond, 1);
  REQUIRE(bench.director.emitted.size() == 1);
  CHECK(bench.director.emitted[0].output == 0);
  CHECK(bench.director.emitted[0].token == Values{4, 5});
  bench.set_input(0, {-1, 0.5});
  bench.give_token(1, {0});
  bench.fire(2 * kSecond);
  CHECK(bench.director.emitted.back().token == Values{-1, 0.5});
  CHECK(bench.director.requested.empty());
}
