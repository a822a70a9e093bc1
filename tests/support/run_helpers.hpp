#pragma once
// Running small models in tests and reading their traces.

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/csv_results.hpp"
#include "domains/ctde/director.hpp"
#include "run/run_setup.hpp"
#include "support/cli_helpers.hpp"
#include "support/model_helpers.hpp"
#include "support/snapshot_helpers.hpp"
#include "support/written_run.hpp"

namespace ctde::test {

/// The ModelError message of loading JSON text ("test.json") and setting up
/// a run of it as `ctde run` does (validation, the director options, the
/// director's own checks), or "" when it would run.
inline std::string run_setup_error(const std::string& text) {
  try {
    Model model = load(text);
    const RunSetup setup = set_up_run(model, std::nullopt);
    const Director director(setup.flat, setup.options, "test");
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

/// One results row: time, microstep and the cells (NaN for an empty cell).
struct Row {
  double t = 0;
  int n = 0;
  std::vector<double> values;
};

struct Run {
  RunResult result;
  std::string trace;                  ///< the trace text
  std::vector<nlohmann::json> lines;  ///< the trace, parsed
  std::string csv;                    ///< the results text
  std::vector<std::string> columns;   ///< the results header
  std::vector<Row> rows;              ///< the results, parsed

  /// The column index of `name`. Fails the test when absent.
  [[nodiscard]] std::size_t column(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i] == name) return i;
    }
    throw std::runtime_error("no column " + name);
  }
};

/// Loads, validates and runs JSON model text, tracing and recording into
/// memory; `overrides` replace model parameters as `ctde run --set` does;
/// `stop_check`, if given, is the director's (Director::set_stop_check).
inline Run run_model(const std::string& text, const ParameterOverrides& overrides = {},
                     const Director::StopCheck& stop_check = {}) {
  const auto load = [&] { return load_model_text(text, "test.json", builtin_actors(), overrides); };
  Written written = run_written(load, [&](Director& director) {
    if (stop_check) director.set_stop_check(stop_check);
  });
  if (!stop_check) check_resumes_at_half_if_asked(load, written.result);
  Run run;
  run.result = std::move(written.result);
  run.trace = std::move(written.trace);
  std::istringstream in(run.trace);
  for (std::string line; std::getline(in, line);) run.lines.push_back(nlohmann::json::parse(line));
  run.csv = std::move(written.csv);
  std::istringstream rows(run.csv);
  std::string line;
  std::getline(rows, line);
  {
    std::istringstream header(line);
    std::string cell;
    std::getline(header, cell, ',');
    std::getline(header, cell, ',');
    while (std::getline(header, cell, ',')) run.columns.push_back(cell);
  }
  while (std::getline(rows, line)) {
    Row row;
    const std::vector<std::string> cells = split_csv_line(line);
    row.t = std::stod(cells[0]);
    row.n = std::stoi(cells[1]);
    for (std::size_t i = 2; i < cells.size(); ++i) {
      row.values.push_back(cells[i].empty() ? std::nan("") : std::stod(cells[i]));
    }
    run.rows.push_back(std::move(row));
  }
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
