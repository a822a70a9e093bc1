#pragma once
/// The `Stop` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Stop : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Stop",
      .family = "sinks",
      .summary = "Any event on `in` ends the run with status \"stopped\".",
  };

  explicit Stop(std::string name);
  void fire(FireContext& context) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

 private:
  InputPort in_;
};

}  // namespace ctde
