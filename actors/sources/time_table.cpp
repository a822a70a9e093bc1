#include "actors/sources/time_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/actor_context.hpp"
#include "core/csv_table.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

TimeTable::TimeTable(std::string name) : Actor(std::move(name), kInfo, TimeMode::kContinuous) {
  out_ = declare_output("out", PortKind::kContinuous);
  points_ = declare_optional_parameter("points", ParamKind::kMatrix);
  file_ = declare_optional_parameter("file", ParamKind::kFile);
  interpolation_ = declare_parameter("interpolation", ParamKind::kString, "linear");
  set_feedthrough(false);
}

void TimeTable::configure(const ParameterScope& /*scope*/) {
  if (text(interpolation_) != "linear" && text(interpolation_) != "hold") {
    fail(interpolation_, "must be \"linear\" or \"hold\", got \"" + text(interpolation_) + "\"");
  }
  hold_ = text(interpolation_) == "hold";
  const bool has_points = is_set(points_);
  const bool has_file = is_set(file_);
  if (has_points == has_file) fail("give exactly one of 'points' and 'file'");
  if (has_file) {
    try {
      table_ = read_csv_table(text(file_));
    } catch (const ModelError& e) {
      fail(file_, e.message());
    }
  } else {
    table_ = matrix(points_);
  }
  if (table_.cols < 2) fail("each point needs a time and at least one value: [t, v...]");
  if (table_.rows < 1) fail("needs at least one point");
  for (std::size_t r = 1; r < table_.rows; ++r) {
    if (table_(r, 0) < table_(r - 1, 0)) {
      fail("times must not decrease: point " + std::to_string(r) + " has t = " + format_double(table_(r, 0)) +
           " after t = " + format_double(table_(r - 1, 0)));
    }
    if (r >= 2 && table_(r, 0) == table_(r - 2, 0)) {
      fail("time " + format_double(table_(r, 0)) + " appears three times; a jump is one time given twice");
    }
  }
  set_width(out_, static_cast<int>(table_.cols - 1));
}

namespace {
/// `next`: the first point whose time event has not fired yet (rows() when
/// all have). The current segment runs from point next-1 to point next.
struct TimeTableState final : ActorState {
  std::size_t next = 0;

  void save(StateWriter& out) const override { out.u64(next); }
  void restore(StateReader& in) override { next = in.u64(); }
};

}  // namespace

std::unique_ptr<ActorState> TimeTable::make_state() const { return std::make_unique<TimeTableState>(); }

void TimeTable::request(FireContext& context, std::size_t row) const {
  if (row >= table_.rows) return;
  const Tick tick = context.resolution().to_ticks_clamped(table_(row, 0));
  if (tick == kNever || tick > context.stop_tick()) return;
  // At the current time (the second point of a jump) this is the next microstep.
  context.fire_at(std::max(tick, context.tag().time));
}

void TimeTable::initialize(FireContext& context) const {
  auto& state = context.state<TimeTableState>();
  // Points before the start are passed; a point at the start fires at the start.
  state.next = 0;
  while (state.next < table_.rows &&
         context.resolution().to_ticks_clamped(table_(state.next, 0)) < context.start_tick()) {
    ++state.next;
  }
  request(context, state.next);
}

void TimeTable::evaluate(EvalContext& context) const {
  const std::size_t next = context.state<TimeTableState>().next;
  const auto out = context.output(out_);
  const std::size_t width = table_.cols - 1;
  if (next == 0 || next >= table_.rows) {  // before the first point, after the last: hold
    const std::size_t row = next == 0 ? 0 : table_.rows - 1;
    for (std::size_t i = 0; i < width && i < out.size(); ++i) out[i] = table_(row, i + 1);
    return;
  }
  const std::size_t a = next - 1;
  const double ta = table_(a, 0);
  const double tb = table_(next, 0);
  if (hold_ || !(tb > ta)) {  // hold, or the zero-length segment between the two sides of a jump
    for (std::size_t i = 0; i < width && i < out.size(); ++i) out[i] = table_(a, i + 1);
    return;
  }
  // Clamped: the solver's stages never leave the segment by more than a tick's rounding.
  const double f = std::clamp((context.time() - ta) / (tb - ta), 0.0, 1.0);
  for (std::size_t i = 0; i < width && i < out.size(); ++i) {
    const double va = table_(a, i + 1);
    const double vb = table_(next, i + 1);
    out[i] = va + f * (vb - va);
  }
}

void TimeTable::fire(FireContext& context) const {
  if (!context.time_event()) return;
  auto& state = context.state<TimeTableState>();
  if (state.next < table_.rows) ++state.next;
  request(context, state.next);
}

}  // namespace ctde
