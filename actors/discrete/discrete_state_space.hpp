#pragma once
/// The `DiscreteStateSpace` actor (what it computes: kInfo.summary): a
/// sampled linear system updated once per input token.

#include <span>
#include <vector>

#include "../base/linear_system.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class DiscreteStateSpace : public LinearSystem {
 public:
  static constexpr ActorInfo kInfo{
      .type = "DiscreteStateSpace",
      .family = "discrete",
      .summary =
          "At each token u[k]: sends y[k] = C x[k] + D u[k], then x[k+1] = A x[k] + B u[k]; x[0] = initial. "
          "With D = 0 it has no direct feedthrough: in a discrete loop it sends y[k] when a token samples "
          "the loop.",
      .sample_params = R"({"A": [[0.5]], "B": [[1]], "C": [[1]], "D": [[0]]})",
  };

  explicit DiscreteStateSpace(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  [[nodiscard]] bool samples_its_loop() const override { return true; }
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  /// y = C x + D u (u empty: C x alone), into the scratch buffer.
  [[nodiscard]] std::span<double> output(FireContext& context, const std::vector<double>& x,
                                         std::span<const double> u) const;
  /// x <- A x + B u (`next`: room for it).
  void update(std::vector<double>& x, std::vector<double>& next, std::span<const double> u) const;
};

}  // namespace ctde
