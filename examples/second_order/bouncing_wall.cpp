// A ball falling onto a wall, with air drag, integrated by SecondOrderSolver; the
// impacts are found and handled by check_step alone. Prints one row per impact: the
// computed time and speed, the analytic ones, and their relative differences.
//
//   y'' = -g - k y'   above the wall y = 0;   at the wall v⁺ = -e v⁻
//
// Usage: bouncing_wall [impacts]   (default 8)

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "domains/ct/second_order.hpp"

namespace {

constexpr double kG = 9.81;    // gravity, m/s²
constexpr double kDrag = 0.1;  // linear drag, 1/s
constexpr double kRestitution = 0.8;
constexpr double kHeight = 10.0;   // starting height, m
constexpr double kAtWall = 1e-11;  // |y| below this counts as touching the wall, m

void falling(double /*t*/, const double* /*p*/, const double* v, double* a, void* /*user*/) {
  a[0] = -kG - kDrag * v[0];
}

// Closed form of a flight from height y0 with velocity w (up > 0), after tau seconds.
double height(double y0, double w, double tau) {
  return y0 - (w + kG / kDrag) * std::expm1(-kDrag * tau) / kDrag - kG * tau / kDrag;
}
double speed_down(double w, double tau) { return kG / kDrag - (w + kG / kDrag) * std::exp(-kDrag * tau); }

// Flight time to the wall, by bisection after the apex.
double flight_time(double y0, double w) {
  double lo = w > 0 ? std::log1p(kDrag * w / kG) / kDrag : 0.0;
  double hi = lo + 1.0;
  while (height(y0, w, hi) > 0) hi = lo + 2.0 * (hi - lo);
  for (;;) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) return mid;
    (height(y0, w, mid) > 0 ? lo : hi) = mid;
  }
}

// The time in the step where y crosses 0, by bisection on the step's dense output.
double crossing(const ctde::TentativeStep& step) {
  double lo = step.t0();
  double hi = step.t1();
  double p = 0.0;
  double v = 0.0;
  for (;;) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) return mid;
    step.state_at(mid, {&p, 1}, {&v, 1});
    (p > 0 ? lo : hi) = mid;
  }
}

struct Impact {
  double t;
  double speed;
};

}  // namespace

int main(int argc, char** argv) {
  const int wanted = argc > 1 ? std::atoi(argv[1]) : 8;
  if (wanted < 1) {
    std::fprintf(stderr, "usage: bouncing_wall [impacts >= 1]\n");
    return 2;
  }
  std::vector<Impact> impacts;
  const auto check_step = [&](ctde::TentativeStep& step) {
    const double y = step.p1()[0];
    const double v = step.v1()[0];
    if (y > kAtWall || (y >= -kAtWall && v >= 0)) return ctde::CheckAnswer::take_and_continue();
    if (y < -kAtWall) return ctde::CheckAnswer::redo_to(crossing(step));  // went through: shorten
    impacts.push_back({step.t1(), -v});                                   // at the wall: bounce
    step.p1()[0] = 0.0;
    step.v1()[0] = -kRestitution * v;
    return static_cast<int>(impacts.size()) == wanted ? ctde::CheckAnswer::take_and_stop()
                                                      : ctde::CheckAnswer::take_and_continue();
  };

  ctde::SecondOrderOptions options;
  options.position_tolerance = {1e-12};  // m
  options.velocity_tolerance = {1e-12};  // m/s
  options.dt_max = 0.05;                 // s: no step spans a whole flight
  const double p0 = kHeight;
  const double v0 = 0.0;
  try {
    ctde::SecondOrderSolver solver({1, falling, nullptr}, options, 0.0, {&p0, 1}, {&v0, 1}, check_step);
    (void)solver.run(1000.0);
    const auto stats = solver.statistics();

    std::printf("%3s  %18s  %18s  %9s  %14s  %14s  %9s\n", "#", "t (s)", "t exact (s)", "rel.err",
                "speed (m/s)", "speed exact", "rel.err");
    double t = 0.0;
    double y0 = kHeight;
    double w = 0.0;
    for (std::size_t i = 0; i < impacts.size(); ++i) {
      const double tau = flight_time(y0, w);
      t += tau;
      const double speed = speed_down(w, tau);
      std::printf("%3zu  %18.12f  %18.12f  %9.1e  %14.10f  %14.10f  %9.1e\n", i + 1, impacts[i].t, t,
                  std::abs(impacts[i].t - t) / t, impacts[i].speed, speed,
                  std::abs(impacts[i].speed - speed) / speed);
      w = kRestitution * speed;
      y0 = 0.0;
    }
    std::printf("\n%ld steps taken, %ld redone, %ld end states adjusted, %ld evaluations of F\n",
                stats.steps_taken, stats.redos, stats.adjustments, stats.ode.rhs_evals);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bouncing_wall: %s\n", error.what());
    return 1;
  }
  return 0;
}
