// The continuous phase integrated by another program (continuous_phase_impl.hpp,
// "Integrated by another program"): its points evaluated, its accepted
// steps and its events taken as the phase's own.
#include <algorithm>

#include "domains/ctde/continuous_part_impl.hpp"

namespace ctde {

void ContinuousPhase::evaluate_external(double t, const double* x, std::span<double> dx,
                                        std::span<double> z) {
  Part& p = parts_.all.front();
  if (p.solver && part_rhs(t, x, dx.data(), &p) != 0)
    rhs_failed("at a point the integrating program asked for");
  const StatesView view(run_.b_, x);
  run_.evaluate_all(t);
  if (p.generators.empty()) return;
  evaluate_guards(p, t, z);
  for (std::size_t i = 0; i < z.size(); ++i) z[i] -= p.locator.guards().level(i);
}

void ContinuousPhase::accept_external(double t, std::span<const double> x) {
  Part& p = parts_.all.front();
  std::copy(x.begin(), x.end(), run_.b_.x_storage.begin());
  run_.evaluate_all(t);
  if (p.generators.empty()) return;
  evaluate_guards(p, t, p.locator.end_values());
  // The program calls this at a crossing it found too, before its event:
  // the guards keep their sides for jump_external to see it.
  if (!p.locator.crossed()) p.locator.accept();
}

void ContinuousPhase::jump_external(double t, std::span<const double> x) {
  Part& p = parts_.all.front();
  std::copy(x.begin(), x.end(), run_.b_.x_storage.begin());
  restart_part(p, t);
  run_.evaluate_all(t);
  if (p.generators.empty()) return;
  evaluate_guards(p, t, p.locator.end_values());
  if (p.locator.crossed()) {
    fire_part_events(p, run_.now_, LocatedCrossing{t, t, 0}, t, 0);
  } else {
    p.locator.accept();
  }
}

}  // namespace ctde
