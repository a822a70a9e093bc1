#pragma once
// The elastic bouncing balls of the state-event benchmark (issue 5), shared by
// ball_bench.cpp (ctde) and handwritten_ball.cpp (ARKODE by hand): the models,
// their closed-form impact times and the error of a run's impacts against them.
// scipy_balls.py defines the same balls.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace balls {

constexpr double kGravity = 9.81;
constexpr double kRestitution = 1.0;

/// A set of independent balls and how long to run them.
struct Balls {
  std::string name;
  std::vector<double> h0;  ///< initial heights, m
  double stop_time = 0;    ///< s
};

/// One ball until just after impact `impacts` (at (2 impacts - 1) t1): the stop
/// time is the apex after it, 2 impacts t1.
inline Balls ball1(long impacts) {
  const double h0 = 10.0;
  const double t1 = std::sqrt(2.0 * h0 / kGravity);
  std::string name = "ball1";
  if (impacts != 1000) {
    name += '@';
    name += std::to_string(impacts);
  }
  return {name, {h0}, 2.0 * static_cast<double>(impacts) * t1};
}

/// 1000 for "ball1" and "all", N for "ball1@N", 0 otherwise.
inline long ball1_impacts(const std::string& which) {
  if (which == "ball1" || which == "all") return 1000;
  if (which.rfind("ball1@", 0) == 0) return std::max(1L, std::atol(which.c_str() + 6));
  return 0;
}

/// 100 balls, h_i(0) = 1 + 0.0999 i m, for 20 s (see handwritten_ball.cpp for
/// why not 1 + 0.1 i).
inline Balls balls100() {
  Balls balls{"balls100", {}, 20.0};
  for (int i = 0; i < 100; ++i) balls.h0.push_back(1.0 + 0.0999 * i);
  return balls;
}

/// Impact time k (from 1) of a ball dropped from rest at height h0, e = 1.
inline double impact_time(double h0, long k) {
  return static_cast<double>(2 * k - 1) * std::sqrt(2.0 * h0 / kGravity);
}

inline long expected_impacts(const Balls& balls) {
  long total = 0;
  for (const double h0 : balls.h0) {
    for (long k = 1; impact_time(h0, k) < balls.stop_time; ++k) ++total;
  }
  return total;
}

/// An impact found by a run: which ball, when.
struct Impact {
  std::size_t ball = 0;
  double t = 0;
};

/// Worst error of the impacts found against the closed form, ball by ball in order.
struct Errors {
  double max_abs = 0;
  double max_rel = 0;
  long worst_ball = -1;
  long worst_impact = 0;
};

inline Errors impact_errors(const Balls& balls, const std::vector<Impact>& impacts) {
  Errors errors;
  std::vector<long> count(balls.h0.size(), 0);
  for (const Impact& impact : impacts) {
    const long k = ++count[impact.ball];
    const double exact = impact_time(balls.h0[impact.ball], k);
    const double error = std::abs(impact.t - exact);
    if (error > errors.max_abs) {
      errors.max_abs = error;
      errors.worst_ball = static_cast<long>(impact.ball);
      errors.worst_impact = k;
    }
    errors.max_rel = std::max(errors.max_rel, error / exact);
  }
  return errors;
}

}  // namespace balls
