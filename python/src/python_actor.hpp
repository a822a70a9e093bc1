#pragma once
/// An actor written in Python: a subclass of ctde.Actor with declared
/// discrete ports and a fire(ctx) method (python/ctde/_actor.py). Its C++
/// side is PythonActor, which the run adds to the model loaded from the
/// rest of the JSON; it fires only at events (never on the right-hand-side
/// path) and takes the GIL for each call into Python, so a model holding
/// one runs single-threaded with respect to Python.

#include <pybind11/pybind11.h>

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/actor.hpp"
#include "core/actor_context.hpp"

namespace ctde::python {

/// A declared port of a Python actor: its name and width.
using PortDeclaration = std::pair<std::string, int>;

/// What a Python actor sees while it fires (`ctx` in `fire(self, ctx)`):
/// valid only during that call; afterwards every use raises RuntimeError.
/// Not copyable, not movable (Python holds a pointer to it).
class FiringContext {
 public:
  FiringContext() = default;
  FiringContext(const FiringContext&) = delete;
  FiringContext& operator=(const FiringContext&) = delete;
  FiringContext(FiringContext&&) = delete;
  FiringContext& operator=(FiringContext&&) = delete;
  ~FiringContext() = default;

  /// Points the context at one call (null: no call under way).
  void attach(FireContext* context, bool initializing) {
    context_ = context;
    initializing_ = initializing;
  }
  void set_ports(const std::vector<PortDeclaration>& inputs, const std::vector<PortDeclaration>& outputs);

  [[nodiscard]] double time() const;
  [[nodiscard]] std::uint32_t microstep() const;
  [[nodiscard]] bool time_event() const;
  /// True when input `name` holds a token at this tag.
  [[nodiscard]] bool has(const std::string& name) const;
  /// The token on input `name`: a float (width 1), a list of floats, or
  /// None when absent. @throws KeyError for an unknown input.
  [[nodiscard]] pybind11::object input(const std::string& name) const;
  /// Sends a token (a number, or a sequence of the port's width) on output `name`.
  void send(const std::string& name, const pybind11::handle& value);
  /// Asks to fire again at `time` (s; at `time` == now: at the next microstep).
  void fire_at(double time);
  /// Ends the run after this microstep (status "stopped").
  void stop();

 private:
  [[nodiscard]] FireContext& context() const;
  FireContext* context_ = nullptr;
  bool initializing_ = false;
  std::unordered_map<std::string, std::size_t> inputs_;
  std::unordered_map<std::string, std::pair<std::size_t, int>> outputs_;
  std::vector<double> token_;  ///< reused by send()
};

/// The C++ actor behind a Python one. Holds a reference to the Python
/// instance (released with the GIL taken). Not copyable, not movable.
class PythonActor final : public Actor {
 public:
  /// `type` names the Python class (for messages); the ports are discrete.
  PythonActor(std::string name, const std::string& type, pybind11::object instance,
              const std::vector<PortDeclaration>& inputs, const std::vector<PortDeclaration>& outputs);
  ~PythonActor() override;
  PythonActor(const PythonActor&) = delete;
  PythonActor& operator=(const PythonActor&) = delete;
  PythonActor(PythonActor&&) = delete;
  PythonActor& operator=(PythonActor&&) = delete;

  void initialize(FireContext& context) const override;
  void fire(FireContext& context) const override;
  /// A state that refuses to be saved: the actor's state lives in its
  /// Python object, which a snapshot does not hold (docs/python.md).
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;

 private:
  /// Calls `method(ctx)` on the instance with the GIL taken; a Python
  /// exception becomes a RunError carrying its text (the run's error).
  void call(const char* method, FireContext& context, bool initializing) const;
  pybind11::object instance_;
  pybind11::object context_object_;   ///< the Python view of *context_
  FiringContext* context_ = nullptr;  ///< owned by context_object_
};

/// Binds FiringContext as `_ctde.FiringContext`.
void bind_firing_context(pybind11::module_& module);

}  // namespace ctde::python
