// The discrete actors (actors/discrete/) in small runs.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

TEST_CASE("TimeDelay(0) sends each token at the next microstep, a positive delay later") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 3},
    "actors": [
      {"name": "kick", "type": "SingleEvent", "params": {"time": 1, "value": 4}},
      {"name": "zero", "type": "TimeDelay", "params": {"delay": 0}},
      {"name": "later", "type": "TimeDelay", "params": {"delay": 0.25}}],
    "connections": [["kick.out", "zero.in"], ["zero.out", "later.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  int zero_n = -1;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == "zero") zero_n = line["n"].get<int>();
  }
  CHECK(zero_n == 1);  // kick sends at (1, 0); the delay of 0 sends it on at (1, 1)
  CHECK(events_of(run, "later") == std::vector<std::pair<double, double>>{{1.25, 4}});
}

TEST_CASE("Server departures for deterministic arrivals are exact") {
  // Arrivals every 1 s from t = 0, service 1.5 s: the queue grows; departure
  // k (from 1) is at 1.5 k exactly.
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 10},
    "actors": [
      {"name": "arrivals", "type": "DiscreteClock", "params": {"period": 1, "values": [1]}},
      {"name": "id", "type": "Counter"},
      {"name": "server", "type": "Server", "params": {"service_time": 1.5}}],
    "connections": [["arrivals.out", "id.in"], ["id.out", "server.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto departures = events_of(run, "server");
  REQUIRE(departures.size() == 6);  // 1.5, 3, ..., 9
  for (std::size_t k = 0; k < departures.size(); ++k) {
    CHECK(departures[k].first == 1.5 * static_cast<double>(k + 1));
    CHECK(departures[k].second == static_cast<double>(k + 1));  // FIFO: customer k+1
  }
}

TEST_CASE("a Server with room departs each customer one service time after arrival") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 10},
    "actors": [
      {"name": "arrivals", "type": "DiscreteClock", "params": {"period": 2, "offsets": [0.5], "values": [7]}},
      {"name": "server", "type": "Server", "params": {"service_time": 0.75}}],
    "connections": [["arrivals.out", "server.in"]]})");
  const auto departures = events_of(run, "server");
  REQUIRE(departures.size() == 5);
  for (std::size_t k = 0; k < departures.size(); ++k) {
    CHECK(departures[k].first == 0.5 + 2.0 * static_cast<double>(k) + 0.75);
  }
}

TEST_CASE("a Queue releases its oldest token on each trigger and drops beyond capacity") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 10},
    "actors": [
      {"name": "arrivals", "type": "DiscreteClock", "params": {"period": 1}},
      {"name": "id", "type": "Counter"},
      {"name": "queue", "type": "Queue", "params": {"capacity": 2}},
      {"name": "pull", "type": "DiscreteClock", "params": {"period": 4, "offsets": [3.5]}}],
    "connections": [["arrivals.out", "id.in"], ["id.out", "queue.in"], ["pull.out", "queue.trigger"]]})");
  // Tokens 1, 2 fill the queue; 3, 4 are dropped; at 3.5 token 1 leaves; 5
  // enters at 4; 6 and 7 are dropped; at 7.5 token 2 leaves; 8 enters at 8.
  using Series = std::vector<std::pair<double, double>>;
  CHECK(events_of(run, "queue") == Series{{3.5, 1}, {7.5, 2}});
}

namespace {

using Series = std::vector<std::pair<double, double>>;

/// The values of the `event` lines of `actor.port`, whole tokens.
std::vector<std::vector<double>> tokens_of(const ctde::test::Run& run, const std::string& actor,
                                           const std::string& port = "out") {
  std::vector<std::vector<double>> out;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == actor && line["port"] == port) {
      out.push_back(line["value"].get<std::vector<double>>());
    }
  }
  return out;
}

/// A model of `clock` (a DiscreteClock with `clock_params`) driving the input `port` of `actor` (named "a").
std::string clocked(const std::string& clock_params, const std::string& actor, double stop_time,
                    const std::string& port = "in") {
  return R"({"ctde": 1, "director": {"stop_time": )" + std::to_string(stop_time) +
         R"(}, "actors": [{"name": "clock", "type": "DiscreteClock", "params": )" + clock_params + "}, " +
         actor + R"(], "connections": [["clock.out", "a.)" + port + R"("]]})";
}

}  // namespace

TEST_CASE("UnitDelay sends the token before each one, `initial` first") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 3.5},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
               {"name": "count", "type": "Counter"},
               {"name": "z", "type": "UnitDelay", "params": {"initial": 5}}],
    "connections": [["clock.out", "count.in"], ["count.out", "z.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(events_of(run, "z") == Series{{0, 5}, {1, 1}, {2, 2}, {3, 3}});
}

TEST_CASE("initial must be one value or one per element: UnitDelay, Accumulator and the two holds") {
  for (const std::string type : {"UnitDelay", "Accumulator", "ZeroOrderHold", "FirstOrderHold"}) {
    CAPTURE(type);
    const std::string error = ctde::test::model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "e", "type": "SingleEvent", "params": {"time": 0.5, "value": [1, 2, 3]}},
                 {"name": "z", "type": ")" + type + R"(", "params": {"initial": [1, 2]}}],
      "connections": [["e.out", "z.in"]]})");
    CHECK(error.find("actor 'z' (" + type + "), parameter 'initial'") != std::string::npos);
    CHECK(error.find("has 2 values but the input has width 3; give one value or 3") != std::string::npos);
    for (const char* initial : {"[7]", "[1, 2, 3]"}) {  // broadcast, and one per element
      CAPTURE(initial);
      CHECK(ctde::test::model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
        "actors": [{"name": "e", "type": "SingleEvent", "params": {"time": 0.5, "value": [1, 2, 3]}},
                   {"name": "z", "type": ")" +
                                         type + R"(", "params": {"initial": )" + initial + R"(}}],
        "connections": [["e.out", "z.in"]]})")
                .empty());
    }
  }
}

TEST_CASE("DiscreteStateSpace and DiscreteTransferFunction: x[k+1] = 0.5 x[k] + u[k] on unit steps") {
  // u[k] = 1: x[k] = 2 (1 - 0.5^k); y = x (D = 0) for 1/(z - 0.5), y = x + 2u for D = 2, and z/(z - 0.5)
  // gives y[k] = x[k+1] = 2 (1 - 0.5^(k+1)).
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 6.5},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
               {"name": "ss", "type": "DiscreteStateSpace", "params": {"A": 0.5, "B": 1, "C": 1}},
               {"name": "ssd", "type": "DiscreteStateSpace", "params": {"A": 0.5, "B": 1, "C": 1, "D": 2}},
               {"name": "tf", "type": "DiscreteTransferFunction", "params": {"num": [1], "den": [1, -0.5]}},
               {"name": "tfz", "type": "DiscreteTransferFunction", "params": {"num": [2, 0], "den": [2, -1]}}],
    "connections": [["clock.out", "ss.in"], ["clock.out", "ssd.in"], ["clock.out", "tf.in"],
                    ["clock.out", "tfz.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto ss = events_of(run, "ss");
  const auto ssd = events_of(run, "ssd");
  const auto tf = events_of(run, "tf");
  const auto tfz = events_of(run, "tfz");
  REQUIRE(ss.size() == 7);
  REQUIRE(ssd.size() == 7);
  REQUIRE(tf.size() == 7);
  REQUIRE(tfz.size() == 7);
  for (std::size_t k = 0; k < 7; ++k) {
    CAPTURE(k);
    const double x = 2 * (1 - std::pow(0.5, static_cast<double>(k)));
    CHECK(ss[k].first == static_cast<double>(k));
    CHECK(ss[k].second == doctest::Approx(x).epsilon(1e-15));
    CHECK(ssd[k].second == doctest::Approx(x + 2).epsilon(1e-15));
    CHECK(tf[k].second == doctest::Approx(x).epsilon(1e-15));
    CHECK(tfz[k].second ==
          doctest::Approx(2 * (1 - std::pow(0.5, static_cast<double>(k + 1)))).epsilon(1e-15));
  }
}

TEST_CASE("a vector DiscreteStateSpace: a discrete double integrator") {
  // x = [position, velocity], x[k+1] = [[1, 1], [0, 1]] x[k] + [0, 1] u[k], y = x: with u = 1,
  // velocity[k] = k and position[k] = k (k - 1) / 2.
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 5.5},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
               {"name": "a", "type": "DiscreteStateSpace",
                "params": {"A": [[1, 1], [0, 1]], "B": [[0], [1]], "C": [[1, 0], [0, 1]]}}],
    "connections": [["clock.out", "a.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto y = tokens_of(run, "a");
  REQUIRE(y.size() == 6);
  for (std::size_t k = 0; k < y.size(); ++k) {
    const auto kk = static_cast<double>(k);
    CHECK(y[k] == std::vector<double>{kk * (kk - 1) / 2, kk});
  }
}

TEST_CASE("DiscreteStateSpace and DiscreteTransferFunction reject matrices and polynomials that do not fit") {
  const auto error_of = [](const std::string& actor) {
    return ctde::test::model_file_error(clocked(R"({"period": 1})", actor, 1));
  };
  CHECK(error_of(R"({"name": "a", "type": "DiscreteStateSpace", "params": {"A": [[1, 1]], "B": 1, "C": 1}})")
            .find("actor 'a' (DiscreteStateSpace), parameter 'A': must be square, got 1 x 2") !=
        std::string::npos);
  CHECK(
      error_of(
          R"({"name": "a", "type": "DiscreteTransferFunction", "params": {"num": [1, 2, 3], "den": [1, 1]}})")
          .find("actor 'a' (DiscreteTransferFunction), parameter 'num': has degree 2, above the "
                "denominator's (1)") != std::string::npos);
  CHECK(
      error_of(R"({"name": "a", "type": "DiscreteTransferFunction", "params": {"num": [1], "den": [0, 1]}})")
          .find("parameter 'den': must start with a non-zero coefficient") != std::string::npos);
}

TEST_CASE("CurrentTime sends the tag's time, CurrentMicrostep its microstep") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 0.75},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 0.1}},
               {"name": "now", "type": "CurrentTime"},
               {"name": "later", "type": "TimeDelay", "params": {"delay": 0}},
               {"name": "n0", "type": "CurrentMicrostep"},
               {"name": "n1", "type": "CurrentMicrostep"}],
    "connections": [["clock.out", "now.trigger"], ["clock.out", "n0.trigger"], ["clock.out", "later.in"],
                    ["later.out", "n1.trigger"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto now = events_of(run, "now");
  REQUIRE(now.size() == 8);
  // k * 0.1 s at 1e-12 s: the tick k * 10^11, whose nearest double is the literal's (0.3, not
  // 0.30000000000000004).
  const double expected[] = {0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
  for (std::size_t k = 0; k < now.size(); ++k) CHECK(now[k].second == expected[k]);
  for (const auto& [t, n] : events_of(run, "n0")) CHECK(n == 0);
  const auto n1 = events_of(run, "n1");
  REQUIRE(n1.size() == 8);
  for (const auto& [t, n] : n1) CHECK(n == 1);  // the TimeDelay of 0 sends at (t, 1)
}

TEST_CASE(
    "UniformRandom: one sample per trigger, in [lower, upper), with the uniform distribution's moments") {
  const auto run = run_model(
      clocked(R"({"period": 0.001})",
              R"({"name": "a", "type": "UniformRandom", "params": {"lower": -1, "upper": 3, "seed": 11}})",
              3.9995, "trigger"));
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto samples = events_of(run, "a");
  REQUIRE(samples.size() == 4000);  // one per clock tick
  double sum = 0;
  double squares = 0;
  for (const auto& [t, v] : samples) {
    CHECK((v >= -1 && v < 3));
    sum += v;
    squares += v * v;
  }
  const double n = static_cast<double>(samples.size());
  const double mean = sum / n;
  const double variance = squares / n - mean * mean;
  // mean 1, variance 16/12; the sample mean's standard error is sqrt(4/3/4000) = 0.018: within 5 of them.
  CHECK(std::abs(mean - 1) < 5 * std::sqrt(4.0 / 3.0 / n));
  CHECK(std::abs(variance - 4.0 / 3.0) < 0.1);
}

TEST_CASE(
    "UniformRandom and GaussianRandom give the documented samples of std::mt19937_64 seeded with `seed`") {
  // The engine is the one the C++ standard fixes ([rand.predef]: the
  // 10000th number of a default-constructed mt19937_64).
  std::mt19937_64 standard;
  standard.discard(9999);
  REQUIRE(standard() == 9981545732273789042ULL);
  const auto uniform = [](std::mt19937_64& e) { return static_cast<double>(e() >> 11U) * 0x1p-53; };
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 0.5},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 0.125}},
               {"name": "u", "type": "UniformRandom", "params": {"lower": -1, "upper": 3, "seed": 11}},
               {"name": "g", "type": "GaussianRandom",
                "params": {"mean": 2, "standard_deviation": 0.5, "seed": 5}}],
    "connections": [["clock.out", "u.trigger"], ["clock.out", "g.trigger"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto u = events_of(run, "u");
  const auto g = events_of(run, "g");
  REQUIRE(u.size() == 5);
  REQUIRE(g.size() == 5);
  std::mt19937_64 for_u(11);
  std::mt19937_64 for_g(5);
  for (std::size_t i = 0; i < 5; ++i) {
    CAPTURE(i);
    // lower + (upper - lower) x, x the top 53 bits over 2^53.
    CHECK(u[i].second == -1 + 4 * uniform(for_u));
    // Box-Muller, the cosine branch, from two draws: mean + sd sqrt(-2 ln(1 - x1)) cos(2 pi x2).
    const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform(for_g)));
    const double angle = 2.0 * std::numbers::pi * uniform(for_g);
    CHECK(g[i].second == 2 + 0.5 * radius * std::cos(angle));
  }
}

TEST_CASE("GaussianRandom: the normal distribution's mean, deviation and tails") {
  const auto run = run_model(clocked(
      R"({"period": 0.001})",
      R"({"name": "a", "type": "GaussianRandom", "params": {"mean": 2, "standard_deviation": 0.5, "seed": 5}})",
      3.9995, "trigger"));
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto samples = events_of(run, "a");
  REQUIRE(samples.size() == 4000);
  double sum = 0;
  double squares = 0;
  int within_one = 0;
  for (const auto& [t, v] : samples) {
    sum += v;
    squares += v * v;
    if (std::abs(v - 2) < 0.5) ++within_one;
  }
  const double n = static_cast<double>(samples.size());
  const double mean = sum / n;
  const double deviation = std::sqrt(squares / n - mean * mean);
  CHECK(std::abs(mean - 2) < 5 * 0.5 / std::sqrt(n));
  CHECK(std::abs(deviation - 0.5) < 0.03);
  // 68.27 % within one deviation; its standard error is sqrt(0.68 * 0.32 / 4000) = 0.0074.
  CHECK(std::abs(within_one / n - 0.6827) < 0.04);
}

TEST_CASE(
    "random actors: the same seed gives the same samples, another seed others, each actor its own stream") {
  const auto run = [](int seed_a, int seed_b) {
    return run_model(R"({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 0.125}},
                 {"name": "a", "type": "UniformRandom", "params": {"seed": )" +
                     std::to_string(seed_a) + R"(}},
                 {"name": "b", "type": "UniformRandom", "params": {"seed": )" +
                     std::to_string(seed_b) + R"(}}],
      "connections": [["clock.out", "b.trigger"], ["clock.out", "a.trigger"]]})");
  };
  const auto first = run(1, 1);
  const auto again = run(1, 2);
  REQUIRE(events_of(first, "a").size() == 9);
  CHECK(events_of(first, "a") == events_of(again, "a"));  // same seed, same samples, whatever b does
  CHECK(events_of(first, "a") == events_of(first, "b"));  // two actors of one seed: two equal streams
  CHECK(events_of(again, "a") != events_of(again, "b"));
}

TEST_CASE("random actors check their seed and distribution at validation") {
  const auto error_of = [](const std::string& params, const std::string& type = "UniformRandom") {
    return ctde::test::model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "clock", "type": "DiscreteClock"},
                 {"name": "r", "type": ")" +
                                        type + R"(", "params": )" + params + R"(}],
      "connections": [["clock.out", "r.trigger"]]})");
  };
  for (const std::string seed : {"-1", "1.5", "1e20"}) {
    CAPTURE(seed);
    CHECK(error_of(R"({"seed": )" + seed + "}")
              .find("actor 'r' (UniformRandom), parameter 'seed': must be a "
                    "whole number from 0 to 2^53") != std::string::npos);
  }
  CHECK(error_of(R"({"lower": 2, "upper": 1})")
            .find("parameter 'upper': must be finite and above 'lower' (2)") != std::string::npos);
  CHECK(
      error_of(R"({"standard_deviation": -1})", "GaussianRandom")
          .find("actor 'r' (GaussianRandom), parameter 'standard_deviation': must be a finite number >= 0") !=
      std::string::npos);
  CHECK(error_of(R"({"seed": 9007199254740992})").empty());
}

TEST_CASE("Server takes each customer's service time from its input: d[k] = max(a[k], d[k-1]) + s[k]") {
  // Customer k (from 1) arrives at k - 1 with service time 0.25 k, sent at its arrival's tag.
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 12},
    "actors": [{"name": "arrivals", "type": "DiscreteClock", "params": {"period": 1, "stop_time": 7}},
               {"name": "id", "type": "Counter"},
               {"name": "service", "type": "Gain", "params": {"k": 0.25}},
               {"name": "server", "type": "Server"}],
    "connections": [["arrivals.out", "id.in"], ["id.out", "server.in"], ["id.out", "service.in"],
                    ["service.out", "server.service_time"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto departures = events_of(run, "server");
  REQUIRE(departures.size() == 8);
  double d = 0;
  for (std::size_t k = 1; k <= 8; ++k) {
    const auto kk = static_cast<double>(k);
    d = std::max(kk - 1, d) + 0.25 * kk;
    CHECK(departures[k - 1].first == doctest::Approx(d).epsilon(1e-15));
    CHECK(departures[k - 1].second == kk);
  }
}

TEST_CASE("Server without a service time, or with a negative one on its input, stops the run naming it") {
  const auto no_time = run_model(clocked(R"({"period": 1})", R"({"name": "a", "type": "Server"})", 2));
  CHECK(no_time.result.status == RunStatus::kError);
  CHECK(no_time.result.message.find("actor 'a' (Server): a customer arrived before any service time") !=
        std::string::npos);
  const auto negative = run_model(R"({"ctde": 1, "director": {"stop_time": 2},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"values": [-1]}},
               {"name": "a", "type": "Server", "params": {"service_time": 1}}],
    "connections": [["clock.out", "a.in"], ["clock.out", "a.service_time"]]})");
  CHECK(negative.result.status == RunStatus::kError);
  CHECK(negative.result.message.find("input 'service_time' must be a finite duration >= 0, got -1") !=
        std::string::npos);
}

TEST_CASE("VariableDelay delays each token by the latest delay: tokens may overtake each other") {
  // Token 1 at 0 with delay 2.5; from 0.5 the delay is 0.25: tokens 2, 3, 4 at 1, 2, 3 leave at +0.25.
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 3.5},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
               {"name": "id", "type": "Counter"},
               {"name": "delays", "type": "DiscreteClock",
                "params": {"period": 10, "offsets": [0, 0.5], "values": [2.5, 0.25]}},
               {"name": "a", "type": "VariableDelay"}],
    "connections": [["clock.out", "id.in"], ["id.out", "a.in"], ["delays.out", "a.delay"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(events_of(run, "a") == Series{{1.25, 2}, {2.25, 3}, {2.5, 1}, {3.25, 4}});
}

TEST_CASE("VariableDelay of 0 sends at the next microstep; a negative delay stops the run") {
  const auto zero = run_model(clocked(R"({"period": 1})", R"({"name": "a", "type": "VariableDelay"})", 1.5));
  REQUIRE(zero.result.status == RunStatus::kOk);
  int sent = 0;
  for (const auto& line : zero.lines) {
    if (line["kind"] == "event" && line["actor"] == "a") {
      CHECK(line["n"].get<int>() == 1);
      ++sent;
    }
  }
  CHECK(sent == 2);
  const auto negative = run_model(R"({"ctde": 1, "director": {"stop_time": 2},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"values": [-0.5]}},
               {"name": "a", "type": "VariableDelay"}],
    "connections": [["clock.out", "a.in"], ["clock.out", "a.delay"]]})");
  CHECK(negative.result.status == RunStatus::kError);
  CHECK(negative.result.message.find(
            "actor 'a' (VariableDelay): input 'delay' must be a finite number >= 0") != std::string::npos);
  CHECK(ctde::test::model_file_error(
            clocked(R"({"period": 1})",
                    R"({"name": "a", "type": "VariableDelay", "params": {"initial_delay": -1}})", 1))
            .find("actor 'a' (VariableDelay), parameter 'initial_delay': must be a finite number >= 0") !=
        std::string::npos);
}

TEST_CASE("ResettableTimer: a new token restarts the timer; 0 expires at the next microstep") {
  // 2 at t = 0 (due 2), 2 at t = 1 restarts it (due 3), 0 at t = 5 (due (5, 1)).
  const auto run =
      run_model(clocked(R"({"period": 10, "offsets": [0, 1, 5], "values": [2, 2, 0]})",
                        R"({"name": "a", "type": "ResettableTimer", "params": {"value": 7}})", 6));
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(events_of(run, "a") == Series{{3, 7}, {5, 7}});
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == "a" && line["t"] == 5) CHECK(line["n"].get<int>() == 1);
  }
}

TEST_CASE("Filter passes the tokens whose condition holds; with Stop it ends the run on a condition") {
  const auto run = run_model(R"({"ctde": 1, "parameters": {"limit": 5}, "director": {"stop_time": 100},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
               {"name": "id", "type": "Counter"},
               {"name": "even", "type": "Filter", "params": {"condition": "mod(in, 2) == 0"}},
               {"name": "enough", "type": "Filter", "params": {"condition": "in >= limit && t > 3"}},
               {"name": "stop", "type": "Stop"}],
    "connections": [["clock.out", "id.in"], ["id.out", "even.in"], ["id.out", "enough.in"],
                    ["enough.out", "stop.in"]]})");
  CHECK(run.result.status == RunStatus::kStopped);
  CHECK(events_of(run, "even") == Series{{1, 2}, {3, 4}});
  CHECK(events_of(run, "enough") == Series{{4, 5}});  // the run ends at t = 4
  CHECK(ctde::test::model_file_error(
            clocked(R"({"period": 1})",
                    R"({"name": "a", "type": "Filter", "params": {"condition": "in > k"}})", 1))
            .find("actor 'a' (Filter), parameter 'condition'") != std::string::npos);
}

TEST_CASE("RateLimiter moves at most rising or falling times the time between tokens") {
  const auto run =
      run_model(clocked(R"({"period": 10, "offsets": [0, 1, 2, 3, 4, 4.5], "values": [0, 5, 5, -5, -5, -5]})",
                        R"({"name": "a", "type": "RateLimiter", "params": {"rising": 2, "falling": 3}})", 5));
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(events_of(run, "a") == Series{{0, 0}, {1, 2}, {2, 4}, {3, 1}, {4, -2}, {4.5, -3.5}});
  CHECK(ctde::test::model_file_error(
            clocked(R"({"period": 1})",
                    R"({"name": "a", "type": "RateLimiter", "params": {"rising": -1, "falling": 1}})", 1))
            .find("actor 'a' (RateLimiter), parameter 'rising': must be a rate >= 0") != std::string::npos);
}

TEST_CASE("the M/M/1 example: mean time in the system 1 / (mu - lambda), exponential services") {
  std::ifstream in(std::string(CTDE_SOURCE_DIR) + "/examples/models/mm1_queue.json", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const auto run = run_model(text.str());
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto arrivals = events_of(run, "id");
  const auto departures = events_of(run, "server");
  const auto services = events_of(run, "service");
  REQUIRE(departures.size() > 9000);
  REQUIRE(services.size() == arrivals.size());
  double sojourn = 0;
  for (const auto& [t, id] : departures) {
    const auto k = static_cast<std::size_t>(id) - 1;  // FIFO: customer k's arrival
    sojourn += t - arrivals.at(k).first;
  }
  double service = 0;
  for (const auto& [t, s] : services) service += s;
  const double n = static_cast<double>(departures.size());
  MESSAGE("M/M/1: " << n << " customers, mean time in system " << sojourn / n << " s, mean service "
                    << service / static_cast<double>(services.size()) << " s");
  // W = 1 / (1 - 0.5) = 2 s; the estimate's standard error over ~10000 correlated customers is ~0.05.
  CHECK(std::abs(sojourn / n - 2.0) < 0.25);
  CHECK(std::abs(service / static_cast<double>(services.size()) - 1.0) < 0.05);  // se 0.01
}
