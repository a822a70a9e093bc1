// `ctde validate` checks everything `ctde run` checks before it runs, and
// numbers the time resolution cannot represent are model errors, each
// naming the file and the JSON location.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/cli_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::model_file_error;
using ctde::test::run_cli;

namespace {

/// `ctde validate` on `text` written to a scratch file: exit status and output.
ctde::test::CommandResult validate_text(const std::string& name, const std::string& text,
                                        const std::string& extra = "") {
  const auto path = ctde::test::scratch_file("run_checks", name);
  std::ofstream(path) << text;
  return run_cli("validate " + path.string() + " " + extra);
}

const std::string kClockModel = R"({"ctde": 1, "director": {"stop_time": 1 DIRECTOR},
  "actors": [{"name": "c", "type": "Clock"}, {"name": "x", "type": "Integrator"}ACTORS],
  "connections": [["c.out", "x.in"]LINKS] RECORD})";

/// The clock-and-integrator model with more director options, actors,
/// a record list and connections (", [from, to]...").
std::string model(const std::string& director, const std::string& actors = "", const std::string& record = "",
                  const std::string& links = "") {
  std::string text = kClockModel;
  text.replace(text.find(" DIRECTOR"), 9, director);
  text.replace(text.find("ACTORS"), 6, actors);
  text.replace(text.find("LINKS"), 5, links);
  text.replace(text.find(" RECORD"), 7, record);
  return text;
}

}  // namespace

TEST_CASE("reliability: validate refuses what run would refuse, naming the file and the location") {
  struct Case {
    std::string name;
    std::string text;
    std::string expected;  ///< a piece of the message after "ctde: error: <file> at "
  };
  const Case cases[] = {
      {"atol_list", model(R"(, "atol": [1e-9, 1e-9])"),
       "/director/atol: director option 'atol' lists 2 tolerances"},
      {"rtol_tiny", model(R"(, "rtol": 1e-16)"), "/director/rtol: director option 'rtol' must be from 1e-15"},
      {"rtol_big", model(R"(, "rtol": 2)"), "/director/rtol: director option 'rtol' must be from 1e-15"},
      {"atol_zero", model(R"(, "atol": 0)"),
       "/director/atol: director option 'atol' must be a finite number > 0"},
      {"interval", model(R"(, "output_interval": 1e-13)"),
       "/director/output_interval: director option 'output_interval' (1e-13 s) is shorter than one tick"},
      {"horizon", model(R"(, "time_resolution": 1e-18, "stop_time": 1e6)"), "/director/stop_time"},
      {"record_twice", model("", "", R"(, "record": ["x.out", "x.out"])"),
       "/record: record: 'x.out' is listed twice (entries 0 and 1)"},
      {"record_missing", model("", "", R"(, "record": ["y.out"])"), "/record: record: there is no actor 'y'"},
      {"poisson", model("", R"(, {"name": "p", "type": "PoissonClock", "params": {"mean_interval": 1e-13}})"),
       "/actors/2: actor 'p' (PoissonClock), parameter 'mean_interval': 1e-13 s is only 0.1 ticks"},
      {"sampler",
       model("", R"(, {"name": "s", "type": "PeriodicSampler", "params": {"period": 1.5e-12}})", "",
             R"(, ["c.out", "s.in"])"),
       "/actors/2: actor 's' (PeriodicSampler), parameter 'period': 1.5e-12 s is 1.5 ticks"},
      {"clock", model("", R"(, {"name": "k", "type": "DiscreteClock", "params": {"period": 1e-13}})"),
       "/actors/2: actor 'k' (DiscreteClock), parameter 'period': 1e-13 s is shorter than one tick"},
      {"delay",
       model(
           "",
           R"(, {"name": "k2", "type": "DiscreteClock"}, {"name": "d", "type": "TimeDelay", "params": {"delay": 2.5e-12}})",
           "", R"(, ["k2.out", "d.in"])"),
       "/actors/3: actor 'd' (TimeDelay), parameter 'delay': 2.5e-12 s is 2.5 ticks"},
      {"transport",
       model("", R"(, {"name": "d", "type": "TransportDelay", "params": {"delay": 1e-13}})", "",
             R"(, ["c.out", "d.in"])"),
       "/actors/2: actor 'd' (TransportDelay), parameter 'delay': 1e-13 s is shorter than one tick"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const auto result = validate_text(c.name + ".json", c.text);
    CHECK(result.status == 2);
    CHECK(result.output.find(c.name + ".json at " + c.expected) != std::string::npos);
    CAPTURE(result.output);
  }
}

TEST_CASE("reliability: validate takes --stop-time as run does; below one tick is refused") {
  const auto ok = validate_text("stop_ok.json", model(""), "--stop-time 2");
  CHECK(ok.status == 0);
  CHECK(ok.output.find("stop_time 2 s") != std::string::npos);
  const auto tiny = validate_text("stop_tiny.json", model(""), "--stop-time 1e-13");
  CHECK(tiny.status == 2);
  CHECK(tiny.output.find("--stop-time 1e-13: director option 'stop_time'") != std::string::npos);
  const auto run = run_cli("run " + ctde::test::scratch_file("run_checks", "stop_tiny.json").string() +
                           " --stop-time 1e-13 --quiet");
  CHECK(run.status == 2);
  CHECK(run.output == tiny.output);
}

TEST_CASE("reliability: algebraic and causality loops name the file and the loop's first actor") {
  const std::string error =
      test::run_setup_error(R"({"ctde": 1, "director": {"stop_time": 1, "algebraic_loops": "error"},
    "actors": [{"name": "a", "type": "Gain"}, {"name": "b", "type": "Gain"}, {"name": "c", "type": "Clock"},
               {"name": "s", "type": "Sum"}],
    "connections": [["c.out", "s.in0"], ["b.out", "s.in1"], ["s.out", "a.in"], ["a.out", "b.in"]]})");
  CHECK(error.rfind("test.json at /actors/", 0) == 0);
  CHECK(error.find("algebraic loop") != std::string::npos);
}
