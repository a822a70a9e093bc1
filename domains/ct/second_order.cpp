#include "domains/ct/second_order.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/format.hpp"

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

/// The options of the first-order solver over [p v] that a SecondOrderSolver runs.
OdeOptions first_order_options(const SecondOrderOptions& options, std::size_t m) {
  OdeOptions ode_options;
  ode_options.method = SolverKind::kRkf45;
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
  ode_->dense_output(t, scratch_);
  std::copy_n(scratch_, m_, p.begin());
  std::copy_n(scratch_ + m_, m_, v.begin());
}

// Everything the ARKODE callback points at, behind a stable address.
struct SecondOrderSolver::Impl {
  SecondOrderProblem problem;
  SecondOrderOptions options;
  std::size_t m = 0;
  CheckStepFunction check;
  std::optional<OdeSolver> ode;

  std::vector<double> x_now;  // (p, v) at the current time: t0 of the next step
  std::vector<double> a_now;  // F there, valid if a_now_valid
  bool a_now_valid = false;
  std::vector<double> x_end;    // (p, v) at t1 of the tentative step, adjustable
  std::vector<double> a_end;    // F at t1 before any adjustment
  std::vector<double> scratch;  // dense output for TentativeStep::state_at
  double bound = kInfinity;     // from the last take_and_continue
  SecondOrderStatistics counters;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // -- the right-hand-side path: no allocation unless it throws ----------------------

  void require_finite(double t, const double* a) const {
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

  void evaluate(double t, const double* x, double* a) const {
    problem.acceleration(t, x, x + m, a, problem.user);
    require_finite(t, a);
  }

  // x' = (v, F(t, p, v)); exceptions are caught by OdeSolver and rethrown from step().
  static int rhs(double t, const double* x, double* dxdt, void* self) {
    const auto* s = static_cast<const Impl*>(self);
    std::memcpy(dxdt, x + s->m, s->m * sizeof(double));
    s->evaluate(t, x, dxdt + s->m);
    return 0;
  }

  // F for the facade's own use (a0, a1), counted apart from the solver's.
  void evaluate_counted(double t, const double* x, double* a) {
    ++counters.acceleration_evals;
    evaluate(t, x, a);
  }

  // -- the loop ----------------------------------------------------------------------

  const double* acceleration_now() {
    if (!a_now_valid) {
      evaluate_counted(ode->current_time(), x_now.data(), a_now.data());
      a_now_valid = true;
    }
    return a_now.data();
  }

  [[nodiscard]] bool is_stall(double t0, double t1) const {
    const double h = t1 - t0;
    return h < options.dt_min || h <= 16.0 * kEpsilon * std::max(std::abs(t0), std::abs(t1));
  }

  // A bad answer: back to the step's start, then the error.
  [[noreturn]] void reject(double t0, double t1, const CheckAnswer& answer, const std::string& why) {
    ode->redo_to(t0);
    std::string what = "SecondOrderSolver::run: check_step answered ";
    what += describe(answer);
    what += " for the step ";
    what += interval(t0, t1);
    what += ": ";
    what += why;
    throw std::invalid_argument(what);
  }

  void check_redo(double t0, double t1, const CheckAnswer& answer) {
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

  // Commits the tentative step at t1 with the end state in x_end (maybe adjusted).
  void take(double t0, double t1, const CheckAnswer& answer) {
    const std::span<const double> computed = ode->state();
    const bool adjusted = std::memcmp(x_end.data(), computed.data(), 2 * m * sizeof(double)) != 0;
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
      ode->correct_state(x_end.data());
      ++counters.adjustments;
    }
    std::copy(x_end.begin(), x_end.end(), x_now.begin());
    if (adjusted) {
      a_now_valid = false;
      (void)acceleration_now();
    } else {
      std::copy(a_end.begin(), a_end.end(), a_now.begin());
      a_now_valid = true;
    }
    ++counters.steps_taken;
  }

  [[noreturn]] void stalled(double t0, double t1, const CheckAnswer& answer) const {
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

  [[noreturn]] void solver_failed(const StepResult& result) const {
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

  /// The check's answer on the step [t0, t1] just made (x_end at t1): the
  /// accelerations at both ends, then check(step). Whatever throws after a0
  /// leaves the solver back at t0.
  CheckAnswer ask(TentativeStep& step, double t0, double t1, int redos) {
    (void)acceleration_now();  // a0
    try {
      evaluate_counted(t1, x_end.data(), a_end.data());  // a1
      step.t0_ = t0;
      step.t1_ = t1;
      step.redos_ = redos;
      ++counters.checks;
      return check(step);
    } catch (...) {
      ode->redo_to(t0);
      throw;
    }
  }
};

SecondOrderSolver::SecondOrderSolver(const SecondOrderProblem& problem, const SecondOrderOptions& options,
                                     double t0, std::span<const double> p0, std::span<const double> v0,
                                     CheckStepFunction check_step)
    : impl_(std::make_unique<Impl>()) {
  check_second_order(problem, options, t0, p0, v0);
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
  s.x_end.resize(2 * m);
  s.a_end.resize(m);
  s.scratch.resize(2 * m);

  const OdeOptions ode_options = first_order_options(options, m);
  const OdeProblem ode_problem{2 * m, &Impl::rhs, nullptr, nullptr, &s};
  s.ode.emplace(ode_problem, ode_options, t0, s.x_now);
  (void)s.acceleration_now();
}

SecondOrderSolver::~SecondOrderSolver() = default;
SecondOrderSolver::SecondOrderSolver(SecondOrderSolver&&) noexcept = default;
SecondOrderSolver& SecondOrderSolver::operator=(SecondOrderSolver&&) noexcept = default;

SecondOrderResult SecondOrderSolver::run(double t_end) {
  Impl& s = *impl_;
  OdeSolver& ode = *s.ode;
  if (!std::isfinite(t_end) || t_end < ode.current_time()) {
    std::string why = "run: t_end = ";
    why += format_double(t_end);
    why += " must be finite and not before the current time ";
    why += format_double(ode.current_time());
    bad_argument(why);
  }
  const std::size_t m = s.m;
  double limit = std::min(s.bound, t_end);
  int stalls = 0;
  int redos = 0;  // redo answers since the last step taken

  TentativeStep step;
  step.ode_ = &ode;
  step.scratch_ = s.scratch.data();
  step.m_ = m;
  step.x0_ = s.x_now.data();
  step.a0_ = s.a_now.data();
  step.x1_ = s.x_end.data();
  step.a1_ = s.a_end.data();

  while (ode.current_time() < t_end) {
    const double t0 = ode.current_time();
    const StepResult result = ode.step(limit);
    if (!result.ok()) s.solver_failed(result);
    const double t1 = result.t_reached;
    const std::span<const double> x1 = ode.state();
    std::copy(x1.begin(), x1.end(), s.x_end.begin());

    if (!s.check) {  // every step taken, none adjusted
      std::copy(s.x_end.begin(), s.x_end.end(), s.x_now.begin());
      s.a_now_valid = false;
      ++s.counters.steps_taken;
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
