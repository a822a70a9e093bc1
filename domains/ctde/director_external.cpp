// The run integrated by another program (Director's "Integrated by another
// program"; an FMU's Model Exchange, docs/fmi.md): the program's points,
// accepted steps and events, mapped onto the run's own procedures. Between
// two events the run stands at its last event's tag; the continuous phase
// takes each accepted step's end as its own step's (guards' sides) and each
// event's point as a located crossing's (ContinuousPhase, "Integrated by
// another program").
#include <cmath>
#include <stdexcept>

#include "core/external_input.hpp"
#include "core/format.hpp"
#include "domains/ctde/director_impl.hpp"

namespace ctde {

std::string Director::Impl::external_integration_problem() const {
  for (ActorId d{0}; d.index() < layout_.actors.size(); ++d) {
    if (layout_.actors[d.index()]->bounds_every_step()) {
      return concat({"actor '", flat(d).path, "' (", layout_.actors[d.index()]->type(),
                     ") bounds every step of ctde's own integrator: its semantics need it"});
    }
  }
  if (continuous_.split()) return "the run is split into independent parts (set subsystems \"joined\")";
  return {};
}

std::vector<std::string> Director::Impl::state_names() const {
  std::vector<std::string> names;
  for (ActorId d{0}; d.index() < layout_.actors.size(); ++d) {
    const StateSlice states = b_.actors[d.index()].states;
    for (std::uint32_t i = 0; i < states.width; ++i) {
      names.push_back(states.width == 1 ? flat(d).path : concat({flat(d).path, "[", std::to_string(i), "]"}));
    }
  }
  return names;
}

std::vector<std::string> Director::Impl::indicator_names() const {
  std::vector<std::string> names;
  for (const ActorId d : continuous_.generators()) {
    const GuardSlice guards = b_.actors[d.index()].guards;
    for (std::uint32_t i = 0; i < guards.width; ++i) {
      names.push_back(guards.width == 1 ? flat(d).path : concat({flat(d).path, "[", std::to_string(i), "]"}));
    }
  }
  return names;
}

Tick Director::Impl::external_point(double t, std::span<const double> x, const char* caller) const {
  if (!started_)
    throw std::logic_error(concat({"Director::", caller, ": the run has not started (advance_to())"}));
  if (x.size() != b_.x_storage.size()) {
    throw std::invalid_argument(
        concat({caller, ": ", std::to_string(x.size()), " states given; the model has ",
                std::to_string(b_.x_storage.size())}));
  }
  const Tick tick = std::isfinite(t) ? snapped(t, now_.time) : 0;
  if (!std::isfinite(t) || tick < now_.time || tick > stop_) {
    throw std::invalid_argument(
        concat({caller, ": time ", format_double(t), " s is not from where the run stands (",
                format_double(resolution_.to_seconds(now_.time)), " s) to its stop time (",
                format_double(resolution_.to_seconds(stop_)), " s)"}));
  }
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (!std::isfinite(x[k])) {
      throw std::invalid_argument(
          concat({caller, ": state ", std::to_string(k), " is ", format_double(x[k])}));
    }
  }
  return tick;
}

void Director::Impl::evaluate_at(double t, std::span<const double> x, std::span<double> dx,
                                 std::span<double> z) {
  external_point(t, x, "evaluate_at");
  if (dx.size() != x.size() || z.size() != continuous_.guard_count())
    throw std::invalid_argument("evaluate_at: room for " + std::to_string(dx.size()) + " derivatives and " +
                                std::to_string(z.size()) + " indicators; the model has " +
                                std::to_string(x.size()) + " and " +
                                std::to_string(continuous_.guard_count()));
  try {
    continuous_.evaluate_external(t, x.data(), dx, z);
  } catch (const Failure& f) {
    throw std::runtime_error(f.message);
  }
}

bool Director::Impl::step_completed(double t, std::span<const double> x) {
  const Tick tick = external_point(t, x, "step_completed");
  try {
    continuous_.accept_external(t, x);
    if (tick > now_.time) {
      now_ = {tick, 0};
      tag_fresh_ = true;
    }
    return !layout_.step_watchers.empty() && steps_completed(t);
  } catch (const Failure& f) {
    throw std::runtime_error(f.message);
  }
}

bool Director::Impl::events_at(double t, std::span<const double> x) {
  Tick tick = external_point(t, x, "events_at");
  // The time of the next event, as next_event_time() gave it: its own tick.
  const Tick next = scheduler_.next_time(stop_ + 1);
  if (next <= stop_ && (resolution_.to_seconds(next) == t || (tick != now_.time && snapped(t, next) == next)))
    tick = next;
  if (ended_) return false;
  // A new tick, or the first events at the tick a step reached; else the
  // events after those the run stands after: the next microstep.
  if (tick > now_.time) {
    now_ = {tick, 0};
  } else if (!tag_fresh_) {
    ++now_.microstep;
  }
  tag_fresh_ = false;
  try {
    continuous_.jump_external(t, x);
  } catch (const Failure& f) {
    ended_ = finish(RunStatus::kError, f.message, f.actor);
    return false;
  }
  std::optional<RunResult> result = go(tick);
  if (!result) return true;
  ended_ = std::move(result);
  return false;
}

std::optional<double> Director::Impl::next_event_time() const {
  const Tick next = scheduler_.next_time(stop_ + 1);  // events at the stop time run too
  if (next > stop_ || next <= now_.time) return std::nullopt;
  return resolution_.to_seconds(next);
}

Tick Director::Impl::snapped(double t, Tick near) const {
  // Far from 0, seconds hold fewer digits than ticks: a tick's time in
  // seconds may round back to its neighbour.
  const double ulp = std::abs(std::nextafter(t, 2 * t + 1) - t);
  return std::abs(resolution_.to_seconds(near) - t) <= 4 * ulp ? near : resolution_.to_ticks(t);
}

ActorId Director::Impl::input_actor(const std::string& actor) const {
  const std::optional<FlatIndex> index = model_.find(actor);
  const auto* input = index ? dynamic_cast<const ExternalInput*>(model_[*index].actor) : nullptr;
  if (input == nullptr) {
    throw ModelError(concat({"no input actor '", actor, "' (",
                             index ? "it is a " + model_[*index].actor->type() : std::string("no such actor"),
                             "; a model's declared input is an Input actor of its name)"}));
  }
  return model_[*index].depth;
}

void Director::Impl::hold_input(const std::string& actor, std::span<const double> value) {
  const ActorId d = input_actor(actor);
  dynamic_cast<const ExternalInput&>(*layout_.actors[d.index()]).hold(*b_.states[d.index()], value);
}

}  // namespace ctde
