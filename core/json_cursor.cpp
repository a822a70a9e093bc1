#include "core/json_cursor.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

std::string JsonCursor::location() const {
  // A file's root ("model.json at ") reads "model.json at /".
  if (pointer_.empty() && !base_.empty() && base_.back() == ' ') return base_ + "/";
  return base_ + pointer_;
}

JsonCursor JsonCursor::child(const Json& value, std::string_view key) const {
  std::string pointer = pointer_;
  pointer += '/';
  pointer += json_pointer_token(key);
  return {value, base_, std::move(pointer), prefix_};
}

JsonCursor JsonCursor::operator[](std::string_view key) const { return child(value_->at(key), key); }

JsonCursor JsonCursor::operator[](std::size_t i) const { return child(value_->at(i), std::to_string(i)); }

void JsonCursor::fail(const std::string& message) const {
  throw ModelError(prefix_.empty() ? message : prefix_ + ": " + message).located(location());
}

void JsonCursor::expect_object(const std::string& what) const {
  if (value_->is_object()) return;
  fail((what.empty() ? "" : what + " ") + "must be an object, got " + type_name() + " " + show());
}

void JsonCursor::expect_array(const std::string& what) const {
  if (value_->is_array()) return;
  fail((what.empty() ? "" : what + " ") + "must be an array, got " + type_name() + " " + show());
}

void JsonCursor::check_keys(const std::vector<std::string>& known, const std::string& what) const {
  for (const auto& [key, member] : value_->items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    child(member, key)
        .fail("unknown key '" + key + "'" + (what.empty() ? "" : " in " + what) +
              " (known here: " + join(known) + ")");
  }
}

std::string JsonCursor::string(const std::string& what) const {
  if (!value_->is_string())
    fail((what.empty() ? "" : what + " ") + "must be a string, got " + type_name() + " " + show());
  return value_->get<std::string>();
}

std::string JsonCursor::show() const {
  return shorten_for_message(value_->dump(-1, ' ', false, Json::error_handler_t::replace));
}

}  // namespace ctde
