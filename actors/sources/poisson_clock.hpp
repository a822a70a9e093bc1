#pragma once
/// The `PoissonClock` actor (what it computes: kInfo.summary). Each event
/// carries 1.

#include <cstdint>

#include "../base/self_timed.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class PoissonClock : public SelfTimed {
 public:
  static constexpr ActorInfo kInfo{
      .type = "PoissonClock",
      .family = "sources",
      .summary =
          "Events at exponentially distributed intervals of mean `mean_interval`, drawn from a generator "
          "seeded with `seed`: the same seed gives the same times on every platform.",
      .sample_params = R"({"mean_interval": 0.25, "seed": 7})",
  };

  explicit PoissonClock(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;

 protected:
  void configure(const ParameterScope& scope) override;
  void check_times(const TimeResolution& resolution) const override;
  /// An exponential interval after now (kNever: beyond the stop time).
  [[nodiscard]] Tick time_of(FireContext& context, std::uint64_t k) const override;
  void send(FireContext& context, std::uint64_t k) const override;

 private:
  ParamHandle mean_;
  ParamHandle seed_;
  std::uint64_t seed_value_ = 0;  ///< `seed`, or seed_from_path(path()) when unset (in configure)
};

}  // namespace ctde
