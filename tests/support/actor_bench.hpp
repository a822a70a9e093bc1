#pragma once
// Actors called directly through hand-made contexts, with no director and no
// solver: a Bench lays out one configured actor's run buffers by hand, and a
// FakeDirector records what the actor asks of the director.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/actor.hpp"
#include "core/actor_context.hpp"
#include "core/param.hpp"

namespace ctde::test {

using Values = std::vector<double>;

inline constexpr Tick kSecond = 1'000'000'000'000;  // ticks per second at 1e-12 s

/// Records what the actor asks of the director.
class FakeDirector final : public DirectorServices {
 public:
  struct Emitted {
    std::uint32_t output = 0;
    Values token;
  };

  void emit(ActorId /*actor*/, OutputPort output, std::span<const double> token) override {
    emitted.push_back({static_cast<std::uint32_t>(output.index), Values(token.begin(), token.end())});
  }
  void fire_at(ActorId /*actor*/, Tick time) override { requested.push_back(time); }
  void request_stop(ActorId /*actor*/) override { stop_requested = true; }
  void states_changing(ActorId /*actor*/) override { ++states_changes; }
  void mode_changed(ActorId /*actor*/, std::string_view /*from*/, std::string_view /*via*/,
                    std::string_view /*to*/) override {}
  void trace_line(ActorId /*actor*/, std::string_view kind, std::span<const TraceField> fields) override {
    std::string line(kind);
    for (const TraceField& field : fields) {
      line += ' ';
      line.append(field.key).append("=").append(field.value);
    }
    traced.push_back(line);
  }
  [[nodiscard]] const TimeResolution& resolution() const override { return resolution_; }
  [[nodiscard]] Tick start_tick() const override { return start; }
  [[nodiscard]] Tick stop_tick() const override { return stop; }

  std::vector<Emitted> emitted;
  std::vector<Tick> requested;
  std::vector<std::string> traced;  ///< trace lines: "kind key=value..."
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
    b.actors.push_back(
        ActorSlots{InputId{0}, OutputId{0}, StateSlice{StateIndex{0}, state_count}, GuardSlice{}});
    std::uint32_t offset = 0;
    std::uint32_t widest = 1;
    for (const std::uint32_t w : output_widths) {
      b.outputs.push_back({SignalIndex{offset}, w});
      offset += w;
      widest = std::max(widest, w);
    }
    std::uint32_t token_offset = 0;
    for (const std::uint32_t w : input_widths) {
      b.inputs.push_back({SignalIndex{offset}, w});
      b.input_tokens.push_back({TokenIndex{token_offset}, w});
      offset += w;
      token_offset += w;
      widest = std::max(widest, w);
    }
    b.signals.assign(offset, 0.0);
    b.tokens_now.assign(token_offset, 0.0);
    b.present_now.assign(input_widths.size(), 0);
    b.input_flags.assign(input_widths.size(), 0);  // every input connected, continuous
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
    return {b, &director, ActorId{0}, Tag{tick, n}, director.resolution().to_seconds(tick), time_event};
  }
  /// An evaluation's context at `t` seconds, as the solver's evaluations see it.
  EvalContext at_seconds(double t) {
    return {b, &director, ActorId{0}, Tag{director.resolution().to_ticks(t), 0}, t};
  }

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
    EvalContext context(b, &director, ActorId{0}, fired.tag(), fired.time());
    actor_.evaluate(context);
  }
  /// A time event at (tick, n), as requested by fire_at.
  void time_event(Tick tick, std::uint32_t n = 0) { fire(tick, n, true); }

  void set_input(std::size_t i, const Values& value) {
    REQUIRE(value.size() == b.inputs[i].width);
    std::copy(value.begin(), value.end(), b.signals.data() + b.inputs[i].offset.index());
  }
  void give_token(std::size_t i, const Values& token) {
    REQUIRE(token.size() == b.input_tokens[i].width);
    std::copy(token.begin(), token.end(), b.tokens_now.data() + b.input_tokens[i].offset.index());
    b.present_now[i] = 1;
  }
  void set_states(const Values& x) {
    REQUIRE(x.size() == b.x_storage.size());
    std::copy(x.begin(), x.end(), b.x_storage.begin());
  }
  [[nodiscard]] Values out(std::size_t o = 0) const {
    const std::span<const double> s = b.outputs[o].in(b.signals.data());
    return {s.begin(), s.end()};
  }
  [[nodiscard]] Values states() const { return b.x_storage; }

  RunBuffers b;
  FakeDirector director;

 private:
  Actor& actor_;
};

inline void check_close(const Values& got, const Values& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == doctest::Approx(expected[i]).epsilon(1e-12));
  }
}

}  // namespace ctde::test
