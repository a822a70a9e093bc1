// The seed of a random actor left unseeded (issue 37: every unseeded actor
// drew the one stream of seed 1): seed_from_path, the FNV-1a hash of its
// path, so that unseeded actors draw different streams, each the stream a
// user gets by writing that number as its `seed`.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "actors/base/random_stream.hpp"
#include "support/model_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

std::string number(std::uint64_t value) { return std::to_string(value); }

/// A clock every 0.125 s triggering the random actors of `actors` (JSON
/// array items, each with a "trigger" input), joined by `connections`.
Run clocked(const std::string& actors, const std::string& connections) {
  return run_model(R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 0.125}}, )" +
                   actors + R"(], "connections": [)" + connections + "]}");
}

}  // namespace

TEST_CASE("seed_from_path is the 64-bit FNV-1a hash of the path shifted right by 11 bits") {
  // the published FNV-1a test vectors
  CHECK(seed_from_path("") == 0xcbf29ce484222325ULL >> 11U);
  CHECK(seed_from_path("a") == 0xaf63dc4c8601ec8cULL >> 11U);
  CHECK(seed_from_path("foobar") == 0x85944171f73967e8ULL >> 11U);
}

TEST_CASE("seed_from_path stays below 2^53, so that a user can write it as a seed") {
  for (const char* path : {"", "a", "noise", "plant.sensor.noise", "a very long path of an actor.x.y.z"}) {
    CAPTURE(path);
    CHECK(static_cast<double>(seed_from_path(path)) <= kMaxSeed);
    CHECK(seed_problem(static_cast<double>(seed_from_path(path))).empty());
  }
}

TEST_CASE("unseeded random actors draw the streams of the seeds from their paths, each its own") {
  const auto unseeded =
      clocked(R"({"name": "a", "type": "UniformRandom"}, {"name": "b", "type": "UniformRandom"},
    {"name": "g", "type": "GaussianRandom"}, {"name": "e", "type": "ExponentialRandom"})",
              R"(["clock.out", "a.trigger"], ["clock.out", "b.trigger"],
    ["clock.out", "g.trigger"], ["clock.out", "e.trigger"])");
  REQUIRE(events_of(unseeded, "a").size() == 9);
  CHECK(events_of(unseeded, "a") != events_of(unseeded, "b"));

  // the same actors with the seeds from their paths written out
  const auto seeded = clocked(R"({"name": "a", "type": "UniformRandom", "params": {"seed": )" +
                                  number(seed_from_path("a")) + R"(}},
    {"name": "b", "type": "UniformRandom", "params": {"seed": )" +
                                  number(seed_from_path("b")) + R"(}},
    {"name": "g", "type": "GaussianRandom", "params": {"seed": )" +
                                  number(seed_from_path("g")) + R"(}},
    {"name": "e", "type": "ExponentialRandom", "params": {"seed": )" +
                                  number(seed_from_path("e")) + "}}",
                              R"(["clock.out", "a.trigger"], ["clock.out", "b.trigger"],
    ["clock.out", "g.trigger"], ["clock.out", "e.trigger"])");
  for (const char* actor : {"a", "b", "g", "e"}) {
    CAPTURE(actor);
    CHECK(events_of(unseeded, actor) == events_of(seeded, actor));
  }
}

TEST_CASE("two instances of one composite with an unseeded random actor draw different streams") {
  const std::string noisy = R"({"type": "Composite", "inputs": {"trigger": "noise.trigger"},
    "outputs": {"out": "noise.out"}, "actors": [{"name": "noise", "type": "UniformRandom"}]})";
  const auto run =
      clocked(R"({"name": "c1", )" + noisy.substr(1) + R"(, {"name": "c2", )" + noisy.substr(1) +
                  R"(, {"name": "top", "type": "UniformRandom", "params": {"seed": )" +
                  number(seed_from_path("c1.noise")) + "}}",
              R"(["clock.out", "c1.trigger"], ["clock.out", "c2.trigger"], ["clock.out", "top.trigger"])");
  REQUIRE(events_of(run, "c1.noise").size() == 9);
  CHECK(events_of(run, "c1.noise") != events_of(run, "c2.noise"));
  CHECK(events_of(run, "c1.noise") == events_of(run, "top"));  // its path's seed, written out
}

TEST_CASE("an unseeded PoissonClock draws the times of the seed from its path") {
  const auto times = [](const std::string& params) {
    const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 20},
      "actors": [{"name": "p", "type": "PoissonClock", "params": )" +
                               params + "}]}");
    REQUIRE(run.result.status == RunStatus::kOk);
    return events_of(run, "p");
  };
  const auto unseeded = times(R"({"mean_interval": 0.5})");
  REQUIRE(unseeded.size() > 10);
  CHECK(unseeded == times(R"({"mean_interval": 0.5, "seed": )" + number(seed_from_path("p")) + "}"));
  CHECK(unseeded != times(R"({"mean_interval": 0.5, "seed": 1})"));
  CHECK(model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "p", "type": "PoissonClock", "params": {"mean_interval": 1, "seed": 2.5}}]})")
            .find("actor 'p' (PoissonClock), parameter 'seed': must be a whole number from 0 to 2^53") !=
        std::string::npos);
}
