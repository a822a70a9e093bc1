// TraceFilter and a filtered TraceWriter (core/trace.hpp): the kinds a
// `--trace-events` list keeps, those always kept, an actor's own lines.
#include <doctest/doctest.h>

#include <array>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/trace.hpp"

namespace {

using ctde::Tag;
using ctde::TraceField;
using ctde::TraceFilter;
using ctde::TraceKind;
using ctde::TraceWriter;

/// The kinds of the lines a writer with `filter` writes for one line of
/// each kind the director and the actors write.
std::string written_kinds(const TraceFilter& filter) {
  std::ostringstream out;
  {
    TraceWriter trace(out);
    trace.set_filter(filter);
    trace.run_start({"m", "erk45", 1e-6, 1e-9, 1, 1e-12});
    const Tag tag{1000, 0};
    const std::array<double, 1> value{1.0};
    const std::array<TraceField, 1> fields{TraceField{"message", "hello"}};
    trace.time_event(tag, "clock");
    trace.event(tag, "clock", "out", value);
    trace.step({0, 1, 0, 6, 0, 0, 0, 0});
    trace.step_reject(0, 1, "ground");
    trace.state_event(tag, {"ground", "", 0, "falling", 0, 0, 1, 1});
    trace.reset(tag, "ball", value, value);
    trace.mode(tag, "room", "OFF", "", "ON");
    trace.solver(tag, 0, "bdf", "dense", "small");
    trace.snapshot(tag, false);
    trace.actor_line(tag, "fmu_log", "fmu", fields);
    trace.actor_line(tag, "my_kind", "plugin", fields);
    trace.error(tag, "error", "failed", "");
    trace.run_end("error", {});
  }
  std::string kinds;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    const auto start = line.find("\"kind\":\"") + 8;
    kinds += line.substr(start, line.find('"', start) - start) + " ";
  }
  return kinds;
}

}  // namespace

TEST_CASE(
    "an unfiltered trace keeps every line but step, an actor's own kinds included, and names no filter") {
  CHECK(TraceFilter().keeps_all());
  CHECK(!TraceFilter().keeps(TraceKind::kStep));  // one line per solver step: only when named
  CHECK(written_kinds(TraceFilter()) ==
        "run_start time_event event step_reject state_event reset mode solver snapshot fmu_log my_kind error "
        "run_end ");
}

TEST_CASE("a filtered trace keeps the kinds named and run_start, snapshot, error and run_end") {
  const TraceFilter filter = TraceFilter::parse("reset,fmu_log");
  CHECK(!filter.keeps_all());
  CHECK(filter.keeps(TraceKind::kReset));
  CHECK(!filter.keeps(TraceKind::kStateEvent));
  CHECK(filter.keeps("fmu_log"));
  CHECK(!filter.keeps("my_kind"));  // an actor's own kind: only in an unfiltered trace
  CHECK(filter.kinds() ==
        std::vector<std::string_view>{"run_start", "reset", "snapshot", "fmu_log", "error", "run_end"});
  CHECK(written_kinds(filter) == "run_start reset snapshot fmu_log error run_end ");
  CHECK(written_kinds(TraceFilter::parse("run_end")) == "run_start snapshot error run_end ");
  CHECK(written_kinds(TraceFilter::parse("step")) == "run_start step snapshot error run_end ");
}

TEST_CASE("a filtered trace's run_start names the kinds it keeps") {
  std::ostringstream out;
  {
    TraceWriter trace(out);
    trace.set_filter(TraceFilter::parse("state_event"));
    trace.run_start({"m", "erk45", 1e-6, 1e-9, 1, 1e-12});
  }
  CHECK(out.str().find(R"(,"trace_events":["run_start","state_event","snapshot","error","run_end"]})") !=
        std::string::npos);
}

TEST_CASE("an unknown or empty kind is refused, naming the option and listing the known kinds") {
  CHECK_THROWS_WITH_AS(
      (void)TraceFilter::parse("state_events", "--trace-events"),
      "--trace-events state_events: unknown kind of trace line 'state_events' (known: run_start, "
      "time_event, event, step, step_reject, state_event, reset, mode, solver, snapshot, fmu_log, "
      "error, run_end; docs/trace-format.md)",
      ctde::ModelError);
  CHECK_THROWS_AS((void)TraceFilter::parse(""), ctde::ModelError);
  CHECK_THROWS_AS((void)TraceFilter::parse("reset,,mode"), ctde::ModelError);
}

TEST_CASE("the director's kinds are the documented ones but fmu_log") {
  CHECK(ctde::is_director_trace_kind("state_event"));
  CHECK(ctde::is_director_trace_kind("run_end"));
  CHECK(!ctde::is_director_trace_kind("fmu_log"));
  CHECK(!ctde::is_director_trace_kind("my_kind"));
}
