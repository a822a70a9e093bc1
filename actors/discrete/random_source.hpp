#pragma once
/// The base of the random actors (UniformRandom, GaussianRandom): one
/// pseudo-random stream per actor, seeded by its `seed` parameter (unset: a
/// seed from its path, seed_from_path), one draw per token on `trigger`.
///
/// The stream is std::mt19937_64 (its sequence is fixed by the C++
/// standard) turned into numbers by our own transforms, not by the standard
/// library's distributions (whose algorithms differ between libraries): the
/// same model and seed give the same samples on every platform.

#include <cstdint>

#include "../../core/actor.hpp"
#include "../base/random_stream.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class RandomSource : public Actor {
 public:
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;

 protected:
  RandomSource(std::string name, const ActorInfo& info);
  void configure(const ParameterScope& scope) override;
  /// One sample from `stream` (the distribution's transform).
  [[nodiscard]] virtual double draw(RandomStream& stream) const = 0;

 private:
  InputPort trigger_;
  OutputPort out_;
  ParamHandle seed_;
  std::uint64_t seed_value_ = 0;  ///< `seed`, or seed_from_path(path()) when unset (in configure)
};

}  // namespace ctde
