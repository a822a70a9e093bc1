#pragma once
/// The `StateSpace` actor (what it computes: kInfo.summary). Its matrices
/// and widths: LinearSystem. The input feeds the output directly only when D
/// is not zero. A | B and C are packed at configure() for the products
/// (RowBlocks: the same sums as row by row, several rows at a time).

#include "../base/linear_system.hpp"
#include "row_blocks.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class StateSpace : public LinearSystem {
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
  void local_jacobian(LocalJacobian& jacobian) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  RowBlocks derivative_rows_;  ///< [A B]: x' = A x + B u
  RowBlocks output_rows_;      ///< C: y = C x (+ D u, row by row)
};

}  // namespace ctde
