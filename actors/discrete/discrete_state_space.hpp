#pragma once
/// The `DiscreteStateSpace` actor (what it computes: kInfo.summary): a
/// sampled linear system updated once per input token.

#include "../base/linear_system.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class DiscreteStateSpace : public LinearSystem {
 public:
  static constexpr ActorInfo kInfo{
      .type = "DiscreteStateSpace",
      .family = "discrete",
      .summary =
          "At each token u[k]: sends y[k] = C x[k] + D u[k], then x[k+1] = A x[k] + B u[k]; x[0] = initial.",
      .sample_params = R"({"A": [[0.5]], "B": [[1]], "C": [[1]], "D": [[0]]})",
  };

  explicit DiscreteStateSpace(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;
};

}  // namespace ctde
