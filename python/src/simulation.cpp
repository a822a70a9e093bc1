#include "python/src/simulation.hpp"

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <map>

#include "actors/builtin_actors.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/trace.hpp"
#include "domains/ctde/director.hpp"
#include "python/src/numpy_view.hpp"
#include "run/run_setup.hpp"

namespace py = pybind11;

namespace ctde::python {

namespace {

/// The Python actors of the model being loaded on this thread (load() sets it).
thread_local const ModelSource* loading = nullptr;

constexpr ActorInfo kPythonInfo{
    .type = "Python",
    .family = "python",
    .summary = "An actor written in Python (ctde.Actor), added with ctde.Model.add.",
};

/// The registry's factory for type "Python": the actor of that name among
/// the Python actors being loaded.
// NOLINTNEXTLINE(performance-unnecessary-value-param): the signature of ActorFactory
std::unique_ptr<Actor> make_python_actor(std::string name) {
  if (loading != nullptr) {
    for (const auto& a : loading->actors) {
      if (a.name == name)
        return std::make_unique<PythonActor>(a.name, a.type, a.instance, a.inputs, a.outputs);
    }
  }
  throw ModelError(
      "actor type 'Python' stands for an actor written in Python (a ctde.Actor added with "
      "ctde.Model.add): a model file cannot hold one");
}

}  // namespace

const ActorRegistry& actor_types() {
  static const ActorRegistry with_python = [] {
    ActorRegistry r = builtin_actors();
    r.add(kPythonInfo, &make_python_actor);
    return r;
  }();
  return with_python;
}

bool SignalCheck::operator()() {
  if (!reason_.empty()) return true;
  if ((++calls_ & 63U) != 0 || !pace_.due()) return false;
  const pybind11::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) {
    const pybind11::error_already_set e;  // fetches (and so clears) the KeyboardInterrupt
    reason_ = std::string("interrupted: ") + e.what();
  }
  return !reason_.empty();
}

Model load(const ModelSource& source) {
  loading = &source;
  struct Reset {
    Reset() = default;
    Reset(const Reset&) = delete;
    Reset& operator=(const Reset&) = delete;
    Reset(Reset&&) = delete;
    Reset& operator=(Reset&&) = delete;
    ~Reset() { loading = nullptr; }
  } reset;
  return source.is_file
             ? load_model_file(source.path_or_text, actor_types(), source.overrides, source.model_path)
             : load_model_text(source.path_or_text, source.file, actor_types(), source.overrides,
                               source.folder, source.model_path);
}

void release(std::optional<Model>& model) {
  const py::gil_scoped_acquire gil;
  model.reset();
}

void RunMonitor::progress(double time, const RunStatistics& stats) {
  if (progress_.is_none() || !pace_.due()) return;
  const py::gil_scoped_acquire gil;
  try {
    const py::object answer = progress_(time, stats_dict(stats));
    if (answer.ptr() == Py_False) stop_ = "the progress callback returned False";
  } catch (py::error_already_set& e) {
    stop_ = std::string("the progress callback raised ") + e.what();
  }
}

bool RunMonitor::stop_check() {
  if (!stop_.empty()) return true;
  if (signals_()) stop_ = signals_.reason();
  return !stop_.empty();
}

py::dict stats_dict(const RunStatistics& s) {
  py::dict d;
  for (const RunCounter& counter : kRunCounters) d[counter.name] = s.*counter.member;
  return d;
}

RunOutput::RunOutput(RunResult result, std::string trace, std::unique_ptr<ColumnarResults> columns)
    : result_(std::move(result)),
      trace_(std::move(trace)),
      columns_(columns.release()),
      owner_(columns_, [](void* p) { delete static_cast<ColumnarResults*>(p); }) {}

std::vector<std::string> RunOutput::discrete_names() const {
  std::vector<std::string> names;
  for (const auto& s : columns_->signals()) {
    if (!s.discrete) continue;
    for (std::uint32_t i = 0; i < s.width; ++i) names.push_back(column_name(s, i));
  }
  return names;
}

py::array RunOutput::time() const { return view(columns_->time().data(), columns_->rows(), owner_); }

py::array RunOutput::microstep() const {
  return view(columns_->microstep().data(), columns_->rows(), owner_);
}

py::array RunOutput::column(std::size_t index) const {
  if (index >= columns_->columns()) throw py::index_error("no column " + std::to_string(index));
  const auto& c = columns_->column(index);
  return view(c.data(), c.size(), owner_);
}

py::dict RunOutput::stats() const { return stats_dict(result_.stats); }

py::tuple RunOutput::unpack() const {
  py::list columns(columns_->columns());
  for (std::size_t i = 0; i < columns_->columns(); ++i) columns[i] = column(i);
  return py::make_tuple(time(), microstep(), names(), std::move(columns), discrete_names(),
                        to_string(result_.status), result_.message, result_.actor, result_.time, stats(),
                        trace_);
}

py::dict validate_source(const ModelSource& source, std::optional<Model> model) {
  if (!model) model.emplace(load(source));
  std::vector<std::string> columns;
  std::vector<std::pair<std::string, std::string>> inputs;
  std::vector<std::pair<std::string, std::string>> outputs;
  const std::vector<std::string> tunable = model->interface().tunable;
  const std::map<std::string, std::string> units = model->interface().units;
  std::string name = model->name();
  try {
    const py::gil_scoped_release nogil;
    const RunSetup setup = set_up_run(*model, source.stop_time);
    columns = column_names(setup.signals);
    for (const InterfacePort& p : setup.inputs) inputs.emplace_back(p.name, p.port.name);
    for (const InterfacePort& p : setup.outputs) outputs.emplace_back(p.name, p.port.name);
  } catch (...) {
    model.reset();  // with the GIL, held again here
    throw;
  }
  model.reset();
  py::dict report;
  report["name"] = name;
  report["columns"] = columns;
  // The model's interface (docs/model-format.md): name -> the port that carries it.
  py::dict input_ports;
  for (const auto& [input, port] : inputs) input_ports[py::str(input)] = port;
  py::dict output_ports;
  for (const auto& [output, port] : outputs) output_ports[py::str(output)] = port;
  report["inputs"] = input_ports;
  report["outputs"] = output_ports;
  report["tunable"] = tunable;
  py::dict unit_of;
  for (const auto& [named, unit] : units) unit_of[py::str(named)] = unit;
  report["units"] = unit_of;
  py::list actors;
  for (const auto& a : source.actors) actors.append(a.name);
  report["python_actors"] = actors;
  report["single_threaded"] = !source.actors.empty();
  return report;
}

RunOutput run_source(const ModelSource& source, const RunRequest& request, std::optional<Model> model) {
  if (!model) model.emplace(load(source));
  RunMonitor monitor(request.progress, request.progress_interval);
  std::ostringstream trace_text;
  std::unique_ptr<ColumnarResults> columns;
  RunResult result;
  {
    const py::gil_scoped_release nogil;
    try {
      RunSetup setup = set_up_run(*model, source.stop_time);
      columns = std::make_unique<ColumnarResults>(std::move(setup.signals), 4096);
      std::optional<TraceWriter> trace;
      if (request.trace) trace.emplace(trace_text);
      Director director(setup.flat, setup.options, model->name(), trace ? &*trace : nullptr, columns.get());
      director.set_progress([&monitor](double t, const RunStatistics& s) { monitor.progress(t, s); });
      director.set_stop_check([&monitor] { return monitor.stop_check(); });
      result = director.run();
      if (trace) trace->flush();
    } catch (...) {
      release(model);
      throw;
    }
    release(model);
  }
  if (result.status == RunStatus::kInterrupted && result.message.empty()) result.message = monitor.reason();
  return {std::move(result), trace_text.str(), std::move(columns)};
}

py::dict linearize_source(const ModelSource& source, std::optional<double> at,
                          const std::optional<std::vector<std::string>>& inputs,
                          const std::optional<std::vector<std::string>>& outputs) {
  std::optional<Model> model(load(source));
  Director::Linearization lin;
  {
    const py::gil_scoped_release nogil;
    try {
      lin = linearize_model(*model, at, std::nullopt, false, inputs, outputs);
    } catch (...) {
      release(model);
      throw;
    }
    release(model);
  }
  const auto matrix = [](const std::vector<double>& values, std::size_t rows, std::size_t columns) {
    py::array_t<double> array({rows, columns});
    std::copy(values.begin(), values.end(), array.mutable_data());
    return array;
  };
  const std::size_t n = lin.states.size();
  const std::size_t m = lin.inputs.size();
  const std::size_t p = lin.outputs.size();
  py::dict out;
  out["time"] = lin.time;
  out["states"] = lin.states;
  out["inputs"] = lin.inputs;
  out["outputs"] = lin.outputs;
  out["A"] = matrix(lin.a, n, n);
  out["B"] = matrix(lin.b, n, m);
  out["C"] = matrix(lin.c, p, n);
  out["D"] = matrix(lin.d, p, m);
  py::array_t<std::complex<double>> eigenvalues(static_cast<py::ssize_t>(lin.eigenvalues.size()));
  std::copy(lin.eigenvalues.begin(), lin.eigenvalues.end(), eigenvalues.mutable_data());
  out["eigenvalues"] = eigenvalues;
  return out;
}

LoadedSource::LoadedSource(ModelSource source) : source_(std::move(source)), fresh_(load(source_)) {
  name_ = fresh_->name();
}

LoadedSource::~LoadedSource() {
  const py::gil_scoped_acquire gil;
  fresh_.reset();
}

std::optional<Model> LoadedSource::take(std::optional<double> stop_time) {
  source_.stop_time = stop_time;
  std::optional<Model> model;
  model.swap(fresh_);
  return model;
}

namespace {

/// Binds ModelSource: a model file or text, its overrides and stop time, and its Python actors.
void bind_model_source(py::module_& module) {
  py::class_<ModelSource>(module, "ModelSource")
      .def(py::init<>())
      .def(py::init([](bool is_file, std::string path_or_text, std::string file, std::string folder,
                       ParameterOverrides overrides, std::optional<double> stop_time) {
             ModelSource s;
             s.is_file = is_file;
             s.path_or_text = std::move(path_or_text);
             s.file = std::move(file);
             s.folder = std::move(folder);
             s.overrides = std::move(overrides);
             s.stop_time = stop_time;
             return s;
           }),
           py::arg("is_file"), py::arg("path_or_text"), py::arg("file"), py::arg("folder"),
           py::arg("overrides"), py::arg("stop_time"))
      .def_readwrite("is_file", &ModelSource::is_file)
      .def_readwrite("path_or_text", &ModelSource::path_or_text)
      .def_readwrite("file", &ModelSource::file)
      .def_readwrite("folder", &ModelSource::folder)
      .def_readwrite("model_path", &ModelSource::model_path)
      .def_readwrite("overrides", &ModelSource::overrides)
      .def_readwrite("stop_time", &ModelSource::stop_time)
      .def("add_actor", [](ModelSource& s, std::string name, std::string type, py::object instance,
                           std::vector<PortDeclaration> inputs, std::vector<PortDeclaration> outputs) {
        s.actors.push_back(
            {std::move(name), std::move(type), std::move(instance), std::move(inputs), std::move(outputs)});
      });
}

/// Binds RunOutput: a run's status, trace and results.
void bind_run_output(py::module_& module) {
  py::class_<RunOutput>(module, "RunOutput")
      .def_property_readonly("status", [](const RunOutput& r) { return to_string(r.result().status); })
      .def_property_readonly("message", [](const RunOutput& r) { return r.result().message; })
      .def_property_readonly("actor", [](const RunOutput& r) { return r.result().actor; })
      .def_property_readonly("end_time", [](const RunOutput& r) { return r.result().time; })
      .def_property_readonly("trace_text", &RunOutput::trace)
      .def_property_readonly("rows", &RunOutput::rows)
      .def_property_readonly("names", &RunOutput::names)
      .def_property_readonly("discrete_names", &RunOutput::discrete_names)
      .def_property_readonly("stats", &RunOutput::stats)
      .def("time", &RunOutput::time)
      .def("microstep", &RunOutput::microstep)
      .def("column", &RunOutput::column, py::arg("index"))
      .def("unpack", &RunOutput::unpack);
}

/// Binds the module's functions load, validate, run and _cpp_baseline_run.
void bind_run_functions(py::module_& module) {
  module.def(
      "load", [](const ModelSource& source) { return load(source).name(); }, py::arg("source"));
  module.def(
      "validate", [](const ModelSource& source) { return validate_source(source); }, py::arg("source"));
  module.def(
      "run",
      [](const ModelSource& source, bool trace, py::object progress, double interval) {
        return run_source(source, RunRequest{trace, std::move(progress), interval});
      },
      py::arg("source"), py::arg("trace") = false, py::arg("progress") = py::none(),
      py::arg("progress_interval") = 0.1);
  module.def("linearize", &linearize_source, py::arg("source"), py::arg("at"), py::arg("inputs"),
             py::arg("outputs"));
  // bench/python/bench_python.py's baseline, in the same process: the load
  // and run of run_source() as a C++ caller writes it (python/ nowhere),
  // for a file without Python actors. Returns the rows.
  module.def(
      "_cpp_baseline_run",
      [](const std::string& path, const ParameterOverrides& overrides, std::optional<double> stop_time) {
        Model model = load_model_file(path, builtin_actors(), overrides);
        RunSetup setup = set_up_run(model, stop_time);
        ColumnarResults results(std::move(setup.signals), 4096);
        Director director(setup.flat, setup.options, model.name(), nullptr, &results);
        if (director.run().status != RunStatus::kOk) throw std::runtime_error("the baseline run failed");
        return results.rows();
      },
      py::arg("path"), py::arg("overrides"), py::arg("stop_time"));
}

/// Binds LoadedSource: a source loaded once, validated or run with a stop time.
void bind_loaded_source(py::module_& module) {
  py::class_<LoadedSource>(module, "LoadedSource")
      .def(py::init<ModelSource>(), py::arg("source"))
      .def_property_readonly("name", &LoadedSource::name)
      .def(
          "validate",
          [](LoadedSource& s, std::optional<double> stop_time) {
            auto model = s.take(stop_time);
            return validate_source(s.source(), std::move(model));
          },
          py::arg("stop_time"))
      .def(
          "run",
          [](LoadedSource& s, std::optional<double> stop_time, bool trace, py::object progress,
             double interval) {
            auto model = s.take(stop_time);
            return run_source(s.source(), RunRequest{trace, std::move(progress), interval}, std::move(model));
          },
          py::arg("stop_time"), py::arg("trace"), py::arg("progress"), py::arg("progress_interval"));
}

}  // namespace

void bind_simulation(py::module_& module) {
  bind_model_source(module);
  bind_run_output(module);
  bind_run_functions(module);
  bind_loaded_source(module);
}

}  // namespace ctde::python
