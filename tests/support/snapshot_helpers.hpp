#pragma once
// Running a model whole while it takes a snapshot, resuming a second run
// from that snapshot, and comparing what the two wrote after it
// (docs/snapshots.md: the resumed run continues the first one exactly).

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "core/csv_results.hpp"
#include "core/model_file.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"
#include "support/model_helpers.hpp"
#include "support/written_run.hpp"

namespace ctde::test {

/// The lines of `text` after the first one (the header).
inline std::vector<std::string> body_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

/// The CSV rows at times after `at` (the first cell).
inline std::vector<std::string> rows_after(const std::string& csv, double at) {
  std::vector<std::string> rows;
  for (const std::string& line : body_lines(csv)) {
    if (std::stod(line.substr(0, line.find(','))) > at) rows.push_back(line);
  }
  return rows;
}

/// The trace lines about times after `at` ("t", or a rejected step's "t0"),
/// and the run's end.
inline std::vector<std::string> trace_after(const std::string& trace, double at) {
  std::vector<std::string> lines;
  std::istringstream in(trace);
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json j = nlohmann::json::parse(line);
    const char* key = j.contains("t") ? "t" : j.contains("t0") ? "t0" : nullptr;
    if (j["kind"] == "run_end" || (key != nullptr && j[key].get<double>() > at)) lines.push_back(line);
  }
  return lines;
}

/// Resumes a run of a fresh load from `snapshot`, taken in the run that
/// wrote `whole`; checks that the rows and trace lines after the
/// snapshot's time, the status, the end time and every counter are the
/// same, byte for byte.
inline void check_resumed(const std::function<Model()>& load, const Written& whole,
                          const RunSnapshot& snapshot) {
  const double at = snapshot.time;
  const Written resumed = run_written(load, [&](Director& d) { d.resume_from(snapshot, false); });
  REQUIRE_MESSAGE(resumed.result.status == whole.result.status, resumed.result.message);
  CHECK(resumed.result.time == whole.result.time);
  for (const RunCounter& counter : kRunCounters) {
    INFO(counter.name);
    CHECK(resumed.result.stats.*counter.member == whole.result.stats.*counter.member);
  }
  // The resumed run writes only what follows the snapshot: its rows are the
  // whole run's after `at`, its trace (but for its first line) too.
  CHECK(body_lines(resumed.csv) == rows_after(whole.csv, at));
  CHECK(trace_after(resumed.trace, at) == trace_after(whole.trace, at));
}

/// Runs the model whole, taking a snapshot at `at` (s); resumes a second
/// run of a fresh load from it (check_resumed). Returns the snapshot.
inline RunSnapshot check_resumes_exactly(const std::function<Model()>& load, double at) {
  RunSnapshot snapshot;
  const Written whole =
      run_written(load, [&](Director& d) { d.snapshot_at(at, [&](const RunSnapshot& s) { snapshot = s; }); });
  REQUIRE_MESSAGE(whole.result.status != RunStatus::kError, whole.result.message);
  REQUIRE_MESSAGE(!snapshot.body.empty(), "no snapshot was taken");
  check_resumed(load, whole, snapshot);
  CHECK(!rows_after(whole.csv, at).empty());
  return snapshot;
}

/// With CTDE_TEST_RESUME set (ctest's conformance_resumed): a run that got
/// past half its time span is run again taking a snapshot there, and a run
/// resumed from it must continue it exactly (check_resumed), so every model
/// the conformance suite runs is a snapshot test too (issue 33's target).
inline void check_resumes_at_half_if_asked(const std::function<Model()>& load, const RunResult& plain) {
  if (std::getenv("CTDE_TEST_RESUME") == nullptr) return;
  const Model model = load();
  const RunOptions options = make_run_options(model.director(), model.parameters());
  const TimeResolution resolution(options.time_resolution);
  const Tick half = resolution.to_ticks(0.5 * (options.start_time + options.stop_time));
  const double at = resolution.to_seconds(half);
  if (plain.status == RunStatus::kError || !(at > options.start_time) || !(plain.time > at)) return;
  INFO("resumed at half time, t = " << at << " s (CTDE_TEST_RESUME)");
  RunSnapshot snapshot;
  const Written whole =
      run_written(load, [&](Director& d) { d.snapshot_at(at, [&](const RunSnapshot& s) { snapshot = s; }); });
  REQUIRE_MESSAGE(!snapshot.body.empty(), "no snapshot was taken: " << whole.result.message);
  check_resumed(load, whole, snapshot);
}

}  // namespace ctde::test
