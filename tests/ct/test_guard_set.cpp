// GuardSet: crossing rules, the Illinois search, and how guards settle after an event.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "domains/ct/guard_set.hpp"

using namespace ctde;

namespace {

/// Evaluates a std::function of t for every guard (tests only: the director
/// passes a plain function).
struct Functions {
  std::vector<std::function<double(double)>> g;
  int calls = 0;
};

void evaluate(void* user, double t, std::span<double> out) {
  auto& f = *static_cast<Functions*>(user);
  ++f.calls;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = f.g[i](t);
}

/// Locates the earliest crossing of `f` in [ta, tb] from a committed start at ta.
LocatedCrossing search(GuardSet& guards, Functions& f, double ta, double tb, double min_width = 1e-12,
                       double tolerance = 0) {
  const std::size_t n = f.g.size();
  std::vector<double> ga(n), gb(n), scratch(n);
  evaluate(&f, ta, ga);
  guards.start(ga);
  evaluate(&f, tb, gb);
  f.calls = 0;
  return guards.locate(ta, tb, ga, gb, scratch, min_width, tolerance, &evaluate, &f);
}

}  // namespace

TEST_CASE("rising is negative then non-negative, falling positive then non-positive") {
  GuardSet guards({Crossing::kBoth});
  const double minus[] = {-1.0};
  guards.start(minus);
  CHECK(guards.crossing(0, -0.5) == Crossing::kNone);
  CHECK(guards.crossing(0, 0.0) == Crossing::kRising);  // reaching zero is crossing
  CHECK(guards.crossing(0, 2.0) == Crossing::kRising);
  guards.commit(0, 0.0);  // on zero: no side until it leaves
  CHECK(guards.crossing(0, -1.0) == Crossing::kNone);
  CHECK(guards.crossing(0, 1.0) == Crossing::kNone);
  guards.commit(0, 1.0);
  CHECK(guards.crossing(0, 0.0) == Crossing::kFalling);
}

TEST_CASE("a guard's direction filters its events but not its side") {
  GuardSet guards({Crossing::kFalling});
  const double minus[] = {-1.0};
  guards.start(minus);
  CHECK(guards.event(0, 1.0) == Crossing::kNone);  // rising: not an event of a falling guard
  guards.commit(0, 1.0);
  CHECK(guards.event(0, -1.0) == Crossing::kFalling);
}

TEST_CASE("the search finds a simple root to one tick in few evaluations") {
  GuardSet guards({Crossing::kFalling});
  Functions f{{[](double t) { return 5 - 4.9 * t * t; }}};
  const LocatedCrossing found = search(guards, f, 0.9, 1.4);
  const double root = std::sqrt(5 / 4.9);
  CHECK(found.tb - found.ta <= 1e-12);
  CHECK(found.ta < root);
  CHECK(found.tb >= root);
  CHECK(found.iterations <= 10);
  CHECK(f.calls == found.iterations);
}

TEST_CASE("the search stops early once every crossed guard is within the value tolerance") {
  GuardSet guards({Crossing::kRising});
  Functions f{{[](double t) { return t - 0.3; }}};
  const LocatedCrossing found = search(guards, f, 0, 1, 1e-12, 1e-6);
  CHECK(std::abs(found.tb - 0.3) <= 1e-6);
  CHECK(found.tb >= 0.3);
  CHECK(found.iterations <= 2);  // linear: the secant hits it
}

TEST_CASE("with two guards crossing in one bracket, the earlier root is located") {
  GuardSet guards({Crossing::kRising, Crossing::kRising});
  Functions f{{[](double t) { return t - 0.7; }, [](double t) { return std::sin(3 * t) - 0.5; }}};
  const LocatedCrossing found = search(guards, f, 0, 1);
  const double earlier = std::asin(0.5) / 3;  // 0.1745...
  CHECK(found.ta < earlier);
  CHECK(found.tb >= earlier);
  CHECK(found.tb - found.ta <= 1e-12);
}

TEST_CASE("a guard exactly zero at the bracket's end is tried a tick below: there a root, else searched on") {
  GuardSet guards({Crossing::kRising});
  Functions root{{[](double t) { return t - 1; }}};
  const LocatedCrossing found = search(guards, root, 0, 1);
  CHECK(found.tb == 1.0);
  CHECK(found.ta == 1.0 - 1e-12);
  CHECK(found.iterations == 1);
  // A guard that reaches zero at 0.5 and stays there: the crossing is where it reaches it, not at tb.
  Functions level{{[](double t) { return std::min(t - 0.5, 0.0); }}};
  const LocatedCrossing reached = search(guards, level, 0, 1);
  CHECK(reached.ta < 0.5);
  CHECK(reached.tb >= 0.5);
  CHECK(reached.tb - reached.ta <= 1e-12);
}

TEST_CASE("a step-shaped guard is located by bisection to one tick") {
  GuardSet guards({Crossing::kRising});
  Functions f{{[](double t) { return t < 0.123456789 ? -1.0 : 1.0; }}};
  const LocatedCrossing found = search(guards, f, 0, 1);
  CHECK(found.ta < 0.123456789);
  CHECK(found.tb >= 0.123456789);
  CHECK(found.tb - found.ta <= 1e-12);
  CHECK(found.iterations <= 90);
}

TEST_CASE("after an event that moved the guard back, it is armed again") {
  GuardSet guards({Crossing::kFalling});
  const double above[] = {1.0};
  guards.start(above);
  guards.after_event(0, Crossing::kFalling, -1e-13, 0.5, -1.0, 0);
  CHECK(guards.event(0, 0.0) == Crossing::kFalling);
}

TEST_CASE("after an event, a guard moving back from just past zero fires when it returns") {
  // A ball at 1e-13 below the floor after its impact, moving up but not
  // enough to get above zero: its next return must still be an event.
  GuardSet guards({Crossing::kFalling});
  const double above[] = {1.0};
  guards.start(above);
  REQUIRE(guards.needs_slope(0, Crossing::kFalling, -1e-13));
  guards.after_event(0, Crossing::kFalling, -1e-13, -1e-13, 1e-6, 0);
  CHECK(guards.level(0) < -1e-13);
  CHECK(guards.event(0, -0.5e-13) == Crossing::kNone);   // the small hop up
  CHECK(guards.event(0, -2e-13) == Crossing::kFalling);  // and back down
  guards.commit(0, 0.5);                                 // a real bounce above zero: the level is zero again
  CHECK(guards.level(0) == 0.0);
}

TEST_CASE("after an event, a guard that keeps going through is not armed again") {
  GuardSet guards({Crossing::kFalling});
  const double above[] = {1.0};
  guards.start(above);
  guards.after_event(0, Crossing::kFalling, -1e-13, -1e-13, -2.0, 0);  // a level passed, still falling
  CHECK(guards.event(0, -1.0) == Crossing::kNone);
  guards.commit(0, -1.0);
  guards.commit(0, 1.0);
  CHECK(guards.event(0, -1.0) == Crossing::kFalling);  // after coming back above zero
}

TEST_CASE("a guard whose zero is below has the domains g > 0 and g <= 0 (FMI's event indicators)") {
  GuardSet guards({Crossing::kBoth, Crossing::kBoth}, {ZeroSide::kBelow, ZeroSide::kOwn});
  CHECK(guards.zero_side(0) == ZeroSide::kBelow);
  CHECK(guards.zero_side(1) == ZeroSide::kOwn);
  const double at_zero[] = {0.0, 0.0};
  guards.start(at_zero);
  // Resting at zero, then rising: zero below is on the g <= 0 side, so leaving it upwards crosses.
  CHECK(guards.event(0, 0.0) == Crossing::kNone);
  CHECK(guards.event(0, 1e-300) == Crossing::kRising);
  CHECK(guards.event(1, 1e-300) == Crossing::kNone);  // zero as a side of its own: leaving it is no crossing
  // From above: reaching zero is the falling crossing, with either rule.
  const double above[] = {1.0, 1.0};
  guards.commit(above);
  CHECK(guards.event(0, 0.0) == Crossing::kFalling);
  CHECK(guards.event(1, 0.0) == Crossing::kFalling);
  // From below: zero below only crosses above zero; zero of its own crosses at zero.
  const double below[] = {-1.0, -1.0};
  guards.commit(below);
  CHECK(guards.event(0, 0.0) == Crossing::kNone);
  CHECK(guards.event(1, 0.0) == Crossing::kRising);
  CHECK(guards.event(0, 0.5) == Crossing::kRising);
  // After a rising event that left it at exactly zero, it is back on its side: no slope needed.
  CHECK_FALSE(guards.needs_slope(0, Crossing::kRising, 0.0));
  CHECK(guards.needs_slope(1, Crossing::kRising, 0.0));
  CHECK(guards.needs_slope(0, Crossing::kRising, 1e-13));
}
