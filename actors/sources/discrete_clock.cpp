#include "actors/sources/discrete_clock.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

DiscreteClock::DiscreteClock(std::string name) : Actor(std::move(name), "DiscreteClock", TimeMode::kDiscrete) {
  declare_output("out", PortKind::kDiscrete, 1);
  period_ = declare_parameter("period", ParamKind::kScalar, 1.0);
  offsets_ = declare_parameter("offsets", ParamKind::kVector, std::vector<double>{0.0});
  values_ = declare_parameter("values", ParamKind::kVector, std::vector<double>{1.0});
}

void DiscreteClock::configure(const ParameterScope& scope) {
  (void)scope;
  const double period = scalar(period_);
  if (!(period > 0)) fail(period_, "must be > 0 (or \"inf\"), got " + format_double(period));
  const auto offsets = vector(offsets_);
  if (vector(values_).size() != offsets.size()) {
    fail("'values' has " + std::to_string(vector(values_).size()) + " entries but 'offsets' has " +
         std::to_string(offsets.size()) + "; give one value per offset");
  }
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    if (offsets[i] < 0 || (std::isfinite(period) && offsets[i] >= period)) {
      fail(offsets_, "offset " + format_double(offsets[i]) + " is outside [0, period)");
    }
    if (i > 0 && offsets[i] <= offsets[i - 1]) fail(offsets_, "offsets must increase");
  }
}

}  // namespace ctde
