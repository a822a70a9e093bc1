#pragma once
/// The `DiscreteClock` actor (what it computes: kInfo.summary). A period of
/// "inf" gives each offset once.

#include "../base/self_timed.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class DiscreteClock : public SelfTimed {
 public:
  static constexpr ActorInfo kInfo{
      .type = "DiscreteClock",
      .family = "sources",
      .summary =
          "Events at offsets[i] + k * period for k = 0, 1, ..., carrying values[i], up to `stop_time`.",
      .sample_params = R"({"period": 0.5, "offsets": [0, 0.25], "values": [1, 2]})",
  };

  explicit DiscreteClock(std::string name);

 protected:
  void configure(const ParameterScope& scope) override;
  void check_times(const TimeResolution& resolution) const override;
  /// Event k is offset k mod n of period k / n, n offsets.
  [[nodiscard]] Tick time_of(FireContext& context, std::uint64_t k) const override;
  void send(FireContext& context, std::uint64_t k) const override;
  /// The last tick at which an event may be sent (kNever: none).
  [[nodiscard]] Tick last_tick(const ReadContext& context) const override;

 private:
  [[nodiscard]] Tick next_time(const ReadContext& context, std::uint64_t period_index,
                               std::size_t offset_index) const;
  ParamHandle period_;
  ParamHandle offsets_;
  ParamHandle values_;
  ParamHandle stop_time_;
};

}  // namespace ctde
