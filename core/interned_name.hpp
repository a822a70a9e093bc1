#pragma once
/// Names held once: a model of a million actors names a few dozen types and
/// parameters, so each distinct name is kept once, for the process's life,
/// and an actor points to that one copy (as port_list.hpp does for ports).

#include <string>
#include <string_view>

namespace ctde {

/// A name held once for the process: one pointer, read as its text and
/// compared with text. Copyable (copies the pointer); thread-safe to make.
class InternedName {
 public:
  /// The one copy of `text` (made on first use).
  explicit InternedName(std::string_view text);

  [[nodiscard]] const std::string& str() const { return *text_; }

  friend bool operator==(InternedName a, InternedName b) { return a.text_ == b.text_; }
  friend bool operator==(InternedName a, std::string_view b) { return *a.text_ == b; }

 private:
  const std::string* text_;  ///< never null; lives as long as the process
};

}  // namespace ctde
