#pragma once
/// What an actor sees of a run, in three context types: what an actor may do
/// in a call is what the type it is given allows.
///
///   call                      context              may
///   derivatives(), guards()   const ReadContext&   read (writes only the span it is given)
///   evaluate()                EvalContext&         read; write its outputs
///   step_completed()          StepContext&         read; trace
///   initialize(), fire()      FireContext&         read, and tokens; emit, fire_at,
///                                                  request_stop, mode_changed,
///                                                  trace, mutable_states, scratch
///
/// The reads (ReadContext): time, tag, inputs, states, the actor's run
/// state, the time resolution. Ports are named by the handles that
/// declare_input() and declare_output() return (InputPort, OutputPort).
/// A firing does not write continuous outputs: the director evaluates them
/// after it (docs/semantics.md, "One value per tag").
///
/// The director makes a context on the stack for each call: a small
/// copyable value, valid only during that call; every accessor is inline
/// and allocates nothing (the RHS path reads them).

#include <cassert>
#include <span>
#include <string_view>

#include "crossing.hpp"
#include "ids.hpp"
#include "port.hpp"
#include "run_buffers.hpp"
#include "time.hpp"
#include "trace.hpp"

namespace ctde {

/// The director's side of the services an actor may call while it fires.
/// Implemented by the director. Not copyable.
class DirectorServices {
 public:
  virtual ~DirectorServices() = default;
  DirectorServices() = default;
  DirectorServices(const DirectorServices&) = delete;
  DirectorServices& operator=(const DirectorServices&) = delete;

  /// Sends `token` on output `output` of `actor`: delivered at the next microstep.
  virtual void emit(ActorId actor, OutputPort output, std::span<const double> token) = 0;
  /// Asks that `actor` be fired at `time` (a time event); at the current time
  /// it means the next microstep. Times in the past are an error (logic_error).
  virtual void fire_at(ActorId actor, Tick time) = 0;
  /// Ends the run after the current microstep, with status "stopped".
  virtual void request_stop(ActorId actor) = 0;
  /// `actor` (a modal model) changed mode at the current tag: a `mode` trace
  /// line (`via` empty: a plain transition).
  virtual void mode_changed(ActorId actor, std::string_view from, std::string_view via,
                            std::string_view to) = 0;
  /// Writes a trace line of the actor's own `kind` at the current tag
  /// (nothing when the run has no trace). @throws std::logic_error for a
  /// kind the director writes itself.
  virtual void trace_line(ActorId actor, std::string_view kind, std::span<const TraceField> fields) = 0;
  /// `actor` is about to change its continuous states at an event (reset,
  /// impulse): the director traces the change and resets the solver.
  virtual void states_changing(ActorId actor) = 0;
  [[nodiscard]] virtual const TimeResolution& resolution() const = 0;
  /// The run's start and stop times, in ticks.
  [[nodiscard]] virtual Tick start_tick() const = 0;
  [[nodiscard]] virtual Tick stop_tick() const = 0;
};

/// The reads every call may make: time, inputs, states, the run state.
/// Given to derivatives() and guards() (as const: they write only the span
/// they are given). Copyable, cheap; valid only during the call.
class ReadContext {
 public:
  /// `director` may be null for a context made outside a run (a test):
  /// then resolution() and the ticks are not available.
  ReadContext(RunBuffers& buffers, DirectorServices* director, ActorId actor, Tag tag, double time)
      : b_(&buffers), director_(director), actor_(actor), tag_(tag), time_(time) {}

  /// The time of this call in seconds (the solver's t during evaluation).
  [[nodiscard]] double time() const { return time_; }
  /// The tag of the last event (the firing's tag in fire()).
  [[nodiscard]] Tag tag() const { return tag_; }
  [[nodiscard]] ActorId actor() const { return actor_; }

  /// The current value of input `in` (its driver's output; zeros when unconnected).
  [[nodiscard]] std::span<const double> input(InputPort in) const {
    return b_->inputs[b_->actors[actor_.index()].input(in.index).index()].in(b_->signals.data());
  }
  /// True when input `in` has a driver (an optional input may have none).
  [[nodiscard]] bool connected(InputPort in) const { return (flags(in) & 1U) == 0; }
  /// True when input `in` resolved discrete (a polymorphic port of an actor
  /// resolved discrete, or a declared discrete port).
  [[nodiscard]] bool discrete(InputPort in) const { return (flags(in) & 2U) != 0; }
  /// The width of output `out`.
  [[nodiscard]] std::size_t width(OutputPort out) const {
    return b_->outputs[b_->actors[actor_.index()].output(out.index).index()].width;
  }
  /// The actor's continuous states.
  [[nodiscard]] std::span<const double> states() const { return b_->actors[actor_.index()].states.in(b_->x); }
  /// The actor's run state, made by make_state(). Outside initialize(),
  /// fire() and the step hooks (step_completed(), at_events(): a history of
  /// the solution) only for caches and scratch space: what evaluate(),
  /// derivatives() and guards() compute depends only on time, inputs,
  /// states and what the firings left in the run state.
  template <class T>
  [[nodiscard]] T& state() const {
    return static_cast<T&>(*b_->states[actor_.index()]);
  }

  [[nodiscard]] const TimeResolution& resolution() const { return director_->resolution(); }
  /// The run's start and stop times, in ticks.
  [[nodiscard]] Tick start_tick() const { return director_->start_tick(); }
  [[nodiscard]] Tick stop_tick() const { return director_->stop_tick(); }

 protected:
  [[nodiscard]] RunBuffers& buffers() const { return *b_; }
  [[nodiscard]] DirectorServices* director() const { return director_; }

 private:
  [[nodiscard]] std::uint8_t flags(InputPort in) const {
    return b_->input_flags[b_->actors[actor_.index()].input(in.index).index()];
  }

  RunBuffers* b_;
  DirectorServices* director_;
  ActorId actor_;
  Tag tag_;
  double time_;
};

/// The context of evaluate(): the reads, and the actor's outputs for
/// writing. Copyable, cheap; valid only during the call.
class EvalContext : public ReadContext {
 public:
  using ReadContext::ReadContext;

  /// The value of output `out`, to be written.
  [[nodiscard]] std::span<double> output(OutputPort out) {
    RunBuffers& b = buffers();
    return b.outputs[b.actors[actor().index()].output(out.index).index()].in(b.signals.data());
  }
};

/// The context of step_completed(): the reads, and trace lines at the
/// accepted step's end (its tick, microstep 0: what an FMU logged during
/// the step). Copyable, cheap; valid only during the call.
class StepContext : public ReadContext {
 public:
  using ReadContext::ReadContext;

  /// Writes a trace line of the actor's own `kind` (not one of the
  /// director's: "event", "reset"...) at this tag: `kind`, the tag, `actor`,
  /// then `fields` as strings (docs/trace-format.md, "Actors' own lines").
  void trace(std::string_view kind, std::span<const TraceField> fields) {
    if (director() != nullptr) director()->trace_line(actor(), kind, fields);
  }
};

/// The context of initialize() and fire(): the reads, trace lines (as a
/// step hook's), the tokens at this tag, and the director's services (emit,
/// fire_at, request_stop, mode_changed, resets of the states). No
/// continuous outputs: the director evaluates them after a firing.
/// Copyable, cheap; valid only during the call.
class FireContext : public StepContext {
 public:
  FireContext(RunBuffers& buffers, DirectorServices* director, ActorId actor, Tag tag, double time,
              bool time_event = false)
      : StepContext(buffers, director, actor, tag, time), time_event_(time_event) {}

  /// True when this firing was requested by fire_at (a time event).
  [[nodiscard]] bool time_event() const { return time_event_; }

  /// True when discrete input `in` has a token at this tag (a constant's
  /// value is present at every tag).
  [[nodiscard]] bool has_token(InputPort in) const { return presence(in) != kAbsent; }
  /// True when the token on discrete input `in` was sent at the previous
  /// microstep (it waited for this one: its sender fired after this actor,
  /// or this actor had fired already), false when it was sent at this tag.
  [[nodiscard]] bool token_sent_before(InputPort in) const { return presence(in) == kSentBefore; }
  /// True for an actor that breaks a discrete loop by sampling it
  /// (Actor::samples_its_loop()): it sends its output when the loop is
  /// sampled (loop_sample()) and takes its input tokens without sending.
  [[nodiscard]] bool breaks_loop() const {
    const RunBuffers& b = buffers();
    return !b.sampling.empty() && (b.sampling[actor().index()] & kBreaksLoop) != 0;
  }
  /// True when this firing samples the loop the actor breaks: a token
  /// entered the loop at this microstep, and the loop's actors fire after it.
  [[nodiscard]] bool loop_sample() const {
    const RunBuffers& b = buffers();
    return !b.sampling.empty() && (b.sampling[actor().index()] & kLoopSample) != 0;
  }
  /// The token on discrete input `in` (only when has_token(in)).
  [[nodiscard]] std::span<const double> token(InputPort in) const {
    assert(has_token(in));
    const RunBuffers& b = buffers();
    return b.input_tokens[b.actors[actor().index()].input(in.index).index()].in(
        static_cast<const double*>(b.tokens_now.data()));
  }
  /// How guard `i` of a state-event generator crossed at this firing
  /// (kRising or kFalling), or kNone: it did not.
  [[nodiscard]] Crossing crossing(std::size_t i) const {
    const RunBuffers& b = buffers();
    const GuardSlice s = b.actors[actor().index()].guards;
    assert(i < s.width);
    return static_cast<Crossing>(b.crossed[s.at(static_cast<std::uint32_t>(i)).index()]);
  }

  /// Sends a token on discrete output `out` (delivered at the next microstep).
  void emit(OutputPort out, std::span<const double> token) { director()->emit(actor(), out, token); }
  void emit(OutputPort out, double token) { emit(out, std::span<const double>(&token, 1)); }
  /// Asks to be fired at `time` (ticks); the current time means the next
  /// microstep. @throws std::logic_error (from the director) for a time in the past.
  void fire_at(Tick time) { director()->fire_at(actor(), time); }
  /// Ends the run after the current microstep, with status "stopped".
  void request_stop() { director()->request_stop(actor()); }
  /// Reports a mode change (a `mode` trace line); `via` empty for a plain transition.
  void mode_changed(std::string_view from, std::string_view via, std::string_view to) {
    director()->mode_changed(actor(), from, via, to);
  }
  /// The actor's continuous states for writing: the initial states in
  /// initialize(), a reset at an event in fire() (the director traces it
  /// and resets the solver).
  [[nodiscard]] std::span<double> mutable_states() {
    if (director() != nullptr) director()->states_changing(actor());
    RunBuffers& b = buffers();
    assert(b.x == b.x_storage.data());  // at the start or at an event: no trial state is in view
    return b.actors[actor().index()].states.in(b.x_storage.data());
  }
  /// A buffer of `width` doubles for building a token to emit (valid until
  /// the next call to scratch(); width at most the widest port).
  [[nodiscard]] std::span<double> scratch(std::size_t width) {
    RunBuffers& b = buffers();
    assert(width <= b.scratch.size());
    return {b.scratch.data(), width};
  }

 private:
  [[nodiscard]] std::uint8_t presence(InputPort in) const {
    const RunBuffers& b = buffers();
    return b.present_now[b.actors[actor().index()].input(in.index).index()];
  }

  bool time_event_;
};

}  // namespace ctde
