#pragma once
/// What an actor sees of a run: its inputs, outputs, tokens, states and the
/// director's services. Made by the director on the stack for each call;
/// the reads are inline and allocate nothing (they sit on the RHS path).

#include <cassert>
#include <span>
#include <string_view>

#include "crossing.hpp"
#include "run_buffers.hpp"
#include "time.hpp"

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
  virtual void emit(std::uint32_t actor, std::uint32_t output, std::span<const double> token) = 0;
  /// Asks that `actor` be fired at `time` (a time event); at the current time
  /// it means the next microstep. Times in the past are an error (logic_error).
  virtual void fire_at(std::uint32_t actor, Tick time) = 0;
  /// Ends the run after the current microstep, with status "stopped".
  virtual void request_stop(std::uint32_t actor) = 0;
  /// `actor` (a modal model) changed mode at the current tag: a `mode` trace
  /// line (`via` empty: a plain transition).
  virtual void mode_changed(std::uint32_t actor, std::string_view from, std::string_view via,
                            std::string_view to) = 0;
  /// `actor` is about to change its continuous states at an event (reset,
  /// impulse): the director traces the change and resets the solver.
  virtual void states_changing(std::uint32_t actor) = 0;
  [[nodiscard]] virtual const TimeResolution& resolution() const = 0;
  /// The run's start and stop times, in ticks.
  [[nodiscard]] virtual Tick start_tick() const = 0;
  [[nodiscard]] virtual Tick stop_tick() const = 0;
};

/// The view of one actor on the run at one moment. Copyable, cheap; valid
/// only during the call it is passed to.
class ActorContext {
 public:
  ActorContext(RunBuffers& buffers, DirectorServices* director, std::uint32_t actor, Tag tag, double time,
               bool time_event = false)
      : b_(&buffers), director_(director), actor_(actor), tag_(tag), time_(time), time_event_(time_event) {}

  /// The time of this call in seconds (the solver's t during evaluation).
  [[nodiscard]] double time() const { return time_; }
  /// The tag of a firing (time in ticks, microstep).
  [[nodiscard]] Tag tag() const { return tag_; }
  /// True when this firing was requested by fire_at (a time event).
  [[nodiscard]] bool time_event() const { return time_event_; }
  [[nodiscard]] std::uint32_t actor_index() const { return actor_; }

  /// The current value of input `i` (its driver's output; zeros when unconnected).
  [[nodiscard]] std::span<const double> input(std::size_t i) const {
    const Slice s = b_->inputs[b_->actors[actor_].first_input + i];
    return {b_->signals.data() + s.offset, s.width};
  }
  /// The value of output `o`, to be written by evaluate().
  [[nodiscard]] std::span<double> output(std::size_t o) const {
    const Slice s = b_->outputs[b_->actors[actor_].first_output + o];
    return {b_->signals.data() + s.offset, s.width};
  }
  /// True when discrete input `i` has a token at this tag (a constant's
  /// value is present at every tag).
  [[nodiscard]] bool has_token(std::size_t i) const {
    return b_->present_now[b_->actors[actor_].first_input + i] != 0;
  }
  /// True when the token on discrete input `i` was sent at the previous
  /// microstep (it waited for this one: its sender fired after this actor,
  /// or this actor had fired already), false when it was sent at this tag.
  [[nodiscard]] bool token_sent_before(std::size_t i) const {
    return b_->present_now[b_->actors[actor_].first_input + i] == kSentBefore;
  }
  /// The token on discrete input `i` (only when has_token(i)).
  [[nodiscard]] std::span<const double> token(std::size_t i) const {
    assert(has_token(i));
    const Slice s = b_->input_tokens[b_->actors[actor_].first_input + i];
    return {b_->tokens_now.data() + s.offset, s.width};
  }
  /// Sends a token on discrete output `o` (delivered at the next microstep).
  void emit(std::size_t o, std::span<const double> token) const {
    director_->emit(actor_, static_cast<std::uint32_t>(o), token);
  }
  void emit(std::size_t o, double token) const { emit(o, std::span<const double>(&token, 1)); }
  /// Asks to be fired at `time` (ticks); the current time means the next microstep.
  void fire_at(Tick time) const { director_->fire_at(actor_, time); }
  void request_stop() const { director_->request_stop(actor_); }
  /// Reports a mode change (a `mode` trace line); `via` empty for a plain transition.
  void mode_changed(std::string_view from, std::string_view via, std::string_view to) const {
    director_->mode_changed(actor_, from, via, to);
  }

  /// How guard `i` of a state-event generator crossed at this firing
  /// (kRising or kFalling), or kNone: it did not.
  [[nodiscard]] Crossing crossing(std::size_t i) const {
    const Slice s = b_->actors[actor_].guards;
    assert(i < s.width);
    return static_cast<Crossing>(b_->crossed[s.offset + i]);
  }

  /// The actor's continuous states (read them in evaluate and derivatives).
  [[nodiscard]] std::span<const double> states() const {
    const Slice s = b_->actors[actor_].states;
    return {b_->x + s.offset, s.width};
  }
  /// The actor's continuous states for writing: in initialize(), or when
  /// firing at an event (a reset); the director traces it and resets the solver.
  [[nodiscard]] std::span<double> mutable_states() const {
    if (director_ != nullptr) director_->states_changing(actor_);
    const Slice s = b_->actors[actor_].states;
    return {b_->x + s.offset, s.width};
  }
  /// A buffer of `width` doubles for building a token to emit (valid until
  /// the next call to scratch(); width at most the widest port).
  [[nodiscard]] std::span<double> scratch(std::size_t width) const {
    assert(width <= b_->scratch.size());
    return {b_->scratch.data(), width};
  }
  /// The actor's run state, made by make_state().
  template <class T>
  [[nodiscard]] T& state() const {
    return static_cast<T&>(*b_->states[actor_]);
  }

  [[nodiscard]] const TimeResolution& resolution() const { return director_->resolution(); }
  [[nodiscard]] Tick start_tick() const { return director_->start_tick(); }
  [[nodiscard]] Tick stop_tick() const { return director_->stop_tick(); }

 private:
  RunBuffers* b_;
  DirectorServices* director_;
  std::uint32_t actor_;
  Tag tag_;
  double time_;
  bool time_event_;
};

}  // namespace ctde
