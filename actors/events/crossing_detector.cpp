#include "actors/events/crossing_detector.hpp"

#include "core/actor_context.hpp"

namespace ctde {

CrossingDetector::CrossingDetector(std::string name, const ActorInfo& info, bool with_level)
    : UnaryActor(std::move(name), info, TimeMode::kHybrid, PortKind::kContinuous, PortKind::kDiscrete, 1) {
  direction_param_ = declare_parameter("direction", ParamKind::kString, "both");
  if (with_level) level_param_ = declare_parameter("level", ParamKind::kScalar, 0.0);
  value_param_ = declare_optional_parameter("value", ParamKind::kScalar);
}

void CrossingDetector::configure(const ParameterScope& /*scope*/) {
  const std::string& text = this->text(direction_param_);
  const std::optional<Crossing> direction = parse_crossing(text);
  if (!direction) fail(direction_param_, "must be \"rising\", \"falling\" or \"both\", got \"" + text + "\"");
  direction_ = *direction;
  if (level_param_) level_ = scalar(*level_param_);
}

Crossing CrossingDetector::guard_direction(std::size_t /*i*/) const { return direction_; }

void CrossingDetector::guards(const ReadContext& context, std::span<double> g) const {
  g[0] = context.input(in_)[0] - level_;
}

void CrossingDetector::fire(FireContext& context) const {
  if (context.crossing(0) == Crossing::kNone) return;
  context.emit(out_, is_set(value_param_) ? scalar(value_param_) : context.input(in_)[0]);
}

}  // namespace ctde
