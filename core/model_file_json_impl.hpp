#pragma once
/// How a model file's JSON is read (internal to the loader, model_file.cpp):
/// checked as it is parsed, the root's connections packed as text.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "json_cursor.hpp"

namespace ctde {

/// The model's own connections (the root's "connections"), each a pair of
/// two strings, kept as text as the reader closes them: in the document a
/// pair is about 190 bytes (the array, its two elements, two heap strings),
/// here its text and two offsets. The document keeps a null in its place.
/// Pairs of any other shape stay in the document, for the loader's message.
class PackedPairs {
 public:
  /// Adds element `index`'s pair.
  void add(std::size_t index, const std::string& from, const std::string& to) {
    if (packed_.size() <= index) packed_.resize(index + 1, false);
    packed_[index] = true;
    text_ += from;
    ends_.push_back(text_.size());
    text_ += to;
    ends_.push_back(text_.size());
  }
  /// True when element `index` was packed.
  [[nodiscard]] bool has(std::size_t index) const { return index < packed_.size() && packed_[index]; }
  /// The next pair, in the order they were added (the loader reads them in order).
  std::pair<std::string, std::string> next() {
    const std::size_t start = next_ == 0 ? 0 : ends_[next_ - 1];
    std::pair<std::string, std::string> out(text_.substr(start, ends_[next_] - start),
                                            text_.substr(ends_[next_], ends_[next_ + 1] - ends_[next_]));
    next_ += 2;
    return out;
  }

 private:
  std::string text_;
  std::vector<std::size_t> ends_;  ///< where each pair's from and to end in text_
  std::vector<bool> packed_;       ///< by element: packed here (else in the document)
  std::size_t next_ = 0;           ///< the next pair's from, in ends_
};

/// Parses JSON `text` (named `file` in messages) with a reader that checks
/// its shape before anything walks it recursively: objects and arrays nest
/// at most 64 deep, and no object repeats a key. With `pairs`, the root's
/// connections that are pairs of strings go there (a null in the document
/// for each).
/// @throws ModelError for a repeated key or too deep a nesting, located at
///         "file at /json/pointer"; nlohmann's exceptions, as Json::parse,
///         for syntax errors and numbers beyond a double's range.
[[nodiscard]] Json parse_checked_json(const std::string& text, std::string file,
                                      PackedPairs* pairs = nullptr);

/// A model file's `text` parsed as parse_checked_json() does, its root's
/// connections packed into `pairs` (when given: the including file's; an
/// included file's stay in the document).
/// @throws ModelError for everything parse_checked_json() throws: a syntax
///         error located at "file:line:column", a number beyond a double's
///         range at the number's line and column.
[[nodiscard]] Json read_model_json(const std::string& text, const std::string& file, PackedPairs* pairs);

}  // namespace ctde
