#pragma once
/// The `Mux` actor (what it computes: kInfo.summary).

#include "../base/fan_in.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Mux : public FanIn {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Mux",
      .family = "math",
      .summary = "One vector of in0, in1, ..., in{inputs-1} (scalars or vectors) one after the other.",
  };

  explicit Mux(std::string name);
  void evaluate(EvalContext& context) const override;
  [[nodiscard]] int infer_output_width(std::size_t output, std::span<const int> input_widths) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;
};

}  // namespace ctde
