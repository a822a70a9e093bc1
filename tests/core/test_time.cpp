#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/time.hpp"

using ctde::Tag;
using ctde::TimeResolution;

TEST_CASE("seconds convert to the nearest tick and back") {
  const TimeResolution r(1e-12);
  CHECK(r.to_ticks(1.0) == 1'000'000'000'000);
  CHECK(r.to_ticks(0.1) == 100'000'000'000);  // 0.1 is not exact in binary; the tick is
  CHECK(r.to_ticks(-2.5e-12) == -2);          // round half to even
  CHECK(r.to_seconds(r.to_ticks(3.25)) == 3.25);
  const TimeResolution ms(1e-3);
  CHECK(ms.to_ticks(0.0004) == 0);
  CHECK(ms.to_ticks(0.0006) == 1);
}

TEST_CASE("infinity is never and never is infinity") {
  const TimeResolution r;
  CHECK(r.to_ticks(std::numeric_limits<double>::infinity()) == ctde::kNever);
  CHECK(std::isinf(r.to_seconds(ctde::kNever)));
}

TEST_CASE("a time beyond the horizon is an error naming the horizon") {
  const TimeResolution r(1e-12);
  CHECK(r.horizon() == doctest::Approx(9.223372e6).epsilon(1e-6));
  CHECK_THROWS_WITH_AS((void)r.to_ticks(1e7), doctest::Contains("beyond the representable horizon"),
                       ctde::ModelError);
  CHECK_THROWS_AS((void)r.to_ticks(std::nan("")), ctde::ModelError);
}

TEST_CASE("a resolution outside the documented range is rejected") {
  CHECK_THROWS_WITH_AS(TimeResolution(0.0), doctest::Contains("outside the accepted range"),
                       ctde::ModelError);
  CHECK_THROWS_AS(TimeResolution(2.0), ctde::ModelError);
  CHECK_NOTHROW(TimeResolution(1e-18));
}

TEST_CASE("tags order by time, then microstep") {
  CHECK(Tag{1, 5} < Tag{2, 0});
  CHECK(Tag{2, 0} < Tag{2, 1});
  CHECK(Tag{2, 1} == Tag{2, 1});
  CHECK_FALSE(Tag{3, 0} < Tag{2, 9});
}

TEST_CASE("the clamped conversion maps out-of-range times to never or before-all") {
  const TimeResolution r(1e-12);
  CHECK(r.to_ticks_clamped(1.5) == r.to_ticks(1.5));
  CHECK(r.to_ticks_clamped(1e300) == ctde::kNever);
  CHECK(r.to_ticks_clamped(std::numeric_limits<double>::infinity()) == ctde::kNever);
  CHECK(r.to_ticks_clamped(-std::numeric_limits<double>::infinity()) == ctde::kBeforeAll);
  CHECK(r.to_ticks_clamped(std::nan("")) == ctde::kNever);
}
