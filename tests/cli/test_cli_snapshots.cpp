// `ctde run --snapshot-at T --snapshot F` and `--resume F` (docs/snapshots.md):
// a run resumed in a new process writes the rows of the whole run after T;
// every refusal with its exit status and message.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "run/snapshot_file.hpp"
#include "support/cli_helpers.hpp"
#include "support/snapshot_helpers.hpp"

namespace ctde::test {
namespace {

namespace fs = std::filesystem;

std::string q(const fs::path& p) { return concat({"'", p.string(), "'"}); }

}  // namespace

TEST_CASE("ctde run --resume in a new process writes the whole run's rows and trace after the snapshot") {
  const fs::path whole = scratch_file("cli_snapshots", "whole.csv");
  const fs::path whole_trace = scratch_file("cli_snapshots", "whole.jsonl");
  const fs::path snap = scratch_file("cli_snapshots", "tank.snap");
  const fs::path rest = scratch_file("cli_snapshots", "rest.csv");
  const fs::path rest_trace = scratch_file("cli_snapshots", "rest.jsonl");
  const std::string model = example_models() + "tank_queue.json";
  const CommandResult first = run_cli("run " + model + " --quiet --snapshot-at 5 --snapshot " + q(snap) +
                                      " -o " + q(whole) + " --trace " + q(whole_trace));
  REQUIRE_MESSAGE(first.status == 0, first.output);
  const CommandResult second = run_cli("run " + model + " --quiet --resume " + q(snap) + " -o " + q(rest) +
                                       " --trace " + q(rest_trace));
  REQUIRE_MESSAGE(second.status == 0, second.output);
  CHECK(body_lines(read_text(rest)) == rows_after(read_text(whole), 5.0));
  CHECK(trace_after(read_text(rest_trace), 5.0) == trace_after(read_text(whole_trace), 5.0));
  // The snapshot line of each run, at the snapshot's tag.
  CHECK(contains(read_text(whole_trace), R"({"kind":"snapshot","t":5,)"));
  CHECK(contains(read_text(rest_trace), R"("action":"resumed"})"));

  const SnapshotFile file = read_snapshot_file(snap.string());
  CHECK(file.model_name == "tank_queue");
  CHECK(file.snapshot.time == 5.0);
  CHECK(file.sets.empty());
}

TEST_CASE("ctde run --resume keeps the first run's --set values and applies its own after them") {
  const fs::path snap = scratch_file("cli_snapshots", "set.snap");
  const fs::path whole = scratch_file("cli_snapshots", "set_whole.csv");
  const fs::path rest = scratch_file("cli_snapshots", "set_rest.csv");
  const std::string model = example_models() + "tank_queue.json";
  REQUIRE(run_cli("run " + model + " --quiet --set service=3 --snapshot-at 4 --snapshot " + q(snap) + " -o " +
                  q(whole))
              .status == 0);
  // Without --set: the snapshot's service=3 again, so the same rows.
  REQUIRE(run_cli("run " + model + " --quiet --resume " + q(snap) + " -o " + q(rest)).status == 0);
  CHECK(body_lines(read_text(rest)) == rows_after(read_text(whole), 4.0));
  CHECK(read_snapshot_file(snap.string()).sets == ParameterOverrides{{"service", "3"}});
  // With another value: a run that goes another way from there.
  const fs::path other = scratch_file("cli_snapshots", "set_other.csv");
  const CommandResult changed =
      run_cli("run " + model + " --quiet --resume " + q(snap) + " --set service=6 -o " + q(other));
  REQUIRE_MESSAGE(changed.status == 0, changed.output);
  CHECK(body_lines(read_text(other)) != rows_after(read_text(whole), 4.0));
}

TEST_CASE("ctde run refuses a snapshot that does not fit, with status 2 and nothing written") {
  const fs::path snap = scratch_file("cli_snapshots", "refuse.snap");
  const std::string tank = example_models() + "tank_queue.json";
  REQUIRE(
      run_cli("run " + tank + " --quiet --snapshot-at 5 --snapshot " + q(snap) + " -o /dev/null").status ==
      0);
  const std::string bytes = read_text(snap);
  const fs::path out = scratch_file("cli_snapshots", "refused.csv");
  fs::remove(out);

  SUBCASE("another model") {
    const CommandResult r =
        run_cli("run " + example_models() + "thermostat.json --resume " + q(snap) + " -o " + q(out));
    CHECK(r.status == 2);
    CHECK(contains(r.output, "--resume " + snap.string() + ": the snapshot was taken of another model"));
  }
  SUBCASE("truncated") {
    const fs::path cut = scratch_file("cli_snapshots", "cut.snap");
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 100);
    const CommandResult r = run_cli("run " + tank + " --resume " + q(cut) + " -o " + q(out));
    CHECK(r.status == 2);
    CHECK(contains(r.output, "snapshot '" + cut.string() + "': truncated"));
  }
  SUBCASE("corrupt") {
    const fs::path bad = scratch_file("cli_snapshots", "bad.snap");
    std::string flipped = bytes;
    flipped[flipped.size() - 200] = static_cast<char>(flipped[flipped.size() - 200] ^ 1);
    std::ofstream(bad, std::ios::binary) << flipped;
    const CommandResult r = run_cli("run " + tank + " --resume " + q(bad) + " -o " + q(out));
    CHECK(r.status == 2);
    CHECK(contains(r.output,
                   "snapshot '" + bad.string() + "': corrupt: its checksum does not match its contents"));
  }
  SUBCASE("a future version") {
    const fs::path future = scratch_file("cli_snapshots", "future.snap");
    std::string newer = bytes;
    newer[8] = 2;
    std::ofstream(future, std::ios::binary) << newer;
    const CommandResult r = run_cli("run " + tank + " --resume " + q(future) + " -o " + q(out));
    CHECK(r.status == 2);
    CHECK(contains(r.output,
                   "snapshot '" + future.string() +
                       "': of format version 2; this ctde reads version 1 (written by a newer ctde)"));
  }
  SUBCASE("not a snapshot") {
    const CommandResult r = run_cli("run " + tank + " --resume " + tank + " -o " + q(out));
    CHECK(r.status == 2);
    CHECK(contains(r.output, "not a ctde snapshot (it does not begin with CTDESNAP)"));
  }
  SUBCASE("an edited model") {
    const fs::path edited = scratch_file("cli_snapshots", "edited.json");
    std::string text = read_text(tank);
    const std::string from = R"("service": 4)";
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(), R"("service": 5)");
    std::ofstream(edited) << text;
    const CommandResult r = run_cli("run " + q(edited) + " --resume " + q(snap) + " -o " + q(out));
    CHECK(r.status == 2);
    CHECK(contains(r.output, "has other parameter values than in the run that took it"));
  }
  CHECK(!fs::exists(out));
}

TEST_CASE("ctde run --snapshot-at and --snapshot go together, at a time inside the run") {
  const std::string tank = example_models() + "tank_queue.json";
  const fs::path snap = scratch_file("cli_snapshots", "alone.snap");
  CommandResult r = run_cli("run " + tank + " --snapshot-at 5");
  CHECK(r.status == 2);
  CHECK(contains(r.output, "--snapshot-at needs --snapshot FILE: where to save the run"));
  r = run_cli("run " + tank + " --snapshot " + q(snap));
  CHECK(r.status == 2);
  CHECK(contains(r.output, "--snapshot needs --snapshot-at TIME: when to save the run"));
  r = run_cli("run " + tank + " --snapshot-at 500 --snapshot " + q(snap));
  CHECK(r.status == 2);
  CHECK(contains(r.output, "the snapshot time 500 s must be a whole number of ticks"));
  // A snapshot that cannot be written fails the run (status 3), keeping what it wrote.
  const fs::path rows = scratch_file("cli_snapshots", "kept.csv");
  r = run_cli("run " + tank + " --quiet --snapshot-at 5 --snapshot /proc/self/x.snap -o " + q(rows));
  CHECK(r.status == 3);
  CHECK(contains(r.output,
                 "the snapshot could not be written: snapshot '/proc/self/x.snap': cannot be written: "));
  CHECK(!rows_after(read_text(rows), 4.9).empty());
  CHECK(rows_after(read_text(rows), 5.0).empty());
}

}  // namespace ctde::test
