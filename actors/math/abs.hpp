#pragma once
/// The `Abs` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Abs : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Abs",
      .family = "math",
      .summary = "|u|, element by element.",
      .sample_params = R"({})",
  };

  explicit Abs(std::string name);
  void evaluate(EvalContext& context) const override;

 private:
  void apply(std::span<const double> u, std::span<double> y) const;
  InputPort in_;
  OutputPort out_;
};

}  // namespace ctde
