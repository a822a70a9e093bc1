#pragma once
/// The `Selector` actor (what it computes: kInfo.summary).

#include <cstddef>
#include <vector>

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Selector : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Selector",
      .family = "math",
      .summary = "y[i] = u[indices[i]]: the elements of the input at `indices` (from 0), in that order.",
      .sample_params = R"({"indices": [0, 0]})",
  };

  explicit Selector(std::string name);
  void evaluate(EvalContext& context) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  InputPort in_;
  OutputPort out_;
  ParamHandle indices_;
  std::vector<std::size_t> picks_;
};

}  // namespace ctde
