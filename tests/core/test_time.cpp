#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/time.hpp"

using ctde::Tag;
using ctde::Tick;
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

TEST_CASE("a tick's time at a resolution of 10^-n s is its exact decimal value, trailing zeros dropped") {
  const TimeResolution ps(1e-12);
  CHECK(ps.seconds_text(100'000'000'000) == "0.1");  // not 0.09999999999999999
  CHECK(ps.seconds_text(0) == "0");
  CHECK(ps.seconds_text(1'500'000'000'000) == "1.5");
  CHECK(ps.seconds_text(3'000'000'000'000) == "3");
  CHECK(ps.seconds_text(1) == "0.000000000001");  // plain notation, never 1e-12
  CHECK(ps.seconds_text(-100'000'000'000) == "-0.1");
  CHECK(ps.seconds_text(-2) == "-0.000000000002");
  // Above 2^53 ticks a double cannot tell neighbouring ticks apart; the text can.
  CHECK(ps.seconds_text(9'007'199'254'740'992) == "9007.199254740992");
  CHECK(ps.seconds_text(9'007'199'254'740'993) == "9007.199254740993");
  CHECK(ps.seconds_text(ctde::kNever - 1) == "9223372.036854775806");
  CHECK(ps.seconds_text(ctde::kBeforeAll) == "-9223372.036854775808");
  CHECK(ps.seconds_text(ctde::kNever) == "inf");
  CHECK(TimeResolution(1.0).seconds_text(12) == "12");
  CHECK(TimeResolution(1e-3).seconds_text(-1250) == "-1.25");
  CHECK(TimeResolution(1e-18).seconds_text(1'000'000'000'000'000'001) == "1.000000000000000001");
}

TEST_CASE("a tick's decimal text reads back to the double nearest its value") {
  // Below 2^53 ticks, to_seconds is one correctly rounded division: the
  // nearest double. The text, made with integers, must read back to it.
  for (const double resolution : {1e-12, 1e-9, 1e-6, 1e-3, 1e-18}) {
    const TimeResolution r(resolution);
    std::uint64_t state = 88172645463325252ULL;
    for (int i = 0; i < 20000; ++i) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      const auto tick = static_cast<Tick>(state >> 11) * (i % 2 == 0 ? 1 : -1);  // below 2^53
      const std::string text = r.seconds_text(tick);
      CHECK_MESSAGE(std::strtod(text.c_str(), nullptr) == r.to_seconds(tick), text);
    }
  }
  // Above 2^53: the compiler's reading of the literal is the nearest double.
  CHECK(std::strtod(TimeResolution(1e-12).seconds_text(9'007'199'254'740'993).c_str(), nullptr) ==
        9007.199254740993);
}

TEST_CASE("at other resolutions a tick's time is the shortest text of its double") {
  const TimeResolution binary(1.0 / 1024);
  CHECK(binary.seconds_text(3) == "0.0029296875");
  const TimeResolution third(1.0 / 3);
  CHECK(third.seconds_text(1) == ctde::format_double(third.to_seconds(1)));
  CHECK(std::strtod(third.seconds_text(7).c_str(), nullptr) == third.to_seconds(7));
}

TEST_CASE("whole_ticks gives a time's ticks only when it is a whole number of them") {
  const TimeResolution ps(1e-12);
  CHECK(ps.whole_ticks(1e-5) == Tick{10'000'000});
  CHECK(ps.whole_ticks(0.1) == Tick{100'000'000'000});
  CHECK(ps.whole_ticks(-0.3) == Tick{-300'000'000'000});
  CHECK_FALSE(ps.whole_ticks(1.0 / 3).has_value());
  CHECK_FALSE(ps.whole_ticks(std::numeric_limits<double>::infinity()).has_value());
  CHECK_FALSE(ps.whole_ticks(1e9).has_value());  // beyond the horizon
}
