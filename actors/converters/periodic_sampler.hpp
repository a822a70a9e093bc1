#pragma once
/// The `PeriodicSampler` actor (what it computes: kInfo.summary). The times
/// start + offset + k * period are computed in ticks, exactly.

#include "../base/self_timed.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class PeriodicSampler : public SelfTimed {
 public:
  static constexpr ActorInfo kInfo{
      .type = "PeriodicSampler",
      .family = "converters",
      .summary =
          "A continuous-to-discrete converter: an event carrying the input's value at offset + k * period, k "
          "= 0, 1, ...",
      .sample_params = R"({"period": 0.25, "offset": 0.125})",
  };

  explicit PeriodicSampler(std::string name);

 protected:
  void configure(const ParameterScope& scope) override;
  void check_times(const TimeResolution& resolution) const override;
  /// The time of sample `k`, in ticks (kNever when it does not fit).
  [[nodiscard]] Tick time_of(FireContext& context, std::uint64_t k) const override;
  void send(FireContext& context, std::uint64_t k) const override;

 private:
  InputPort in_;
  ParamHandle period_;
  ParamHandle offset_;
};

}  // namespace ctde
