// The check of the derivatives (domains/ct/first_nonfinite.hpp): the first NaN
// or infinity at every position of arrays of every length around the four
// lanes, and no false alarm on the finite extremes.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "domains/ct/first_nonfinite.hpp"

using ctde::first_nonfinite;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

TEST_CASE("first_nonfinite finds nothing in finite values, the extremes included") {
  CHECK(first_nonfinite({}) == 0);
  // Largest, smallest normal and subnormal magnitudes, both zeros: v * 0 is 0 for each.
  const std::vector<double> extremes = {DBL_MAX,       -DBL_MAX, DBL_MIN, -DBL_MIN, DBL_TRUE_MIN,
                                        -DBL_TRUE_MIN, 0.0,      -0.0,    1.0,      -1e300};
  for (std::size_t n = 0; n <= extremes.size(); ++n) {
    CHECK(first_nonfinite({extremes.data(), n}) == n);
  }
}

TEST_CASE("first_nonfinite gives the first NaN or infinity, at every position and length") {
  for (const double bad : {kInf, -kInf, kNaN, -kNaN}) {
    for (std::size_t n = 1; n <= 11; ++n) {
      for (std::size_t at = 0; at < n; ++at) {
        std::vector<double> v(n, DBL_MAX);
        v[at] = bad;
        CAPTURE(bad);
        CAPTURE(n);
        CAPTURE(at);
        CHECK(first_nonfinite(v) == at);
        // A second one later does not move the answer; one earlier does.
        if (at + 1 < n) {
          v[n - 1] = kNaN;
          CHECK(first_nonfinite(v) == at);
        }
        if (at > 0) {
          v[0] = -kInf;
          CHECK(first_nonfinite(v) == 0);
        }
      }
    }
  }
}
