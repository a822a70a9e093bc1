#pragma once
/// The `Abs` actor (what it computes: kInfo.summary).

#include "unary_function.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Abs : public UnaryFunction {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Abs",
      .family = "math",
      .summary = "|u|, element by element.",
  };

  explicit Abs(std::string name);

 protected:
  void apply(std::span<const double> u, std::span<double> y) const override;
};

}  // namespace ctde
