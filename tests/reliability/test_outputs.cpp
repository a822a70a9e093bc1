// The files the `ctde` commands write: never over an input or over each
// other, written whole under a temporary name and renamed, every write
// checked, and clear refusals for folders.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/cli_helpers.hpp"

namespace {

namespace fs = std::filesystem;
using ctde::test::read_text;

/// A fresh folder holding a copy of spring_mass.json as m.json.
fs::path fresh_folder(const std::string& name) {
  fs::path folder = ctde::test::scratch_root() / "ctde_reliability_outputs" / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  fs::copy_file(ctde::test::example_models() + "spring_mass.json", folder / "m.json");
  return folder;
}

/// The names in `folder`, sorted.
std::vector<std::string> listing(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// `ctde ARGUMENTS` run by the shell inside `folder` (relative paths are
/// relative to it), with `redirections` after it: by default stderr joins
/// stdout, which the result holds.
ctde::test::CommandResult run_in(const fs::path& folder, const std::string& arguments,
                                 const std::string& redirections = "2>&1") {
  return ctde::test::run_shell("cd '" + folder.string() + "' && " + CTDE_CLI + " " + arguments + " " +
                               redirections);
}

bool mentions(const ctde::test::CommandResult& r, const std::string& text) {
  return r.output.find(text) != std::string::npos;
}

/// `ctde ARGS` run in `folder` is refused: exit status 2 and `message` in its output.
void check_refused(const fs::path& folder, const std::string& args, const std::string& message) {
  CAPTURE(args);
  const auto r = run_in(folder, args);
  CHECK_MESSAGE(r.status == 2, r.output);
  CHECK_MESSAGE(mentions(r, message), r.output);
}

}  // namespace

TEST_CASE("an output that is the model file is refused before the run, naming both, for every command") {
  const fs::path folder = fresh_folder("same_as_model");
  const std::string model = read_text(folder / "m.json");
  fs::create_symlink("m.json", folder / "link.json");
  fs::create_hard_link(folder / "m.json", folder / "hard.json");
  fs::create_directories(folder / "sub");
  const std::vector<std::string> commands = {
      "run m.json -o m.json",
      "run m.json --trace m.json",
      "run m.json --trace ./m.json",
      "run m.json -o sub/../m.json",
      "run m.json -o " + (folder / "m.json").string(),
      "run link.json -o m.json",       // a symbolic link to the output
      "run m.json --trace link.json",  // the output is a link to the model
      "run hard.json -o m.json",       // a hard link
      "run m.json --plot m.json",
      "graph m.json -o m.json",
      "graph link.json -o m.json",
  };
  for (const auto& command : commands) {
    CAPTURE(command);
    const auto r = run_in(folder, command);
    CHECK(r.status == 2);
    CHECK(mentions(r, "are the same file"));
    CHECK(mentions(r, "MODEL '"));
    CHECK(read_text(folder / "m.json") == model);
  }
  CHECK(listing(folder) == std::vector<std::string>{"hard.json", "link.json", "m.json", "sub"});

  REQUIRE(run_in(folder, "run m.json --quiet --trace t.jsonl").status == 0);
  const std::string trace = read_text(folder / "t.jsonl");
  check_refused(folder, "trace export t.jsonl -o ./t.jsonl",
                "-o './t.jsonl' and TRACE 't.jsonl' are the same file");
  CHECK(read_text(folder / "t.jsonl") == trace);
}

TEST_CASE("two outputs on one file are refused, naming both; /dev/null may be named twice") {
  const fs::path folder = fresh_folder("two_outputs");
  fs::create_symlink("out.csv", folder / "alias.csv");  // dangling: out.csv does not exist yet
  check_refused(folder, "run m.json -o out.csv --trace out.csv",
                "-o 'out.csv' and --trace 'out.csv' are the same file");
  CHECK(run_in(folder, "run m.json -o out.csv --trace ./alias.csv").status == 2);
  CHECK(run_in(folder, "run m.json -o out.png --plot out.png").status == 2);
  check_refused(folder, "run m.json -o - --trace /dev/stdout",
                "-o - (standard output) and --trace '/dev/stdout' are the same file");
  CHECK(run_in(folder, "run m.json -o - --trace -").status == 2);
  CHECK(listing(folder) == std::vector<std::string>{"alias.csv", "m.json"});
  CHECK(run_in(folder, "run m.json --quiet -o /dev/null --trace /dev/null").status == 0);
}

TEST_CASE("outputs are renamed into place: a model error leaves the old files whole and no temporary file") {
  const fs::path folder = fresh_folder("model_error");
  std::ofstream(folder / "out.csv") << "old results\n";
  std::ofstream(folder / "t.jsonl") << "old trace\n";
  // Past the loader, before the run: the director refuses the stop time.
  const auto r = run_in(folder, "run m.json -o out.csv --trace t.jsonl --set k=4 --stop-time 1e9");
  CHECK(r.status == 2);
  CHECK(read_text(folder / "out.csv") == "old results\n");
  CHECK(read_text(folder / "t.jsonl") == "old trace\n");
  CHECK(listing(folder) == std::vector<std::string>{"m.json", "out.csv", "t.jsonl"});
}

TEST_CASE(
    "a file renamed into place keeps the permissions it had, or gets the usual ones; a link stays a link") {
  const fs::path folder = fresh_folder("permissions");
  std::ofstream(folder / "kept.csv") << "old\n";
  fs::permissions(folder / "kept.csv",
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink("target.jsonl", folder / "link.jsonl");
  REQUIRE(run_in(folder, "run m.json --quiet -o kept.csv --trace link.jsonl").status == 0);
  CHECK(fs::status(folder / "kept.csv").permissions() ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  CHECK(read_text(folder / "kept.csv").rfind("time,microstep,", 0) == 0);
  CHECK(fs::is_symlink(folder / "link.jsonl"));
  CHECK(read_text(folder / "target.jsonl").rfind("{\"kind\":\"run_start\"", 0) == 0);

  REQUIRE(run_in(folder, "run m.json --quiet -o new.csv").status == 0);
  const mode_t mask = umask(0);
  umask(mask);
  CHECK(static_cast<mode_t>(fs::status(folder / "new.csv").permissions()) ==
        (static_cast<mode_t>(0666) & ~mask));
  CHECK(listing(folder) ==
        std::vector<std::string>{"kept.csv", "link.jsonl", "m.json", "new.csv", "target.jsonl"});
}

TEST_CASE("a write that fails ends the command with status 3, naming the file") {
  const fs::path folder = fresh_folder("write_failure");
  REQUIRE(run_in(folder, "run m.json --quiet --trace t.jsonl").status == 0);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run m.json -o /dev/full", "cannot write -o '/dev/full': No space left on device"},
      {"run m.json --trace /dev/full", "cannot write --trace '/dev/full': No space left on device"},
      {"run m.json -o /dev/full --trace out.jsonl --stop-time 1e5",  // a long run: ended at the failure
       "cannot write -o '/dev/full': No space left on device"},
      {"trace export t.jsonl -o /dev/full", "cannot write -o '/dev/full': No space left on device"},
      {"trace export t.jsonl 2>&1 >/dev/full",
       "cannot write -o - (standard output): No space left on device"},
      {"run m.json -o - 2>&1 >/dev/full", "cannot write -o - (standard output): No space left on device"},
  };
  for (const auto& item : cases) {
    const std::string& command = item.first;
    const std::string& message = item.second;
    CAPTURE(command);
    const auto r = run_in(folder, command, command.find('>') == std::string::npos ? "2>&1" : "");
    CHECK(r.status == 3);
    CHECK(mentions(r, "ctde: error: " + message));
  }
  // The run ended soon after the failure (a buffer of rows later), and the
  // trace up to there is kept.
  const std::string trace = read_text(folder / "out.jsonl");
  const auto end = trace.rfind("{\"kind\":\"run_end\",\"status\":\"interrupted\"");
  CHECK(end != std::string::npos);
  CHECK(trace.find('\n', end) == trace.size() - 1);
  CHECK(listing(folder) == std::vector<std::string>{"m.json", "out.jsonl", "t.jsonl"});
  // Commands that print on stdout check it too.
  CHECK(run_in(folder, "validate m.json", "2>&1 >/dev/full").status == 3);
  CHECK(run_in(folder, "graph m.json", "2>&1 >/dev/full").status == 3);
}

TEST_CASE("-o - writes the results on stdout, and the summary stays on stderr") {
  const fs::path folder = fresh_folder("stdout");
  const auto results = run_in(folder, "run m.json -o -", "2>/dev/null");
  CHECK(results.status == 0);
  CHECK(results.output.rfind("time,microstep,force.out,", 0) == 0);
  CHECK(results.output.find("ctde:") == std::string::npos);
  const auto summary = run_in(folder, "run m.json -o -", "2>&1 >/dev/null");
  CHECK(summary.status == 0);
  CHECK(summary.output.rfind("ctde: run ok at t = 10 s", 0) == 0);
  const auto dot = run_in(folder, "graph m.json -o -", "2>/dev/null");
  CHECK(dot.output.rfind("digraph G {", 0) == 0);
  CHECK(listing(folder) == std::vector<std::string>{"m.json"});
}

TEST_CASE("an output in a missing folder, or a folder for a file, is refused naming it (exit 2)") {
  const fs::path folder = fresh_folder("folders");
  const auto trace = run_in(folder, "run m.json --trace new/dir/t.jsonl");
  CHECK(trace.status == 2);
  CHECK(mentions(trace, "cannot write --trace 'new/dir/t.jsonl': the folder 'new/dir' does not exist"));
  CHECK(run_in(folder, "run m.json -o new/r.csv").status == 2);
  CHECK(run_in(folder, "run m.json --plot new/p.png").status == 2);
  CHECK(run_in(folder, "graph m.json -o new/g.dot").status == 2);
  check_refused(folder, "run m.json -o m.json/r.csv", "is not a directory");
  CHECK(listing(folder) == std::vector<std::string>{"m.json"});

  check_refused(folder, "run .", "ctde: error: MODEL '.' is a directory, not a file");
  CHECK(run_in(folder, "validate .").status == 2);
  CHECK(run_in(folder, "trace export .").status == 2);
  check_refused(folder, "run m.json -o .", "ctde: error: -o '.' is a directory, not a file");
}
