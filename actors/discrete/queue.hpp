#pragma once
/// The `Queue` actor (what it computes: kInfo.summary).

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Queue : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Queue",
      .family = "discrete",
      .summary =
          "A FIFO of tokens: tokens on `in` are stored (up to `capacity`; beyond it they are dropped); each "
          "event on the optional `trigger` sends the oldest.",
      .sample_params = R"({"capacity": 4})",
  };

  explicit Queue(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;
  [[nodiscard]] int infer_output_width(std::size_t output, std::span<const int> input_widths) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  InputPort trigger_;
  ParamHandle capacity_;
};

}  // namespace ctde
