#include "actors/base/random_stream.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

std::string seed_problem(double seed) {
  if (seed >= 0 && seed <= kMaxSeed && seed == std::floor(seed)) return {};
  return "must be a whole number from 0 to 2^53 (9007199254740992), got " + format_double(seed);
}

}  // namespace ctde
