#pragma once
/// (Private: not installed, it includes SUNDIALS.) What the SUNDIALS back ends
/// share (ARKODE, arkode_backend_impl.hpp; CVODE, cvode_backend_impl.hpp):
/// the context, the two state vectors a step alternates between, the
/// right-hand-side and Jacobian trampolines, the error messages, the
/// recoverable-failure retry of OdeSolver's contract, the rollback and the
/// resets, and the Newton systems' linear solver (linear_solver.hpp) with
/// the Jacobian over the problem's pattern (jacobian_evaluator_impl.hpp).
/// A package's back end supplies its calls through the hooks below.
///
/// SUNDIALS 6 and 7: SUNContext_Create takes a void* communicator in 6.x, a
/// SUNComm in 7.x; 7.0 removed *SetErrHandlerFn (errors go to the context's
/// handler stack); 7.1 added the shared ARKode* functions and deprecated the
/// ERKStep*/ARKStep* ones (arkode_backend.cpp); 7.2 ARKodeGetNumRhsEvals.

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_types.h>
#include <sundials/sundials_version.h>

#include <array>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "jacobian_evaluator_impl.hpp"
#include "linear_solver.hpp"
#include "ode_solver.hpp"
#include "solver_backend.hpp"

namespace ctde {

class SundialsBackend : public SolverBackend {
 public:
  ~SundialsBackend() override;

  [[nodiscard]] StepResult step(double t_limit) override;
  void advance_to(double t_limit) override;
  void interpolate(double t, double* out) const override;
  void reset(double t, const double* x, double first_step) override;
  void correct_state(const double* x) override;
  void redo_to(double te) override;
  [[nodiscard]] double planned_step() const override;
  [[nodiscard]] double step_kept_by_reset() const override {
    return reset_keeps_step() ? planned_step() : 0.0;
  }
  [[nodiscard]] double current_time() const override { return t_; }
  [[nodiscard]] double last_step_start() const override { return t0_; }
  [[nodiscard]] bool has_interpolant() const override { return interpolant_; }
  [[nodiscard]] std::span<const double> state() const override { return {NV_DATA_S(y_[cur_]), n_}; }
  [[nodiscard]] std::span<const double> last_step_start_state() const override {
    return {NV_DATA_S(y_[1 - cur_]), n_};
  }
  [[nodiscard]] std::string linear_solver() const override;
  [[nodiscard]] std::string method_now() const override { return to_string(options_.method); }

 protected:
  SundialsBackend(const OdeProblem& problem, const OdeOptions& options, double t0,
                  std::span<const double> x0);

  // -- the package's calls (the integrator is made by the derived class) ------
  /// One internal step toward t_limit with the stop time set there: the flag,
  /// the state into yout, the time reached into t_reached.
  virtual int evolve(double t_limit, N_Vector yout, double& t_reached) = 0;
  /// Restart at (t, y): the history is dropped, the counters stay.
  virtual int reinit(double t, N_Vector y) = 0;
  virtual int set_init_step(double h) = 0;
  virtual int get_dky(double t, N_Vector out) const = 0;
  /// The step the integrator plans next (0 before the first).
  virtual int current_step(double& h) const = 0;
  virtual int error_weights(N_Vector weights) const = 0;
  /// The local error estimates of the last step attempted.
  virtual int local_errors(N_Vector errors) const = 0;
  [[nodiscard]] virtual std::string flag_name(long flag) const = 0;
  /// kOk, kReachedStop or the failure a flag means.
  [[nodiscard]] virtual StepStatus classify(int flag) const = 0;
  /// Whether reset() starts with the step planned before it (a one-step
  /// method's step carries over a jump), or with the integrator's own
  /// estimate (BDF restarts at order 1, where the planned step of a higher
  /// order can be too long for the 7 error-test failures it may take).
  [[nodiscard]] virtual bool reset_keeps_step() const { return true; }
  /// rk4-fixed: the step is fixed (reset keeps it; no shorter retry).
  [[nodiscard]] virtual bool fixed_step() const { return false; }
  virtual void restore_fixed_step() {}
  /// Attaches matrix and linear solver (null matrix: matrix-free) and the
  /// Jacobian function; after it the package's linear-solver calls work.
  virtual int attach_linear_solver(SUNMatrix matrix, SUNLinearSolver solver, bool jacobian) = 0;

  // -- set-up helpers for the derived constructor -----------------------------
  [[noreturn]] void fail_setup(const char* call_name, long flag) const;
  void check(int flag, const char* call_name) const {
    if (flag < 0) fail_setup(call_name, flag);
  }
  N_Vector new_vector(const char* what);
  /// The Newton systems' linear solver, chosen from the problem's pattern
  /// (or a dense one over the dense pattern), attached by attach_linear_solver().
  void make_linear_solver();
  /// f evaluations spent on the Jacobian's difference quotients.
  [[nodiscard]] long jacobian_rhs_evals() const { return evaluator_ ? evaluator_->rhs_evals() : 0; }
  /// The message of the last failure the package reported (error handler).
  void keep_message(const char* function, const char* message);

  // -- trampolines -----------------------------------------------------------
  static int rhs_main(sunrealtype t, N_Vector x, N_Vector dxdt, void* self);
  static int rhs_implicit(sunrealtype t, N_Vector x, N_Vector dxdt, void* self);
  static int jacobian(sunrealtype t, N_Vector x, N_Vector fx, SUNMatrix jac, void* self, N_Vector tmp1,
                      N_Vector tmp2, N_Vector tmp3);
#if SUNDIALS_VERSION_MAJOR >= 7
  static void error_handler(int line, const char* function, const char* file, const char* message,
                            SUNErrCode code, void* self, SUNContext ctx);
#else
  static void error_handler(int code, const char* module, const char* function, char* message, void* self);
#endif

  OdeProblem problem_;
  OdeOptions options_;
  std::size_t n_ = 0;
  SUNContext ctx_ = nullptr;
  // y_[cur_] holds x(t1), y_[1 - cur_] x(t0) of the last step; the package
  // writes the new state into the vector it is given, so a step alternates
  // them: no copy.
  std::array<N_Vector, 2> y_{};
  int cur_ = 0;
  N_Vector view_ = nullptr;  // no data of its own: points at caller arrays (interpolation)
  double t_ = 0;             // current time == t1
  double t0_ = 0;            // start of the last step
  bool interpolant_ = false;

 private:
  int call(RhsFunction f, sunrealtype t, N_Vector x, N_Vector dxdt) noexcept;
  [[nodiscard]] StepResult failure(StepStatus status, int flag, std::string message) const;
  /// What a failed step's message adds: the linear solver's own word (a
  /// singular Newton matrix, its column), a non-finite Jacobian entry.
  [[nodiscard]] std::string failure_detail(int flag) const;
  [[nodiscard]] std::string state_name(std::size_t k) const;
  /// "x (1.2e3), y (40)": the states whose weighted local errors are largest.
  [[nodiscard]] std::string largest_local_errors() const;
  void restart(double time, N_Vector x, double first_step);

  std::array<char, 512> message_{};    // the package's last error message
  std::exception_ptr callback_error_;  // thrown by a problem function
  // A recoverable failure (a problem function returned > 0) during the last
  // step, and the time of the last such call (a stage's time).
  bool recoverable_failure_ = false;
  double recoverable_failure_time_ = 0;
  bool jacobian_nonfinite_ = false;
  double jacobian_time_ = 0;

  std::unique_ptr<JacobianPattern> dense_pattern_;  // when the problem gives none
  std::unique_ptr<JacobianEvaluator> evaluator_;
  LinearSolverKind linear_kind_ = LinearSolverKind::kDense;
  SUNMatrix matrix_ = nullptr;
  SUNLinearSolver linear_solver_ = nullptr;
  N_Vector weights_ = nullptr;  // the error weights, for the Jacobian's increments
};

}  // namespace ctde
