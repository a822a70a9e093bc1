// SecondOrderSolver: the checks of its arguments, the loop of run() and the four
// answers of check_step. The guards, their search and their events are in
// second_order_events.cpp.
#include "domains/ct/second_order.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/format.hpp"
#include "domains/ct/second_order_impl.hpp"

namespace ctde {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// "[t0, t1]" with round-trip numbers.
std::string interval(double t0, double t1) {
  std::string text = "[";
  text += format_double(t0);
  text += ", ";
  text += format_double(t1);
  text += "]";
  return text;
}

// "redo_to(te = 0.5)", "take_and_continue(bound = inf)", "take_and_stop()".
std::string describe(const CheckAnswer& answer) {
  std::string text = to_string(answer.kind());
  switch (answer.kind()) {
    case CheckKind::kRedoTo:
      text += "(te = ";
      text += format_double(answer.time());
      text += ")";
      break;
    case CheckKind::kTakeAndContinue:
      text += "(bound = ";
      text += format_double(answer.time());
      text += ")";
      break;
    case CheckKind::kStopAtStart:
    case CheckKind::kTakeAndStop:
      text += "()";
      break;
  }
  return text;
}

[[noreturn]] void bad_argument(const std::string& why) {
  std::string what = "SecondOrderSolver: ";
  what += why;
  throw std::invalid_argument(what);
}

/// Checks the problem, the start and the options of a SecondOrderSolver.
/// @throws std::invalid_argument naming what is wrong.
void check_second_order(const SecondOrderProblem& problem, const SecondOrderOptions& options, double t0,
                        std::span<const double> p0, std::span<const double> v0) {
  const std::size_t m = problem.size;
  if (m == 0) bad_argument("the size m (number of positions) must be > 0");
  if (problem.acceleration == nullptr) bad_argument("no acceleration function F");
  const auto sizes = [m](const char* name, std::size_t got) {
    if (got == m) return;
    std::string why = name;
    why += " has ";
    why += std::to_string(got);
    why += " values, the problem has m = ";
    why += std::to_string(m);
    bad_argument(why);
  };
  sizes("p0", p0.size());
  sizes("v0", v0.size());
  if (!std::isfinite(t0)) bad_argument("t0 must be finite");
  const auto finite = [](const char* name, std::span<const double> values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!std::isfinite(values[i])) {
        std::string why = name;
        why += "[";
        why += std::to_string(i);
        why += "] = ";
        why += format_double(values[i]);
        why += " is not finite";
        bad_argument(why);
      }
    }
  };
  finite("p0", p0);
  finite("v0", v0);
  const auto tolerances = [m](const char* name, const std::vector<double>& values) {
    if (values.size() != 1 && values.size() != m) {
      std::string why = name;
      why += " has ";
      why += std::to_string(values.size());
      why += " values: give 1 (for all) or m = ";
      why += std::to_string(m);
      bad_argument(why);
    }
    for (const double value : values) {
      if (!(value > 0) || !std::isfinite(value)) {
        std::string why = name;
        why += " values must be finite and > 0, got ";
        why += format_double(value);
        bad_argument(why);
      }
    }
  };
  tolerances("position_tolerance", options.position_tolerance);
  tolerances("velocity_tolerance", options.velocity_tolerance);
  if (!(options.rtol >= 0) || !std::isfinite(options.rtol)) bad_argument("rtol must be finite and >= 0");
  if (!(options.dt_min >= 0) || !std::isfinite(options.dt_min)) {
    bad_argument("dt_min must be finite and >= 0 (0: none)");
  }
  if (!(options.dt_max > 0)) bad_argument("dt_max must be > 0 (+inf: none)");
  if (options.dt_min > options.dt_max) {
    std::string why = "dt_min = ";
    why += format_double(options.dt_min);
    why += " exceeds dt_max = ";
    why += format_double(options.dt_max);
    bad_argument(why);
  }
  if (options.initial_step && (!(*options.initial_step > 0) || !std::isfinite(*options.initial_step))) {
    bad_argument("initial_step must be finite and > 0");
  }
  if (options.max_steps < 0) bad_argument("max_steps must be >= 0 (0: no limit)");
  if (options.max_stalls < 1) bad_argument("max_stalls must be >= 1");
}

/// Checks the method and the guards of a SecondOrderSolver: what OdeSolver would
/// refuse, said in the facade's terms, and what the event locator needs.
/// @throws std::invalid_argument naming what is wrong.
void check_method_and_guards(const SecondOrderProblem& problem, const SecondOrderOptions& options) {
  const char* method = to_string(options.method);
  if (!solver_kind(method)) {
    bad_argument(concat({"method ", std::to_string(static_cast<int>(options.method)),
                         " is not a method: give one of ", solver_names()}));
  }
  if (options.method == SolverKind::kRk4Fixed && !options.initial_step && !std::isfinite(options.dt_max)) {
    bad_argument("method rk4-fixed needs a step size: set initial_step (its fixed step) or a finite dt_max");
  }
  const std::size_t k = problem.guards;
  if (k > 0 && problem.guard == nullptr) {
    bad_argument(concat({"guards = ", std::to_string(k), " but no guard function"}));
  }
  if (k == 0 && problem.guard != nullptr) {
    bad_argument("a guard function but guards = 0: give the number of guards");
  }
  if (problem.directions.size() != k) {
    bad_argument(concat({"directions has ", std::to_string(problem.directions.size()),
                         " values: give one per guard (guards = ", std::to_string(k), ")"}));
  }
  for (std::size_t i = 0; i < k; ++i) {
    const Crossing direction = problem.directions[i];
    if (direction != Crossing::kRising && direction != Crossing::kFalling && direction != Crossing::kBoth) {
      bad_argument(concat({"directions[", std::to_string(i), "] is ", to_string(direction),
                           ": give rising, falling or both"}));
    }
  }
  if (!(options.guard_tolerance >= 0) || !std::isfinite(options.guard_tolerance)) {
    bad_argument(concat({"guard_tolerance must be finite and >= 0 (0: one tick), got ",
                         format_double(options.guard_tolerance)}));
  }
}

/// The options of the first-order solver over [p v] that a SecondOrderSolver runs.
OdeOptions first_order_options(const SecondOrderOptions& options, std::size_t m) {
  OdeOptions ode_options;
  ode_options.method = options.method;
  ode_options.rtol = options.rtol;
  ode_options.atol_per_state.resize(2 * m);
  for (std::size_t i = 0; i < m; ++i) {
    const auto& pt = options.position_tolerance;
    const auto& vt = options.velocity_tolerance;
    ode_options.atol_per_state[i] = pt.size() == 1 ? pt[0] : pt[i];
    ode_options.atol_per_state[m + i] = vt.size() == 1 ? vt[0] : vt[i];
  }
  ode_options.initial_step = options.initial_step;
  if (options.dt_min > 0) ode_options.min_step = options.dt_min;
  if (std::isfinite(options.dt_max)) ode_options.max_step = options.dt_max;
  ode_options.max_steps = options.max_steps;

  return ode_options;
}

}  // namespace

const char* to_string(CheckKind kind) {
  switch (kind) {
    case CheckKind::kStopAtStart:
      return "stop_at_start";
    case CheckKind::kRedoTo:
      return "redo_to";
    case CheckKind::kTakeAndStop:
      return "take_and_stop";
    case CheckKind::kTakeAndContinue:
      return "take_and_continue";
  }
  return "?";
}

const char* to_string(SecondOrderStop stop) {
  switch (stop) {
    case SecondOrderStop::kReachedEnd:
      return "reached_end";
    case SecondOrderStop::kStoppedAtStart:
      return "stopped_at_start";
    case SecondOrderStop::kStoppedAtEnd:
      return "stopped_at_end";
  }
  return "?";
}

void TentativeStep::state_at(double t, std::span<double> p, std::span<double> v) const {
  if (p.size() != m_ || v.size() != m_) {
    std::string why = "TentativeStep::state_at: p and v need ";
    why += std::to_string(m_);
    why += " values each, got ";
    why += std::to_string(p.size());
    why += " and ";
    why += std::to_string(v.size());
    throw std::invalid_argument(why);
  }
  if (!(t >= t0_ && t <= t1_)) {
    throw std::out_of_range(concat(
        {"TentativeStep::state_at: t = ", format_double(t), " is outside the step ", interval(t0_, t1_)}));
  }
  ode_->dense_output(t, scratch_);
  std::copy_n(scratch_, m_, p.begin());
  std::copy_n(scratch_ + m_, m_, v.begin());
}

// -- the right-hand-side path: no allocation unless it throws --------------------------

void SecondOrderSolver::Impl::require_finite(double t, const double* a) const {
  for (std::size_t i = 0; i < m; ++i) {
    if (!std::isfinite(a[i])) {
      std::string what = "SecondOrderSolver: F(t, p, v) gave the non-finite acceleration a[";
      what += std::to_string(i);
      what += "] = ";
      what += format_double(a[i]);
      what += " at t = ";
      what += format_double(t);
      throw RunError(what);
    }
  }
}

void SecondOrderSolver::Impl::evaluate(double t, const double* x, double* a) const {
  problem.acceleration(t, x, x + m, a, problem.user);
  require_finite(t, a);
}

int SecondOrderSolver::Impl::rhs(double t, const double* x, double* dxdt, void* self) {
  const auto* s = static_cast<const Impl*>(self);
  std::memcpy(dxdt, x + s->m, s->m * sizeof(double));
  s->evaluate(t, x, dxdt + s->m);
  return 0;
}

void SecondOrderSolver::Impl::evaluate_counted(double t, const double* x, double* a) {
  ++counters.acceleration_evals;
  evaluate(t, x, a);
}

// -- the loop ------------------------------------------------------------------------

const double* SecondOrderSolver::Impl::acceleration_now() {
  if (!a_now_valid) {
    evaluate_counted(ode->current_time(), x_now.data(), a_now.data());
    a_now_valid = true;
  }
  return a_now.data();
}

bool SecondOrderSolver::Impl::is_stall(double t0, double t1) const {
  const double h = t1 - t0;
  return h < options.dt_min || h <= 16.0 * kEpsilon * std::max(std::abs(t0), std::abs(t1));
}

void SecondOrderSolver::Impl::reject(double t0, double t1, const CheckAnswer& answer,
                                     const std::string& why) {
  ode->redo_to(t0);
  std::string what = "SecondOrderSolver::run: check_step answered ";
  what += describe(answer);
  what += " for the step ";
  what += interval(t0, t1);
  what += ": ";
  what += why;
  throw std::invalid_argument(what);
}

void SecondOrderSolver::Impl::check_redo(double t0, double t1, const CheckAnswer& answer) {
  const double te = answer.time();
  const char* reason = nullptr;
  if (!(te > t0)) {
    reason = "te must be after t0";
  } else if (te < t0 + options.dt_min) {
    reason = "te must be at least dt_min after t0";
  } else if (!(te < t1)) {
    reason = "te must be before t1 (a redo shortens the step)";
  }
  if (reason == nullptr) return;
  std::string why = reason;
  why += "; dt_min = ";
  why += format_double(options.dt_min);
  why += ", so te must be in [";
  why += format_double(t0 + options.dt_min);
  why += ", ";
  why += format_double(t1);
  why += ") and > t0";
  reject(t0, t1, answer, why);
}

void SecondOrderSolver::Impl::take(double t0, double t1, const CheckAnswer& answer) {
  const bool adjusted = std::memcmp(x_end.data(), x_computed.data(), 2 * m * sizeof(double)) != 0;
  if (adjusted) {
    for (std::size_t i = 0; i < 2 * m; ++i) {
      if (!std::isfinite(x_end[i])) {
        std::string why = "the adjusted end state has the non-finite ";
        why += i < m ? "p1[" : "v1[";
        why += std::to_string(i < m ? i : i - m);
        why += "] = ";
        why += format_double(x_end[i]);
        reject(t0, t1, answer, why);
      }
    }
  }
  commit(t0, t1, adjusted, /*a_known=*/true);
}

void SecondOrderSolver::Impl::commit(double t0, double t1, bool adjusted, bool a_known) {
  if (event) fire_events(t0);
  move_solver(t0, t1, adjusted);
  std::copy(x_end.begin(), x_end.end(), x_now.begin());
  if (adjusted) {
    ++counters.adjustments;
    a_now_valid = false;
    (void)acceleration_now();
  } else if (a_known) {
    std::copy(a_end.begin(), a_end.end(), a_now.begin());
    a_now_valid = true;
  } else {
    a_now_valid = false;
  }
  ++counters.steps_taken;
  if (problem.guards > 0) settle_guards(t1, adjusted);
}

void SecondOrderSolver::Impl::move_solver(double t0, double t1, bool adjusted) {
  const bool cut = t1 < ode->current_time();
  if (cut) ode->redo_to(t1);  // x(t1) from the dense output: x_end unless adjusted
  if (event && (cut || adjusted)) {
    // As the director restarts after an event: with the step planned before the
    // cut, but at most four times the part of the step before the event (how far
    // apart the events are), which the interpolant's roundoff favours.
    const double planned = event->planned;
    ode->reset(t1, x_end.data(), planned > 0 ? std::min(planned, 4 * (t1 - t0)) : 0.0);
  } else if (adjusted) {
    ode->correct_state(x_end.data());
  }
}

void SecondOrderSolver::Impl::stalled(double t0, double t1, const CheckAnswer& answer) const {
  std::string what = "SecondOrderSolver::run: check_step does not let time advance at t = ";
  what += format_double(ode->current_time());
  what += ": ";
  what += std::to_string(options.max_stalls + 1);
  what += " answers in a row redid the step or took a step shorter than dt_min = ";
  what += format_double(options.dt_min);
  what += " (max_stalls = ";
  what += std::to_string(options.max_stalls);
  what += "); the last was ";
  what += describe(answer);
  what += " for the step ";
  what += interval(t0, t1);
  throw RunError(what);
}

void SecondOrderSolver::Impl::solver_failed(const StepResult& result) const {
  std::string what = "SecondOrderSolver::run: the solver failed at t = ";
  what += format_double(result.t_reached);
  what += " (";
  what += to_string(result.status);
  what += "): ";
  what += result.message;
  if (result.status == StepStatus::kStepTooSmall && options.dt_min > 0) {
    what += "; the error test fails at dt_min = ";
    what += format_double(options.dt_min);
  }
  throw RunError(what);
}

double SecondOrderSolver::Impl::advance(double t0, double limit) {
  const StepResult result = ode->step(limit);
  if (!result.ok()) solver_failed(result);
  if (result.switches_method) trace_switch(result.t_reached);
  const std::span<const double> x1 = ode->state();
  std::copy(x1.begin(), x1.end(), x_end.begin());
  const double t1 = problem.guards > 0 ? check_guards(t0, result.t_reached) : result.t_reached;
  std::copy(x_end.begin(), x_end.end(), x_computed.begin());
  return t1;
}

CheckAnswer SecondOrderSolver::Impl::ask(TentativeStep& step, double t0, double t1, int redos) {
  (void)acceleration_now();  // a0
  try {
    evaluate_counted(t1, x_end.data(), a_end.data());  // a1
    step.t0_ = t0;
    step.t1_ = t1;
    step.redos_ = redos;
    step.event_tick_ = event ? event->tick : kNever;
    ++counters.checks;
    return check(step);
  } catch (...) {
    ode->redo_to(t0);
    throw;
  }
}

SecondOrderSolver::SecondOrderSolver(const SecondOrderProblem& problem, const SecondOrderOptions& options,
                                     double t0, std::span<const double> p0, std::span<const double> v0,
                                     CheckStepFunction check_step)
    : impl_(std::make_unique<Impl>()) {
  check_second_order(problem, options, t0, p0, v0);
  check_method_and_guards(problem, options);
  const std::size_t m = problem.size;
  Impl& s = *impl_;
  s.problem = problem;
  s.options = options;
  s.m = m;
  s.check = std::move(check_step);
  s.x_now.resize(2 * m);
  std::copy(p0.begin(), p0.end(), s.x_now.begin());
  std::copy(v0.begin(), v0.end(), s.x_now.begin() + static_cast<std::ptrdiff_t>(m));
  s.a_now.resize(m);
  for (auto* buffer : {&s.x_end, &s.x_computed, &s.scratch}) buffer->resize(2 * m);
  s.a_end.resize(m);

  const OdeOptions ode_options = first_order_options(options, m);
  const OdeProblem ode_problem{2 * m, &Impl::rhs, nullptr, nullptr, &s};
  s.ode.emplace(ode_problem, ode_options, t0, s.x_now);
  (void)s.acceleration_now();
  if (problem.guards > 0) s.start_guards(t0);
}

SecondOrderSolver::~SecondOrderSolver() = default;
SecondOrderSolver::SecondOrderSolver(SecondOrderSolver&&) noexcept = default;
SecondOrderSolver& SecondOrderSolver::operator=(SecondOrderSolver&&) noexcept = default;

SecondOrderResult SecondOrderSolver::run(double t_end) {
  Impl& s = *impl_;
  OdeSolver& ode = *s.ode;
  if (!std::isfinite(t_end) || t_end < ode.current_time()) {
    bad_argument(
        concat({"run: t_end = ", format_double(t_end), " must be finite and not before the current time ",
                format_double(ode.current_time())}));
  }
  if (s.problem.guards > 0 && t_end > s.options.resolution.horizon()) {
    bad_argument(
        concat({"run: t_end = ", format_double(t_end), " is beyond the horizon of the time resolution, ",
                format_double(s.options.resolution.horizon()), " s"}));
  }
  double limit = std::min(s.bound, t_end);
  int stalls = 0;
  int redos = 0;  // redo answers since the last step taken

  TentativeStep step;
  step.ode_ = &ode;
  step.scratch_ = s.scratch.data();
  step.m_ = s.m;
  step.x0_ = s.x_now.data();
  step.a0_ = s.a_now.data();
  step.x1_ = s.x_end.data();
  step.a1_ = s.a_end.data();
  step.crossings_ = s.crossings;

  while (ode.current_time() < t_end) {
    const double t0 = ode.current_time();
    const double t1 = s.advance(t0, limit);
    if (!s.check) {  // every step taken, none adjusted
      s.commit(t0, t1, /*adjusted=*/false, /*a_known=*/false);
      limit = t_end;
      continue;
    }
    const CheckAnswer answer = s.ask(step, t0, t1, redos);
    switch (answer.kind()) {
      case CheckKind::kStopAtStart:
        ode.redo_to(t0);
        return {SecondOrderStop::kStoppedAtStart, t0};
      case CheckKind::kRedoTo:
        s.check_redo(t0, t1, answer);
        ode.redo_to(t0);
        limit = answer.time();
        ++redos;
        ++s.counters.redos;
        if (++stalls > s.options.max_stalls) s.stalled(t0, t1, answer);
        break;
      case CheckKind::kTakeAndStop:
        s.take(t0, t1, answer);
        s.bound = kInfinity;
        return {SecondOrderStop::kStoppedAtEnd, t1};
      case CheckKind::kTakeAndContinue:
        if (!(answer.time() > t1)) s.reject(t0, t1, answer, "the bound must be after t1");
        s.take(t0, t1, answer);
        s.bound = answer.time();
        limit = std::min(s.bound, t_end);
        redos = 0;
        stalls = s.is_stall(t0, t1) ? stalls + 1 : 0;
        if (stalls > s.options.max_stalls) s.stalled(t0, t1, answer);
        break;
    }
  }
  return {SecondOrderStop::kReachedEnd, ode.current_time()};
}

double SecondOrderSolver::time() const { return impl_->ode->current_time(); }

std::span<const double> SecondOrderSolver::position() const { return impl_->ode->state().first(impl_->m); }

std::span<const double> SecondOrderSolver::velocity() const { return impl_->ode->state().last(impl_->m); }

std::span<const double> SecondOrderSolver::acceleration() const {
  return {impl_->acceleration_now(), impl_->m};
}

std::size_t SecondOrderSolver::size() const { return impl_->m; }

SecondOrderStatistics SecondOrderSolver::statistics() const {
  SecondOrderStatistics result = impl_->counters;
  result.ode = impl_->ode->statistics();
  return result;
}

}  // namespace ctde
