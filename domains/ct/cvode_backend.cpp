#include "domains/ct/cvode_backend_impl.hpp"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ctde {

namespace {

constexpr int kMaxErrorTestFailures = 20;

}  // namespace

CvodeBackend::CvodeBackend(const OdeProblem& problem, const OdeOptions& options, double t0,
                           std::span<const double> x0)
    : SundialsBackend(problem, options, t0, x0) {
  void* self = static_cast<SundialsBackend*>(this);
  mem_ = CVodeCreate(CV_BDF, ctx_);
  if (mem_ == nullptr) fail_setup("CVodeCreate", 0);
#if SUNDIALS_VERSION_MAJOR >= 7
  check(SUNContext_ClearErrHandlers(ctx_), "SUNContext_ClearErrHandlers");
  check(SUNContext_PushErrHandler(ctx_, error_handler, self), "SUNContext_PushErrHandler");
#else
  check(CVodeSetErrHandlerFn(mem_, error_handler, self), "CVodeSetErrHandlerFn");
#endif
  check(CVodeInit(mem_, rhs_main, t0, y_[cur_]), "CVodeInit");
  check(CVodeSetUserData(mem_, self), "CVodeSetUserData");
  if (options.atol_per_state.empty()) {
    check(CVodeSStolerances(mem_, options.rtol, options.atol), "CVodeSStolerances");
  } else {
    N_Vector atol = new_vector("N_VNew_Serial (atol)");
    std::copy(options.atol_per_state.begin(), options.atol_per_state.end(), NV_DATA_S(atol));
    const int flag = CVodeSVtolerances(mem_, options.rtol, atol);  // copies atol
    N_VDestroy(atol);
    check(flag, "CVodeSVtolerances");
  }
  if (options.initial_step) check(CVodeSetInitStep(mem_, *options.initial_step), "CVodeSetInitStep");
  if (options.min_step) check(CVodeSetMinStep(mem_, *options.min_step), "CVodeSetMinStep");
  if (options.max_step && std::isfinite(*options.max_step)) {
    check(CVodeSetMaxStep(mem_, *options.max_step), "CVodeSetMaxStep");
  }
  // OdeSolver counts the steps toward max_steps; CVODE's own limit (per call
  // of CVode, here one step) stays out of the way.
  check(CVodeSetMaxNumSteps(mem_, -1), "CVodeSetMaxNumSteps");
  // A restart after an event begins at order 1 with the first step given
  // (or estimated): CVODE's 7 error-test failures per step, each cutting
  // the step by at most 10, may not reach the step a fast transient after
  // a switch needs (1e-9 s from 0.05 s: an RC node closing onto a source).
  check(CVodeSetMaxErrTestFails(mem_, kMaxErrorTestFailures), "CVodeSetMaxErrTestFails");
  make_linear_solver();
}

CvodeBackend::~CvodeBackend() {
  if (mem_ != nullptr) CVodeFree(&mem_);
}

int CvodeBackend::attach_linear_solver(SUNMatrix matrix, SUNLinearSolver solver, bool jacobian) {
  const int flag = CVodeSetLinearSolver(mem_, solver, matrix);
  if (flag < 0 || !jacobian) return flag;
  return CVodeSetJacFn(mem_, SundialsBackend::jacobian);
}

int CvodeBackend::evolve(double t_limit, N_Vector yout, double& t_reached) {
  const int flag = CVodeSetStopTime(mem_, t_limit);
  if (flag < 0) return flag;
  sunrealtype t = t_reached;
  const int result = CVode(mem_, t_limit, yout, &t, CV_ONE_STEP);
  t_reached = t;
  return result;
}

int CvodeBackend::reinit(double t, N_Vector y) {
  carried_ += counters();
  return CVodeReInit(mem_, t, y);
}
int CvodeBackend::set_init_step(double h) { return CVodeSetInitStep(mem_, h); }
int CvodeBackend::get_dky(double t, N_Vector out) const { return CVodeGetDky(mem_, t, 0, out); }
int CvodeBackend::current_step(double& h) const {
  sunrealtype planned = 0;
  const int flag = CVodeGetCurrentStep(mem_, &planned);
  h = planned;
  return flag;
}
int CvodeBackend::error_weights(N_Vector weights) const { return CVodeGetErrWeights(mem_, weights); }

int CvodeBackend::local_errors(N_Vector errors) const { return CVodeGetEstLocalErrors(mem_, errors); }

std::string CvodeBackend::flag_name(long flag) const {
  char* name = CVodeGetReturnFlagName(flag);
  std::string result = name != nullptr ? name : "CV_UNKNOWN";
  std::free(name);  // SUNDIALS allocates the name with malloc
  return result;
}

StepStatus CvodeBackend::classify(int flag) const {
  switch (flag) {
    case CV_SUCCESS:
      return StepStatus::kOk;
    case CV_TSTOP_RETURN:
      return StepStatus::kReachedStop;
    case CV_TOO_MUCH_WORK:
      return StepStatus::kTooMuchWork;
    case CV_TOO_MUCH_ACC:
    case CV_ERR_FAILURE:
    case CV_CONV_FAILURE:
    case CV_LSETUP_FAIL:
    case CV_LSOLVE_FAIL:
      return StepStatus::kStepTooSmall;
    case CV_RHSFUNC_FAIL:
    case CV_FIRST_RHSFUNC_ERR:
    case CV_REPTD_RHSFUNC_ERR:
    case CV_UNREC_RHSFUNC_ERR:
      return StepStatus::kRhsFailed;
    default:
      return StepStatus::kFailed;
  }
}

OdeStatistics CvodeBackend::statistics() const {
  OdeStatistics st = counters();
  st += carried_;
  st.jacobian_rhs_evals += jacobian_rhs_evals();
  st.step_attempts = st.steps + st.error_test_failures + st.nonlinear_conv_failures;
  return st;
}

OdeStatistics CvodeBackend::counters() const {
  OdeStatistics st;
  void* mem = mem_;
  check(CVodeGetNumSteps(mem, &st.steps), "CVodeGetNumSteps");
  check(CVodeGetNumRhsEvals(mem, &st.rhs_evals), "CVodeGetNumRhsEvals");
  check(CVodeGetNumErrTestFails(mem, &st.error_test_failures), "CVodeGetNumErrTestFails");
  check(CVodeGetNumLinRhsEvals(mem, &st.jacobian_rhs_evals), "CVodeGetNumLinRhsEvals");
  check(CVodeGetNumJacEvals(mem, &st.jacobian_evals), "CVodeGetNumJacEvals");
  check(CVodeGetNumNonlinSolvIters(mem, &st.nonlinear_iterations), "CVodeGetNumNonlinSolvIters");
  check(CVodeGetNumNonlinSolvConvFails(mem, &st.nonlinear_conv_failures), "CVodeGetNumNonlinSolvConvFails");
  check(CVodeGetNumLinSolvSetups(mem, &st.linear_setups), "CVodeGetNumLinSolvSetups");
  if (st.steps == 0 && st.error_test_failures == 0 && st.nonlinear_conv_failures == 0) {
    // No step since the ReInit: the linear solver's counters are those of
    // before it (cleared at the next step), already carried.
    st.jacobian_rhs_evals = st.jacobian_evals = 0;
  }
  return st;
}

}  // namespace ctde
