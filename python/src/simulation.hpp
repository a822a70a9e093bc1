#pragma once
/// The runs behind ctde.load(...).run() and ctde.Model(...).run(): a model
/// (a file, or JSON text, plus Python actors) loaded through the command's
/// path (load_model_file/load_model_text with the `set` overrides, then
/// set_up_run, run/run_setup.hpp), run by a Director into ColumnarResults with the GIL
/// released, the columns then handed to numpy without a copy.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/columnar_results.hpp"
#include "core/model_file.hpp"
#include "core/registry.hpp"
#include "domains/ctde/run_result.hpp"
#include "python/src/python_actor.hpp"

namespace ctde::python {

/// A Python actor to add to the loaded model. Holds Python references:
/// made, copied and destroyed with the GIL held.
struct PythonActorSpec {
  std::string name;
  std::string type;  ///< the Python class name, for messages
  pybind11::object instance;
  std::vector<PortDeclaration> inputs;
  std::vector<PortDeclaration> outputs;
};

/// Where a model comes from, and what is added to it. Copyable (with the GIL).
struct ModelSource {
  bool is_file = true;
  std::string path_or_text;             ///< the model file's path, or the JSON text
  std::string file;                     ///< the name messages give the text (is_file: unused)
  std::string folder = ".";             ///< anchors relative file parameters of a text
  std::vector<std::string> model_path;  ///< folders searched for included model files (`model_path=`)
  ParameterOverrides overrides;
  std::vector<PythonActorSpec> actors;  ///< written in the JSON as {"name": ..., "type": "Python"}
  std::optional<double> stop_time;
};

/// The actor types of Python's models: the built-in ones and "Python" (an
/// actor written in Python, made from the model being loaded).
[[nodiscard]] const ActorRegistry& actor_types();

/// Says yes at most once per `interval` seconds of wall time: the pace of
/// the progress calls and of the signal checks. The first yes comes at once
/// (`at_once`) or after the first interval.
class WallPace {
 public:
  WallPace(double interval, bool at_once)
      : interval_(interval), last_(at_once ? Clock::time_point{} : Clock::now()) {}
  /// True when `interval` has passed since the last true (or the start).
  bool due() {
    const auto now = Clock::now();
    if (std::chrono::duration<double>(now - last_).count() < interval_) return false;
    last_ = now;
    return true;
  }

 private:
  using Clock = std::chrono::steady_clock;
  double interval_;
  Clock::time_point last_;
};

/// Ctrl-C during a run with the GIL released: Python's own handler only
/// notes the signal, so this asks Python for it (PyErr_CheckSignals, with
/// the GIL) at most every 0.1 s of wall time, looking at the clock every 64
/// calls (the clock costs more than a step of a small model). Once Python
/// raised KeyboardInterrupt, it is taken (so Python does not raise it
/// again) and every later call says stop. Call without the GIL.
class SignalCheck {
 public:
  /// True once Python saw a signal.
  bool operator()();
  /// "interrupted: KeyboardInterrupt..." once it did, else "".
  [[nodiscard]] const std::string& reason() const { return reason_; }

 private:
  std::uint32_t calls_ = 0;
  WallPace pace_{0.1, /*at_once=*/false};
  std::string reason_;
};

/// The model of `source`: its Python actors are written in its JSON with
/// type "Python" and made from `source.actors` by name. Called with the
/// GIL held (the actors take Python references).
[[nodiscard]] Model load(const ModelSource& source);

/// Destroys a model with the GIL held (its Python actors release references).
void release(std::optional<Model>& model);

/// The run's stop check and progress calls, with the GIL taken only for
/// the progress callback and, every 0.1 s of wall time, for Ctrl-C.
/// Not copyable (made with the GIL: it holds the callback).
class RunMonitor {
 public:
  RunMonitor(pybind11::object progress, double interval)
      : progress_(std::move(progress)), pace_(interval, true) {}

  void progress(double time, const RunStatistics& stats);
  /// True once the run must end: the callback asked, or Ctrl-C (SignalCheck).
  bool stop_check();
  [[nodiscard]] const std::string& reason() const { return stop_; }

 private:
  pybind11::object progress_;
  WallPace pace_;
  SignalCheck signals_;
  std::string stop_;
};

/// A run's counters as a dict: steps, rejected_steps, rhs_evals, events,
/// time_events, state_events, loop_solves, loop_iterations.
[[nodiscard]] pybind11::dict stats_dict(const RunStatistics& stats);

/// Options of one run, from Python.
struct RunRequest {
  bool trace = false;
  pybind11::object progress;       ///< a callable (time, stats) or None
  double progress_interval = 0.1;  ///< s of wall time between two progress calls
};

/// What a run gives Python: how it ended, the trace text, and the columns,
/// whose memory numpy arrays share (each array's base is the capsule that
/// owns them). Not copyable; movable.
class RunOutput {
 public:
  RunOutput(RunResult result, std::string trace, std::unique_ptr<ColumnarResults> columns);

  [[nodiscard]] const RunResult& result() const { return result_; }
  [[nodiscard]] const std::string& trace() const { return trace_; }
  [[nodiscard]] std::size_t rows() const { return columns_->rows(); }
  [[nodiscard]] const std::vector<std::string>& names() const { return columns_->names(); }
  /// The names of the discrete columns (NaN where absent).
  [[nodiscard]] std::vector<std::string> discrete_names() const;
  /// Read-only numpy views of the columns (no copy).
  [[nodiscard]] pybind11::array time() const;
  [[nodiscard]] pybind11::array microstep() const;
  /// Column `index`. @throws IndexError.
  [[nodiscard]] pybind11::array column(std::size_t index) const;
  [[nodiscard]] pybind11::dict stats() const;
  /// Everything at once, for Results (one call from Python instead of a
  /// dozen): (time, microstep, names, columns, discrete_names, status,
  /// message, actor, end_time, stats, trace_text).
  [[nodiscard]] pybind11::tuple unpack() const;

 private:
  RunResult result_;
  std::string trace_;
  ColumnarResults* columns_;  ///< owned by owner_
  pybind11::capsule owner_;
};

/// Loads `source` (unless `model` is already its fresh load), validates:
/// what the run would check. Returns {"name", "columns", "python_actors",
/// "single_threaded"}. The model is consumed.
/// @throws ModelError (to ctde.ModelError) naming file, location, actor.
[[nodiscard]] pybind11::dict validate_source(const ModelSource& source, std::optional<Model> model = {});

/// Loads `source` (unless `model` is already its fresh load) and runs it.
/// Model errors throw (before anything runs); run-time failures are the
/// output's status. The model is consumed.
[[nodiscard]] RunOutput run_source(const ModelSource& source, const RunRequest& request,
                                   std::optional<Model> model = {});

/// Loads `source`, runs it to `at` (when given) and linearizes it there
/// (Director::linearize): {"time", "states", "inputs", "outputs", "A", "B",
/// "C", "D" (numpy arrays), "eigenvalues" (complex)}. The GIL is released
/// while it runs.
/// @throws ModelError for a wrong model or port name; RuntimeError when the
///         run fails before `at` or a value is not finite.
/// Empty `inputs` or `outputs`: the model's declared ones (linearize_model).
[[nodiscard]] pybind11::dict linearize_source(const ModelSource& source, std::optional<double> at,
                                              const std::optional<std::vector<std::string>>& inputs,
                                              const std::optional<std::vector<std::string>>& outputs);

/// What ctde.load() made: the source, and its first load kept for the first
/// validate() or run() (a file is read once when loaded and run once);
/// later calls load it again (a model is consumed by a run). Not copyable,
/// not movable (Python owns it).
class LoadedSource {
 public:
  /// @throws ModelError when the source does not load.
  explicit LoadedSource(ModelSource source);
  ~LoadedSource();
  LoadedSource(const LoadedSource&) = delete;
  LoadedSource& operator=(const LoadedSource&) = delete;
  LoadedSource(LoadedSource&&) = delete;
  LoadedSource& operator=(LoadedSource&&) = delete;

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const ModelSource& source() const { return source_; }
  /// The kept load, if still there (else empty: load again), for a call
  /// with `stop_time`.
  [[nodiscard]] std::optional<Model> take(std::optional<double> stop_time);

 private:
  ModelSource source_;
  std::optional<Model> fresh_;
  std::string name_;
};

/// Binds ModelSource, RunOutput, validate and run into `module`.
void bind_simulation(pybind11::module_& module);

}  // namespace ctde::python
