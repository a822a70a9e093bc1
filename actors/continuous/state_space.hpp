#pragma once
/// The `StateSpace` actor (what it computes: kInfo.summary). A is n x n, B n x
/// m, C p x n, D p x m (default zero; the scalar 0 means zero); the input has
/// width m, the output width p. `initial` has n entries, or 1 (broadcast). The
/// input feeds the output directly only when D is not zero.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class StateSpace : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "StateSpace",
      .family = "continuous",
      .summary = "x' = A x + B u, y = C x + D u, x(start) = initial.",
      .sample_params = R"({"A": [[0, 1], [-1, -0.5]], "B": [[0], [1]], "C": [[1, 0]]})",
  };

  explicit StateSpace(std::string name);

  [[nodiscard]] std::size_t state_size() const override { return n_; }
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void derivatives(const ReadContext& context, std::span<double> dxdt) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  InputPort in_;
  OutputPort out_;
  ParamHandle a_;
  ParamHandle b_;
  ParamHandle c_;
  ParamHandle d_;
  ParamHandle initial_;
  // Dimensions, fixed by configure() (the matrices are read row-major
  // through vector(), which allocates nothing).
  std::size_t n_ = 0;  ///< states
  std::size_t m_ = 0;  ///< inputs
  std::size_t p_ = 0;  ///< outputs
  bool zero_d_ = true;
};

}  // namespace ctde
