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

  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;

 protected:
  void configure(const ParameterScope& scope) override;
  void check_times(const TimeResolution& resolution) const override;
  [[nodiscard]] Tick first(FireContext& context) const override;
  [[nodiscard]] Tick at_event(FireContext& context) const override;

 private:
  InputPort in_;
  /// The time of sample `k`, in ticks (kNever when it does not fit).
  [[nodiscard]] Tick sample_time(const ReadContext& context, std::uint64_t k) const;

  ParamHandle period_;
  ParamHandle offset_;
};

}  // namespace ctde
