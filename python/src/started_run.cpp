#include "python/src/started_run.hpp"

#include <pybind11/stl.h>

#include <span>
#include <stdexcept>

#include "core/state_stream.hpp"
#include "run/snapshot_file.hpp"

namespace py = pybind11;

namespace ctde::python {

StartedRun::StartedRun(ModelSource source, bool trace, const std::optional<py::bytes>& snapshot)
    : source_(std::move(source)) {
  std::optional<SnapshotFile> resumed;
  bool parameters_may_differ = false;
  if (snapshot) {
    const std::string_view bytes = *snapshot;
    resumed =
        decode_snapshot({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}, "the snapshot");
    parameters_may_differ = !source_.overrides.empty();
    ParameterOverrides overrides = resumed->sets;
    overrides.insert(overrides.end(), source_.overrides.begin(), source_.overrides.end());
    source_.overrides = std::move(overrides);
  }
  model_.emplace(load(source_));
  try {
    setup_ = set_up_run(*model_, source_.stop_time);
    columns_ = std::make_unique<ColumnarResults>(setup_.signals, 4096);
    if (trace) trace_.emplace(trace_text_);
    director_ = std::make_unique<Director>(setup_.flat, setup_.options, model_->name(),
                                           trace_ ? &*trace_ : nullptr, columns_.get());
    director_->set_stop_check([this] { return monitor_ && monitor_->stop_check(); });
    director_->set_progress([this](double t, const RunStatistics& s) {
      if (monitor_) monitor_->progress(t, s);
    });
    time_ = setup_.options.start_time;
    if (resumed) {
      time_ = resumed->snapshot.time;
      director_->resume_from(std::move(resumed->snapshot), parameters_may_differ);
    }
  } catch (...) {
    director_.reset();
    release(model_);
    throw;
  }
}

StartedRun::~StartedRun() {
  director_.reset();
  release(model_);
}

bool StartedRun::advance_to(double time) {
  if (finished_) throw std::logic_error("advance_to(): the run is over (run() finished it)");
  bool paused = false;
  monitor_.emplace(py::none(), 0.1);  // Ctrl-C ends it (the run then ends "interrupted")
  {
    const py::gil_scoped_release nogil;
    paused = director_->advance_to(time);
  }
  if (paused) time_ = time;
  return paused;
}

py::bytes StartedRun::snapshot() {
  SnapshotFile file{
      director_->snapshot(), model_->name(), source_.overrides, setup_.options.stop_time, {}, {}};
  const std::vector<std::byte> bytes = encode_snapshot(file);
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

RunOutput StartedRun::finish(py::object progress, double interval) {
  if (finished_) throw std::logic_error("run(): the run is over (run() finished it already)");
  finished_ = true;
  monitor_.emplace(std::move(progress), interval);
  RunResult result;
  {
    const py::gil_scoped_release nogil;
    result = director_->run();
    if (trace_) trace_->flush();
  }
  if (result.status == RunStatus::kInterrupted && result.message.empty()) result.message = monitor_->reason();
  time_ = result.time;
  return {std::move(result), trace_text_.str(), std::move(columns_)};
}

void bind_started_run(py::module_& module) {
  // ctde.SnapshotError (a ValueError): a snapshot that does not read or fit, or cannot be taken.
  py::register_exception<SnapshotError>(module, "SnapshotError", PyExc_ValueError);
  py::class_<StartedRun>(module, "StartedRun")
      .def(py::init<ModelSource, bool, std::optional<py::bytes>>(), py::arg("source"),
           py::arg("trace") = false, py::arg("snapshot") = py::none())
      .def("advance_to", &StartedRun::advance_to, py::arg("time"))
      .def_property_readonly("time", &StartedRun::time)
      .def("snapshot", &StartedRun::snapshot)
      .def("finish", &StartedRun::finish, py::arg("progress") = py::none(),
           py::arg("progress_interval") = 0.1)
      .def_property_readonly("overrides", [](const StartedRun& r) { return r.source().overrides; });
}

}  // namespace ctde::python
