#pragma once
/// The actor registry: type names of model files mapped to factories.

#include <memory>
#include <string>
#include <vector>

#include "actor.hpp"

namespace ctde {

/// Makes an actor of one type with the given name.
using ActorFactory = std::unique_ptr<Actor> (*)(std::string name);

/// Type name → factory, with each type's identity (ActorInfo: family,
/// summary, sample parameters) for the reference and the tests. Copyable
/// value type.
class ActorRegistry {
 public:
  struct Entry {
    std::string type;
    std::string family;         ///< "sources", "math", ... (the folder under actors/)
    std::string summary;        ///< one line for the reference
    std::string sample_params;  ///< a "params" JSON object that makes a valid actor
    ActorFactory factory = nullptr;
  };

  /// Registers the type `info` describes, made by `factory`.
  /// @throws std::logic_error when the type is already registered.
  void add(const ActorInfo& info, ActorFactory factory);

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

/// Registers `T` (constructible from a name) under the identity it declares,
/// `T::kInfo` (see ActorInfo). @throws std::logic_error as ActorRegistry::add.
template <class T>
void register_actor(ActorRegistry& registry) {
  static_assert(!T::kInfo.type.empty(), "an actor type declares its name in kInfo.type");
  registry.add(T::kInfo, [](std::string name) -> std::unique_ptr<Actor> {
    return std::make_unique<T>(std::move(name));
  });
}

}  // namespace ctde
