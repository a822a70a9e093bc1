#pragma once
/// What `StateSpace` and `DiscreteStateSpace` share: the matrices A (n x n),
/// B (n x m), C (p x n), D (p x m; default zero, the scalar 0 meaning zero)
/// and `initial` (n entries, or 1: broadcast), their checks, and the ports'
/// widths (the input m, the output p). Not copyable, not movable (see Actor).

#include <cstddef>
#include <span>

#include "unary_actor.hpp"

namespace ctde {

class LinearSystem : public UnaryActor {
 protected:
  /// Declares `in` and `out` of `kind` and the parameters.
  LinearSystem(std::string name, const ActorInfo& info, TimeMode mode, PortKind kind);

  /// Checks the matrices' shapes (errors name the parameter) and sets the
  /// ports' widths and the dimensions below.
  void configure(const ParameterScope& scope) override;

  /// x[i] <- initial, broadcast.
  void initial_states(std::span<double> x) const;

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
