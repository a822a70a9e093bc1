#pragma once
/// A continuous-to-discrete converter: an event carrying the input's value at
/// offset + k * period, k = 0, 1, ...

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class PeriodicSampler : public Actor {
 public:
  explicit PeriodicSampler(std::string name);

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle period_;
  ParamHandle offset_;
};

}  // namespace ctde
