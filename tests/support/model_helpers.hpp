#pragma once
// Helpers shared by the test suites: building small models and catching errors.

#include <initializer_list>
#include <string>
#include <utility>

#include "actors/builtin_actors.hpp"
#include "core/error.hpp"
#include "core/model_file.hpp"
#include "core/validate.hpp"

namespace ctde::test {

/// The message of the ModelError that validating `model` throws, or "" if it validates.
inline std::string validation_error(Model& model) {
  try {
    (void)validate(model);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

/// Loads JSON text as a model file named "test.json".
inline Model load(const std::string& text) { return load_model_text(text, "test.json", builtin_actors()); }

/// The ModelError message of loading and validating JSON text, or "".
inline std::string model_file_error(const std::string& text) {
  try {
    Model model = load(text);
    (void)validate(model);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

/// Makes an actor of a built-in type, adds it to `model` and returns it.
inline Actor& add(Model& model, const std::string& type, const std::string& name) {
  return model.top().add(builtin_actors().make(type, name));
}

/// Adds actors of built-in types, each given as {type, name}.
inline void add(Model& model, std::initializer_list<std::pair<std::string, std::string>> actors) {
  for (const auto& [type, name] : actors) (void)add(model, type, name);
}

/// Connects each {"actor.output", "actor.input"} pair, in order.
inline void connect(Model& model, std::initializer_list<std::pair<std::string, std::string>> wires) {
  for (const auto& [from, to] : wires) model.connect(from, to);
}

}  // namespace ctde::test
