#pragma once
/// The `Counter` actor (what it computes: kInfo.summary).

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Counter : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Counter",
      .family = "discrete",
      .summary = "The number of events received so far (of any width), sent at each event.",
  };

  explicit Counter(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

 private:
};

}  // namespace ctde
