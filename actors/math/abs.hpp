#pragma once
/// |u|, element by element.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Abs : public Actor {
 public:
  explicit Abs(std::string name);
  void evaluate(EvalContext& context) const override;

 private:
  void apply(std::span<const double> u, std::span<double> y) const;
  InputPort in_;
  OutputPort out_;
};

}  // namespace ctde
