// The math actors (actors/math/) in small runs.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::events_of;
using ctde::test::run_model;

TEST_CASE("discrete math actors compute on the tokens present") {
  const auto run = run_model(R"({"ctde": 1, "parameters": {"k": 3},
    "director": {"stop_time": 2.5},
    "actors": [
      {"name": "clock", "type": "DiscreteClock", "params": {"period": 1, "values": [2]}},
      {"name": "acc", "type": "Accumulator", "params": {"initial": 1}},
      {"name": "scaled", "type": "Gain", "params": {"k": "k"}},
      {"name": "neg", "type": "Gain", "params": {"k": -1}},
      {"name": "mag", "type": "Abs"},
      {"name": "sat", "type": "Saturation", "params": {"upper": 10}},
      {"name": "sum", "type": "Sum", "params": {"signs": "+-"}}],
    "connections": [["clock.out", "acc.in"], ["acc.out", "scaled.in"], ["scaled.out", "neg.in"],
                    ["neg.out", "mag.in"], ["mag.out", "sat.in"], ["sat.out", "sum.in0"],
                    ["clock.out", "sum.in1"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  using Series = std::vector<std::pair<double, double>>;
  CHECK(events_of(run, "acc") == Series{{0, 3}, {1, 5}, {2, 7}});
  CHECK(events_of(run, "scaled") == Series{{0, 9}, {1, 15}, {2, 21}});
  CHECK(events_of(run, "sat") == Series{{0, 9}, {1, 10}, {2, 10}});
  // sum fires once per tick, with both tokens present in the same microstep.
  CHECK(events_of(run, "sum") == Series{{0, 7}, {1, 8}, {2, 8}});
}
