// OdeSolver: the contract's checks, once for every back end
// (solver_backend.hpp), and the choice of the back end.
#include "domains/ct/ode_solver.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/fast_paths.hpp"
#include "domains/ct/arkode_backend_impl.hpp"
#include "domains/ct/cvode_backend_impl.hpp"
#include "domains/ct/dormand_prince.hpp"
#include "domains/ct/solver_backend.hpp"
#include "domains/ct/switching_backend.hpp"

namespace ctde {

const char* to_string(StepStatus status) {
  switch (status) {
    case StepStatus::kOk:
      return "ok";
    case StepStatus::kReachedStop:
      return "reached_stop";
    case StepStatus::kRhsFailed:
      return "rhs_failed";
    case StepStatus::kTooMuchWork:
      return "too_much_work";
    case StepStatus::kStepTooSmall:
      return "step_too_small";
    case StepStatus::kFailed:
      return "failed";
  }
  return "?";
}

void check_ode_problem(const OdeProblem& problem, const OdeOptions& options, double t0,
                       std::span<const double> x0) {
  const auto bad = [&](const std::string& why) {
    throw std::runtime_error(std::string("OdeSolver (") + to_string(options.method) + "): " + why);
  };
  if (problem.size == 0) bad("the state size must be > 0");
  if (x0.size() != problem.size) {
    bad("the initial state has " + std::to_string(x0.size()) + " values, the problem " +
        std::to_string(problem.size));
  }
  if (!std::isfinite(t0)) bad("the start time must be finite");
  if (problem.rhs == nullptr &&
      !(options.method == SolverKind::kArkImex && problem.rhs_implicit != nullptr)) {
    bad("no right-hand side function");
  }
  if (problem.rhs_implicit != nullptr && options.method != SolverKind::kArkImex) {
    bad("an implicit right-hand side part is only used by ark-imex");
  }
  if (problem.pattern != nullptr && problem.pattern->size() != problem.size) {
    bad("the Jacobian pattern is " + std::to_string(problem.pattern->size()) + " x " +
        std::to_string(problem.pattern->size()) + ", the state " + std::to_string(problem.size));
  }
  if (problem.pattern != nullptr && problem.pattern->values_at_point() &&
      problem.values_at_point == nullptr) {
    bad("the Jacobian pattern has values given at each point, and no function gives them");
  }
  if (problem.jacobian != nullptr && options.linear_solver != LinearSolverKind::kAuto &&
      options.linear_solver != LinearSolverKind::kDense) {
    bad(std::string("a dense Jacobian function needs linear_solver dense (or auto), not ") +
        to_string(options.linear_solver));
  }
  if (!(options.rtol >= 0) || !std::isfinite(options.rtol)) bad("rtol must be finite and >= 0");
  if (options.atol_per_state.empty()) {
    if (!(options.atol >= 0) || !std::isfinite(options.atol)) bad("atol must be finite and >= 0");
  } else {
    if (options.atol_per_state.size() != problem.size) {
      bad("atol_per_state has " + std::to_string(options.atol_per_state.size()) + " values, the state " +
          std::to_string(problem.size));
    }
    for (double a : options.atol_per_state) {
      if (!(a >= 0) || !std::isfinite(a)) bad("every atol_per_state value must be finite and >= 0");
    }
  }
  const auto check_step = [&](const std::optional<double>& h, const char* name) {
    if (h && !(*h > 0)) bad(std::string(name) + " must be > 0");
    if (h && std::isnan(*h)) bad(std::string(name) + " must be a number");
  };
  check_step(options.initial_step, "initial_step");
  check_step(options.min_step, "min_step");
  check_step(options.max_step, "max_step");
  if (options.initial_step && !std::isfinite(*options.initial_step)) bad("initial_step must be finite");
  if (options.min_step && !std::isfinite(*options.min_step)) bad("min_step must be finite");
  if (options.min_step && options.max_step && *options.min_step > *options.max_step) {
    bad("min_step exceeds max_step");
  }
  if (options.method == SolverKind::kRk4Fixed &&
      !(options.initial_step || (options.max_step && std::isfinite(*options.max_step)))) {
    bad("rk4-fixed needs a step size: set initial_step (or a finite max_step)");
  }
  if (options.max_steps < 0) bad("max_steps must be >= 0 (0: no limit)");
}

OdeSolver::OdeSolver(const OdeProblem& problem, const OdeOptions& options, double t0,
                     std::span<const double> x0)
    : method_(options.method), n_(problem.size), max_steps_(options.max_steps) {
  check_ode_problem(problem, options, t0, x0);
  switch (options.method) {
    case SolverKind::kErk45:
      if (options.integrator == OdeIntegrator::kCtde && fast_paths_enabled()) {  // ARKODE's erk45 when off
        backend_ = std::make_unique<DormandPrince>(problem, options, t0, x0);
        break;
      }
      backend_ = std::make_unique<ArkodeBackend>(problem, options, t0, x0);
      break;
    case SolverKind::kBdf:
      backend_ = std::make_unique<CvodeBackend>(problem, options, t0, x0);
      break;
    case SolverKind::kAuto:
      backend_ = std::make_unique<SwitchingBackend>(problem, options, t0, x0);
      break;
    case SolverKind::kErk23:
    case SolverKind::kRk4Fixed:
    case SolverKind::kDirk:
    case SolverKind::kArkImex:
    case SolverKind::kRkf45:
      backend_ = std::make_unique<ArkodeBackend>(problem, options, t0, x0);
      break;
  }
}

OdeSolver::~OdeSolver() = default;
OdeSolver::OdeSolver(OdeSolver&&) noexcept = default;
OdeSolver& OdeSolver::operator=(OdeSolver&&) noexcept = default;

StepResult OdeSolver::step(double t_limit) {
  const double t = backend_->current_time();
  if (t_limit == t) return StepResult{StepStatus::kReachedStop, t, 0, {}};
  if (!(t_limit > t)) {
    return StepResult{
        StepStatus::kFailed, t, 0,
        "t_limit " + std::to_string(t_limit) + " is not after the current time " + std::to_string(t)};
  }
  if (max_steps_ > 0 && steps_without_stop_ >= max_steps_) {
    return StepResult{StepStatus::kTooMuchWork, t, 0,
                      std::to_string(steps_without_stop_) +
                          " steps (max_steps) without reaching t = " + std::to_string(t_limit)};
  }
  if (!resolves(t, t_limit)) {
    // Closer than an integrator can resolve (a few ulps of t): x changes by
    // less than |f| times that. The time advances alone.
    backend_->advance_to(t_limit);
    steps_without_stop_ = 0;
    return StepResult{StepStatus::kReachedStop, t_limit, 0, {}};
  }
  StepResult result = backend_->step(t_limit);
  if (result.status == StepStatus::kReachedStop) {
    steps_without_stop_ = 0;
  } else if (result.status == StepStatus::kOk) {
    ++steps_without_stop_;
  }
  return result;
}

void OdeSolver::dense_output(double t, double* out) const {
  const SolverBackend& b = *backend_;
  const double t1 = b.current_time();
  const double t0 = b.last_step_start();
  if (t == t1) {
    std::memcpy(out, b.state().data(), n_ * sizeof(double));
    return;
  }
  if (t == t0) {
    std::memcpy(out, b.last_step_start_state().data(), n_ * sizeof(double));
    return;
  }
  const bool inside = t >= t0 && t <= t1;
  if (!inside || !b.has_interpolant()) {
    throw std::out_of_range(
        "OdeSolver::dense_output: t = " + std::to_string(t) +
        (inside ? " is inside [" : " is outside the last step [") + std::to_string(t0) + ", " +
        std::to_string(t1) + "]" +
        (inside ? ", which was reset, rolled back or failed: only its ends are stored" : ""));
  }
  b.interpolate(t, out);
}

bool OdeSolver::resolves(double t0, double t1) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  return t1 - t0 > 4.0 * kEps * std::max(std::abs(t0), std::abs(t1));
}

double OdeSolver::planned_step() const { return backend_->planned_step(); }

void OdeSolver::reset(double t, const double* x, double first_step) {
  if (!std::isfinite(t)) throw std::runtime_error("OdeSolver::reset: t must be finite");
  last_reset_step_ = first_step > 0 ? first_step : backend_->step_kept_by_reset();
  backend_->reset(t, x, first_step);
  steps_without_stop_ = 0;
}

void OdeSolver::correct_state(const double* x) { backend_->correct_state(x); }

void OdeSolver::save_method(StateWriter& out) const { backend_->save_method(out); }

void OdeSolver::restore_method(StateReader& in, double t, const double* x) {
  backend_->restore_method(in, t, {x, n_});
}

bool OdeSolver::saves_exactly() const { return backend_->saves_exactly(); }

void OdeSolver::save_exact(StateWriter& out) const {
  out.f64(last_reset_step_);
  out.i64(steps_without_stop_);
  backend_->save_exact(out);
}

void OdeSolver::restore_exact(StateReader& in) {
  last_reset_step_ = in.f64();
  steps_without_stop_ = in.i64();
  backend_->restore_exact(in);
}

void OdeSolver::redo_to(double te) {
  const SolverBackend& b = *backend_;
  const double t0 = b.last_step_start();
  const double t1 = b.current_time();
  if (!(te >= t0 && te <= t1)) {
    throw std::out_of_range("OdeSolver::redo_to: te = " + std::to_string(te) + " is outside the last step [" +
                            std::to_string(t0) + ", " + std::to_string(t1) + "]");
  }
  if (te == t1) return;
  if (te != t0 && !b.has_interpolant()) {
    throw std::out_of_range("OdeSolver::redo_to: te = " + std::to_string(te) +
                            " is inside a step that was already reset or rolled back");
  }
  backend_->redo_to(te);
}

double OdeSolver::current_time() const { return backend_->current_time(); }
std::span<const double> OdeSolver::state() const { return backend_->state(); }
std::span<const double> OdeSolver::last_step_start_state() const { return backend_->last_step_start_state(); }
double OdeSolver::last_step_start() const { return backend_->last_step_start(); }
double OdeSolver::last_step_end() const { return backend_->current_time(); }
std::size_t OdeSolver::size() const { return n_; }
std::string OdeSolver::method_now() const { return backend_->method_now(); }
std::string OdeSolver::linear_solver() const { return backend_->linear_solver(); }
const std::string& OdeSolver::method_switch() const { return backend_->method_switch(); }
OdeStatistics OdeSolver::statistics() const { return backend_->statistics(); }

}  // namespace ctde
