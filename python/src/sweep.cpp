#include "python/src/sweep.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "core/recorded_signal.hpp"
#include "python/src/numpy_view.hpp"
#include "python/src/simulation.hpp"
#include "results/write_error.hpp"
#include "run/command_error.hpp"
#include "run/output_file.hpp"
#include "run/run_setup.hpp"
#include "sweep/sweep_run.hpp"
#include "sweep/sweep_spec.hpp"
#include "sweep/warm_start.hpp"

namespace py = pybind11;

namespace ctde::python {

namespace {

/// Calls `write()`, giving Python an OSError for a file that cannot be
/// written (the command's exit-2/3 errors). Called with the GIL held.
template <class Write>
decltype(auto) as_os_error(Write&& write) {
  try {
    return std::forward<Write>(write)();
  } catch (const results::WriteError& e) {
    PyErr_SetString(PyExc_OSError, e.what());
  } catch (const CommandError& e) {
    PyErr_SetString(PyExc_OSError, e.what());
  }
  throw py::error_already_set();
}

/// `output` named "output", after the command's checks against the inputs.
NamedPath checked_output(const std::string& output,
                         const std::vector<std::pair<std::string, std::string>>& inputs) {
  std::vector<NamedPath> named;
  named.reserve(inputs.size());
  for (const auto& [name, path] : inputs) named.push_back({name, path});
  NamedPath path{"output", output};
  check_paths(named, {path});
  return path;
}

void check_index(const sweep::SweepSpec& spec, std::uint64_t k) {
  if (k >= spec.run_count()) {
    throw py::index_error("run " + std::to_string(k) + " of a sweep of " + std::to_string(spec.run_count()) +
                          " runs");
  }
}

/// Everything a ctde.SweepRun holds, in one call: (index, parameters,
/// status, message, stats, end_time, wall_time, time, microstep, column
/// names, columns, discrete column names, warm_start_until or None). The
/// arrays are read-only views of the record's memory, kept alive by `self`.
py::tuple unpack(const py::object& self) {
  const auto& r = self.cast<const results::RunRecord&>();
  const std::size_t rows = r.time.size();
  std::vector<std::string> names;
  std::vector<std::string> discrete;
  py::list columns;
  for (const results::SignalData& s : r.signals) {
    if (s.values.size() != rows * s.width) {
      throw std::runtime_error("the run record's signal '" + s.name + "' does not have one value per row");
    }
    const RecordedSignal signal{s.name, FlatIndex{}, 0, s.width, s.discrete};
    for (std::uint32_t i = 0; i < s.width; ++i) {
      names.push_back(column_name(signal, i));
      if (s.discrete) discrete.push_back(names.back());
      columns.append(view(s.values.data() + std::size_t{i} * rows, rows, self));
    }
  }
  py::dict parameters;
  for (const auto& [name, value] : r.parameters) parameters[py::str(name)] = value;
  return py::make_tuple(r.index, parameters, r.status, r.message, stats_dict(r.stats), r.end_time,
                        r.wall_time, view(r.time.data(), rows, self), view(r.microstep.data(), rows, self),
                        names, columns, discrete, r.warm_start_until);
}

void bind_spec(py::module_& module) {
  py::class_<sweep::SweepSpec>(module, "SweepSpec")
      .def_readonly("grid", &sweep::SweepSpec::grid)
      .def_property_readonly("random",
                             [](const sweep::SweepSpec& s) {
                               py::list laws;
                               for (const auto& p : s.random) {
                                 const char* law =
                                     p.law == sweep::RandomParameter::Law::kUniform ? "uniform" : "normal";
                                 laws.append(py::make_tuple(p.name, law, p.a, p.b));
                               }
                               return laws;
                             })
      .def_readonly("samples", &sweep::SweepSpec::samples)
      .def_readonly("seed", &sweep::SweepSpec::seed)
      .def_readonly("stop_time", &sweep::SweepSpec::stop_time)
      .def_readonly("warm_start_until", &sweep::SweepSpec::warm_start_until)
      .def_readonly("text", &sweep::SweepSpec::text)
      .def_property_readonly("run_count", &sweep::SweepSpec::run_count)
      .def("names", &sweep::SweepSpec::names)
      .def(
          "values",
          [](const sweep::SweepSpec& s, std::uint64_t k) {
            check_index(s, k);
            return s.values(k);
          },
          py::arg("k"))
      .def(
          "actor_seed",
          [](const sweep::SweepSpec& s, std::uint64_t k, std::uint64_t actor) {
            check_index(s, k);
            return sweep::actor_seed(s.seed, k, actor);
          },
          py::arg("k"), py::arg("actor"));
  module.def("parse_sweep", &sweep::parse_sweep, py::arg("text"), py::arg("file"));
}

/// The warm-up of `bytes` (encode_warm_start's, as warm_up gives them). With the GIL held.
std::shared_ptr<const sweep::WarmStart> decoded(const py::bytes& bytes) {
  const std::string_view data = bytes;
  return std::make_shared<const sweep::WarmStart>(sweep::decode_warm_start(data));
}

void bind_model(py::module_& module) {
  py::class_<sweep::SweepModel>(module, "SweepModel")
      .def(
          py::init([](std::string text, std::string path, std::string folder, sweep::SweepSpec spec,
                      const std::optional<py::bytes>& warm_start,
                      std::optional<std::vector<std::string>> record, const std::string& rows) {
            sweep::SweepModel model{std::move(path), std::move(folder),
                                    std::move(text), std::move(spec),
                                    &actor_types(),  warm_start ? decoded(*warm_start) : nullptr};
            model.filter = ResultsFilter{std::move(record), parse_rows(rows)};  // ctde run's --record, --rows
            return model;
          }),
          py::arg("text"), py::arg("path"), py::arg("folder"), py::arg("spec"),
          py::arg("warm_start") = py::none(), py::arg("record") = py::none(), py::arg("rows") = "all")
      .def_readonly("text", &sweep::SweepModel::text)
      .def_readonly("path", &sweep::SweepModel::path)
      .def_readonly("folder", &sweep::SweepModel::folder)
      .def_readonly("spec", &sweep::SweepModel::spec);
  module.def(
      "warm_up",
      [](const sweep::SweepModel& model, const std::string& sweep_file) {
        std::vector<char> bytes;
        {
          const py::gil_scoped_release nogil;
          SignalCheck signals;  // Ctrl-C ends the warm-up at its next step: KeyboardInterrupt
          try {
            bytes = sweep::encode_warm_start(
                *sweep::warm_up(model, sweep_file, [&signals] { return signals(); }));
          } catch (const sweep::WarmUpInterrupted&) {
            const py::gil_scoped_acquire gil;
            PyErr_SetString(PyExc_KeyboardInterrupt, signals.reason().c_str());
            throw py::error_already_set();
          }
        }
        return py::bytes(bytes.data(), bytes.size());
      },
      py::arg("model"), py::arg("sweep_file"));
  module.def("check_sweep_model", &sweep::check_model, py::arg("model"), py::arg("sweep_file"),
             py::call_guard<py::gil_scoped_release>());
  module.def(
      "run_one",
      [](const sweep::SweepModel& model, std::uint64_t k) {
        check_index(model.spec, k);
        const py::gil_scoped_release nogil;
        SignalCheck signals;  // Ctrl-C stops this run at its next step
        results::RunRecord record = sweep::run_one(model, k, [&signals] { return signals(); });
        if (record.status == "interrupted" && record.message.empty()) record.message = signals.reason();
        return record;
      },
      py::arg("model"), py::arg("k"));
  module.def(
      "failed_run",
      [](const sweep::SweepModel& model, std::uint64_t k, std::string message) {
        check_index(model.spec, k);
        results::RunRecord record;
        record.index = k;
        record.parameters = model.spec.values(k);
        record.status = "error";
        record.message = std::move(message);
        return record;
      },
      py::arg("model"), py::arg("k"), py::arg("message"));
}

void bind_record(py::module_& module) {
  py::class_<results::RunRecord>(module, "RunRecord")
      .def_readonly("index", &results::RunRecord::index)
      .def_readonly("status", &results::RunRecord::status)
      .def_readonly("message", &results::RunRecord::message)
      .def_readonly("parameters", &results::RunRecord::parameters)
      .def_property_readonly("rows", [](const results::RunRecord& r) { return r.time.size(); })
      .def("unpack", &unpack)
      .def(py::pickle(
          [](const results::RunRecord& r) {
            const std::vector<char> bytes = results::serialize(r);
            return py::bytes(bytes.data(), bytes.size());
          },
          [](const py::bytes& state) {
            const std::string_view bytes = state;
            return results::deserialize(std::vector<char>(bytes.begin(), bytes.end()));
          }));
}

}  // namespace

SweepFileWriter::SweepFileWriter(const std::string& path,
                                 const std::vector<std::pair<std::string, std::string>>& inputs,
                                 const std::string& model_file, const std::string& model_text,
                                 const std::string& sweep_text)
    : file_(checked_output(path, inputs), OutputFile::Writer::kHelper) {
  hdf5_.emplace(file_.write_path());
  hdf5_->set_text("model", model_text);
  hdf5_->set_text("sweep", sweep_text);
  hdf5_->set_text("model_file", model_file);
}

void SweepFileWriter::add(const results::RunRecord& record) {
  hdf5_->write_run("/runs/" + std::to_string(record.index), record);
  summary_.push_back(results::summary_row(record));
}

void SweepFileWriter::close(const std::vector<std::string>& names) {
  std::sort(summary_.begin(), summary_.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  hdf5_->write_summary(names, summary_);
  hdf5_->close();
  file_.commit();
}

void bind_sweep(py::module_& module) {
  bind_spec(module);
  bind_model(module);
  bind_record(module);
  py::class_<SweepFileWriter>(module, "SweepFileWriter")
      .def(
          py::init([](const std::string& path, const std::vector<std::pair<std::string, std::string>>& inputs,
                      const std::string& model_file, const std::string& model_text,
                      const std::string& sweep_text) {
            return as_os_error([&] {
              return std::make_unique<SweepFileWriter>(path, inputs, model_file, model_text, sweep_text);
            });
          }),
          py::arg("path"), py::arg("inputs"), py::arg("model_file"), py::arg("model_text"),
          py::arg("sweep_text"))
      .def(
          "add",
          [](SweepFileWriter& w, const results::RunRecord& record) {
            as_os_error([&] {
              const py::gil_scoped_release nogil;  // taken again before as_os_error's handler runs
              w.add(record);
            });
          },
          py::arg("record"))
      .def(
          "close",
          [](SweepFileWriter& w, const std::vector<std::string>& names) {
            as_os_error([&] {
              const py::gil_scoped_release nogil;
              w.close(names);
            });
          },
          py::arg("names"));
}

}  // namespace ctde::python
