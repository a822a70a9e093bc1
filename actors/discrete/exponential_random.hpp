#pragma once
/// The `ExponentialRandom` actor (what it computes: kInfo.summary).

#include "random_source.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class ExponentialRandom : public RandomSource {
 public:
  static constexpr ActorInfo kInfo{
      .type = "ExponentialRandom",
      .family = "discrete",
      .summary =
          "At each token on `trigger`, a sample of the exponential distribution of mean `mean`, "
          "from a stream seeded with `seed`.",
      .sample_params = R"({"mean": 1.5, "seed": 5})",
  };

  explicit ExponentialRandom(std::string name);

 protected:
  void configure(const ParameterScope& scope) override;
  [[nodiscard]] double draw(RandomStream& stream) const override;

 private:
  ParamHandle mean_;
};

}  // namespace ctde
