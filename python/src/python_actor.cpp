#include "python/src/python_actor.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/state_stream.hpp"

namespace py = pybind11;

namespace ctde::python {

void FiringContext::set_ports(const std::vector<PortDeclaration>& inputs,
                              const std::vector<PortDeclaration>& outputs) {
  for (std::size_t i = 0; i < inputs.size(); ++i) inputs_.emplace(inputs[i].first, i);
  for (std::size_t o = 0; o < outputs.size(); ++o)
    outputs_.emplace(outputs[o].first, std::pair{o, outputs[o].second});
}

FireContext& FiringContext::context() const {
  if (context_ == nullptr) {
    throw std::runtime_error("this firing context is used outside its actor's fire() or initialize() call");
  }
  return *context_;
}

double FiringContext::time() const { return context().time(); }
std::uint32_t FiringContext::microstep() const { return context().tag().microstep; }
bool FiringContext::time_event() const { return context().time_event(); }

bool FiringContext::has(const std::string& name) const {
  const auto in = inputs_.find(name);
  if (in == inputs_.end()) throw py::key_error("no input named '" + name + "'");
  return context().has_token(InputPort(in->second));
}

py::object FiringContext::input(const std::string& name) const {
  const auto in = inputs_.find(name);
  if (in == inputs_.end()) throw py::key_error("no input named '" + name + "'");
  const FireContext& c = context();
  const InputPort port(in->second);
  if (!c.has_token(port)) return py::none();
  const auto token = c.token(port);
  if (token.size() == 1) return py::float_(token[0]);
  py::list values(token.size());
  for (std::size_t i = 0; i < token.size(); ++i) values[i] = py::float_(token[i]);
  return values;
}

void FiringContext::send(const std::string& name, const py::handle& value) {
  const auto out = outputs_.find(name);
  if (out == outputs_.end()) throw py::key_error("no output named '" + name + "'");
  FireContext& c = context();
  if (initializing_) throw std::runtime_error("initialize() may not send tokens: send them from fire()");
  const auto [index, width] = out->second;
  token_.clear();
  try {
    if (py::isinstance<py::sequence>(value) && !py::isinstance<py::str>(value)) {
      for (const auto item : value.cast<py::sequence>()) token_.push_back(item.cast<double>());
    } else {
      token_.push_back(value.cast<double>());
    }
  } catch (const py::cast_error&) {
    throw py::type_error("send(): value must be a number or a sequence of numbers, not " +
                         std::string(py::str(value.get_type().attr("__name__"))));
  }
  if (token_.size() != static_cast<std::size_t>(width)) {
    throw py::value_error("send(): output '" + name + "' has width " + std::to_string(width) + ", got " +
                          std::to_string(token_.size()) + " value(s)");
  }
  c.emit(OutputPort(index), token_);
}

void FiringContext::fire_at(double time) {
  FireContext& c = context();
  if (!std::isfinite(time)) throw py::value_error("fire_at(): time must be finite");
  if (time < c.time()) throw py::value_error("fire_at(): time is before now");
  c.fire_at(c.resolution().to_ticks(time));
}

void FiringContext::stop() { context().request_stop(); }

PythonActor::PythonActor(std::string name, const std::string& type, py::object instance,
                         const std::vector<PortDeclaration>& inputs,
                         const std::vector<PortDeclaration>& outputs)
    : Actor(std::move(name), "Python:" + type, TimeMode::kDiscrete), instance_(std::move(instance)) {
  for (const auto& [port, width] : inputs) declare_input(port, PortKind::kDiscrete, width);
  for (const auto& [port, width] : outputs) declare_output(port, PortKind::kDiscrete, width);
  auto context = std::make_unique<FiringContext>();
  context_ = context.get();
  context_->set_ports(inputs, outputs);
  context_object_ = py::cast(std::move(context));
}

PythonActor::~PythonActor() {
  // The last references may go while the GIL is released (the run's model
  // is destroyed outside the interpreter lock).
  const py::gil_scoped_acquire gil;
  context_object_ = py::object();
  instance_ = py::object();
}

void PythonActor::call(const char* method, FireContext& context, bool initializing) const {
  std::string failure;
  {
    const py::gil_scoped_acquire gil;
    context_->attach(&context, initializing);
    try {
      instance_.attr(method)(context_object_);
    } catch (py::error_already_set& e) {
      failure = std::string("Python ") + method + "() raised " + e.what();
    } catch (const std::exception& e) {
      failure = std::string("Python ") + method + "(): " + e.what();
    }
    context_->attach(nullptr, false);
  }
  if (!failure.empty()) throw RunError(failure);
}

void PythonActor::initialize(FireContext& context) const { call("initialize", context, true); }

void PythonActor::fire(FireContext& context) const { call("fire", context, false); }

void bind_firing_context(py::module_& module) {
  py::class_<FiringContext>(module, "FiringContext",
                            "What a Python actor sees while it fires: the time, its input tokens, and "
                            "the director's services (send, fire_at, stop).")
      .def_property_readonly("time", &FiringContext::time, "The current time, s.")
      .def_property_readonly("microstep", &FiringContext::microstep, "The current microstep.")
      .def_property_readonly("time_event", &FiringContext::time_event,
                             "True when this firing is one the actor asked for with fire_at().")
      .def("has", &FiringContext::has, py::arg("name"), "True when input `name` holds a token now.")
      .def("input", &FiringContext::input, py::arg("name"),
           "The token on input `name` (a float, or a list for a wider port), or None when absent.")
      .def("send", &FiringContext::send, py::arg("name"), py::arg("value"),
           "Sends a token (a number, or a sequence of the port's width) on output `name`.")
      .def("fire_at", &FiringContext::fire_at, py::arg("time"),
           "Asks to fire again at `time` (s); at the current time: at the next microstep.")
      .def("stop", &FiringContext::stop, "Ends the run after this microstep (status 'stopped').");
}

namespace {

/// What a Python actor keeps in the run: nothing but a refusal to be saved.
struct PythonState final : ActorState {
  void save(StateWriter& out) const override {
    (void)out;
    throw SnapshotError(
        "a Python actor keeps its state in its Python object, which a snapshot cannot hold: a model with "
        "Python actors cannot be snapshotted");
  }
};

}  // namespace

std::unique_ptr<ActorState> PythonActor::make_state() const { return std::make_unique<PythonState>(); }

}  // namespace ctde::python
