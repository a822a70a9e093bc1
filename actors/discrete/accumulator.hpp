#pragma once
/// The running sum of the tokens received, starting from `initial`.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Accumulator : public Actor {
 public:
  explicit Accumulator(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

 private:
  InputPort in_;
  OutputPort out_;
  ParamHandle initial_;
};

}  // namespace ctde
