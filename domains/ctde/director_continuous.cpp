// The director's continuous side: the right-hand side, the continuous
// phase, rows inside steps, restarts after events.
#include "domains/ctde/director_impl.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/format.hpp"

namespace ctde {

void Director::Impl::evaluate(const RhsProgram& program, double t) {
  program.run_outputs(b_, [&](std::uint32_t d) {
    ActorContext context(b_, this, d, now_, t);
    guarded(d, [&] { actors_[d]->evaluate(context); });
  });
}

int Director::Impl::rhs(double t, const double* x, double* dxdt, void* user) {
  auto& self = *static_cast<Impl*>(user);
  self.b_.x = const_cast<double*>(x);  // read only: actors get states() as const
  self.evaluate(self.rhs_outputs_, t);
  self.derivatives_.run_derivatives(self.b_, dxdt, [&](std::uint32_t d) {
    const Slice slice = self.b_.actors[d].states;
    const std::span<double> dx(dxdt + slice.offset, slice.width);
    ActorContext context(self.b_, &self, d, self.now_, t);
    self.guarded(d, [&] { self.actors_[d]->derivatives(context, dx); });
  });
  self.b_.x = self.b_.x_storage.data();
  const std::size_t n = self.b_.x_storage.size();
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(dxdt[k])) self.non_finite_derivative(t, k, dxdt[k]);
  }
  return 0;
}

void Director::Impl::non_finite_derivative(double t, std::size_t k, double v) const {
  std::uint32_t owner = stateful_.front();
  for (const std::uint32_t d : stateful_) {
    if (b_.actors[d].states.offset <= k) owner = d;
  }
  throw Failure{
      flat(owner).path + ": a derivative is " + format_double(v) + " at t = " + format_double(t) + " s",
      flat(owner).path};
}

void Director::Impl::check_states(double t) {
  for (const std::uint32_t d : stateful_) {
    const Slice slice = b_.actors[d].states;
    for (std::uint32_t i = 0; i < slice.width; ++i) {
      if (!std::isfinite(b_.x[slice.offset + i])) {
        throw Failure{flat(d).path + ": a continuous state is " + format_double(b_.x[slice.offset + i]) +
                          " at t = " + format_double(t) + " s",
                      flat(d).path};
      }
    }
  }
}

void Director::Impl::continuous_phase(Tick next) {
  if (!solver_ && continuous_.empty() && recorder_ == nullptr && generators_.empty()) {  // pure DE
    now_ = {next, 0};
    return;
  }
  const double t_next = resolution_.to_seconds(next);
  double t0 = solver_ ? solver_->current_time() : resolution_.to_seconds(now_.time);
  planned_step_ = 0;  // a plan for a restart after the last event that did not restart
  while (t0 < t_next) {
    // Without states time just advances, but by at most the step bound
    // where guards or recorded signals vary in time (docs/semantics.md).
    double t1 = t0 + step_bound_ < t_next - resolution_.seconds_per_tick() ? t0 + step_bound_ : t_next;
    if (solver_) {  // one step; without states, time just advances
      const StepResult r = step_solver(t_next);
      if (!r.ok()) {
        throw Failure{std::string("the ODE solver failed (") + ctde::to_string(r.status) + "): " + r.message,
                      ""};
      }
      t1 = r.t_reached;
      load_solver_state();
    }
    evaluate_all(t1);
    const std::optional<Tick> event = generators_.empty() ? std::nullopt : check_step(t0, t1);
    if (!std::exchange(interval_rows_done_, false))
      record_interval_points(t0, t1, /*dense=*/solver_.has_value());
    if (event) {
      now_ = {*event, 0};
      record(now_);
      return;
    }
    const Tick previous = now_.time;
    now_ = {t1 >= t_next ? next : resolution_.to_ticks(t1), 0};
    if (t1 < t_next && now_.time >= next) {
      throw Failure{
          "the solver's step ended within one tick of the next event; the time "
          "resolution is too coarse for this model",
          ""};
    }
    // A row per step end, but one per tick: a step shorter than a tick
    // (the first after a restart may be) leaves no row of its own.
    if (t1 < t_next && now_.time > previous) record(now_);
    if (progress_) progress_(t1, stats_);
    stop_if_asked();
    t0 = t1;
  }
  now_ = {next, 0};
  record(now_);
}

void Director::Impl::load_solver_state() {
  const auto x = solver_->state();
  std::copy(x.begin(), x.end(), b_.x_storage.begin());
  b_.x = b_.x_storage.data();
}

StepResult Director::Impl::step_solver(double t_limit) {
  try {
    return solver_->step(t_limit);
  } catch (const Failure&) {
    throw;
  } catch (const std::exception& e) {
    throw Failure{std::string("the ODE solver failed: ") + e.what(), ""};
  }
}

void Director::Impl::record_interval_points(double t0, double t1, bool dense) {
  if (recorder_ == nullptr || !options_.output_interval) return;
  const double h = *options_.output_interval;
  auto k = static_cast<std::int64_t>(std::floor((t0 - options_.start_time) / h)) + 1;
  bool recorded = false;
  for (;; ++k) {
    const double t = options_.start_time + static_cast<double>(k) * h;
    if (t >= t1) break;
    if (t <= t0) continue;
    if (dense) {
      solver_->dense_output(t, dense_.data());
      b_.x = dense_.data();
    }
    evaluate_all(t);
    b_.x = b_.x_storage.data();
    record_values(t, 0);
    recorded = true;
  }
  if (recorded) evaluate_all(t1);  // the outputs at the step's end again
}

void Director::Impl::restart_solver() {
  const double t = resolution_.to_seconds(now_.time);
  for (auto& [actor, before] : changed_) {
    flags_[actor] &= static_cast<std::uint8_t>(~kStatesChanging);
    const Slice slice = b_.actors[actor].states;
    const std::span<const double> after(b_.x + slice.offset, slice.width);
    // An actor that asked for its states but wrote back what was there (a
    // reset to the current value) changed nothing: only real changes are traced.
    if (trace_ != nullptr && !std::equal(before.begin(), before.end(), after.begin())) {
      trace_->reset(now_, t, flat(actor).path, before, after);
    }
  }
  changed_.clear();
  states_changed_ = false;
  continuous_changed_ = false;
  check_states(t);
  // After a located crossing the first step is the one planned after the
  // step that held it (the step cut at te would plan a shorter one).
  if (solver_) solver_->reset(t, b_.x_storage.data(), std::exchange(planned_step_, 0.0));
}

}  // namespace ctde
