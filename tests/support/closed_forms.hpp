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

}  // namespace ctde::test
