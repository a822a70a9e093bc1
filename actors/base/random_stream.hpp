#pragma once
/// The random actors' stream (UniformRandom, GaussianRandom, ExponentialRandom, PoissonClock):
/// std::mt19937_64, whose sequence the C++ standard fixes, turned into
/// uniform draws by a transform of ours, so that a seed gives the same
/// draws on every platform (the standard library's distributions differ
/// between libraries).

#include <cmath>
#include <cstdint>
#include <locale>
#include <random>
#include <sstream>
#include <string>
#include <string_view>

#include "../../core/fnv1a.hpp"
#include "../../core/state_stream.hpp"

namespace ctde {

/// The largest `seed` a random actor takes: 2^53, so that every seed is
/// exactly a double.
inline constexpr double kMaxSeed = 9007199254740992.0;

/// The seed of a random actor whose `seed` is not set: the 64-bit FNV-1a
/// hash of its path ("plant.noise") shifted right by 11 bits, a whole number
/// below 2^53 that a user can also write as `seed`. Two unseeded actors so
/// draw different streams, and a model draws the same ones on every run and
/// platform.
[[nodiscard]] inline std::uint64_t seed_from_path(std::string_view path) {
  Fnv1a hash;
  hash.bytes(path.data(), path.size());
  return hash.get() >> 11U;
}

/// What is wrong with `seed` as a `seed` parameter's value (empty: nothing,
/// a whole number from 0 to kMaxSeed).
[[nodiscard]] std::string seed_problem(double seed);

/// The generator of one random actor: 64-bit Mersenne Twister and the
/// uniform draws made from it. Copyable value type.
class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) : engine_(seed) {}
  /// A uniform draw in [0, 1) with 53 random bits.
  [[nodiscard]] double uniform() { return static_cast<double>(engine_() >> 11U) * 0x1p-53; }

  /// A draw of the exponential law of mean `mean`: -mean ln(1 - u) of one
  /// uniform draw u (1 - u is in (0, 1], so the logarithm is finite), not
  /// std::exponential_distribution, whose algorithm differs between libraries.
  [[nodiscard]] double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }

  /// Writes the engine's exact position: its state in the standard's text
  /// form (operator<<), which reads back to the same engine.
  void save(StateWriter& out) const {
    std::ostringstream text;
    text.imbue(std::locale::classic());
    text << engine_;
    out.text(text.str());
  }
  /// Reads what save() wrote. @throws SnapshotError (through `in`) when the
  /// text is not a std::mt19937_64's state.
  void restore(StateReader& in) {
    std::istringstream text(in.text());
    text.imbue(std::locale::classic());
    std::mt19937_64 engine;
    text >> engine;
    if (text.fail() || !(text >> std::ws).eof()) in.fail("a random generator's state that does not read");
    engine_ = engine;
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace ctde
