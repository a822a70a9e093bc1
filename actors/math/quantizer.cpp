#include "actors/math/quantizer.hpp"

#include <cmath>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

Quantizer::Quantizer(std::string name) : Actor(std::move(name), kInfo, TimeMode::kUnresolved) {
  in_ = declare_input("in", PortKind::kPolymorphic);
  out_ = declare_output("out", PortKind::kPolymorphic);
  interval_ = declare_parameter("interval", ParamKind::kScalar);
  offset_ = declare_parameter("offset", ParamKind::kScalar, 0.0);
}

void Quantizer::configure(const ParameterScope& scope) {
  (void)scope;
  if (!(scalar(interval_) > 0) || !std::isfinite(scalar(interval_))) {
    fail(interval_, "must be a finite number > 0, got " + format_double(scalar(interval_)));
  }
  if (!std::isfinite(scalar(offset_))) fail(offset_, "must be finite, got " + format_double(scalar(offset_)));
}

void Quantizer::evaluate(EvalContext& context) const {
  const double q = scalar(interval_);
  const double offset = scalar(offset_);
  const auto u = context.input(in_);
  const auto y = context.output(out_);
  for (std::size_t i = 0; i < u.size(); ++i) y[i] = offset + q * std::round((u[i] - offset) / q);
}

}  // namespace ctde
