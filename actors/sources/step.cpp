#include "actors/sources/step.hpp"

#include "core/actor_context.hpp"

namespace ctde {

// A jump at the start is an event there: `before` at microstep 0.
Step::Step(std::string name) : SwitchedSource(std::move(name), kInfo, /*switched_at_start=*/false) {
  time_ = declare_parameter("time", ParamKind::kScalar);
  before_ = declare_parameter("before", ParamKind::kScalar, 0.0);
  after_ = declare_parameter("after", ParamKind::kScalar, 1.0);
}

void Step::evaluate(EvalContext& context) const {
  context.output(out_)[0] = switched(context) ? scalar(after_) : scalar(before_);
}

}  // namespace ctde
