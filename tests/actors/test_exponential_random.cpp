// ExponentialRandom (issue 37: the M/M/1 example needed -mean ln(1 - u) by
// hand): its samples are the documented transform of the random actors'
// stream, the same as a UniformRandom of the same seed into that Expression,
// bit for bit; the exponential distribution's moments; its mean checked.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "support/model_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

TEST_CASE(
    "ExponentialRandom gives -mean ln(1 - u) of the stream's draws: a UniformRandom into that Expression") {
  const auto run = run_model(R"j({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 0.125}},
               {"name": "e", "type": "ExponentialRandom", "params": {"mean": 1.5, "seed": 5}},
               {"name": "u", "type": "UniformRandom", "params": {"seed": 5}},
               {"name": "by_hand", "type": "Expression", "params": {"expr": "-1.5 * ln(1 - in0)"}}],
    "connections": [["clock.out", "e.trigger"], ["clock.out", "u.trigger"], ["u.out", "by_hand.in0"]]})j");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto e = events_of(run, "e");
  REQUIRE(e.size() == 9);
  CHECK(e == events_of(run, "by_hand"));
  std::mt19937_64 stream(5);
  for (const auto& [t, v] : e) {
    CAPTURE(t);
    const double u = static_cast<double>(stream() >> 11U) * 0x1p-53;  // the top 53 bits over 2^53
    CHECK(v == -1.5 * std::log(1.0 - u));
  }
}

TEST_CASE("ExponentialRandom: the exponential distribution's mean, deviation and tail") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 3.9995},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 0.001}},
               {"name": "e", "type": "ExponentialRandom", "params": {"mean": 1.5, "seed": 9}}],
    "connections": [["clock.out", "e.trigger"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto samples = events_of(run, "e");
  REQUIRE(samples.size() == 4000);
  double sum = 0;
  double squares = 0;
  int above_mean = 0;
  for (const auto& [t, v] : samples) {
    CHECK(v >= 0);
    sum += v;
    squares += v * v;
    if (v > 1.5) ++above_mean;
  }
  const double n = static_cast<double>(samples.size());
  const double mean = sum / n;
  // Mean and deviation 1.5; the sample mean's standard error is 1.5 / sqrt(4000) = 0.024: within 5.
  CHECK(std::abs(mean - 1.5) < 5 * 1.5 / std::sqrt(n));
  CHECK(std::abs(std::sqrt(squares / n - mean * mean) - 1.5) < 0.15);
  // P(X > mean) = 1/e = 0.368; its standard error sqrt(0.368 * 0.632 / 4000) = 0.0076.
  CHECK(std::abs(above_mean / n - std::exp(-1.0)) < 0.04);
}

TEST_CASE("ExponentialRandom refuses a mean that is not a finite number > 0") {
  for (const std::string mean : {"0", "-1", "\"inf\""}) {
    CAPTURE(mean);
    const std::string error = model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "clock", "type": "DiscreteClock"},
                 {"name": "r", "type": "ExponentialRandom", "params": {"mean": )" +
                                               mean + R"(}}],
      "connections": [["clock.out", "r.trigger"]]})");
    CHECK(error.find("actor 'r' (ExponentialRandom), parameter 'mean': must be a finite number > 0, got ") !=
          std::string::npos);
  }
}
