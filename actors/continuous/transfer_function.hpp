#pragma once
/// The `TransferFunction` actor (what it computes: kInfo.summary). The degree
/// of num must not exceed den's; the input feeds the output directly only when
/// the degrees are equal.
///
/// Realised in controllable canonical form, normalised by den[0]: with
/// den = s^n + a1 s^(n-1) + ... + an and num = b0 s^n + b1 s^(n-1) + ... + bn
/// (after dividing both by den[0], num padded with leading zeros), the n
/// states are x1 = z, x2 = z', ..., xn = z^(n-1) of z^(n) + a1 z^(n-1) + ...
/// + an z = u:
///   x1' = x2, ..., x(n-1)' = xn,  xn' = u - an x1 - ... - a1 xn,
///   y = b0 u + sum_i (bi - b0 ai) x(n+1-i).
/// The initial states are zero.

#include <vector>

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class TransferFunction : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "TransferFunction",
      .family = "continuous",
      .summary = "Y(s)/U(s) = num(s)/den(s), coefficients from the highest power down.",
      .sample_params = R"({"num": [1], "den": [1, 3, 2]})",
  };

  explicit TransferFunction(std::string name);

  [[nodiscard]] std::size_t state_size() const override { return den_norm_.size(); }
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void derivatives(const ReadContext& context, std::span<double> dxdt) const override;
  void local_jacobian(LocalJacobian& jacobian) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle num_;
  ParamHandle den_;
  // The realisation, fixed by configure().
  std::vector<double> den_norm_;  ///< a1..an (den / den[0], without the leading 1)
  std::vector<double> out_coef_;  ///< c1..cn, ci = bi - b0 ai
  double direct_ = 0.0;           ///< b0: the direct term (0 unless the degrees are equal)
};

}  // namespace ctde
