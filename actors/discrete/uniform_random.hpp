#pragma once
/// The `UniformRandom` actor (what it computes: kInfo.summary).

#include "random_source.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class UniformRandom : public RandomSource {
 public:
  static constexpr ActorInfo kInfo{
      .type = "UniformRandom",
      .family = "discrete",
      .summary =
          "At each token on `trigger`, a sample uniform in [lower, upper), from a stream seeded with `seed`.",
      .sample_params = R"({"lower": -1, "upper": 3, "seed": 7})",
  };

  explicit UniformRandom(std::string name);

 protected:
  void configure(const ParameterScope& scope) override;
  [[nodiscard]] double draw(RandomStream& stream) const override;

 private:
  ParamHandle lower_;
  ParamHandle upper_;
};

}  // namespace ctde
