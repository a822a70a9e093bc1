#pragma once
/// A discrete-to-continuous converter: the output extrapolates linearly from
/// the last two tokens received (`initial` before the first).

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class FirstOrderHold : public Actor {
 public:
  explicit FirstOrderHold(std::string name);
  void check_widths(std::span<const int> input_widths,
                    std::span<const int> output_widths) const override;

 private:
  ParamHandle initial_;
};

}  // namespace ctde
