#pragma once
// Closed-form answers the tests compare runs against.

#include <cmath>
#include <vector>

namespace ctde::test {

/// Impact times of a ball dropped from h0 with restitution e: t1 = sqrt(2 h0 / g),
/// then each flight lasts 2 v_k / g with v_k = e^k g t1; those before `until`.
inline std::vector<double> impact_times(double h0, double g, double e, double until) {
  std::vector<double> times;
  double t = std::sqrt(2 * h0 / g);
  double v = g * t;
  while (t < until) {
    times.push_back(t);
    v *= e;
    t += 2 * v / g;
  }
  return times;
}

/// The height at time t of the same ball (impact_times): a parabola from
/// h0 at rest, then after impact k a flight up from 0 at e^k g t1.
inline double ball_height(double h0, double g, double e, double t) {
  const double t1 = std::sqrt(2 * h0 / g);
  if (t < t1) return h0 - 0.5 * g * t * t;
  double impact = t1;
  double v = g * t1;
  while (true) {
    v *= e;
    const double flight = 2 * v / g;
    if (t < impact + flight) {
      const double s = t - impact;
      return v * s - 0.5 * g * s * s;
    }
    impact += flight;
  }
}

}  // namespace ctde::test
