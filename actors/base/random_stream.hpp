#pragma once
/// The random actors' stream (UniformRandom, GaussianRandom, PoissonClock):
/// std::mt19937_64, whose sequence the C++ standard fixes, turned into
/// uniform draws by a transform of ours, so that a seed gives the same
/// draws on every platform (the standard library's distributions differ
/// between libraries).

#include <cstdint>
#include <random>

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

}  // namespace ctde
