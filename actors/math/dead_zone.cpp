#include "actors/math/dead_zone.hpp"

#include <cmath>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

DeadZone::DeadZone(std::string name) : Actor(std::move(name), kInfo, TimeMode::kUnresolved) {
  in_ = declare_input("in", PortKind::kPolymorphic);
  out_ = declare_output("out", PortKind::kPolymorphic);
  lower_ = declare_parameter("lower", ParamKind::kScalar);
  upper_ = declare_parameter("upper", ParamKind::kScalar);
}

void DeadZone::configure(const ParameterScope& scope) {
  (void)scope;
  if (!std::isfinite(scalar(lower_))) fail(lower_, "must be finite, got " + format_double(scalar(lower_)));
  if (!std::isfinite(scalar(upper_)) || !(scalar(lower_) <= scalar(upper_))) {
    fail(upper_, "must be finite and not below 'lower' (" + format_double(scalar(lower_)) + "), got " +
                     format_double(scalar(upper_)));
  }
}

void DeadZone::evaluate(EvalContext& context) const {
  const double lower = scalar(lower_);
  const double upper = scalar(upper_);
  const auto u = context.input(in_);
  const auto y = context.output(out_);
  for (std::size_t i = 0; i < u.size(); ++i) {
    y[i] = u[i] > upper ? u[i] - upper : (u[i] < lower ? u[i] - lower : 0.0);
  }
}

}  // namespace ctde
