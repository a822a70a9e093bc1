#include "actors/sources/poisson_clock.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

PoissonClock::PoissonClock(std::string name) : Actor(std::move(name), "PoissonClock", TimeMode::kDiscrete) {
  declare_output("out", PortKind::kDiscrete, 1);
  mean_ = declare_parameter("mean_interval", ParamKind::kScalar);
  seed_ = declare_parameter("seed", ParamKind::kScalar, 1.0);
}

void PoissonClock::configure(const ParameterScope& scope) {
  (void)scope;
  if (!(scalar(mean_) > 0) || !std::isfinite(scalar(mean_))) {
    fail(mean_, "must be a finite number > 0, got " + format_double(scalar(mean_)));
  }
  if (scalar(seed_) < 0 || scalar(seed_) != std::floor(scalar(seed_))) {
    fail(seed_, "must be a whole number >= 0");
  }
}

}  // namespace ctde
