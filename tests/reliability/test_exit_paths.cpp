// The command's rare documented endings (docs/cli.md, "Exit status"): an
// internal error (4) leaves no file behind; a closed output pipe ends the run
// with status 3; Ctrl-C during `sweep` keeps the file with the run marked
// interrupted (130); Ctrl-C during `graph` and `trace export` writes nothing
// (130). Each signal lands mid-command by construction: after the run said it
// is under way, or while the command waits for the rest of its input.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "support/cli_helpers.hpp"
#include "support/process_helpers.hpp"

namespace {

namespace fs = std::filesystem;
using ctde::test::read_text;

const std::string kFaulty = CTDE_TEST_FAULTY_PLUGIN;
const std::string kChecks = std::string(CTDE_SOURCE_DIR) + "/tests/cli/sweep_checks.py";
/// How long a command may take to end once it should (a hang guard, not a verdict).
constexpr std::chrono::seconds kEnds{60};

/// A fresh scratch folder of this process's own.
fs::path fresh_folder(const std::string& name) {
  const fs::path folder = ctde::test::scratch_root() / "ctde_exit_paths" / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

/// The names of the files in `folder`.
std::set<std::string> names_in(const fs::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.insert(entry.path().filename().string());
  return names;
}

/// x' = rate over 1e5 s in steps of at most 1 ms: hours of work unless stopped. The clock
/// cuts the continuous phase every 100 s (below max_steps) and, at t = 0, makes the
/// faulty plugin's SaysStarted tell stderr that the run is under way.
const char* const kLongModel = R"({"ctde": 1, "name": "long", "parameters": {"rate": 1},
  "director": {"stop_time": 1e5, "max_step": 0.001},
  "actors": [{"name": "c", "type": "Constant", "params": {"value": "rate"}},
             {"name": "x", "type": "Integrator"},
             {"name": "clock", "type": "DiscreteClock", "params": {"period": 100}},
             {"name": "said", "type": "SaysStarted"}],
  "connections": [["c.out", "x.in"], ["clock.out", "said.in"]], "record": ["x.out"]})";

/// Waits until file `path` contains `text`; false after a minute (a hang guard).
bool wait_for_text(const fs::path& path, const std::string& text) {
  const auto deadline = std::chrono::steady_clock::now() + kEnds;
  while (std::chrono::steady_clock::now() < deadline) {
    if (ctde::test::contains(read_text(path), text)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

/// Starts `ctde sweep` of the long model over `rates` (a JSON array) with
/// `jobs` processes, in `folder`: out.h5, stdout.txt, stderr.txt.
pid_t start_long_sweep(const fs::path& folder, const std::string& rates, const std::string& jobs) {
  std::ofstream(folder / "long.json") << kLongModel;
  std::ofstream(folder / "spec.json") << R"({"ctde_sweep": 1, "grid": {"rate": )" + rates + "}}";
  return ctde::test::spawn_cli(
      {"sweep", "--load", kFaulty, (folder / "long.json").string(), (folder / "spec.json").string(), "-o",
       (folder / "out.h5").string(), "--jobs", jobs},
      folder / "stdout.txt", folder / "stderr.txt");
}

/// Writes `text` whole to file descriptor `fd`.
void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    REQUIRE(n > 0);
    done += static_cast<std::size_t>(n);
  }
}

/// Runs `ctde ARGUMENTS` whose input is the named pipe `fifo`: writes the first half of
/// `input` into it, presses Ctrl-C, writes the rest and closes it. The command opened
/// the pipe (it was running, its handlers installed) before the first write returned,
/// and cannot have finished before the rest came: the signal lands mid-command.
/// Returns its exit status; its stderr is `err`.
int interrupt_while_reading(const std::vector<std::string>& arguments, const fs::path& fifo,
                            const std::string& input, const fs::path& err) {
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const pid_t pid = ctde::test::spawn_cli(arguments, fifo.parent_path() / "stdout.txt", err);
  const int fd = ::open(fifo.c_str(), O_WRONLY);  // waits for the command to open it
  REQUIRE(fd >= 0);
  write_all(fd, input.substr(0, input.size() / 2));
  REQUIRE(::kill(pid, SIGINT) == 0);
  write_all(fd, input.substr(input.size() / 2));
  ::close(fd);
  return ctde::test::wait_cli(pid, kEnds);
}

}  // namespace

TEST_CASE("an internal error exits 4 naming it, and leaves the outputs as they were, no temporary file") {
  const fs::path folder = fresh_folder("internal");
  // The plugin's Bug throws std::logic_error as the director lays the run out: the outputs
  // are open under their temporary names by then.
  std::ofstream(folder / "bug.json") << R"({"ctde": 1, "director": {"stop_time": 5},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": 1}}, {"name": "x", "type": "Integrator"},
               {"name": "bug", "type": "Bug"}],
    "connections": [["c.out", "x.in"]], "record": ["x.out"]})";
  std::ofstream(folder / "results.csv") << "old results\n";
  const auto r = ctde::test::run_cli("run --load " + kFaulty + " " + (folder / "bug.json").string() + " -o " +
                                     (folder / "results.csv").string() + " --trace " +
                                     (folder / "t.jsonl").string() + " --quiet");
  CHECK(r.status == 4);
  CHECK(r.output == "ctde: internal error: a planted bug (faulty_plugin.cpp)\n");
  CHECK(read_text(folder / "results.csv") == "old results\n");
  CHECK(names_in(folder) == std::set<std::string>{"bug.json", "results.csv"});  // no trace, no .results.*
}

TEST_CASE("a reader that closes the pipe of -o - ends the run: exit 3 naming standard output") {
  const fs::path folder = fresh_folder("pipe");
  std::ofstream(folder / "long.json") << kLongModel;
  // Hours of rows: far more than the pipe and ctde's buffer hold, so ctde is still writing
  // when head has read its line and gone.
  const std::string command = "{ " + std::string(CTDE_CLI) + " run --load " + kFaulty + " " +
                              (folder / "long.json").string() + " -o - 2>" + (folder / "err.txt").string() +
                              "; echo $? >" + (folder / "status.txt").string() + "; } | head -1";
  const auto r = ctde::test::run_shell(command);
  CHECK(r.output == "time,microstep,x.out\n");
  CHECK(read_text(folder / "status.txt") == "3\n");
  const std::string err = read_text(folder / "err.txt");
  CHECK(err.rfind("ctde-test: run under way\nctde: run interrupted at t = ", 0) == 0);
  CHECK(ctde::test::contains(err, "\nctde: error: cannot write -o - (standard output): Broken pipe\n"));
}

TEST_CASE(
    "Ctrl-C during ctde sweep: exit 130, the file kept, the running run marked interrupted, no new one") {
  const fs::path folder = fresh_folder("sweep");
  const fs::path out = folder / "out.h5";
  const pid_t pid = start_long_sweep(folder, "[1, 2, 3]", "1");
  REQUIRE(wait_for_text(folder / "stderr.txt", "ctde-test: run under way\n"));  // run 0 is under way
  REQUIRE(::kill(pid, SIGINT) == 0);
  CHECK(ctde::test::wait_cli(pid, kEnds) == 130);
  const std::string err = read_text(folder / "stderr.txt");
  // The interrupted run counts among the failed ones (its status is not "ok").
  CHECK_MESSAGE(err.rfind("ctde-test: run under way\nctde: sweep: 1 of 3 runs, 1 failed, ", 0) == 0, err);
  CHECK(err.ends_with(" s, written to " + out.string() + "\n"));
  CHECK(names_in(folder) ==
        std::set<std::string>{"long.json", "spec.json", "out.h5", "stdout.txt", "stderr.txt"});
  const auto read =
      ctde::test::run_shell("/usr/bin/python3 " + kChecks + " interrupted " + out.string() + " 2>&1");
  REQUIRE_MESSAGE(read.status == 0, read.output);
  CHECK(read.output == "0 interrupted\n\n");  // run 0 alone, interrupted, with no message
}

TEST_CASE("SIGTERM to the ctde sweep parent alone stops its worker's run too, and no new run starts") {
  // A batch system or `kill PID` signals the parent only. Before, the worker
  // went on with its run and the runs it held (here: hours each).
  const fs::path folder = fresh_folder("sweep_parent");
  const fs::path out = folder / "out.h5";
  const pid_t pid = start_long_sweep(folder, "[1, 2, 3, 4, 5, 6]", "2");
  // Both processes (this one's child and its worker) say so when their first run is under way.
  REQUIRE(wait_for_text(folder / "stderr.txt", "ctde-test: run under way\nctde-test: run under way\n"));
  REQUIRE(::kill(pid, SIGTERM) == 0);
  CHECK(ctde::test::wait_cli(pid, kEnds) == 143);
  const std::string err = read_text(folder / "stderr.txt");
  CHECK_MESSAGE(ctde::test::contains(err, "ctde: sweep: 2 of 6 runs, 2 failed, "), err);
  const auto read =
      ctde::test::run_shell("/usr/bin/python3 " + kChecks + " statuses " + out.string() + " 2>&1");
  REQUIRE_MESSAGE(read.status == 0, read.output);
  // The two runs under way, each ended at its safe point; none lost, none more.
  std::istringstream lines(read.output);
  int interrupted = 0;
  for (std::string line; std::getline(lines, line);) {
    CHECK_MESSAGE(line.ends_with(" interrupted"), line);
    ++interrupted;
  }
  CHECK(interrupted == 2);
}

TEST_CASE("Ctrl-C during ctde trace export: exit 130, nothing written") {
  const fs::path folder = fresh_folder("trace_export");
  const auto ran =
      ctde::test::run_cli("run " + ctde::test::example_models() + "bouncing_ball.json --quiet -o " +
                          (folder / "r.csv").string() + " --trace " + (folder / "t.jsonl").string());
  REQUIRE(ran.status == 0);
  const int status = interrupt_while_reading(
      {"trace", "export", (folder / "fifo").string(), "-o", (folder / "out.json").string()}, folder / "fifo",
      read_text(folder / "t.jsonl"), folder / "err.txt");
  CHECK(status == 130);
  CHECK(read_text(folder / "err.txt") == "ctde: interrupted: nothing written\n");
  CHECK(names_in(folder) == std::set<std::string>{"r.csv", "t.jsonl", "fifo", "stdout.txt", "err.txt"});
}

TEST_CASE("Ctrl-C during ctde graph: exit 130, nothing written") {
  const fs::path folder = fresh_folder("graph");
  const int status = interrupt_while_reading(
      {"graph", (folder / "fifo").string(), "-o", (folder / "g.dot").string()}, folder / "fifo",
      ctde::test::read_example("bouncing_ball.json"), folder / "err.txt");
  CHECK(status == 130);
  CHECK(read_text(folder / "err.txt") == "ctde: interrupted: nothing written\n");
  CHECK(names_in(folder) == std::set<std::string>{"fifo", "stdout.txt", "err.txt"});
}
