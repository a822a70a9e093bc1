// EventLocator on closed-form trajectories, without a model or a solver:
// each event is located and checked against the closed form's crossing.

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "domains/ct/event_locator.hpp"

using namespace ctde;

namespace {

using Values = std::vector<double>;

/// A step [t0, t1] of a closed-form solution: states x(t) with dx/dt =
/// field(t, x) (or none: the guards are functions of t alone) and guards
/// guard(t, x).
/// The dense output is the closed form itself.
class Analytic final : public StepTrajectory {
 public:
  std::function<Values(double)> states;                ///< empty: no states
  std::function<Values(double, const Values&)> field;  ///< dx/dt
  std::function<Values(double, const Values&)> guard;  ///< the guards
  int derivative_calls = 0;
  int dense_calls = 0;

  void set_step(double t0, double t1) {
    t0_ = t0;
    t1_ = t1;
    if (states) {
      x0_ = states(t0);
      x1_ = states(t1);
    }
  }
  [[nodiscard]] Values guards_at(double t) const { return guard(t, states ? states(t) : Values{}); }

  [[nodiscard]] double start() const override { return t0_; }
  [[nodiscard]] double end() const override { return t1_; }
  [[nodiscard]] std::span<const double> start_state() const override { return x0_; }
  [[nodiscard]] std::span<const double> end_state() const override { return x1_; }
  void derivatives(double t, std::span<const double> x, std::span<double> dxdt) override {
    ++derivative_calls;
    const Values d = field(t, Values(x.begin(), x.end()));
    std::copy(d.begin(), d.end(), dxdt.begin());
  }
  void guards(double t, std::span<const double> x, std::span<double> out) override {
    const Values v = guard(t, Values(x.begin(), x.end()));
    std::copy(v.begin(), v.end(), out.begin());
  }
  void guards_on_dense_output(double t, std::span<double> out) override {
    ++dense_calls;
    const Values v = guards_at(t);
    std::copy(v.begin(), v.end(), out.begin());
  }

 private:
  double t0_ = 0;
  double t1_ = 0;
  Values x0_, x1_;
};

/// Ticks of a nanosecond.
const TimeResolution kNs(1e-9);

/// Starts the locator with the guards of `step` at `t`.
void start_at(EventLocator& locator, const Analytic& step, double t) {
  const Values g = step.guards_at(t);
  std::copy(g.begin(), g.end(), locator.end_values().begin());
  locator.start();
}

/// Checks the step [t0, t1] as the director does: the guards at t1, and
/// the earliest crossing when one crossed (none: the step is accepted).
std::optional<LocatedEvent> check(EventLocator& locator, Analytic& step, double t0, double t1, Tick after) {
  step.set_step(t0, t1);
  const Values g = step.guards_at(t1);
  std::copy(g.begin(), g.end(), locator.end_values().begin());
  if (!locator.crossed()) {
    locator.accept();
    return std::nullopt;
  }
  return locator.locate(step, t0, t1, after);
}

/// The step ends at the event's tick: the guards there, and every guard
/// crossing there fires. Returns the guards that fired and their rhythms.
std::vector<std::pair<GuardId, EventRhythm>> fire_at(EventLocator& locator, const Analytic& step, Tick te) {
  const Values g = step.guards_at(kNs.to_seconds(te));
  std::copy(g.begin(), g.end(), locator.end_values().begin());
  std::vector<std::pair<GuardId, EventRhythm>> fired;
  for (std::uint32_t i = 0; i < locator.size(); ++i) {
    if (locator.event(GuardId{i}) != Crossing::kNone)
      fired.emplace_back(GuardId{i}, locator.fire(GuardId{i}, te));
  }
  return fired;
}

/// After the events: the guards take `after` (the values the events left)
/// and settle, with their slopes `slopes` (when asked).
void settle(EventLocator& locator, const Values& after, const Values& slopes) {
  std::copy(after.begin(), after.end(), locator.end_values().begin());
  const Values none;
  CHECK_FALSE(locator.settle(locator.needs_slopes() ? slopes : none));
}

/// The closed form's answer: the first tick at which `crossed` holds, near `root` (s).
Tick first_tick(const std::function<bool(double)>& crossed, double root) {
  Tick k = kNs.to_ticks(root);
  while (crossed(kNs.to_seconds(k - 1))) --k;
  while (!crossed(kNs.to_seconds(k))) ++k;
  return k;
}

/// A ball dropped at t = 0 from h0 (states h, v; guard h, falling).
constexpr double kG = 9.81;

void make_ball(Analytic& a, double h0) {
  a.states = [h0](double t) { return Values{h0 - kG * t * t / 2, -kG * t}; };
  a.field = [](double, const Values& x) { return Values{x[1], -kG}; };
  a.guard = [](double, const Values& x) { return Values{x[0]}; };
}

/// Drops a ball from h0 into `ball` (make_ball), starts `locator` on it at
/// t = 0 and checks the first step, [0, t1]: its first impact if it is there.
std::optional<LocatedEvent> drop_ball(EventLocator& locator, Analytic& ball, double h0, double t1) {
  make_ball(ball, h0);
  start_at(locator, ball, 0);
  return check(locator, ball, 0, t1, 0);
}

}  // namespace

TEST_CASE("g = t - 0.3 rising is located at the tick of 0.3 s, with or without states") {
  Analytic step;
  SUBCASE("a function of t alone") {
    step.guard = [](double t, const Values&) { return Values{t - 0.3}; };
  }
  SUBCASE("a state x = t - 0.3, x' = 1: the cubic is exact") {
    step.states = [](double t) { return Values{t - 0.3}; };
    step.field = [](double, const Values&) { return Values{1.0}; };
    step.guard = [](double, const Values& x) { return Values{x[0]}; };
  }
  EventLocator locator({Crossing::kRising}, kNs, 0, step.states ? 1 : 0);
  start_at(locator, step, 0);
  CHECK_FALSE(check(locator, step, 0, 0.25, 0));  // no crossing yet: accepted
  const std::optional<LocatedEvent> found = check(locator, step, 0.25, 1, kNs.to_ticks(0.25));
  REQUIRE(found);
  CHECK(found->tick == kNs.to_ticks(0.3));
  CHECK(found->bracket.ta < 0.3);
  CHECK(found->bracket.tb >= 0.3);
  CHECK(found->bracket.tb - found->bracket.ta <= 1e-9);
  CHECK(step.derivative_calls == (step.states ? 2 : 0));  // the cubic's two ends, once
  const auto fired = fire_at(locator, step, found->tick);
  REQUIRE(fired.size() == 1);
  CHECK(fired[0].second.kind == EventRhythm::Kind::kNormal);
}

TEST_CASE("sin(wt) crossing zero falling twice in one step: the earlier crossing is the event") {
  // Falling at 0.4 s and 1.2 s (rising at 0.8 s between) in the step [0.1, 1.3].
  const double w = 2 * std::numbers::pi / 0.8;
  Analytic step;
  step.guard = [w](double t, const Values&) { return Values{std::sin(w * t)}; };
  EventLocator locator({Crossing::kFalling}, kNs, 0, 0);
  start_at(locator, step, 0.1);
  const std::optional<LocatedEvent> found = check(locator, step, 0.1, 1.3, kNs.to_ticks(0.1));
  REQUIRE(found);
  CHECK(found->tick == first_tick([w](double t) { return std::sin(w * t) <= 0; }, 0.4));
  CHECK(std::abs(kNs.to_seconds(found->tick) - 0.4) <= 1e-9);
}

TEST_CASE("on states (sin, cos) the cubic's root is off by its error; the dense output gives the tick") {
  // One falling crossing at 0.4 s in [0.3, 0.5]: the cubic Hermite of a
  // quarter period errs by about 1e-2, its root by milliseconds.
  const double w = 2 * std::numbers::pi / 0.8;
  Analytic step;
  step.states = [w](double t) { return Values{std::sin(w * t), std::cos(w * t)}; };
  step.field = [w](double, const Values& x) { return Values{w * x[1], -w * x[0]}; };
  step.guard = [](double, const Values& x) { return Values{x[0]}; };
  EventLocator locator({Crossing::kFalling}, kNs, 0, 2);
  start_at(locator, step, 0.3);
  const std::optional<LocatedEvent> found = check(locator, step, 0.3, 0.5, kNs.to_ticks(0.3));
  REQUIRE(found);
  CHECK(found->tick == first_tick([w](double t) { return std::sin(w * t) <= 0; }, 0.4));
  CHECK(found->bracket.tb - found->bracket.ta <= 1e-9);
  CHECK(step.dense_calls > 3);  // the bracket on the cubic failed on the dense output: walked, searched again
}

TEST_CASE("a falling ball's impact: the cubic is exact, the dense output confirms it at once") {
  const double h0 = 5;
  Analytic step;
  EventLocator locator({Crossing::kFalling}, kNs, 0, 2);
  const std::optional<LocatedEvent> found = drop_ball(locator, step, h0, 1.5);
  REQUIRE(found);
  const double root = std::sqrt(2 * h0 / kG);
  CHECK(found->tick == first_tick([&](double t) { return h0 - kG * t * t / 2 <= 0; }, root));
  CHECK(found->bracket.ta < root);
  CHECK(found->bracket.tb >= root);
  // The polish pass only checks the bracket's two ends, and the event's tick
  // one point: no walk, no second search.
  CHECK(step.dense_calls <= 3);
}

TEST_CASE("a guard touching zero tangentially at a step end fires there once; leaving zero is no crossing") {
  Analytic step;
  step.guard = [](double t, const Values&) { return Values{-(t - 0.5) * (t - 0.5)}; };
  EventLocator locator({Crossing::kRising}, kNs, 0, 0);
  start_at(locator, step, 0);
  SUBCASE("between two step ends the touch is not seen") { CHECK_FALSE(check(locator, step, 0, 1, 0)); }
  SUBCASE("at a step end it is reaching zero: an event at that tick") {
    const std::optional<LocatedEvent> found = check(locator, step, 0, 0.5, 0);
    REQUIRE(found);
    CHECK(found->tick == kNs.to_ticks(0.5));
    CHECK(found->bracket.tb == 0.5);
    // exactly zero at tb: one point a tick below tells it is a root, not a level the guard stays at;
    // the polish pass checks that point on the dense output
    CHECK(found->bracket.iterations == 2);
    const auto fired = fire_at(locator, step, found->tick);
    REQUIRE(fired.size() == 1);
    CHECK(fired[0].second.kind == EventRhythm::Kind::kNormal);
    settle(locator, {0.0}, {0.0});  // on zero, flat: no side until it leaves
    CHECK_FALSE(check(locator, step, 0.5, 1, found->tick));
  }
}

TEST_CASE("two guards crossing within the same tick both fire at that tick") {
  // Roots 0.4 ns and 0.7 ns after 0.3 s, one rising, one falling.
  const double r0 = 0.3 + 0.4e-9;
  const double r1 = 0.3 + 0.7e-9;
  Analytic step;
  step.guard = [=](double t, const Values&) { return Values{t - r0, r1 - t}; };
  EventLocator locator({Crossing::kRising, Crossing::kFalling}, kNs, 0, 0);
  start_at(locator, step, 0);
  const std::optional<LocatedEvent> found = check(locator, step, 0, 1, 0);
  REQUIRE(found);
  CHECK(found->tick == kNs.to_ticks(0.3) + 1);
  const auto fired = fire_at(locator, step, found->tick);
  REQUIRE(fired.size() == 2);
  CHECK(fired[0].first == GuardId{0});
  CHECK(fired[1].first == GuardId{1});
  CHECK(locator.event(GuardId{0}) == Crossing::kRising);
  CHECK(locator.event(GuardId{1}) == Crossing::kFalling);
}

TEST_CASE("a guard at a shifted level after its event is armed at zero again inside a long step") {
  // An elastic ball: its first impact is located at the first tick past
  // the root, where it is a little below the floor, moving up. Its guard is
  // armed at that value; the next flight spans one step, and without a
  // step end above the floor the return would be located at that level,
  // one tick late.
  const double t_root = 1.0000000001;  // 0.1 ns after a tick
  const double h0 = kG * t_root * t_root / 2;
  Analytic first;
  EventLocator locator({Crossing::kFalling}, kNs, 0, 2);
  const std::optional<LocatedEvent> impact = drop_ball(locator, first, h0, 1.5);
  REQUIRE(impact);
  const Tick t1 = impact->tick;
  const double t1_s = kNs.to_seconds(t1);
  CHECK(t1 == first_tick([&](double t) { return h0 - kG * t * t / 2 <= 0; }, t_root));
  REQUIRE(fire_at(locator, first, t1).size() == 1);
  const double h1 = first.states(t1_s)[0];   // below the floor by 0.9 ns of fall
  const double v1 = -first.states(t1_s)[1];  // the bounce: upwards
  REQUIRE(h1 < 0);
  settle(locator, {h1}, {v1});
  CHECK(locator.guards().level(0) < h1);  // armed at its value

  Analytic flight;
  flight.states = [=](double t) {
    return Values{h1 + v1 * (t - t1_s) - kG * (t - t1_s) * (t - t1_s) / 2, v1 - kG * (t - t1_s)};
  };
  flight.field = first.field;
  flight.guard = first.guard;
  const double t_end = t1_s + 2.5;  // one step over the whole flight
  const std::optional<LocatedEvent> again = check(locator, flight, t1_s, t_end, t1);
  REQUIRE(again);
  CHECK(locator.guards().level(0) == 0.0);
  const double back = t1_s + (v1 + std::sqrt(v1 * v1 + 2 * kG * h1)) / kG;  // h = 0 again
  const auto h = [&](double t) { return flight.states(t)[0]; };
  const Tick expected = first_tick([&](double t) { return h(t) <= 0; }, back);
  CHECK(again->tick == expected);
  // The level it was armed at is reached a tick later: the re-arming mattered.
  CHECK(first_tick([&](double t) { return h(t) <= h1; }, back) > expected);
}

TEST_CASE("a chattering or Zeno message says when ticks are finer than a double's spacing at that time") {
  // At 1e-12 s ticks a double resolves single ticks only up to 2^52 ticks
  // (about 4500 s); beyond, the message says why and what to change.
  const TimeResolution ps(1e-12);
  const auto message = [&](EventRhythm::Kind kind, double at) {
    const Tick tick = ps.to_ticks(at);
    return EventLocator::unresolved_message({kind, tick}, "g", ps, tick + 1, "advice");
  };
  for (const EventRhythm::Kind kind : {EventRhythm::Kind::kChattering, EventRhythm::Kind::kZeno}) {
    CHECK(message(kind, 4000.0).find("double's spacing") == std::string::npos);
    const double late = 38525.19;
    const double spacing = std::nextafter(late, 1e300) - late;  // 2^-37 s, about 7.3e-12 s
    REQUIRE(spacing == std::ldexp(1.0, -37));
    const std::string text = message(kind, late);
    CAPTURE(text);
    CHECK(text.find("; at t = 38525.19 s a double's spacing (7.275957614183426e-12 s) is wider than the time "
                    "resolution "
                    "(1e-12 s), so the solver cannot resolve single ticks there: a coarser director "
                    "time_resolution (such as 1e-9) resolves it") != std::string::npos);
  }
  // At 1e-9 s ticks the same time is fine.
  const TimeResolution ns(1e-9);
  CHECK(EventLocator::unresolved_message({EventRhythm::Kind::kChattering, ns.to_ticks(38525.19)}, "g", ns,
                                         ns.to_ticks(38525.19) + 1, "advice")
            .find("spacing") == std::string::npos);
}

TEST_CASE("a guard crossing again within one tick of its event is chattering") {
  // g = t - 0.3 - shift: each event shifts it back by half a tick, so it
  // crosses again one tick later.
  double shift = 0;
  Analytic step;
  step.guard = [&](double t, const Values&) { return Values{t - 0.3 - shift}; };
  EventLocator locator({Crossing::kRising}, kNs, 0, 0);
  start_at(locator, step, 0);
  const std::optional<LocatedEvent> first = check(locator, step, 0, 1, 0);
  REQUIRE(first);
  const Tick te = first->tick;
  REQUIRE(fire_at(locator, step, te)[0].second.kind == EventRhythm::Kind::kNormal);
  shift = 0.5e-9;
  const double after = step.guards_at(kNs.to_seconds(te))[0];
  REQUIRE(after < 0);  // moved back: armed again
  settle(locator, {after}, {1.0});
  const std::optional<LocatedEvent> second = check(locator, step, kNs.to_seconds(te), 1, te);
  REQUIRE(second);
  CHECK(second->tick == te + 1);
  const auto fired = fire_at(locator, step, second->tick);
  REQUIRE(fired.size() == 1);
  CHECK(fired[0].second.kind == EventRhythm::Kind::kChattering);
  CHECK(fired[0].second.previous == te);
}

TEST_CASE("a ball bouncing to rest is Zeno behaviour at the closed form's ninth close event") {
  // Dropped from h0; each impact keeps 0.8 of the speed. Flight k after
  // impact k lasts 2 v_k / g, v_k = 0.8^k sqrt(2 g h0), and ends at the first
  // tick past its landing. Zeno: 8 intervals in a row of at most 64 ticks.
  const double h0 = 1;
  const double e = 0.8;
  const double v_impact = std::sqrt(2 * h0 * kG);
  Analytic step;
  EventLocator locator({Crossing::kFalling}, kNs, 0, 2);
  std::optional<LocatedEvent> found = drop_ball(locator, step, h0, 1);
  REQUIRE(found);
  // The closed form: the intervals between impacts, in ticks.
  std::vector<Tick> intervals;
  double v = v_impact;
  int close = 0;
  int events_expected = 1;
  while (close < EventLocator::kZenoEvents) {
    v *= e;
    const Tick n = static_cast<Tick>(std::ceil(2 * v / kG / 1e-9));
    intervals.push_back(n);
    close = n <= EventLocator::kZenoTicks ? close + 1 : 0;
    ++events_expected;
  }
  REQUIRE(intervals.back() > 1);  // Zeno before chattering

  int events = 0;
  v = v_impact;
  EventRhythm rhythm;
  while (true) {
    const Tick te = found->tick;
    const auto fired = fire_at(locator, step, te);
    REQUIRE(fired.size() == 1);
    ++events;
    rhythm = fired[0].second;
    if (rhythm.kind != EventRhythm::Kind::kNormal) break;
    // The bounce: from the floor at te, upwards at e v.
    v *= e;
    const double ts = kNs.to_seconds(te);
    const double vk = v;
    step.states = [=](double t) {
      return Values{vk * (t - ts) - kG * (t - ts) * (t - ts) / 2, vk - kG * (t - ts)};
    };
    settle(locator, {0.0}, {vk});
    found = check(locator, step, ts, ts + 1.5 * (2 * vk / kG), te);
    REQUIRE(found);
    CHECK(found->tick - te == intervals[static_cast<std::size_t>(events - 1)]);
  }
  CHECK(rhythm.kind == EventRhythm::Kind::kZeno);
  CHECK(events == events_expected);
}

TEST_CASE("a guard whose zero is below crosses rising at the first tick above zero, not at zero") {
  Analytic step;
  step.guard = [](double t, const Values&) { return Values{t - 0.3, t - 0.3}; };
  EventLocator locator({Crossing::kRising, Crossing::kRising}, kNs, 0, 0, {ZeroSide::kBelow, ZeroSide::kOwn});
  start_at(locator, step, 0);
  const std::optional<LocatedEvent> found = check(locator, step, 0, 1, 0);
  REQUIRE(found);
  const Tick own = first_tick([](double t) { return t - 0.3 >= 0; }, 0.3);
  const Tick below = first_tick([](double t) { return t - 0.3 > 0; }, 0.3);
  CHECK(below >= own);
  CHECK(below <= own + 1);
  // The earliest crossing is the guard with zero of its own; the other crosses at `below`.
  CHECK(found->tick == own);
  const auto fired = fire_at(locator, step, own);
  REQUIRE(!fired.empty());
  CHECK(fired.back().first == GuardId{1});
  // Guard 0 fires with it only when that tick is above 0.3 s already; at exactly 0.3 s it is on its g <= 0
  // side.
  CHECK(fired.size() == (below == own ? 2U : 1U));
  EventLocator alone({Crossing::kRising}, kNs, 0, 0, {ZeroSide::kBelow});
  Analytic one;
  one.guard = [](double t, const Values&) { return Values{t - 0.3}; };
  start_at(alone, one, 0);
  const std::optional<LocatedEvent> rising = check(alone, one, 0, 1, 0);
  REQUIRE(rising);
  CHECK(rising->tick == below);
  CHECK(rising->bracket.tb > 0.3);
}

TEST_CASE(
    "a guard resting at exactly zero that then rises is an event when its zero is below, not otherwise") {
  // g = 0 until 0.5 s, then t - 0.5.
  Analytic step;
  step.guard = [](double t, const Values&) { return Values{t < 0.5 ? 0.0 : t - 0.5}; };
  const Tick expected = first_tick([](double t) { return t > 0.5; }, 0.5);
  SUBCASE("zero below: the first tick above 0.5 s") {
    EventLocator locator({Crossing::kRising}, kNs, 0, 0, {ZeroSide::kBelow});
    start_at(locator, step, 0);
    CHECK_FALSE(check(locator, step, 0, 0.25, 0));  // resting at zero: no crossing
    const std::optional<LocatedEvent> found = check(locator, step, 0.25, 1, kNs.to_ticks(0.25));
    REQUIRE(found);
    CHECK(found->tick == expected);
    CHECK(found->bracket.ta <= 0.5);
    CHECK(found->bracket.tb > 0.5);
    const auto fired = fire_at(locator, step, found->tick);
    REQUIRE(fired.size() == 1);
    CHECK(locator.event(GuardId{0}) == Crossing::kRising);
  }
  SUBCASE("zero of its own: resting at zero has no side, leaving it is no crossing") {
    EventLocator locator({Crossing::kRising}, kNs, 0, 0);
    start_at(locator, step, 0);
    CHECK_FALSE(check(locator, step, 0, 0.25, 0));
    CHECK_FALSE(check(locator, step, 0.25, 1, kNs.to_ticks(0.25)));
  }
}

TEST_CASE(
    "a guard whose zero is below falls where it reaches zero, and resting there it is on its g <= 0 side") {
  // g = 0.25 - t until 0.25 s, then 0; a step ends exactly at 0.25 s, where it reaches zero.
  Analytic step;
  step.guard = [](double t, const Values&) { return Values{t < 0.25 ? 0.25 - t : 0.0}; };
  EventLocator locator({Crossing::kBoth}, kNs, 0, 0, {ZeroSide::kBelow});
  start_at(locator, step, 0);
  const Tick at = kNs.to_ticks(0.25);
  const std::optional<LocatedEvent> found = check(locator, step, 0, kNs.to_seconds(at), 0);
  REQUIRE(found);
  CHECK(found->tick == at);
  const auto fired = fire_at(locator, step, found->tick);
  REQUIRE(fired.size() == 1);
  CHECK(locator.event(GuardId{0}) == Crossing::kFalling);
  settle(locator, {0.0}, {0.0});
  // Resting at zero afterwards: no crossing, neither way.
  CHECK_FALSE(check(locator, step, kNs.to_seconds(at), 1, at));
  // A guard falling through zero crosses at the first tick at or below zero, as with zero of its own.
  Analytic through;
  through.guard = [](double t, const Values&) { return Values{0.25 - t}; };
  EventLocator falling({Crossing::kFalling}, kNs, 0, 0, {ZeroSide::kBelow});
  start_at(falling, through, 0);
  const std::optional<LocatedEvent> crossed = check(falling, through, 0, 1, 0);
  REQUIRE(crossed);
  CHECK(crossed->tick == first_tick([](double t) { return 0.25 - t <= 0; }, 0.25));
}
