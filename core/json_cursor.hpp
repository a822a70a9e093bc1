#pragma once
/// A position in a parsed JSON document: the value there and where it was
/// written, so that a reader reports each error at its exact location
/// ("model.json at /actors/2/params/modes/FREE/der: ..."). The loader walks
/// model files with it; actors read their structured parameters
/// (ParamKind::kStructure) with it.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace ctde {

/// JSON as ctde reads it: objects keep the order their keys were written in.
using Json = nlohmann::ordered_json;

/// Copyable, cheap to copy (it refers to the document, which must outlive it).
class JsonCursor {
 public:
  /// The value `value`, written at `location`: a location of its own
  /// ("model.json at /parameters/k", "parameter 'modes'"), or a file's root
  /// as "model.json at " (then the root reads "model.json at /").
  JsonCursor(const Json& value, std::string location) : value_(&value), base_(std::move(location)) {}

  [[nodiscard]] const Json& value() const { return *value_; }
  /// Where the value was written, for messages and for what the reader builds from it.
  [[nodiscard]] std::string location() const;

  /// The member `key` of an object (precondition: has(key)).
  [[nodiscard]] JsonCursor operator[](std::string_view key) const;
  /// The item `i` of an array (precondition: i < size()).
  [[nodiscard]] JsonCursor operator[](std::size_t i) const;
  /// True when the value is an object with member `key`.
  [[nodiscard]] bool has(std::string_view key) const { return value_->is_object() && value_->contains(key); }
  /// Items of an array, members of an object.
  [[nodiscard]] std::size_t size() const { return value_->size(); }

  /// Calls `f(key, member)` for each member of an object, in the written order.
  template <class F>
  void for_each_member(F&& f) const {
    for (const auto& [key, member] : value_->items()) f(key, child(member, key));
  }

  /// This cursor, with messages starting "`prefix`: " (the actor a
  /// parameter belongs to: "actor 'ball' (ModalModel)"); children keep it.
  [[nodiscard]] JsonCursor prefixed(std::string prefix) const {
    JsonCursor out = *this;
    out.prefix_ = std::move(prefix);
    return out;
  }

  /// Stops reading: a ModelError "`message`" located here.
  [[noreturn]] void fail(const std::string& message) const;

  /// The value must be an object (`what` names it in the message, or "" for "must be an object").
  void expect_object(const std::string& what = "") const;
  /// The value must be an array.
  void expect_array(const std::string& what = "") const;
  /// Every member's key must be in `known`; the first one that is not fails
  /// at its own location (`what`: " in <what>" is added to the message).
  void check_keys(const std::vector<std::string>& known, const std::string& what = "") const;
  /// The value as a string (it must be one; `what` names it).
  [[nodiscard]] std::string string(const std::string& what = "") const;

  /// The value as JSON text, shortened for a message.
  [[nodiscard]] std::string show() const;
  /// "object", "array", "string", "number"...
  [[nodiscard]] std::string type_name() const { return value_->type_name(); }

 private:
  JsonCursor(const Json& value, std::string base, std::string pointer, std::string prefix)
      : value_(&value), base_(std::move(base)), pointer_(std::move(pointer)), prefix_(std::move(prefix)) {}
  [[nodiscard]] JsonCursor child(const Json& value, std::string_view key) const;

  const Json* value_;
  std::string base_;     ///< the location of the cursor's first value
  std::string pointer_;  ///< the JSON pointer from there to this value
  std::string prefix_;   ///< starts every message, or empty
};

}  // namespace ctde
