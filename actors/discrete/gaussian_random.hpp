#pragma once
/// The `GaussianRandom` actor (what it computes: kInfo.summary).

#include "random_source.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class GaussianRandom : public RandomSource {
 public:
  static constexpr ActorInfo kInfo{
      .type = "GaussianRandom",
      .family = "discrete",
      .summary =
          "At each token on `trigger`, a sample of the normal distribution (mean, standard_deviation), from "
          "a stream seeded with `seed`.",
      .sample_params = R"({"mean": 2, "standard_deviation": 0.5, "seed": 3})",
  };

  explicit GaussianRandom(std::string name);

 protected:
  void configure(const ParameterScope& scope) override;
  [[nodiscard]] double draw(RandomStream& stream) const override;

 private:
  ParamHandle mean_;
  ParamHandle deviation_;
};

}  // namespace ctde
