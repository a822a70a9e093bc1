#pragma once
/// The `Switch` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Switch : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Switch",
      .family = "math",
      .summary =
          "y = in0 while control >= threshold, else in1 (in0 and in1 of one width, control of width 1).",
      .sample_params = R"({"threshold": 3})",
  };

  explicit Switch(std::string name);
  void evaluate(EvalContext& context) const override;
  [[nodiscard]] int infer_output_width(std::size_t output, std::span<const int> input_widths) const override;

 private:
  InputPort in0_;
  InputPort in1_;
  InputPort control_;
  OutputPort out_;
  ParamHandle threshold_;
};

}  // namespace ctde
