// `ctde run --checkpoint-every` (docs/snapshots.md, "Checkpoints"): a run
// killed with SIGKILL, again and again, and resumed from its last checkpoint
// each time, ends with the uninterrupted run's results file, byte for byte
// (no row lost, none written twice), and its trace; the refusals.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/format.hpp"
#include "run/snapshot_file.hpp"
#include "support/cli_helpers.hpp"
#include "support/process_helpers.hpp"

namespace ctde::test {
namespace {

namespace fs = std::filesystem;

std::string q(const fs::path& p) { return concat({"'", p.string(), "'"}); }

/// The tank and its queue over 1e5 s (about a second of work), with a
/// time resolution that keeps its ticks exact that far.
fs::path long_tank() {
  nlohmann::json model = nlohmann::json::parse(read_example("tank_queue.json"));
  model["director"]["stop_time"] = 100000;
  model["director"]["time_resolution"] = 1e-9;
  model["director"]["output_interval"] = 10;
  fs::path path = scratch_file("cli_checkpoints", "long_tank.json");
  std::ofstream(path) << model.dump();
  return path;
}

/// The inode of `path`, 0 when there is none: each checkpoint is a new file
/// renamed onto the name, so a new inode is a new checkpoint.
ino_t inode_of(const fs::path& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 ? info.st_ino : 0;
}

/// Starts `ctde ARGUMENTS` (its output into `log`) and returns once it has
/// written a new checkpoint at `checkpoint`: a signal sent then lands in the
/// middle of the run, by construction.
pid_t start_until_checkpoint(const std::vector<std::string>& arguments, const fs::path& checkpoint,
                             const fs::path& log) {
  const ino_t before = inode_of(checkpoint);
  const pid_t pid = spawn_cli(arguments, log, log);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (inode_of(checkpoint) == before || inode_of(checkpoint) == 0) {
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "no new checkpoint within 60 s");
    REQUIRE_MESSAGE(waitpid(pid, nullptr, WNOHANG) == 0,
                    "the run ended before its checkpoint: " << read_text(log));
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return pid;
}

/// The lines of `text` that are not `snapshot` lines (a resumed run says
/// where it resumed; the uninterrupted run has no such line).
std::string without_snapshot_lines(const std::string& text) {
  std::istringstream in(text);
  std::string kept;
  for (std::string line; std::getline(in, line);) {
    if (line.find(R"("kind":"snapshot")") == std::string::npos) kept += line + "\n";
  }
  return kept;
}

}  // namespace

TEST_CASE(
    "a checkpointed run killed with SIGKILL ten times and resumed ends with the uninterrupted results") {
  const fs::path model = long_tank();
  const fs::path whole = scratch_file("cli_checkpoints", "whole.csv");
  const fs::path whole_trace = scratch_file("cli_checkpoints", "whole.jsonl");
  const CommandResult plain =
      run_cli("run " + q(model) + " --quiet --rows output -o " + q(whole) + " --trace " + q(whole_trace));
  REQUIRE_MESSAGE(plain.status == 0, plain.output);

  const fs::path out = scratch_file("cli_checkpoints", "killed.csv");
  const fs::path trace = scratch_file("cli_checkpoints", "killed.jsonl");
  const fs::path checkpoint = fs::path(out.string() + ".ckpt");
  const fs::path log = scratch_file("cli_checkpoints", "log.txt");
  std::vector<std::string> arguments{"run", model.string(), "--quiet", "--rows",       "output",
                                     "-o",  out.string(),   "--trace", trace.string(), "--checkpoint-every",
                                     "5ms"};
  // Kills at a random moment up to 10 ms after a new checkpoint was written:
  // each one lands in the middle of the run, by construction.
  std::mt19937 random(20261128);
  std::uniform_int_distribution<int> delay_us(0, 10000);
  std::vector<double> resumed_at;
  for (int kill_number = 0; kill_number < 10; ++kill_number) {
    CAPTURE(kill_number);
    const pid_t pid = start_until_checkpoint(arguments, checkpoint, log);
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us(random)));
    kill(pid, SIGKILL);
    REQUIRE(wait_cli(pid, std::chrono::seconds(60)) == -SIGKILL);
    CHECK(fs::exists(out.string() + ".partial"));
    CHECK(!fs::exists(out));
    resumed_at.push_back(read_snapshot_file(checkpoint.string()).snapshot.time);
    if (kill_number == 0) arguments.insert(arguments.end(), {"--resume", checkpoint.string()});
  }
  // Each resumed run got further before it was killed.
  for (std::size_t k = 1; k < resumed_at.size(); ++k) CHECK(resumed_at[k] > resumed_at[k - 1]);
  CHECK(resumed_at.back() < 100000);

  const pid_t last = spawn_cli(arguments, log, log);
  REQUIRE_MESSAGE(wait_cli(last, std::chrono::seconds(120)) == 0, read_text(log));
  CHECK(read_text(out) == read_text(whole));
  CHECK(without_snapshot_lines(read_text(trace)) == read_text(whole_trace));
  // One resumed line per resumed run, and nothing left behind.
  const std::string text = read_text(trace);
  std::size_t resumed_lines = 0;
  for (std::size_t at = text.find(R"("action":"resumed")"); at != std::string::npos;
       at = text.find(R"("action":"resumed")", at + 1))
    ++resumed_lines;
  CHECK(resumed_lines == 10);
  CHECK(!fs::exists(checkpoint));
  CHECK(!fs::exists(out.string() + ".partial"));
  CHECK(!fs::exists(trace.string() + ".partial"));
}

TEST_CASE(
    "a checkpointed run interrupted with SIGINT keeps its files and its checkpoint, and resumes from them") {
  const fs::path model = long_tank();
  const fs::path whole = scratch_file("cli_checkpoints", "int_whole.csv");
  REQUIRE(run_cli("run " + q(model) + " --quiet --rows output -o " + q(whole)).status == 0);
  const fs::path out = scratch_file("cli_checkpoints", "interrupted.csv");
  const fs::path checkpoint = scratch_file("cli_checkpoints", "interrupted.ckpt");
  const fs::path log = scratch_file("cli_checkpoints", "int_log.txt");
  fs::remove(checkpoint);
  const std::vector<std::string> arguments{"run",
                                           model.string(),
                                           "--rows",
                                           "output",
                                           "-o",
                                           out.string(),
                                           "--checkpoint",
                                           checkpoint.string(),
                                           "--checkpoint-every",
                                           "5ms"};
  const pid_t pid = start_until_checkpoint(arguments, checkpoint, log);
  kill(pid, SIGINT);
  REQUIRE(wait_cli(pid, std::chrono::seconds(60)) == 130);
  CHECK(contains(read_text(log),
                 concat({"ctde: the run's last checkpoint is in ", checkpoint.string(),
                         ": the same command with --resume ", checkpoint.string(), " goes on from it"})));
  // The rows up to the interrupt are in the results file, under its name.
  CHECK(fs::exists(out));
  CHECK(!fs::exists(out.string() + ".partial"));
  CHECK(read_text(whole).starts_with(read_text(out)));
  CHECK(read_text(out).size() < read_text(whole).size());
  std::vector<std::string> resumed = arguments;
  resumed.insert(resumed.end(), {"--resume", checkpoint.string()});
  const pid_t again = spawn_cli(resumed, log, log);
  REQUIRE_MESSAGE(wait_cli(again, std::chrono::seconds(120)) == 0, read_text(log));
  CHECK(read_text(out) == read_text(whole));
  CHECK(!fs::exists(checkpoint));
}

TEST_CASE("ctde run --checkpoint-every refuses what a checkpoint cannot continue, with status 2") {
  const std::string tank = example_models() + "tank_queue.json";
  const fs::path out = scratch_file("cli_checkpoints", "refused.csv");
  const auto refused = [](const std::string& arguments, const std::string& message) {
    const CommandResult r = run_cli(arguments);
    CHECK(r.status == 2);
    CHECK_MESSAGE(contains(r.output, message), r.output);
  };
  refused("run " + tank + " --checkpoint-every 1m",
          "--checkpoint-every 1m: needs -o FILE.csv, the results a resumed run continues (standard output "
          "cannot be continued; HDF5 and MAT files are written only when the run ends)");
  refused("run " + tank + " --checkpoint-every 1m -o -", "--checkpoint-every 1m: needs -o FILE.csv");
  refused("run " + tank + " --checkpoint-every 1m -o " + q(scratch_file("cli_checkpoints", "r.h5")),
          "--checkpoint-every 1m: needs -o FILE.csv");
  refused("run " + tank + " --checkpoint-every 1m -o " + q(out) + " --trace -",
          "--checkpoint-every 1m: writes --trace to a file (standard output cannot be continued)");
  refused("run " + tank + " --checkpoint-every 1m -o " + q(out) + " --rows final",
          "--checkpoint-every 1m: needs --rows all or output (events and final hold rows back, which a "
          "checkpoint cannot hold)");
  refused("run " + tank + " --checkpoint-every soon -o " + q(out),
          "--checkpoint-every soon: expects a duration such as 90s, 5m or 1h");
  refused("run " + tank + " --checkpoint-every 5d -o " + q(out),
          "--checkpoint-every 5d: expects a duration such as 90s, 5m or 1h (units ms, s, m, h)");
  refused("run " + tank + " --checkpoint-every 0s -o " + q(out),
          "--checkpoint-every 0s: expects a duration above 0");
  refused("run " + tank + " --checkpoint " + q(out) + ".ckpt -o " + q(out),
          "--checkpoint needs --checkpoint-every: how often to keep it");
  CHECK(!fs::exists(out));
  CHECK(!fs::exists(out.string() + ".partial"));
}

TEST_CASE("a resumed checkpointed run refuses a results file shorter than its checkpoint covers") {
  const fs::path model = long_tank();
  const fs::path out = scratch_file("cli_checkpoints", "short.csv");
  const fs::path checkpoint = fs::path(out.string() + ".ckpt");
  const fs::path log = scratch_file("cli_checkpoints", "short_log.txt");
  fs::remove(checkpoint);
  const std::vector<std::string> arguments{
      "run", model.string(), "--quiet", "--rows", "output", "-o", out.string(), "--checkpoint-every", "5ms"};
  const pid_t pid = start_until_checkpoint(arguments, checkpoint, log);
  kill(pid, SIGKILL);
  REQUIRE(wait_cli(pid, std::chrono::seconds(60)) == -SIGKILL);
  const std::uint64_t covered = read_snapshot_file(checkpoint.string()).results->bytes;
  fs::resize_file(out.string() + ".partial", covered - 1);
  const CommandResult r = run_cli("run " + q(model) + " --quiet --rows output -o " + q(out) +
                                  " --checkpoint-every 5ms --resume " + q(checkpoint));
  CHECK(r.status == 2);
  CHECK(contains(r.output,
                 concat({"cannot write -o '", out.string(), "': '", out.string(), ".partial' has ",
                         std::to_string(covered - 1), " bytes, fewer than the ", std::to_string(covered),
                         " its checkpoint covers: it is not the file the checkpoint was taken with"})));
}

TEST_CASE("a run killed before its results file exists resumes through a symbolic link to that file") {
  // Killed, the run leaves only out.partial: `out` does not exist, so a link
  // to it dangles. The resumed run writes where the link points, as the
  // killed one did, and so continues the same file.
  const fs::path model = long_tank();
  const fs::path whole = scratch_file("cli_checkpoints", "link_whole.csv");
  REQUIRE(run_cli("run " + q(model) + " --quiet --rows output -o " + q(whole)).status == 0);
  const fs::path out = scratch_file("cli_checkpoints", "link_target.csv");
  const fs::path link = scratch_file("cli_checkpoints", "link.csv");
  const fs::path checkpoint = scratch_file("cli_checkpoints", "link.ckpt");
  const fs::path log = scratch_file("cli_checkpoints", "link_log.txt");
  for (const fs::path& p : {out, link, checkpoint}) fs::remove(p);
  std::vector<std::string> arguments{"run",
                                     model.string(),
                                     "--quiet",
                                     "--rows",
                                     "output",
                                     "-o",
                                     out.string(),
                                     "--checkpoint",
                                     checkpoint.string(),
                                     "--checkpoint-every",
                                     "5ms"};
  const pid_t pid = start_until_checkpoint(arguments, checkpoint, log);
  kill(pid, SIGKILL);
  REQUIRE(wait_cli(pid, std::chrono::seconds(60)) == -SIGKILL);
  REQUIRE(!fs::exists(out));
  fs::create_symlink(out, link);
  arguments[5 + 1] = link.string();
  arguments.insert(arguments.end(), {"--resume", checkpoint.string()});
  const pid_t again = spawn_cli(arguments, log, log);
  REQUIRE_MESSAGE(wait_cli(again, std::chrono::seconds(120)) == 0, read_text(log));
  CHECK(fs::is_symlink(link));
  CHECK(read_text(out) == read_text(whole));
}

}  // namespace ctde::test
