#pragma once
/// The base of the random actors (UniformRandom, GaussianRandom): one
/// pseudo-random stream per actor, seeded by its `seed` parameter, one draw
/// per token on `trigger`.
///
/// The stream is std::mt19937_64 (its sequence is fixed by the C++
/// standard) turned into numbers by our own transforms, not by the standard
/// library's distributions (whose algorithms differ between libraries): the
/// same model and seed give the same samples on every platform.

#include <cstdint>
#include <random>

#include "../../core/actor.hpp"

namespace ctde {

/// The generator of one random actor: 64-bit Mersenne Twister and the
/// uniform draws made from it. Copyable value type.
class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) : engine_(seed) {}
  /// A uniform draw in [0, 1) with 53 random bits.
  [[nodiscard]] double uniform() { return static_cast<double>(engine_() >> 11U) * 0x1p-53; }

 private:
  std::mt19937_64 engine_;
};

/// Not copyable, not movable (see Actor).
class RandomSource : public Actor {
 public:
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;

  /// The largest seed: 2^53, so that every seed is exactly a double.
  static constexpr double kMaxSeed = 9007199254740992.0;

 protected:
  RandomSource(std::string name, const ActorInfo& info);
  void configure(const ParameterScope& scope) override;
  /// One sample from `stream` (the distribution's transform).
  [[nodiscard]] virtual double draw(RandomStream& stream) const = 0;

 private:
  InputPort trigger_;
  OutputPort out_;
  ParamHandle seed_;
};

}  // namespace ctde
