#include "domains/ct/guard_set.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ctde {

namespace {

std::int8_t sign_of(double v) { return v > 0 ? std::int8_t{1} : v < 0 ? std::int8_t{-1} : std::int8_t{0}; }

/// Most guard evaluations in one search: bisection alone halves the bracket
/// every other iteration, so this reaches any tick of a double's range.
constexpr int kMaxIterations = 400;

}  // namespace

GuardSet::GuardSet(std::vector<Crossing> directions, const std::vector<ZeroSide>& zero_sides)
    : direction_(std::move(directions)),
      below_(direction_.size(), 0),
      side_(direction_.size(), 0),
      level_(direction_.size(), 0.0) {
  for (std::size_t i = 0; i < zero_sides.size() && i < below_.size(); ++i) {
    below_[i] = zero_sides[i] == ZeroSide::kBelow ? 1 : 0;
  }
}

std::int8_t GuardSet::side_of(std::size_t i, double v) const {
  if (below_[i] != 0) return v > 0 ? std::int8_t{1} : std::int8_t{-1};
  return sign_of(v);
}

void GuardSet::start(std::span<const double> g) {
  for (std::size_t i = 0; i < size(); ++i) {
    level_[i] = 0.0;
    side_[i] = side_of(i, g[i]);
  }
}

Crossing GuardSet::crossing(std::size_t i, double g) const {
  const double phi = g - level_[i];
  // Zero below: rising is leaving the g <= 0 domain (phi > 0), not reaching zero.
  if (side_[i] < 0 && (below_[i] != 0 ? phi > 0 : phi >= 0)) return Crossing::kRising;
  if (side_[i] > 0 && phi <= 0) return Crossing::kFalling;
  return Crossing::kNone;
}

Crossing GuardSet::event(std::size_t i, double g) const {
  const Crossing c = crossing(i, g);
  return includes(direction_[i], c) ? c : Crossing::kNone;
}

bool GuardSet::any_event(std::span<const double> g) const {
  for (std::size_t i = 0; i < size(); ++i) {
    if (event(i, g[i]) != Crossing::kNone) return true;
  }
  return false;
}

void GuardSet::commit(std::size_t i, double g) {
  const std::int8_t side = side_of(i, g - level_[i]);
  side_[i] = side;
  if (level_[i] != 0.0 && side_of(i, g) == side && side != 0) level_[i] = 0.0;
}

bool GuardSet::rearm(std::size_t i, double g) {
  if (level_[i] == 0.0 || side_[i] == 0 || side_of(i, g) != side_[i]) return false;
  level_[i] = 0.0;
  return true;
}

void GuardSet::commit(std::span<const double> g) {
  for (std::size_t i = 0; i < size(); ++i) commit(i, g[i]);
}

bool GuardSet::needs_slope(std::size_t i, Crossing fired, double after) const {
  // Past or on zero after its event; zero below: 0 is where a rising guard came from.
  if (fired == Crossing::kFalling) return after <= 0;
  return below_[i] != 0 ? after > 0 : after >= 0;
}

void GuardSet::after_event(std::size_t i, Crossing fired, double before, double after, double slope,
                           double tolerance) {
  level_[i] = 0.0;
  // +1 for a falling event: the side it came from, and where it must return.
  const std::int8_t from = fired == Crossing::kFalling ? std::int8_t{1} : std::int8_t{-1};
  if (side_of(i, after) == from) {  // the event moved it back: armed again
    side_[i] = from;
    return;
  }
  const double band = std::max(tolerance, std::abs(before));
  if (sign_of(slope) == from && std::abs(after) <= band) {
    // On the far side, within the location's tolerance, moving back: it will
    // return to `after` (a bounce too small to get back past zero).
    level_[i] = std::nextafter(
        after, from > 0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
    side_[i] = from;
    return;
  }
  side_[i] = side_of(i, after);  // passed through: it must come back on its own
}

LocatedCrossing GuardSet::locate(double ta, double tb, std::span<double> ga, std::span<double> gb,
                                 std::span<double> scratch, double min_width, double tolerance,
                                 GuardEvaluator evaluate, void* user) const {
  LocatedCrossing out;
  // Illinois: when the same end is kept twice, its values count half.
  double weight_a = 1.0;
  double weight_b = 1.0;
  int last_moved = 0;  // +1: ta moved last, -1: tb moved last
  bool probed_below = false;
  // Bracket widths before each of the last four iterations.
  std::array<double, 4> width_ago;
  width_ago.fill(std::numeric_limits<double>::infinity());
  while (tb - ta > min_width && out.iterations < kMaxIterations) {
    double worst = 0.0;
    double t = tb;
    for (std::size_t i = 0; i < size(); ++i) {
      if (event(i, gb[i]) == Crossing::kNone) continue;
      const double fa = (ga[i] - level_[i]) * weight_a;
      const double fb = (gb[i] - level_[i]) * weight_b;
      worst = std::max(worst, std::abs(gb[i] - level_[i]));
      if (fb != fa) t = std::min(t, tb - fb * (tb - ta) / (fb - fa));
    }
    if (tolerance > 0 && worst <= tolerance) break;
    // Bisect when the secant stalls (the bracket did not halve in four
    // iterations) or falls outside the open bracket; near an end, step half
    // a min_width inside it, so that a root next to that end ends the search.
    const double width = tb - ta;
    if (width > 0.5 * width_ago[3] || !(t > ta && t < tb)) t = ta + 0.5 * width;
    // Guards exactly at their levels at tb: the root, unless they stay there
    // (a saturated signal), so one min_width below tb is tried first; once.
    if (worst == 0.0 && !probed_below) {
      t = tb - min_width;
      probed_below = true;
    }
    if (width > min_width) t = std::clamp(t, ta + 0.5 * min_width, tb - 0.5 * min_width);
    if (!(t > ta && t < tb)) break;  // no double between the ends
    evaluate(user, t, scratch);
    ++out.iterations;
    for (std::size_t k = 3; k > 0; --k) width_ago[k] = width_ago[k - 1];
    width_ago[0] = width;
    if (any_event(scratch)) {
      tb = t;
      std::copy(scratch.begin(), scratch.end(), gb.begin());
      weight_b = 1.0;
      if (last_moved < 0) weight_a *= 0.5;
      last_moved = -1;
    } else {
      ta = t;
      std::copy(scratch.begin(), scratch.end(), ga.begin());
      weight_a = 1.0;
      if (last_moved > 0) weight_b *= 0.5;
      last_moved = 1;
    }
  }
  out.ta = ta;
  out.tb = tb;
  return out;
}

}  // namespace ctde

namespace ctde {

void GuardSet::save(StateWriter& out) const {
  out.values(side_);
  out.values(level_);
}

void GuardSet::restore(StateReader& in) {
  in.values_into(std::span<std::int8_t>(side_));
  in.values_into(std::span<double>(level_));
}

}  // namespace ctde
