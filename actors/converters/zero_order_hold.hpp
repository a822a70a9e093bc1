#pragma once
/// The `ZeroOrderHold` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class ZeroOrderHold : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "ZeroOrderHold",
      .family = "converters",
      .summary =
          "A discrete-to-continuous converter: the output holds the last token received (`initial` before "
          "the first; scalar or of the input's width).",
      .sample_params = R"({"initial": 0})",
  };

  explicit ZeroOrderHold(std::string name);
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void fire(FireContext& context) const override;

 private:
  InputPort in_;
  OutputPort out_;
  ParamHandle initial_;
};

}  // namespace ctde
