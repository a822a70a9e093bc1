// The sweep file: parsing, checks with their messages, run k's values.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <set>
#include <string>

#include "core/error.hpp"
#include "sweep/sweep_spec.hpp"

using ctde::ModelError;
using ctde::sweep::parse_sweep;
using ctde::sweep::SweepSpec;

namespace {

/// The message of the ModelError that parsing `text` throws, or "" when it parses.
std::string error_of(const std::string& text) {
  try {
    (void)parse_sweep(text, "s.json");
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

bool mentions(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a sweep's runs are the samples times the grid, the last grid parameter varying fastest") {
  const SweepSpec spec = parse_sweep(R"({"ctde_sweep": 1, "grid": {"e": [0.5, 0.6, 0.7], "h0": [1, 10]},
                                        "samples": 2, "seed": 7, "stop_time": 20})",
                                     "s.json");
  CHECK(spec.run_count() == 12);
  CHECK(spec.names() == std::vector<std::string>{"e", "h0"});
  REQUIRE(spec.stop_time.has_value());
  CHECK(*spec.stop_time == 20);
  // k = point * samples + sample; the points are (0.5,1) (0.5,10) (0.6,1) ...
  const auto v = [&](std::uint64_t k) { return spec.values(k); };
  CHECK(v(0)[0].second == 0.5);
  CHECK(v(0)[1].second == 1);
  CHECK(v(1) == v(0));
  CHECK(v(2)[0].second == 0.5);
  CHECK(v(2)[1].second == 10);
  CHECK(v(4)[0].second == 0.6);
  CHECK(v(11)[0].second == 0.7);
  CHECK(v(11)[1].second == 10);
}

TEST_CASE("random draws depend on the seed and the run index only and stay in their law") {
  const std::string text =
      R"({"ctde_sweep": 1, "random": {"k": {"uniform": [1, 2]}, "c": {"normal": [0, 0.1]}},
                               "samples": 2000, "seed": 7})";
  const SweepSpec spec = parse_sweep(text, "s.json");
  const SweepSpec again = parse_sweep(text, "other.json");
  CHECK(spec.run_count() == 2000);
  double sum = 0;
  double squares = 0;
  std::set<double> distinct;
  for (std::uint64_t k = 0; k < spec.run_count(); ++k) {
    const auto values = spec.values(k);
    CHECK(values == again.values(k));
    REQUIRE(values.size() == 2);
    CHECK(values[0].first == "k");
    CHECK(values[0].second >= 1.0);
    CHECK(values[0].second < 2.0);
    distinct.insert(values[0].second);
    sum += values[1].second;
    squares += values[1].second * values[1].second;
  }
  CHECK(distinct.size() == 2000);
  const double mean = sum / 2000;
  const double sd = std::sqrt(squares / 2000 - mean * mean);
  CHECK(std::abs(mean) < 4 * 0.1 / std::sqrt(2000.0));  // four standard errors
  CHECK(sd == doctest::Approx(0.1).epsilon(0.1));
  const SweepSpec other_seed =
      parse_sweep(R"({"ctde_sweep": 1, "random": {"k": {"uniform": [1, 2]}}, "seed": 8})", "s");
  CHECK(other_seed.values(0)[0].second != spec.values(0)[0].second);
}

TEST_CASE("a sweep without a seed is seeded 0, as documented: the same draws as \"seed\": 0") {
  const SweepSpec unseeded =
      parse_sweep(R"({"ctde_sweep": 1, "random": {"e": {"uniform": [0, 1]}}, "samples": 3})", "s.json");
  const SweepSpec zero = parse_sweep(
      R"({"ctde_sweep": 1, "random": {"e": {"uniform": [0, 1]}}, "samples": 3, "seed": 0})", "s.json");
  CHECK(unseeded.seed == 0);
  for (std::uint64_t k = 0; k < 3; ++k) CHECK(unseeded.values(k) == zero.values(k));
}

TEST_CASE("random actors' seeds are whole numbers a double holds, different per run and per actor") {
  const double a = ctde::sweep::actor_seed(7, 0, 0);
  CHECK(a == std::floor(a));
  CHECK(a >= 0);
  CHECK(a < 0x1p53);
  CHECK(a == ctde::sweep::actor_seed(7, 0, 0));
  CHECK(a != ctde::sweep::actor_seed(7, 1, 0));
  CHECK(a != ctde::sweep::actor_seed(7, 0, 1));
  CHECK(a != ctde::sweep::actor_seed(8, 0, 0));
}

namespace {

/// SplitMix64's output for state `x` (Steele, Lea and Flood; Vigna's
/// splitmix64.c): the state advanced by the golden gamma, then mixed.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27U)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31U);
}

}  // namespace

TEST_CASE("a sweep's draws are the documented hashes: three SplitMix64 rounds of (seed, k, stream)") {
  // The mixer against SplitMix64's published outputs for the seed 0 (the
  // states 0 and one golden gamma): a change of the mixer fails here.
  REQUIRE(splitmix64(0) == 0xe220a8397b1dcdafULL);
  REQUIRE(splitmix64(0x9e3779b97f4a7c15ULL) == 0x6e789e6aa1b965f4ULL);
  for (const std::uint64_t seed : {0ULL, 7ULL, 0xffffffffffffffffULL}) {
    for (const std::uint64_t k : {0ULL, 1ULL, 12345ULL}) {
      for (const std::uint64_t stream : {0ULL, 1ULL, 1ULL << 32U}) {
        CAPTURE(seed);
        CAPTURE(k);
        CAPTURE(stream);
        CHECK(ctde::sweep::draw_bits(seed, k, stream) ==
              splitmix64(splitmix64(splitmix64(seed) ^ k) ^ stream));
      }
    }
  }
  // A random actor's seed (docs/sweep.md): 53 bits of the stream 2^32 + its number.
  CHECK(ctde::sweep::actor_seed(7, 3, 2) ==
        static_cast<double>(splitmix64(splitmix64(splitmix64(7) ^ 3) ^ ((1ULL << 32U) + 2)) >> 11U));
  // A uniform random parameter j: low + (high - low) u, u the top 53 bits of stream 2j over 2^53.
  const SweepSpec spec =
      parse_sweep(R"({"ctde_sweep": 1, "random": {"k": {"uniform": [1, 3]}}, "samples": 3, "seed": 9})", "s");
  for (std::uint64_t k = 0; k < 3; ++k) {
    const double u = static_cast<double>(splitmix64(splitmix64(splitmix64(9) ^ k) ^ 0) >> 11U) * 0x1p-53;
    CHECK(spec.values(k)[0].second == 1 + 2 * u);
  }
}

TEST_CASE("bad sweep files are refused with the file and the JSON location") {
  CHECK(mentions(error_of("{"), "s.json"));
  CHECK(mentions(error_of("[1]"), "a sweep file is a JSON object"));
  CHECK(mentions(error_of(R"({"grid": {"e": [1]}})"), "missing \"ctde_sweep\": 1"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 2, "grid": {"e": [1]}})"), "unsupported sweep format version 2"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1})"), "nothing to sweep"));
  const std::string empty = error_of(R"({"ctde_sweep": 1, "grid": {"e": []}})");
  CHECK(mentions(empty, "s.json at /grid/e"));
  CHECK(mentions(empty, "non-empty array"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "grid": {"e": [1, "x"]}})"), "s.json at /grid/e/1"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "grid": {"e": [1]}, "samples": 0})"), "s.json at /samples"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "grid": {"e": [1]}, "samples": 1.5})"), "whole number"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "grid": {"e": [1]}, "seed": -1})"), "s.json at /seed"));
  CHECK(
      mentions(error_of(R"({"ctde_sweep": 1, "grid": {"e": [1]}, "stop_time": 0})"), "s.json at /stop_time"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "grid": {"e": [1]}, "sample": 3})"), "unknown key 'sample'"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "grid": {"e": [1]}, "random": {"e": {"uniform": [0, 1]}}})"),
                 "the parameter 'e' is swept twice"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "random": {"k": {"poisson": [1]}}})"),
                 "unknown distribution 'poisson'"));
  CHECK(
      mentions(error_of(R"({"ctde_sweep": 1, "random": {"k": {"uniform": [2, 1]}}})"), "low bound is above"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "random": {"k": {"normal": [0, -1]}}})"),
                 "standard deviation is negative"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "grid": {"status": [1]}})"), "'status' cannot be swept"));
}

TEST_CASE("a warm start is {\"until\": T}: parsed, or refused at its place") {
  const SweepSpec cold = parse_sweep(R"({"ctde_sweep": 1, "grid": {"e": [1]}})", "s.json");
  CHECK(!cold.warm_start_until.has_value());
  const SweepSpec warm =
      parse_sweep(R"({"ctde_sweep": 1, "grid": {"e": [1]}, "warm_start": {"until": 2.5}})", "s.json");
  REQUIRE(warm.warm_start_until.has_value());
  CHECK(*warm.warm_start_until == 2.5);
  CHECK(warm.run_count() == 1);
  const auto refused = [](const std::string& warm_start) {
    return error_of(R"({"ctde_sweep": 1, "grid": {"e": [1]}, "warm_start": )" + warm_start + "}");
  };
  CHECK(mentions(refused("2.5"), "s.json at /warm_start: expected {\"until\": T}"));
  CHECK(mentions(refused("{}"), "s.json at /warm_start: missing \"until\""));
  CHECK(mentions(refused(R"({"until": "5"})"), "s.json at /warm_start/until: expected a number"));
  CHECK(mentions(refused(R"({"until": 1, "from": 0})"),
                 "s.json at /warm_start/from: unknown key 'from' (known: until)"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "grid": {"e": [1]}, "warm": 3})"), "warm_start)"));
  CHECK(mentions(error_of(R"({"ctde_sweep": 1, "grid": {"warm_start_until": [1]}})"),
                 "'warm_start_until' cannot be swept"));
}
