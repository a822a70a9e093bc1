#pragma once
/// The `DiscreteTransferFunction` actor (what it computes: kInfo.summary),
/// run as a direct form II transposed filter, one update per input token.

#include <vector>

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class DiscreteTransferFunction : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "DiscreteTransferFunction",
      .family = "discrete",
      .summary =
          "Y(z)/U(z) = num(z)/den(z), coefficients from the highest power of z down; one update per token. "
          "Strictly proper (num's degree below den's), it has no direct feedthrough: in a discrete loop it "
          "sends y[k] when a token samples the loop.",
      .sample_params = R"({"num": [1], "den": [1, -0.5]})",
  };

  explicit DiscreteTransferFunction(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  [[nodiscard]] bool samples_its_loop() const override { return true; }
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle num_;
  ParamHandle den_;
  std::vector<double> b_;  ///< numerator in powers of z^-1, over den[0], padded to the order + 1
  std::vector<double> a_;  ///< denominator in powers of z^-1, over den[0] (a_[0] = 1)

  /// The output for input `u` with delay line `s`, which takes its next values.
  double step(std::vector<double>& s, double u) const;
};

}  // namespace ctde
