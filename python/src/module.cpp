// The compiled half of the Python package: `ctde._ctde`. The public API is
// the Python half (python/ctde/), which checks arguments and shapes results;
// this module holds what must be C++: the registry's metadata, model
// loading and validation, runs with the GIL released, the Python actors,
// and the pieces of a sweep (ctde.sweep).

#include <pybind11/pybind11.h>

#include "actors/builtin_actors.hpp"
#include "core/error.hpp"
#include "core/type_description.hpp"
#include "ctde/version.hpp"
#include "python/src/python_actor.hpp"
#include "python/src/simulation.hpp"
#include "python/src/started_run.hpp"
#include "python/src/sweep.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_ctde, module) {
  module.doc() = "ctde's compiled core (use the `ctde` package, not this module)";
  module.attr("__version__") = CTDE_VERSION;

  // ctde.ModelError is a Python class (ctde/_errors.py) with `message` and
  // `location`; every C++ ModelError (OptionError included) becomes one.
  // The handle is kept for the interpreter's life (never released at exit).
  static const py::handle model_error =
      py::object(py::module_::import("ctde._errors").attr("ModelError")).release();
  // NOLINTNEXTLINE(performance-unnecessary-value-param): the translator type takes it by value
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ctde::ModelError& e) {
      const py::object error = model_error(e.what(), e.message(), e.location());
      PyErr_SetObject(model_error.ptr(), error.ptr());
    }
  });

  module.def("types_json", [] { return ctde::describe_types(ctde::builtin_actors()); });
  module.def(
      "describe_json",
      [](const std::string& type) { return ctde::describe_type(ctde::builtin_actors(), type); },
      py::arg("type"));
  ctde::python::bind_firing_context(module);
  ctde::python::bind_simulation(module);
  ctde::python::bind_started_run(module);
  ctde::python::bind_sweep(module);
}
