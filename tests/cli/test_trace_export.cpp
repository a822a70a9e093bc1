// `ctde trace export`: event traces to the Chrome/Perfetto trace-event format.
#include <doctest/doctest.h>

#include "cli/trace_export.hpp"
#include "run/command_error.hpp"
#include "support/cli_helpers.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using nlohmann::json;

/// A small trace with a line of every kind (and one this version does not know).
const std::string kTrace =
    R"({"kind":"run_start","model":"tiny","solver":"erk45","rtol":1e-06,"atol":1e-09,"stop_time":2,"time_resolution":1e-12,"ctde_version":"0.1.0"}
{"kind":"time_event","t":0,"tick":0,"n":0,"actor":"clock"}
{"kind":"event","t":0,"tick":0,"n":0,"actor":"clock","port":"out","value":[1]}
{"kind":"step_reject","t0":0.5,"t1":1.5,"by":"ground"}
{"kind":"state_event","t":1.25,"tick":1250000000000,"n":0,"actor":"ground","guard":0,"direction":"falling","bracket":1e-12,"residual":-2e-13,"iterations":7,"rejected_t1":1.5}
{"kind":"reset","t":1.25,"tick":1250000000000,"n":1,"actor":"v","before":[-3],"after":[2.4]}
{"kind":"mode","t":1.25,"tick":1250000000000,"n":1,"actor":"stop","from":"FREE","via":"IMPACT","to":"FREE"}

{"kind":"future_kind","t":1.5,"actor":"v","detail":"kept"}
{"kind":"error","t":2,"tick":2000000000000,"n":0,"status":"error","message":"boom","actor":"v"}
{"kind":"run_end","status":"error","steps":10,"rejected_steps":1,"rhs_evals":60,"events":1,"time_events":1,"state_events":1}
)";

json convert(const std::string& text) {
  std::istringstream in(text);
  return ctde::cli::chrome_trace(in, "t.jsonl");
}

/// The message of the CommandError that converting `text` throws, or "" if none.
std::string failure(const std::string& text) {
  try {
    static_cast<void>(convert(text));
  } catch (const ctde::CommandError& e) {
    CHECK(e.status() == ctde::kExitUsage);
    return e.what();
  }
  return "";
}

/// The tid of the track named `name` (from the thread_name metadata), or -1.
int tid_of(const json& trace, const std::string& name) {
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"] == name) return e["tid"].get<int>();
  }
  return -1;
}

/// The first non-metadata event of category `category`.
json find(const json& trace, const std::string& category) {
  for (const auto& e : trace["traceEvents"]) {
    if (e.value("cat", "") == category) return e;
  }
  FAIL("no event of category " << category);
  return {};
}

/// A time in µs read back as a viewer does, in integer nanoseconds: rounded
/// (Perfetto today) and truncated (older Perfetto) must agree.
std::int64_t nanoseconds(const json& microseconds) {
  const double value = microseconds.get<double>() * 1000.0;
  const auto rounded = static_cast<std::int64_t>(std::llround(value));
  CHECK(static_cast<std::int64_t>(value) == rounded);
  return rounded;
}

}  // namespace

TEST_CASE("trace export makes one named track per actor, in order of appearance, after the director's") {
  const json trace = convert(kTrace);
  CHECK(trace["displayTimeUnit"] == "ms");
  const json& first = trace["traceEvents"][0];
  CHECK(first["name"] == "process_name");
  CHECK(first["args"]["name"] == "ctde: tiny");
  CHECK(tid_of(trace, "(director)") == 1);
  CHECK(tid_of(trace, "clock") == 2);
  CHECK(tid_of(trace, "ground") == 3);
  CHECK(tid_of(trace, "v") == 4);
  CHECK(tid_of(trace, "stop") == 5);
  std::size_t sort_indices = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["name"] == "thread_sort_index") ++sort_indices;
  }
  CHECK(sort_indices == 5);
}

TEST_CASE(
    "trace export draws a step rejection as a slice [t0, t1] on the track of the actor that refined it") {
  const json trace = convert(kTrace);
  const json reject = find(trace, "step_reject");
  CHECK(reject["ph"] == "X");
  CHECK(reject["tid"] == tid_of(trace, "ground"));
  CHECK(nanoseconds(reject["ts"]) == 500'000'000);
  CHECK(nanoseconds(reject["dur"]) == 1'000'000'000);
  CHECK(reject["args"]["by"] == "ground");
}

TEST_CASE("trace export draws a state-event search as a slice [t, rejected_t1] with its details") {
  const json trace = convert(kTrace);
  const json search = find(trace, "state_event");
  CHECK(search["ph"] == "X");
  CHECK(search["tid"] == tid_of(trace, "ground"));
  CHECK(nanoseconds(search["ts"]) == 1'250'000'000);
  CHECK(nanoseconds(search["dur"]) == 250'000'000);
  CHECK(search["args"]["guard"] == 0);
  CHECK(search["args"]["direction"] == "falling");
  CHECK(search["args"]["iterations"] == 7);
  CHECK(search["args"]["residual"] == -2e-13);
  CHECK(search["args"]["rejected_t1"] == 1.5);
  CHECK(search["args"]["n"] == 0);
}

TEST_CASE("trace export shows events, time events, resets and mode changes as instants with their keys") {
  const json trace = convert(kTrace);
  const json event = find(trace, "event");
  CHECK(event["ph"] == "i");
  CHECK(event["s"] == "t");
  CHECK(event["name"] == "event out");
  CHECK(event["tid"] == tid_of(trace, "clock"));
  CHECK(nanoseconds(event["ts"]) == 0);
  CHECK(event["args"]["value"] == json::array({1}));
  CHECK_FALSE(event["args"].contains("kind"));

  const json time_event = find(trace, "time_event");
  CHECK(time_event["ph"] == "i");
  CHECK(time_event["tid"] == tid_of(trace, "clock"));

  const json reset = find(trace, "reset");
  CHECK(reset["ph"] == "i");
  CHECK(reset["tid"] == tid_of(trace, "v"));
  CHECK(reset["args"]["before"] == json::array({-3}));
  CHECK(reset["args"]["after"] == json::array({2.4}));

  const json mode = find(trace, "mode");
  CHECK(mode["name"] == "mode FREE -> FREE");
  CHECK(mode["tid"] == tid_of(trace, "stop"));
  CHECK(mode["args"]["via"] == "IMPACT");
}

TEST_CASE(
    "trace export marks errors and the run's end globally and keeps run_start and run_end as metadata") {
  const json trace = convert(kTrace);
  const json error = find(trace, "error");
  CHECK(error["ph"] == "i");
  CHECK(error["s"] == "g");
  CHECK(error["args"]["message"] == "boom");
  CHECK(error["tid"] == tid_of(trace, "v"));

  const json end = find(trace, "run_end");
  CHECK(end["s"] == "g");
  CHECK(nanoseconds(end["ts"]) == 2'000'000'000);  // the last time in the trace
  CHECK(end["args"]["steps"] == 10);
  CHECK(end["tid"] == tid_of(trace, "(director)"));

  CHECK(trace["otherData"]["run_start"]["model"] == "tiny");
  CHECK(trace["otherData"]["run_start"]["solver"] == "erk45");
  CHECK(trace["otherData"]["run_end"]["status"] == "error");
}

TEST_CASE("trace export keeps lines of unknown kinds as instants on their actor's track") {
  const json trace = convert(kTrace);
  const json unknown = find(trace, "future_kind");
  CHECK(unknown["ph"] == "i");
  CHECK(unknown["name"] == "future_kind");
  CHECK(unknown["tid"] == tid_of(trace, "v"));
  CHECK(nanoseconds(unknown["ts"]) == 1'500'000'000);
  CHECK(unknown["args"]["detail"] == "kept");

  // Without `t` or `actor`: the director's track, at the last time read.
  const json bare = convert("{\"kind\":\"time_event\",\"t\":0.25,\"actor\":\"a\"}\n{\"kind\":\"note\"}\n");
  const json note = find(bare, "note");
  CHECK(note["tid"] == tid_of(bare, "(director)"));
  CHECK(nanoseconds(note["ts"]) == 250'000'000);
}

TEST_CASE("trace export moves slices that overlap without nesting to an extra track of the actor") {
  const json trace = convert(
      "{\"kind\":\"step_reject\",\"t0\":0,\"t1\":1,\"by\":\"a\"}\n"
      "{\"kind\":\"state_event\",\"t\":0.75,\"actor\":\"a\",\"rejected_t1\":1}\n"  // nests in [0, 1]
      "{\"kind\":\"step_reject\",\"t0\":0.5,\"t1\":1.5,\"by\":\"a\"}\n"            // overlaps [0, 1]
      "{\"kind\":\"step_reject\",\"t0\":1,\"t1\":2,\"by\":\"a\"}\n");              // after [0, 1]
  const int first_lane = tid_of(trace, "a");
  const int extra = tid_of(trace, "a (2)");
  REQUIRE(first_lane > 0);
  REQUIRE(extra > 0);
  std::size_t on_main = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const std::int64_t ts = nanoseconds(e["ts"]);
    if (ts == 500'000'000) {
      CHECK(e["tid"] == extra);
    } else {
      CHECK(e["tid"] == first_lane);
      ++on_main;
    }
  }
  CHECK(on_main == 3);
}

TEST_CASE("trace export rejects malformed lines, naming the line") {
  CHECK(failure("{\"kind\":\"run_start\"}\nnot json\n").rfind("t.jsonl:2: ", 0) == 0);
  CHECK(failure("\n\n[1, 2]\n") == "t.jsonl:3: not a JSON object");
  CHECK(failure("{\"t\": 1}\n") == "t.jsonl:1: no \"kind\" string");
  CHECK(failure("{\"kind\": 3}\n") == "t.jsonl:1: no \"kind\" string");
  CHECK(failure("{\"kind\":\"event\",\"t\":\"soon\",\"actor\":\"a\"}\n") ==
        "t.jsonl:1: \"t\" is not a number");
  CHECK(failure("{\"kind\":\"event\",\"t\":1}\n") == "t.jsonl:1: no \"actor\" string");
  CHECK(failure("{\"kind\":\"state_event\",\"t\":1,\"actor\":\"a\"}\n") ==
        "t.jsonl:1: no \"rejected_t1\" (a time in seconds)");
  CHECK(failure("{\"kind\":\"step_reject\",\"t0\":1,\"t1\":2,\"by\":7}\n") ==
        "t.jsonl:1: \"by\" is not a string");
  CHECK(failure("{\"kind\":\"time_event\",\"t\":1e300,\"actor\":\"a\"}\n").find("out of the range") !=
        std::string::npos);
  CHECK(failure("{\"kind\":\"time_event\",\"t\":1e999,\"actor\":\"a\"}\n") ==
        "t.jsonl:1: number overflow parsing '1e999'");
  CHECK(failure("").empty());  // an empty trace is fine
}

TEST_CASE("ctde trace export converts a run's trace and exits 2 on a malformed one") {
  const auto model = ctde::test::example_models() + "bouncing_ball.json";
  const auto trace = ctde::test::scratch_file("ctde_cli_trace_test", "ball.jsonl");
  const auto chrome = ctde::test::scratch_file("ctde_cli_trace_test", "ball.json");
  REQUIRE(ctde::test::run_cli("run " + model + " --quiet --trace " + trace.string()).status == 0);
  const auto r = ctde::test::run_cli("trace export " + trace.string() + " -o " + chrome.string());
  CHECK(r.status == 0);
  CHECK(r.output.empty());
  const json exported = json::parse(ctde::test::read_text(chrome));
  std::size_t searches = 0;
  for (const auto& e : exported["traceEvents"]) {
    if (e.value("cat", "") == "state_event") ++searches;
  }
  CHECK(searches == exported["otherData"]["run_end"]["state_events"].get<std::size_t>());

  const auto bad = ctde::test::scratch_file("ctde_cli_trace_test", "bad.jsonl");
  {
    std::ofstream out(bad);
    out << "{\"kind\":\"run_start\"}\n{\"kind\":\"event\",\"t\":0}\n";
  }
  const auto failed = ctde::test::run_cli("trace export " + bad.string() + " -o " + chrome.string());
  CHECK(failed.status == 2);
  CHECK(failed.output.find(bad.string() + ":2: no \"actor\" string") != std::string::npos);
  CHECK(ctde::test::run_cli("trace export /nonexistent/trace.jsonl").status == 2);
}

TEST_CASE("trace export converts a trace whose last line was cut short, with a warning") {
  // The writer killed mid-line: the last line has no newline and is not JSON.
  const std::string whole = kTrace.substr(0, kTrace.find("{\"kind\":\"run_end\""));
  const std::string cut = whole + "{\"kind\":\"run_end\",\"status\":\"er";
  std::istringstream in(cut);
  std::ostringstream warnings;
  const json trace = ctde::cli::chrome_trace(in, "t.jsonl", &warnings);
  CHECK(
      warnings.str() ==
      "ctde: warning: t.jsonl:11: the last line is cut short (the run was killed?); converting the 10 lines "
      "before it\n");
  CHECK_FALSE(trace["otherData"].contains("run_end"));
  std::istringstream again(whole);
  CHECK(trace == ctde::cli::chrome_trace(again, "t.jsonl"));  // the same as without the cut line

  // A complete last line without its newline is kept; a bad line with its newline is still an error.
  std::istringstream unterminated(whole + "{\"kind\":\"run_end\",\"status\":\"ok\"}");
  std::ostringstream none;
  CHECK(ctde::cli::chrome_trace(unterminated, "t.jsonl", &none)["otherData"]["run_end"]["status"] == "ok");
  CHECK(none.str().empty());
  CHECK(failure(whole + "{\"kind\":\"run_end\",\"status\":\"er\n").rfind("t.jsonl:11: ", 0) == 0);
}

TEST_CASE("ctde trace export of a cut trace warns on stderr and exits 0") {
  const auto trace = ctde::test::scratch_file("ctde_cli_trace_test", "cut.jsonl");
  const auto chrome = ctde::test::scratch_file("ctde_cli_trace_test", "cut.json");
  {
    std::ofstream out(trace);
    out << kTrace.substr(0, kTrace.size() - 20);
  }
  const auto r = ctde::test::run_cli("trace export " + trace.string() + " -o " + chrome.string());
  CHECK(r.status == 0);
  CHECK(r.output.find("ctde: warning: " + trace.string() + ":11: the last line is cut short") !=
        std::string::npos);
  CHECK(json::parse(ctde::test::read_text(chrome))["traceEvents"].size() > 5);
}
