#pragma once
// One run of a model into memory: its result, results text and trace text
// (the run that run_model parses and the snapshot checks compare).

#include <functional>
#include <sstream>
#include <string>

#include "core/csv_results.hpp"
#include "core/model_file.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"
#include "domains/ctde/run_options.hpp"

namespace ctde::test {

/// What one run wrote.
struct Written {
  RunResult result;
  std::string csv;
  std::string trace;
};

/// A run of the model `load()` makes; `configure` sets the director up
/// before it runs (a snapshot to take, one to resume from).
inline Written run_written(const std::function<Model()>& load,
                           const std::function<void(Director&)>& configure) {
  Model model = load();
  const FlatModel flat = validate(model);
  const RunOptions options = make_run_options(model.director(), model.parameters());
  std::ostringstream trace_text;
  std::ostringstream csv;
  Written written;
  {
    TraceWriter trace(trace_text);
    CsvResults results(csv, resolve_record(flat, model.record()));
    Director director(flat, options, model.name(), &trace, &results);
    configure(director);
    written.result = director.run();
  }
  written.csv = csv.str();
  written.trace = trace_text.str();
  return written;
}

}  // namespace ctde::test
