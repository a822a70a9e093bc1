#pragma once
/// The actor registry: type names of model files mapped to factories.

#include <memory>
#include <string>
#include <vector>

#include "actor.hpp"

namespace ctde {

/// Makes an actor of one type with the given name.
using ActorFactory = std::unique_ptr<Actor> (*)(std::string name);

/// Type name → factory, with a one-line summary per type (for docs and
/// `ctde validate`). Copyable value type.
class ActorRegistry {
 public:
  struct Entry {
    std::string type;
    std::string family;   ///< "sources", "math", ... (the folder under actors/)
    std::string summary;  ///< one line for the reference
    ActorFactory factory = nullptr;
  };

  /// Registers `type`. @throws std::logic_error when the type is already registered.
  void add(std::string type, std::string family, std::string summary, ActorFactory factory);

  /// Makes an actor. @throws ModelError "unknown actor type 'X'" with the
  /// closest known name when there is one.
  [[nodiscard]] std::unique_ptr<Actor> make(const std::string& type, std::string name) const;

  [[nodiscard]] bool has(const std::string& type) const;
  /// Every entry, sorted by type name.
  [[nodiscard]] const std::vector<Entry>& entries() const { return entries_; }

 private:
  [[nodiscard]] const Entry* find(const std::string& type) const;
  std::vector<Entry> entries_;  // sorted by type
};

/// Registers `T` (constructible from a name) under `type`.
template <class T>
void register_actor(ActorRegistry& registry, std::string type, std::string family, std::string summary) {
  registry.add(
      std::move(type), std::move(family), std::move(summary),
      [](std::string name) -> std::unique_ptr<Actor> { return std::make_unique<T>(std::move(name)); });
}

}  // namespace ctde
