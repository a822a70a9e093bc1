#include "actors/discrete/token_delay.hpp"

#include <algorithm>
#include <cmath>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

TokenDelay::TokenDelay(std::string name, const ActorInfo& info, std::string_view parameter,
                       std::optional<double> default_value, bool whole_ticks)
    : UnaryActor(std::move(name), info, TimeMode::kDiscrete), whole_ticks_(whole_ticks) {
  duration_ = default_value ? declare_parameter(parameter, ParamKind::kScalar, *default_value)
                            : declare_optional_parameter(parameter, ParamKind::kScalar);
  set_feedthrough(false);
}

void TokenDelay::configure(const ParameterScope& /*scope*/) {
  if (!is_set(duration_)) return;
  const double seconds = scalar(duration_);
  if (!(seconds >= 0) || !std::isfinite(seconds)) {
    fail(duration_, "must be a finite number >= 0, got " + format_double(seconds));
  }
}

void TokenDelay::check_times(const TimeResolution& resolution) const {
  if (whole_ticks_ && is_set(duration_)) check_duration(duration_, resolution, /*zero_allowed=*/true);
}

void TokenDelay::send_oldest(FireContext& context, std::deque<double>& tokens) const {
  const std::size_t width = context.width(out_);
  const auto token = context.scratch(width);
  std::copy_n(tokens.begin(), width, token.begin());
  tokens.erase(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(width));
  context.emit(out_, token);
}

}  // namespace ctde
