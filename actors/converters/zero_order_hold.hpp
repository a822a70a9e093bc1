#pragma once
/// A discrete-to-continuous converter: the output holds the last token
/// received (`initial` before the first; scalar or of the input's width).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class ZeroOrderHold : public Actor {
 public:
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
