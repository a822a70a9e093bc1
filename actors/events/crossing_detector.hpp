#pragma once
/// The state-event generator behind ZeroCrossingDetector and
/// LevelCrossingDetector: one guard, `in - level`, whose crossings in
/// `direction` ("rising", "falling" or "both") the director locates; at each
/// one the actor sends the input's value at the crossing on `out` (or the
/// fixed `value`, when set).

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class CrossingDetector : public UnaryActor {
 public:
  [[nodiscard]] std::size_t guard_count() const override { return 1; }
  [[nodiscard]] Crossing guard_direction(std::size_t i) const override;
  void guards(const ReadContext& context, std::span<double> g) const override;
  void fire(FireContext& context) const override;

 protected:
  /// @param info the concrete type's identity (its kInfo).
  /// @param with_level declare a `level` parameter (else the level is 0).
  CrossingDetector(std::string name, const ActorInfo& info, bool with_level);
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle direction_param_;
  std::optional<ParamHandle> level_param_;
  ParamHandle value_param_;  ///< optional: the token to send instead of the input's value
  Crossing direction_ = Crossing::kBoth;
  double level_ = 0.0;
};

}  // namespace ctde
