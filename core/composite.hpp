#pragma once
/// Composite actors: a named network of actors with exported ports.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "actor.hpp"
#include "name_index.hpp"
#include "source_location.hpp"

namespace ctde {

/// A connection as written: from an output endpoint to an input endpoint,
/// each `actor.port` relative to the composite that holds the connection
/// (`plant.int.out` reaches inside a child composite). `location` is where it
/// was written (a JSON location), or empty. Copyable value type.
struct Connection {
  std::string from;
  std::string to;
  SourceLocation location;
};

/// An exported port of a composite: its name and the inner endpoints it stands
/// for (one for an output, one or more for an input). Copyable value type.
struct ExportedPort {
  std::string name;
  std::vector<std::string> inner;
  SourceLocation location;
};

/// A network of child actors. The director works on the flattened network; the
/// hierarchy only names things. Not copyable, not movable.
class Composite : public Actor {
 public:
  explicit Composite(std::string name);

  /// Constructs a child `T(name, args...)` and adds it. Returns it.
  /// @throws ModelError when the name is taken or not a valid name.
  template <class T, class... Args>
  T& add(std::string name, Args&&... args) {
    auto child = std::make_unique<T>(std::move(name), std::forward<Args>(args)...);
    T& ref = *child;
    add(std::move(child));
    return ref;
  }
  /// Adds a child. @throws ModelError when the name is taken or invalid.
  Actor& add(std::unique_ptr<Actor> child, const SourceLocation& location = {});

  /// Makes room for `children` children and `connections` connections in
  /// all (a loader that knows them: no growth while a large model is read).
  void reserve(std::size_t children, std::size_t connections);

  /// Connects output endpoint `from` to input endpoint `to` (checked at validation).
  void connect(std::string from, std::string to, SourceLocation location = {});
  /// Makes inner input endpoint(s) reachable as this composite's input `name`.
  void export_input(std::string name, std::vector<std::string> inner, SourceLocation location = {});
  /// Makes an inner output endpoint reachable as this composite's output `name`.
  void export_output(std::string name, std::string inner, SourceLocation location = {});

  [[nodiscard]] const std::vector<std::unique_ptr<Actor>>& children() const { return children_; }
  [[nodiscard]] const std::vector<Connection>& connections() const { return connections_; }
  [[nodiscard]] const std::vector<ExportedPort>& exported_inputs() const { return exported_inputs_; }
  [[nodiscard]] const std::vector<ExportedPort>& exported_outputs() const { return exported_outputs_; }
  /// The child called `name`, or nullptr.
  [[nodiscard]] Actor* find_child(std::string_view name) const;
  /// The position in children() of the child called `name`, if any.
  [[nodiscard]] std::optional<std::size_t> find_child_index(std::string_view name) const;
  /// Hints for a find_child_index(name) to come in a large composite (whose
  /// lookups miss the cache), steps a few lookups apart, each using what the
  /// one before brought in: prefetch_slot asks for the index's slot and
  /// returns the name's hash; likely_child_index, once that slot is in the
  /// cache, gives the position find_child_index will most likely compare
  /// first, whose pointer and child the caller asks for in turn. They change
  /// nothing. (The caller prefetches itself: GCC takes a function that only
  /// prefetches for one without effects and drops its calls.)
  [[nodiscard]] std::uint32_t prefetch_slot(std::string_view name) const { return index_.prefetch(name); }
  [[nodiscard]] std::optional<std::uint32_t> likely_child_index(std::uint32_t hash) const {
    return index_.likely(hash);
  }

  [[nodiscard]] bool is_composite() const override { return true; }

 private:
  std::vector<std::unique_ptr<Actor>> children_;
  std::vector<Connection> connections_;
  std::vector<ExportedPort> exported_inputs_;
  std::vector<ExportedPort> exported_outputs_;
  NameIndex index_;  ///< the children by name
};

/// True if `name` can name an actor or port: non-empty, no dots, no spaces.
[[nodiscard]] bool is_valid_name(std::string_view name);

}  // namespace ctde
