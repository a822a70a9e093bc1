#pragma once
/// Any event on `in` ends the run with status "stopped".

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Stop : public Actor {
 public:
  explicit Stop(std::string name);
  void fire(FireContext& context) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

 private:
  InputPort in_;
};

}  // namespace ctde
