#pragma once
// Running small models in tests and reading their traces.

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "domains/ctde/director.hpp"
#include "support/model_helpers.hpp"

namespace ctde::test {

struct Run {
  RunResult result;
  std::string trace;                     ///< the trace text
  std::vector<nlohmann::json> lines;     ///< the trace, parsed
};

/// Loads, validates and runs JSON model text, tracing into memory.
inline Run run_model(const std::string& text) {
  Model model = load(text);
  const FlatModel flat = validate(model);
  const RunOptions options = make_run_options(model.director(), model.parameters());
  std::ostringstream out;
  Run run;
  {
    TraceWriter trace(out);
    Director director(flat, options, model.name(), &trace);
    run.result = director.run();
  }
  run.trace = out.str();
  std::istringstream in(run.trace);
  for (std::string line; std::getline(in, line);) run.lines.push_back(nlohmann::json::parse(line));
  return run;
}

/// The `event` lines of `actor.port`, as (t, value[0]) pairs.
inline std::vector<std::pair<double, double>> events_of(const Run& run, const std::string& actor,
                                                        const std::string& port = "out") {
  std::vector<std::pair<double, double>> out;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == actor && line["port"] == port) {
      out.emplace_back(line["t"].get<double>(), line["value"][0].get<double>());
    }
  }
  return out;
}

}  // namespace ctde::test
