#pragma once
/// (Private: not installed, it includes SUNDIALS.) ARKODE behind OdeSolver:
/// ERKStep for the explicit methods (erk45 with OdeIntegrator::kArkode,
/// erk23, rk4-fixed, rkf45), ARKStep for dirk and ark-imex (the table in
/// ode_solver.hpp). What it shares with CVODE is SundialsBackend's.

#include "sundials_backend_impl.hpp"

namespace ctde {

class ArkodeBackend final : public SundialsBackend {
 public:
  /// Pre: the problem and options were checked by OdeSolver.
  /// @throws std::runtime_error if a set-up call fails.
  ArkodeBackend(const OdeProblem& problem, const OdeOptions& options, double t0, std::span<const double> x0);
  ~ArkodeBackend() override;

  [[nodiscard]] OdeStatistics statistics() const override;

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
  [[nodiscard]] bool fixed_step() const override { return options_.method == SolverKind::kRk4Fixed; }
  void restore_fixed_step() override;
  int attach_linear_solver(SUNMatrix matrix, SUNLinearSolver solver, bool jacobian) override;

  void set_classical_rk4();
  void set_tolerances();
  [[nodiscard]] double fixed_step_size() const {
    return options_.initial_step ? *options_.initial_step : *options_.max_step;
  }

  /// The integrator's counters as it reports them (since its last ReInit,
  /// but the nonlinear solver's, which it keeps counting).
  [[nodiscard]] OdeStatistics counters() const;

  void* mem_ = nullptr;
  bool erk_ = true;  // ERKStep (explicit methods) or ARKStep (implicit, IMEX)
  using RhsCallback = int (*)(sunrealtype, N_Vector, N_Vector, void*);
  RhsCallback fe_ = nullptr;  // ARKStep's explicit and implicit functions, for ReInit
  RhsCallback fi_ = nullptr;
  OdeStatistics carried_;  // the counters of the integrations before the last ReInit
};

}  // namespace ctde
