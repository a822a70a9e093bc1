#pragma once
/// `solver: "auto"` (docs/semantics.md, "What auto does"): the project's
/// Dormand–Prince stepper while the problem is not stiff, CVODE's BDF while
/// it is, each switch at a step's end, as LSODA switches between Adams and
/// BDF.
///
/// - To bdf: Dormand–Prince estimates h·ρ at every accepted step from its
///   last two stages (DormandPrince::stiffness_estimate: h times the
///   Lipschitz quotient, Hairer and Wanner's test in DOPRI5); its stability
///   region ends near 3.3 on the negative real axis, so an estimate above
///   kStiffBound means the step is held by stability, not accuracy.
///   kStiffSteps such steps without kCalmSteps ordinary ones in between
///   switch to bdf, starting with the explicit method's step.
/// - Back to erk45: every kCheckEvery bdf steps, the spectral radius ρ of J
///   is estimated by power iteration on difference quotients of f
///   (kPowerIterations evaluations of f); when the bdf step h has
///   h·ρ < kCalmBound twice in a row, Dormand–Prince could take that step
///   within its stability region: it takes over, starting with h.
///
/// A switch is announced by the step after which it happens
/// (StepResult::switches_method; method_switch() the reason, a trace line) and takes
/// effect at the next step; resets, rollbacks and the dense output of the
/// step just taken are the method's that took it.
///
/// Not copyable, not movable (SolverBackend).

#include <memory>
#include <string>
#include <vector>

#include "dormand_prince.hpp"
#include "ode_solver.hpp"
#include "solver_backend.hpp"

namespace ctde {

class CvodeBackend;

class SwitchingBackend final : public SolverBackend {
 public:
  static constexpr double kStiffBound = 3.25;
  static constexpr int kStiffSteps = 15;
  static constexpr int kCalmSteps = 6;
  static constexpr int kCheckEvery = 20;
  static constexpr int kPowerIterations = 8;
  static constexpr double kCalmBound = 1.5;

  /// Pre: checked by OdeSolver. Starts with Dormand–Prince; CVODE is made at the first switch.
  SwitchingBackend(const OdeProblem& problem, const OdeOptions& options, double t0,
                   std::span<const double> x0);
  ~SwitchingBackend() override;

  [[nodiscard]] StepResult step(double t_limit) override;
  void advance_to(double t_limit) override;
  void interpolate(double t, double* out) const override;
  void reset(double t, const double* x, double first_step) override;
  void correct_state(const double* x) override;
  void redo_to(double te) override;
  [[nodiscard]] double planned_step() const override;
  [[nodiscard]] double current_time() const override;
  [[nodiscard]] double last_step_start() const override;
  [[nodiscard]] bool has_interpolant() const override;
  [[nodiscard]] std::span<const double> state() const override;
  [[nodiscard]] std::span<const double> last_step_start_state() const override;
  [[nodiscard]] OdeStatistics statistics() const override;
  [[nodiscard]] std::string linear_solver() const override;
  [[nodiscard]] std::string method_now() const override;
  [[nodiscard]] double step_kept_by_reset() const override;
  void save_method(StateWriter& out) const override;
  void restore_method(StateReader& in, double t, std::span<const double> x) override;
  [[nodiscard]] const std::string& method_switch() const override { return reason_; }

 private:
  [[nodiscard]] SolverBackend& active() const;
  /// After an accepted step: true when a switch is announced (its reason in reason_).
  bool decide();
  /// The switch announced by the last step, now: the other method restarts
  /// at the active one's state, with `first_step`.
  void switch_now(double t, const double* x, double first_step);
  /// ρ(J) at the active state by power iteration (0 when f fails).
  double spectral_radius();

  OdeProblem problem_;
  OdeOptions options_;
  std::unique_ptr<DormandPrince> explicit_;
  std::unique_ptr<CvodeBackend> implicit_;
  double implicit_first_step_ = 0;  // the initial_step bdf was made with (0: none)
  bool stiff_ = false;              // bdf is the active method
  bool switch_pending_ = false;     // announced, not done yet
  double switch_step_ = 0;          // the first step of the method switched to
  int stiff_count_ = 0;
  int calm_count_ = 0;
  int bdf_steps_ = 0;
  int calm_checks_ = 0;
  long switches_ = 0;
  std::string reason_;                        // the last switch announced
  long power_rhs_evals_ = 0;                  // f evaluations of the spectral radius estimates
  std::vector<double> v_, w_, f0_, shifted_;  // the power iteration's vectors
};

}  // namespace ctde
