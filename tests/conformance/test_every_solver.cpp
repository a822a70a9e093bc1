// Conformance across the solver back ends (domains/ct/solver_backend.hpp):
// the bundled continuous and hybrid example models run with every method
// give erk45's sequence of events (each event line's kind, actor and port or
// guard, in order), its event times to 1e-6 s and its values on the
// output_interval grid to 1e-5 of each column's scale. One contract, several
// back ends: a back end that located an event late, missed one or
// interpolated wrongly fails here.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::Run;
using ctde::test::run_model;

namespace {

std::string example(const std::string& name) {
  std::ifstream in(std::string(CTDE_SOURCE_DIR) + "/examples/models/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The model text with `director` options set.
std::string with_director(const std::string& text, const nlohmann::json& options) {
  nlohmann::ordered_json model = nlohmann::ordered_json::parse(text);
  for (const auto& [key, value] : options.items()) model["director"][key] = value;
  return model.dump();
}

struct Event {
  std::string what;  // kind, actor, port or guard
  double t = 0;
};

std::vector<Event> events(const Run& run) {
  std::vector<Event> out;
  for (const auto& line : run.lines) {
    const std::string kind = line["kind"];
    if (kind != "event" && kind != "state_event" && kind != "time_event" && kind != "mode") continue;
    std::string what = kind;
    what += ' ';
    what += line["actor"].get<std::string>();
    if (line.contains("port")) {
      what += '.';
      what += line["port"].get<std::string>();
    }
    if (line.contains("to")) {
      what += " -> ";
      what += line["to"].get<std::string>();
    }
    out.push_back({what, line["t"].get<double>()});
  }
  return out;
}

}  // namespace

TEST_CASE("conformance: every solver gives erk45's events, event times and values on the example models") {
  const std::vector<nlohmann::json> solvers = {
      {{"solver", "erk45"}, {"integrator", "arkode"}},
      {{"solver", "erk23"}},
      {{"solver", "rkf45"}},
      {{"solver", "dirk"}},
      {{"solver", "ark-imex"}},
      {{"solver", "bdf"}},
      {{"solver", "auto"}},
      {{"solver", "bdf"}, {"linear_solver", "gmres"}},
      {{"solver", "bdf"}, {"event_state", "integrated"}},
      {{"solver", "bdf"}, {"subsystems", "joined"}},
  };
  for (const char* name : {"bouncing_ball.json", "hard_stop.json", "sampled_pi.json", "spring_mass.json",
                           "tank_queue.json", "thermostat.json"}) {
    CAPTURE(std::string(name));
    const std::string text = example(name);
    const Run reference = run_model(text);
    REQUIRE(reference.result.status == RunStatus::kOk);
    const std::vector<Event> expected = events(reference);
    // Each column's scale: its range, or its largest magnitude when that is
    // larger (a column that hardly moves).
    std::vector<double> range(reference.columns.size(), 0.0);
    for (std::size_t c = 0; c < range.size(); ++c) {
      double low = INFINITY;
      double high = -INFINITY;
      for (const auto& row : reference.rows) {
        if (std::isnan(row.values[c])) continue;
        low = std::min(low, row.values[c]);
        high = std::max(high, row.values[c]);
      }
      range[c] = std::max({high - low, std::abs(high), std::abs(low), 1e-6});
    }
    for (const nlohmann::json& options : solvers) {
      CAPTURE(options.dump());
      const Run run = run_model(with_director(text, options));
      REQUIRE(run.result.status == RunStatus::kOk);
      const std::vector<Event> got = events(run);
      REQUIRE(got.size() == expected.size());
      for (std::size_t k = 0; k < got.size(); ++k) {
        CHECK(got[k].what == expected[k].what);
        CHECK(std::abs(got[k].t - expected[k].t) <= 1e-6);
      }
      // The output_interval grid: rows at the same (t, n) in both runs.
      std::size_t compared = 0;
      std::size_t j = 0;
      for (const auto& row : run.rows) {
        while (j < reference.rows.size() &&
               (reference.rows[j].t < row.t || (reference.rows[j].t == row.t && reference.rows[j].n < row.n)))
          ++j;
        if (j == reference.rows.size() || reference.rows[j].t != row.t || reference.rows[j].n != row.n)
          continue;
        for (std::size_t c = 0; c < range.size(); ++c) {
          const double a = row.values[c];
          const double b = reference.rows[j].values[c];
          if (std::isnan(a) || std::isnan(b)) {
            CHECK(std::isnan(a) == std::isnan(b));
            continue;
          }
          CHECK(std::abs(a - b) <= 1e-5 * range[c]);
        }
        ++compared;
      }
      CHECK(compared >= 50);
    }
  }
}
