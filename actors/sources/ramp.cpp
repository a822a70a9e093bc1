#include "actors/sources/ramp.hpp"

#include "core/actor_context.hpp"

namespace ctde {

// A kink at the start is no event: both laws give 0 there.
Ramp::Ramp(std::string name) : SwitchedSource(std::move(name), kInfo, /*switched_at_start=*/true) {
  slope_ = declare_parameter("slope", ParamKind::kScalar, 1.0);
  time_ = declare_parameter("start_time", ParamKind::kScalar, 0.0);
}

void Ramp::evaluate(EvalContext& context) const {
  // From the kink at its tick, so that the output is exactly 0 there.
  context.output(out_)[0] =
      switched(context) ? scalar(slope_) * (context.time() - switch_seconds(context)) : 0.0;
}

}  // namespace ctde
