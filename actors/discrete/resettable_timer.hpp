#pragma once
/// The `ResettableTimer` actor (what it computes: kInfo.summary).

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class ResettableTimer : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "ResettableTimer",
      .family = "discrete",
      .summary =
          "A token d on `in` (re)starts a timer: `value` is sent at t + d unless another token arrives "
          "before; d = 0 sends it at the next microstep.",
      .sample_params = R"({"value": 2})",
  };

  explicit ResettableTimer(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;

 private:
  ParamHandle value_;
};

}  // namespace ctde
