#pragma once
/// The model time t, in seconds, as a continuous signal.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Clock : public Actor {
 public:
  explicit Clock(std::string name);
  void evaluate(EvalContext& context) const override;

 private:
  OutputPort out_;
};

}  // namespace ctde
