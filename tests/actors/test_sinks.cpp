// The sinks (actors/sinks/) in small runs.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

TEST_CASE("a Stop actor ends the run with status stopped at its tag") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 100},
    "actors": [
      {"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
      {"name": "n", "type": "Counter"},
      {"name": "enough", "type": "Expression", "params": {"expr": "in0 >= 5 ? 1 : 0"}},
      {"name": "gate", "type": "Gain"},
      {"name": "stop", "type": "Stop"}],
    "connections": [["clock.out", "n.in"], ["n.out", "enough.in0"], ["enough.out", "gate.in"],
                    ["gate.out", "stop.in"]]})");
  // Every Expression token reaches Stop: the first one (at t = 0) stops the run.
  CHECK(run.result.status == RunStatus::kStopped);
  CHECK(run.result.actor == "stop");
  CHECK(run.result.time == 0.0);
  CHECK(run.lines.back()["status"] == "stopped");
}
