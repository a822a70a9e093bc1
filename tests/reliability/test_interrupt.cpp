// Ctrl-C and SIGTERM during `ctde run`: the run ends at a safe point, its
// files are whole and in place, and the exit status tells the signal.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/cli_helpers.hpp"
#include "support/process_helpers.hpp"

namespace {

namespace fs = std::filesystem;

/// Runs for minutes if nobody stops it: a wave integrated at a tight
/// tolerance up to 1e6 s, sampled four times a second.
const char* const kLongModel = R"({"ctde": 1, "name": "long",
  "director": {"stop_time": 1e6, "rtol": 1e-10, "atol": 1e-12},
  "actors": [{"name": "wave", "type": "Sine", "params": {"amplitude": 1, "frequency": 1}},
             {"name": "x", "type": "Integrator", "params": {"initial": 0}},
             {"name": "tick", "type": "PeriodicSampler", "params": {"period": 0.25}}],
  "connections": [["wave.out", "x.in"], ["x.out", "tick.in"]],
  "record": ["x.out", "tick.out"]})";

/// A fresh folder holding the long model.
fs::path fresh_folder(const std::string& name) {
  const fs::path folder = ctde::test::scratch_root() / "ctde_reliability_interrupt" / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  std::ofstream(folder / "long.json") << kLongModel;
  return folder;
}

/// The names in `folder` that start with a dot (the outputs' temporary names).
std::vector<std::string> hidden_files(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name.front() == '.') names.push_back(name);
  }
  return names;
}

/// Waits until the run has written something into its temporary files (so
/// that it is surely under way, whatever the machine's load).
bool wait_until_writing(const fs::path& folder) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    for (const auto& name : hidden_files(folder)) {
      std::error_code error;
      if (fs::file_size(folder / name, error) > 0 && !error) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// Sends `signals` back to back to a run under way (a second signal arrives
/// before the run has reached its safe point, as GNU timeout sends one to
/// the process and one to its group); the run ends with `expected_status`
/// at its safe point, its files whole and renamed.
void check_interrupted_run(const std::vector<int>& signals, int expected_status, const std::string& name) {
  const fs::path folder = fresh_folder(name);
  const pid_t pid =
      ctde::test::spawn_cli({"run", (folder / "long.json").string(), "-o", (folder / "r.csv").string(),
                             "--trace", (folder / "t.jsonl").string()},
                            folder / "stdout.txt", folder / "stderr.txt");
  REQUIRE(wait_until_writing(folder));
  // Until the run ends the outputs exist only under temporary names.
  CHECK_FALSE(fs::exists(folder / "r.csv"));
  CHECK_FALSE(fs::exists(folder / "t.jsonl"));
  CHECK(hidden_files(folder).size() == 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  for (const int signal : signals) REQUIRE(kill(pid, signal) == 0);
  CHECK(ctde::test::wait_cli(pid, std::chrono::seconds(20)) == expected_status);

  CHECK(hidden_files(folder).empty());  // renamed, nothing left behind
  const std::string err = ctde::test::read_text(folder / "stderr.txt");
  CHECK(err.find("ctde: run interrupted at t = ") != std::string::npos);
  CHECK(ctde::test::read_text(folder / "stdout.txt").empty());

  const std::string trace = ctde::test::read_text(folder / "t.jsonl");
  REQUIRE(!trace.empty());
  CHECK(trace.back() == '\n');
  const auto trace_lines = lines_of(trace);
  CHECK(std::count_if(trace_lines.begin(), trace_lines.end(), [](const std::string& line) {
          return !nlohmann::json::accept(line);
        }) == 0);  // all whole
  const auto end = nlohmann::json::parse(trace_lines.back());
  CHECK(end["kind"] == "run_end");
  CHECK(end["status"] == "interrupted");
  CHECK(end["steps"].get<long>() > 0);

  const std::string csv = ctde::test::read_text(folder / "r.csv");
  REQUIRE(!csv.empty());
  CHECK(csv.back() == '\n');
  const auto rows = lines_of(csv);
  REQUIRE(rows.size() > 2);
  CHECK(rows.front() == "time,microstep,x.out,tick.out");
  CHECK(std::count_if(rows.begin(), rows.end(), [](const std::string& row) {
          return std::count(row.begin(), row.end(), ',') != 3;
        }) == 0);  // every row complete

  // The trace converts (it ends in run_end).
  const auto exported = ctde::test::run_cli("trace export " + (folder / "t.jsonl").string() + " -o " +
                                            (folder / "t.json").string());
  CHECK(exported.status == 0);
  CHECK(exported.output.empty());
  fs::remove_all(folder);  // megabytes of rows
}

}  // namespace

TEST_CASE(
    "SIGINT ends ctde run at a safe point: exit 130, whole lines, run_end interrupted, no temporary files") {
  check_interrupted_run({SIGINT}, 130, "sigint");
}

TEST_CASE(
    "SIGTERM ends ctde run at a safe point: exit 143, whole lines, run_end interrupted, no temporary files") {
  check_interrupted_run({SIGTERM}, 143, "sigterm");
}

TEST_CASE(
    "two signals back to back end ctde run at its safe point as one does, its files kept (GNU timeout)") {
  // Before: the second SIGTERM ended the process at once (exit by the
  // signal), the results left under their temporary names.
  check_interrupted_run({SIGTERM, SIGTERM}, 143, "sigterm_twice");
  check_interrupted_run({SIGINT, SIGINT, SIGTERM}, 130, "sigint_twice");
}
