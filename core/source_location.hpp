#pragma once
/// Where an actor, a parameter or a connection was written
/// ("model.json at /actors/12/params/k"), held in 16 bytes and formatted
/// only when a message or a reader asks for the text. A model file of a
/// million actors has three locations an actor; as text they were three
/// heap strings (about 240 bytes an actor with their blocks).
///
/// A location's text is `head` + the decimal `index` + `tail`, where
/// (head, tail) is one *pattern* of a table shared by the locations of one
/// document: the loader adds a pattern per array it reads
/// ("model.json at /actors/", and "/params/k" for each parameter name), and
/// each location is a pattern and an index. A location given as text (the
/// C++ authoring API, "--set k=3") is a table of its own with that text
/// alone.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace ctde {

/// A location in a model's source, or none. Copyable value type (a copy
/// shares the table: one atomic count; the table lives while a location
/// refers to it).
class SourceLocation {
 public:
  /// No location (a model built in C++ without one).
  SourceLocation() = default;
  /// The location `text` ("--set k=3", "the sweep's seed"); "" is none.
  /// Implicit: every API that took a location as text takes one still.
  SourceLocation(std::string_view text);   // NOLINT(google-explicit-constructor)
  SourceLocation(const std::string& text)  // NOLINT(google-explicit-constructor)
      : SourceLocation(std::string_view(text)) {}
  SourceLocation(const char* text)  // NOLINT(google-explicit-constructor)
      : SourceLocation(std::string_view(text)) {}

  SourceLocation(const SourceLocation& other) noexcept;
  SourceLocation(SourceLocation&& other) noexcept;
  SourceLocation& operator=(const SourceLocation& other) noexcept;
  SourceLocation& operator=(SourceLocation&& other) noexcept;
  ~SourceLocation();

  /// True when there is no location (then text() is "").
  [[nodiscard]] bool empty() const { return table_ == nullptr; }
  /// The location as text, exactly as written before locations were compact
  /// ("model.json at /actors/12"), or "".
  [[nodiscard]] std::string text() const;
  /// Appends text() to `out`.
  void append_to(std::string& out) const;
  /// text(), for code that asks for a string: `std::string(location)`.
  explicit operator std::string() const { return text(); }

  /// True when text() is `text` (a hidden friend: strings and views compare as ever).
  friend bool operator==(const SourceLocation& location, std::string_view text) {
    return std::string_view(location.text()) == text;
  }

 private:
  friend class LocationTable;
  struct Table;
  static constexpr std::uint32_t kNoIndex = UINT32_MAX;

  SourceLocation(Table* table, std::uint32_t pattern, std::uint32_t index);

  Table* table_ = nullptr;  ///< shared, counted; null: no location
  std::uint32_t pattern_ = 0;
  std::uint32_t index_ = kNoIndex;  ///< kNoIndex: the pattern's head and tail alone
};

/// text(), for test output and logs.
std::ostream& operator<<(std::ostream& out, const SourceLocation& location);

/// The table of one document's locations: its patterns are added once, and
/// each location is a pattern and an index. Adding a pattern is not
/// thread-safe: add them all before the locations made from the table are
/// used by another thread (the loader adds them while it reads, on one
/// thread, before the model it builds is returned). Not copyable, not
/// movable; the table itself lives as long as its locations.
class LocationTable {
 public:
  /// A pattern's number in its table.
  using Pattern = std::uint32_t;

  LocationTable();
  ~LocationTable();
  LocationTable(const LocationTable&) = delete;
  LocationTable& operator=(const LocationTable&) = delete;
  LocationTable(LocationTable&&) = delete;
  LocationTable& operator=(LocationTable&&) = delete;

  /// Adds the pattern `head` + index + `tail` ("model.json at /actors/", "/params/k").
  Pattern add(std::string head, std::string tail = "");
  /// The head of `pattern`.
  [[nodiscard]] const std::string& head(Pattern pattern) const;
  /// The location `head` + `index` + `tail` of `pattern` (no allocation).
  [[nodiscard]] SourceLocation at(Pattern pattern, std::size_t index) const;

 private:
  SourceLocation::Table* table_;
};

}  // namespace ctde
