#pragma once
/// (Private: not installed, it includes SUNDIALS.) CVODE behind OdeSolver:
/// bdf, the variable-order (1 to 5), variable-step backward differentiation
/// formulas with Newton iterations, the method of ode15s, LSODE and DASSL.
/// A reset, a rollback or a correction restarts it at order 1 (its history
/// no longer holds); the first step after a reset is the one planned before,
/// as for every method. What it shares with ARKODE is SundialsBackend's.

#include "sundials_backend_impl.hpp"

namespace ctde {

class CvodeBackend final : public SundialsBackend {
 public:
  /// Pre: the problem and options were checked by OdeSolver.
  /// @throws std::runtime_error if a set-up call fails.
  CvodeBackend(const OdeProblem& problem, const OdeOptions& options, double t0, std::span<const double> x0);
  ~CvodeBackend() override;

  [[nodiscard]] OdeStatistics statistics() const override;
  [[nodiscard]] std::string method_now() const override { return "bdf"; }

 private:
  int evolve(double t_limit, N_Vector yout, double& t_reached) override;
  int reinit(double t, N_Vector y) override;
  int set_init_step(double h) override;
  int get_dky(double t, N_Vector out) const override;
  int current_step(double& h) const override;
  int error_weights(N_Vector weights) const override;
  int local_errors(N_Vector errors) const override;
  [[nodiscard]] std::string flag_name(long flag) const override;
  [[nodiscard]] StepStatus classify(int flag) const override;
  int attach_linear_solver(SUNMatrix matrix, SUNLinearSolver solver, bool jacobian) override;
  [[nodiscard]] bool reset_keeps_step() const override { return false; }

  /// CVODE's counters since its last (re)initialization (ReInit clears
  /// them; the linear solver's only at the first step after it).
  [[nodiscard]] OdeStatistics counters() const;

  void* mem_ = nullptr;
  OdeStatistics carried_;  // the counters of the integrations before the last ReInit
};

}  // namespace ctde
