#include "actors/continuous/transport_delay.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

TransportDelay::TransportDelay(std::string name) : UnaryActor(std::move(name), kInfo, TimeMode::kContinuous) {
  delay_ = declare_parameter("delay", ParamKind::kScalar);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
  max_step_ = declare_optional_parameter("max_step", ParamKind::kScalar);
  set_feedthrough(false);  // out(t) reads the input's past only: loops through a delay are allowed
}

void TransportDelay::configure(const ParameterScope& /*scope*/) {
  const double delay = scalar(delay_);
  if (!(delay > 0) || !std::isfinite(delay)) {
    fail(delay_, "must be a finite delay > 0 (s), got " + format_double(delay));
  }
  for (const double v : vector(initial_)) {
    if (!std::isfinite(v)) fail(initial_, "must be finite, got " + format_double(v));
  }
  if (is_set(max_step_) && (!(scalar(max_step_) > 0) || !std::isfinite(scalar(max_step_)))) {
    fail(max_step_, "must be a finite step > 0 (s), got " + format_double(scalar(max_step_)));
  }
  // A vector initial value fixes the width; a scalar one is broadcast to the input's.
  fix_width_by(initial_);
}

void TransportDelay::check_times(const TimeResolution& resolution) const {
  const double tick = resolution.seconds_per_tick();
  if (scalar(delay_) / tick < 1 - 1e-6) {
    fail(delay_, format_double(scalar(delay_)) + " s is shorter than one tick of the time resolution (" +
                     format_double(tick) +
                     " s): the input's jumps could not come out after it; raise it or refine the "
                     "director's time_resolution");
  }
}

double TransportDelay::max_step() const {
  const double delay = scalar(delay_);
  return is_set(max_step_) ? std::min(scalar(max_step_), delay) : delay / kStepsPerDelay;
}

namespace {

/// A jump of the input whose time event (its tick + the delay) has not come.
struct PendingJump {
  double time = 0;   ///< the jump's time (s)
  Tick release = 0;  ///< the tick of its time event
};

/// The input's history: points in time order, a jump being two points at
/// one time (the left limit, then the right one). Points before `first` are
/// trimmed (and removed now and then). The run state of a TransportDelay.
struct History final : ActorState {
  std::size_t width = 1;
  std::vector<double> times;
  std::vector<double> values;  ///< `width` values per point
  std::size_t first = 0;
  Tick last_tick = 0;                ///< the tick of the last point
  Tick delay_ticks = 0;              ///< the delay, rounded to ticks
  std::vector<PendingJump> pending;  ///< oldest first
  /// The time of the latest jump released by its time event.
  double released = -std::numeric_limits<double>::infinity();

  [[nodiscard]] std::span<const double> value(std::size_t i) const {
    return {values.data() + i * width, width};
  }
  [[nodiscard]] std::size_t end() const { return times.size(); }
  /// The first point after `t` (end() when none), as std::upper_bound.
  [[nodiscard]] std::size_t after(double t) const {
    return static_cast<std::size_t>(
        std::upper_bound(times.begin() + static_cast<std::ptrdiff_t>(first), times.end(), t) - times.begin());
  }
  void push(double t, std::span<const double> u) {
    times.push_back(t);
    values.insert(values.end(), u.begin(), u.end());
  }

  /// Everything, the trimmed points too (where a batch removal happens
  /// depends on them; initialize(), which sets width and delay_ticks, is not
  /// called on restore).
  void save(StateWriter& out) const override {
    out.u64(width);
    out.values(times);
    out.values(values);
    out.u64(first);
    out.i64(last_tick);
    out.i64(delay_ticks);
    out.values(pending);
    out.f64(released);
  }
  void restore(StateReader& in) override {
    width = in.u64();
    times = in.values<double>();
    values = in.values<double>();
    first = in.u64();
    last_tick = in.i64();
    delay_ticks = in.i64();
    pending = in.values<PendingJump>();
    released = in.f64();
    if (times.empty() || values.size() != times.size() * width || first >= times.size()) {
      in.fail("a delay's history whose points do not match its width");
    }
  }
};

/// Adds the input's value `u` at (t, tick) to the history. At the tick of
/// the last point an equal value adds nothing and a different one is a
/// jump: with `jumps` a second point at that time (returns true), else it
/// replaces the last point.
bool sample(History& h, double t, Tick tick, std::span<const double> u, bool jumps) {
  if (tick != h.last_tick) {
    h.push(t, u);
    h.last_tick = tick;
    return false;
  }
  const std::span<const double> last = h.value(h.end() - 1);
  if (std::equal(u.begin(), u.end(), last.begin())) return false;
  if (!jumps) {
    std::copy(u.begin(), u.end(), h.values.end() - static_cast<std::ptrdiff_t>(h.width));
    return false;
  }
  h.push(h.times.back(), u);
  return true;
}

/// Forgets the points that no evaluation from time `now` on reads: those
/// before now - delay (and before the oldest pending jump), but for the
/// three points before that (the cubic's outer node, a jump's two sides).
void trim(History& h, double now, double delay) {
  double oldest = now - delay;
  if (!h.pending.empty()) oldest = std::min(oldest, h.pending.front().time);
  const std::size_t after = h.after(oldest);
  h.first = std::max(h.first, after >= h.first + 3 ? after - 3 : h.first);
  constexpr std::size_t kCompactAt = 256;  // points: remove the trimmed ones in batches
  if (h.first >= kCompactAt && 2 * h.first >= h.end()) {
    h.times.erase(h.times.begin(), h.times.begin() + static_cast<std::ptrdiff_t>(h.first));
    h.values.erase(h.values.begin(), h.values.begin() + static_cast<std::ptrdiff_t>(h.first * h.width));
    h.first = 0;
  }
}

void copy_point(const History& h, std::size_t i, std::span<double> out) {
  const std::span<const double> v = h.value(i);
  std::copy_n(v.begin(), std::min(v.size(), out.size()), out.begin());
}

/// out <- the history at time tau: the cubic through the two points around
/// tau and the one on each side, when they belong to the same piece (no
/// jump between) and are not much closer than those two (a close outer
/// node would amplify the stored values' errors); with fewer, the
/// quadratic or the line. Before the first point its value, after the last
/// one its value. No allocation.
void interpolate(const History& h, double tau, std::span<double> out) {
  const std::size_t b = h.after(tau);
  if (b == h.first || b == h.end()) {
    copy_point(h, b == h.first ? b : b - 1, out);
    return;
  }
  const std::size_t a = b - 1;  // times[a] <= tau < times[b]
  const double span = h.times[b] - h.times[a];
  std::array<std::size_t, 4> nodes{};
  std::size_t n = 0;
  if (a > h.first && h.times[a - 1] < h.times[a] && h.times[a] - h.times[a - 1] >= 0.25 * span) {
    nodes[n++] = a - 1;
  }
  nodes[n++] = a;
  nodes[n++] = b;
  if (b + 1 < h.end() && h.times[b + 1] - h.times[b] >= 0.25 * span) nodes[n++] = b + 1;
  std::array<double, 4> weight{};  // Lagrange's basis at tau
  for (std::size_t i = 0; i < n; ++i) {
    double w = 1;
    for (std::size_t j = 0; j < n; ++j) {
      if (j != i) w *= (tau - h.times[nodes[j]]) / (h.times[nodes[i]] - h.times[nodes[j]]);
    }
    weight[i] = w;
  }
  // Relative to the point at or before tau, so that a constant stays exact.
  for (std::size_t k = 0; k < out.size() && k < h.width; ++k) {
    const double base = h.values[a * h.width + k];
    double y = base;
    for (std::size_t i = 0; i < n; ++i) y += weight[i] * (h.values[nodes[i] * h.width + k] - base);
    out[k] = y;
  }
}

}  // namespace

std::unique_ptr<ActorState> TransportDelay::make_state() const { return std::make_unique<History>(); }

void TransportDelay::initialize(FireContext& context) const {
  auto& h = context.state<History>();
  h.width = context.width(out_);
  h.times.clear();
  h.values.clear();
  h.pending.clear();
  h.first = 0;
  h.released = -std::numeric_limits<double>::infinity();
  h.delay_ticks = context.resolution().to_ticks_clamped(scalar(delay_));
  // Before start + delay the output is `initial`: the history starts with
  // it, as the left limit of the input at the start.
  h.times.push_back(context.time());
  h.values.resize(h.width);  // empty before: the first point
  broadcast(vector(initial_), h.values);
  h.last_tick = context.tag().time;
}

void TransportDelay::evaluate(EvalContext& context) const {
  const auto& h = context.state<History>();
  const auto out = context.output(out_);
  const double tau = context.time() - scalar(delay_);
  if (!h.pending.empty() && tau >= h.pending.front().time) {
    // Before a jump's time event (tau past the jump only when the delay
    // rounds up to ticks): the jump's left limit.
    const auto at = std::lower_bound(h.times.begin() + static_cast<std::ptrdiff_t>(h.first), h.times.end(),
                                     h.pending.front().time);
    copy_point(h, static_cast<std::size_t>(at - h.times.begin()), out);
  } else if (tau < h.released) {
    copy_point(h, h.after(h.released) - 1, out);  // after it (the delay rounded down): the right limit
  } else {
    interpolate(h, tau, out);
  }
}

bool TransportDelay::step_completed(StepContext& context) const {
  auto& h = context.state<History>();
  sample(h, context.time(), context.tag().time, context.input(in_), /*jumps=*/false);
  trim(h, context.time(), scalar(delay_));
  return false;
}

void TransportDelay::at_events(FireContext& context, EventSide side) const {
  (void)side;  // both sides are samples; a different value at the same tick is a jump
  auto& h = context.state<History>();
  const Tick tick = context.tag().time;
  if (sample(h, context.time(), tick, context.input(in_), /*jumps=*/true) &&
      h.delay_ticks <= context.stop_tick() - tick) {
    h.pending.push_back({h.times.back(), tick + h.delay_ticks});
    context.fire_at(tick + h.delay_ticks);
  }
  trim(h, context.time(), scalar(delay_));
}

void TransportDelay::fire(FireContext& context) const {
  if (!context.time_event()) return;
  auto& h = context.state<History>();
  // The jumps due now come out: the director evaluates the output after this.
  while (!h.pending.empty() && h.pending.front().release <= context.tag().time) {
    h.released = h.pending.front().time;
    h.pending.erase(h.pending.begin());
  }
}

}  // namespace ctde
