#pragma once
/// The project's own Dormand–Prince 5(4) stepper (docs/architecture.md; issue 21):
/// erk45 behind OdeSolver, without SUNDIALS. OdeSolver forwards every call to it
/// when the method is erk45 and OdeOptions::integrator is kCtde (the default); the
/// contract is OdeSolver's (ode_solver.hpp), and this header says only how it is met.
///
/// The method: Dormand and Prince's RK5(4)7M (J. Comput. Appl. Math. 6, 1980), the
/// 7-stage tableau whose last stage is f(t1, x1) (first same as last: 6 new
/// right-hand-side evaluations per step), advancing with the order-5 weights.
/// Dense output: the method's own continuous extension of order 4 (Shampine 1986;
/// Hairer, Nørsett and Wanner I, II.6), a polynomial in the step's stages: no
/// extra evaluation, nothing computed unless asked.
///
/// What it copies from ARKODE 6.4's ERKStep defaults, so that both take about the
/// same steps (tests/ct/test_dormand_prince.cpp compares them):
///   - the error test: the weighted RMS norm of the embedded error estimate,
///     weights 1 / (rtol |x_i(t0)| + atol_i) from the step's start, accepted at <= 1;
///   - ERKStep's PI controller on the embedding's order 4 with ERKStep's limits, and
///     ARKODE's first-step estimate (none given): dormand_prince_controller.hpp,
///     the code the benchmarks' floor (bench/ct/dp5_floor.cpp) runs too;
///   - reset() and redo_to() restart the controller as ARKODE's ReInit does;
///     correct_state() keeps it.
/// Not ARKODE's: a step that would end short of step()'s t_limit by less than 1 %
/// of itself is stretched to land on it, as Hairer's DOPRI5 does (where max_step
/// forbids it, the rest is taken in two equal steps), so that no sliver of a step
/// is left before an event.
///
/// Memory: one block of 12 n doubles at construction (state at t0 and t1, the trial
/// state, seven stages, the weights, the tolerances); step() allocates nothing
/// unless it fails (the message). Every vector loop is a plain loop over restrict
/// pointers, which the compiler vectorizes.
///
/// A right-hand side's failure (RhsFunction's convention): < 0 fails the step; > 0
/// at a stage retries the step from its start with a quarter of that stage's
/// offset (t_s - t0), at most 10 times in a row (OdeSolver's rule, as its ARKODE
/// path does it), > 0 at the step's start fails it. An exception thrown by the
/// right-hand side leaves the stepper at its last good state and propagates.
///
/// Not copyable, not movable (OdeSolver holds it behind a pointer; SolverBackend).

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "dormand_prince_controller.hpp"
#include "ode_solver.hpp"
#include "solver_backend.hpp"

namespace ctde {

class DormandPrince final : public SolverBackend {
 public:
  /// Pre: the problem and options were checked by OdeSolver (method erk45).
  DormandPrince(const OdeProblem& problem, const OdeOptions& options, double t0, std::span<const double> x0);

  [[nodiscard]] StepResult step(double t_limit) override;
  void advance_to(double t_limit) override;
  void interpolate(double t, double* out) const override;
  void reset(double t, const double* x, double first_step) override;
  void correct_state(const double* x) override;
  void redo_to(double te) override;
  [[nodiscard]] double planned_step() const override { return h_; }  ///< 0 before the first step

  [[nodiscard]] double current_time() const override { return t_; }
  [[nodiscard]] std::span<const double> state() const override { return {y_, n_}; }
  [[nodiscard]] std::span<const double> last_step_start_state() const override { return {y0_, n_}; }
  [[nodiscard]] double last_step_start() const override { return t0_; }
  [[nodiscard]] bool has_interpolant() const override { return interpolant_; }
  [[nodiscard]] OdeStatistics statistics() const override { return stats_; }
  [[nodiscard]] std::string method_now() const override { return "erk45"; }
  [[nodiscard]] bool saves_exactly() const override { return true; }
  /// The times, the states at both ends of the last step, its stages, the
  /// error weights, the planned step and the controller's memory, the counters.
  void save_exact(StateWriter& out) const override;
  void restore_exact(StateReader& in) override;

  /// Hairer's stiffness estimate of the last accepted step: h times the
  /// Lipschitz quotient |f(x7) - f(x6)| / |x7 - x6| of its last two stages
  /// (Hairer and Wanner II, IV.2, as DOPRI5's iasti); the method's stability
  /// region ends near 3.3 on the negative real axis. 0 before a step.
  [[nodiscard]] double stiffness_estimate() const { return stiffness_; }
  /// Computes stiffness_estimate() at every accepted step (one pass over the
  /// stages; off unless asked: the switching back end asks).
  void estimate_stiffness(bool on) { estimate_stiffness_ = on; }

 private:
  // One attempt of a step of size h from (t_, y_): the trial state in ynew_ and the
  // stages 2..7 in k_[1..6]. Returns 0, or the right-hand side's failure code with
  // the failing stage's index in `stage`.
  int attempt(double h, int& stage);
  [[nodiscard]] double error_norm(double h) const;
  // |f(x7) - f(x6)| / |x7 - x6| of the attempt just made (stiffness_estimate).
  [[nodiscard]] double lipschitz_quotient(double h) const;
  // Error weights from y_; false if one is not finite and positive (atol 0, x 0).
  bool set_weights();
  int rhs(double t, const double* x, double* dxdt);
  [[nodiscard]] StepResult failure(StepStatus status, std::string message) const;
  [[nodiscard]] StepResult rhs_failure(int code, double t_fail, int retries) const;

  OdeProblem problem_;
  double rtol_;
  double min_step_;
  double max_step_;
  double first_step_;  // the user's initial_step, 0 if none
  std::size_t n_;

  std::vector<double> storage_;  // 12 n doubles, allocated once
  double* y0_;                   // x(t0)
  double* y_;                    // x(t1) == x(t_)
  double* ynew_;                 // trial state
  std::array<double*, 7> k_{};   // stages; k_[0] == f(t_, y_) when have_f0_
  double* weights_;
  double* atol_;

  double t_;
  double t0_;
  double h_ = 0;      // the step to try next (0: none yet)
  double hlast_ = 0;  // the size of the last step [t0_, t_]
  bool have_f0_ = false;
  bool weights_valid_ = false;
  bool interpolant_ = false;  // the stages of [t0_, t_] are kept (k_[6] is its first)

  dp5::StepController controller_;  // ERKStep's, shared with the benchmarks' floor
  double stiffness_ = 0;            // stiffness_estimate()
  bool estimate_stiffness_ = false;

  OdeStatistics stats_;
};

}  // namespace ctde
