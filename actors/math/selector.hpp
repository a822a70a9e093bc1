#pragma once
/// The `Selector` actor (what it computes: kInfo.summary).

#include <cstddef>
#include <vector>

#include "unary_function.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Selector : public UnaryFunction {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Selector",
      .family = "math",
      .summary = "y[i] = u[indices[i]]: the elements of the input at `indices` (from 0), in that order.",
      .sample_params = R"({"indices": [0, 0]})",
  };

  explicit Selector(std::string name);
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

 protected:
  void apply(std::span<const double> u, std::span<double> y) const override;
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle indices_;
  std::vector<std::size_t> picks_;
};

}  // namespace ctde
