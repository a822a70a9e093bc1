#pragma once
/// A run started from Python and driven in pieces (docs/python.md,
/// "Snapshots"): `model.start()` or `ctde.resume(snapshot)` make one,
/// `advance_to(t)` runs it to t and pauses after the events there,
/// `snapshot()` saves it where it paused, `run()` finishes it. The pieces
/// run with the GIL released, as a whole run does.

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "core/columnar_results.hpp"
#include "core/trace.hpp"
#include "domains/ctde/director.hpp"
#include "python/src/simulation.hpp"
#include "run/run_setup.hpp"

namespace ctde::python {

/// Not copyable, not movable (the director refers to its parts).
class StartedRun {
 public:
  /// Loads `source` and prepares its run; with `snapshot` (the bytes of a
  /// snapshot file), the run continues from it: the snapshot's `set`
  /// values come first, then `source`'s overrides (a change of parameters,
  /// allowed only then).
  /// @throws ModelError for a bad model, SnapshotError for a snapshot that
  ///         does not read or fit.
  StartedRun(ModelSource source, bool trace, const std::optional<pybind11::bytes>& snapshot);
  ~StartedRun();
  StartedRun(const StartedRun&) = delete;
  StartedRun& operator=(const StartedRun&) = delete;
  StartedRun(StartedRun&&) = delete;
  StartedRun& operator=(StartedRun&&) = delete;

  /// Director::advance_to, without the GIL.
  bool advance_to(double time);
  /// The time where the run stands (s).
  [[nodiscard]] double time() const { return time_; }
  /// The bytes of a snapshot file of the paused run.
  /// @throws SnapshotError when an actor cannot save its state (a Python actor).
  pybind11::bytes snapshot();
  /// Runs on to the end, without the GIL (except for `progress`): the
  /// results since the start, or since the snapshot it resumed from.
  /// @throws std::logic_error when called twice.
  RunOutput finish(pybind11::object progress, double interval);
  /// The source, with the overrides this run used (for the snapshot's Python side).
  [[nodiscard]] const ModelSource& source() const { return source_; }

 private:
  ModelSource source_;
  std::optional<Model> model_;
  RunSetup setup_;
  std::unique_ptr<ColumnarResults> columns_;
  std::ostringstream trace_text_;
  std::optional<TraceWriter> trace_;
  std::optional<RunMonitor> monitor_;
  std::unique_ptr<Director> director_;
  double time_ = 0;
  bool finished_ = false;
};

/// Binds StartedRun as `_ctde.StartedRun`.
void bind_started_run(pybind11::module_& module);

}  // namespace ctde::python
