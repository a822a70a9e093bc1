// Director::set_stop_check: the hook `ctde run` uses to end a run on Ctrl-C,
// SIGTERM or a failed write, at a point where rows and trace lines are whole.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>

#include "support/run_helpers.hpp"

namespace {

using namespace ctde;

/// A continuous state and a periodic discrete event, so that both the
/// continuous phase and the DE phase poll the check.
const char* const kModel = R"({"ctde": 1, "director": {"stop_time": 100, "output_interval": 0.01},
  "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
             {"name": "x", "type": "Integrator", "params": {"initial": 0}},
             {"name": "clock", "type": "PeriodicSampler", "params": {"period": 0.5}}],
  "connections": [["one.out", "x.in"], ["x.out", "clock.in"]],
  "record": ["x.out", "clock.out"]})";

struct Outcome {
  RunResult result;
  std::string trace;
  std::string csv;
  int checks = 0;
};

/// Runs kModel with a stop check that says yes on its `stop_at`-th call (never when 0).
Outcome run_with_check(int stop_at) {
  int checks = 0;
  test::Run run = test::run_model(kModel, {}, [&checks, stop_at] { return ++checks == stop_at; });
  return {run.result, std::move(run.trace), std::move(run.csv), checks};
}

std::string last_line(const std::string& text) {
  REQUIRE(!text.empty());
  REQUIRE(text.back() == '\n');
  const auto start = text.rfind('\n', text.size() - 2);
  return text.substr(start == std::string::npos ? 0 : start + 1);
}

}  // namespace

TEST_CASE("a stop check that never says yes leaves the run alone and is polled all along") {
  const Outcome full = run_with_check(0);
  CHECK(full.result.status == RunStatus::kOk);
  CHECK(full.result.time == doctest::Approx(100));
  CHECK(full.checks > 200);  // after every solver step and every DE phase (200 sampler events)
}

TEST_CASE("a stop check that says yes ends the run as interrupted, with whole rows and trace lines") {
  for (const int stop_at : {1, 2, 37, 150}) {
    CAPTURE(stop_at);
    const Outcome cut = run_with_check(stop_at);
    CHECK(cut.result.status == RunStatus::kInterrupted);
    CHECK(std::string(to_string(cut.result.status)) == "interrupted");
    CHECK(cut.checks == stop_at);  // it ends at the first yes
    CHECK(cut.result.time < 100);
    const auto end = nlohmann::json::parse(last_line(cut.trace));
    CHECK(end["kind"] == "run_end");
    CHECK(end["status"] == "interrupted");
    CHECK(cut.trace.find("\"kind\":\"error\"") == std::string::npos);
    // The last row is complete (every column) and no later than where the run ended.
    const std::string row = last_line(cut.csv);
    CHECK(std::count(row.begin(), row.end(), ',') == 3);
    CHECK(std::stod(row) <= cut.result.time);
  }
}
