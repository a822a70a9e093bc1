// How a model file's JSON is read: the checked SAX reader and its errors
// (core/model_file_json_impl.hpp).
#include "core/json_text.hpp"
#include "core/model_file_json_impl.hpp"

#include <algorithm>
#include <memory>
#include <string_view>
#include <unordered_set>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/param.hpp"

namespace ctde {

namespace {

/// Reads a JSON document with nlohmann's (iterative) SAX parser, building
/// it and checking its shape before anything walks it recursively: objects
/// and arrays nest at most kMaxDepth deep (nlohmann's dump and our readers
/// recurse), and no object repeats a key (nlohmann would keep the last one
/// silently). Errors name the file and the JSON location; syntax errors and
/// numbers beyond a double's range are nlohmann's exceptions, as from
/// Json::parse. Linear in the document's size (nlohmann's own callback
/// parser looks through the whole enclosing array after every object: 1e6
/// actors took minutes).
class CheckedReader {
 public:
  static constexpr int kMaxDepth = 64;
  static constexpr std::size_t kMembers = 3;  ///< an actor's name, type and params

  /// With `pairs`, the root's connections that are pairs of strings go there.
  static Json parse(const std::string& text, std::string file, PackedPairs* pairs = nullptr) {
    CheckedReader reader(std::move(file), pairs);
    Json::sax_parse(text, &reader);
    return std::move(reader.root_);
  }

  // ---- nlohmann's SAX interface
  bool null() { return value(nullptr); }
  bool boolean(bool v) { return value(v); }
  bool number_integer(Json::number_integer_t v) { return value(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return value(v); }
  bool number_float(Json::number_float_t v, const Json::string_t& /*text*/) { return value(v); }
  bool string(Json::string_t& v) { return value(std::move(v)); }
  bool binary(Json::binary_t& v) { return value(std::move(v)); }
  bool start_object(std::size_t /*size*/) {
    // An element of an array (an actor) gets room for an actor's members: a
    // vector of (const key, value) pairs grows by copying them. A member's
    // object (an actor's "params") grows as it is read: it often holds one
    // member, and the whole document is held at once.
    Json object = Json::object();
    if (frames_.empty() || frames_.back().array) object.get_ref<Json::object_t&>().reserve(kMembers);
    return open(std::move(object));
  }
  bool start_array(std::size_t /*size*/) {
    // Room for a connection's pair.
    Json array = Json::array();
    array.get_ref<Json::array_t&>().reserve(2);
    return open(std::move(array));
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(Json::string_t& k) {
    Frame& frame = frames_.back();
    if (frame.has_key(k)) {
      throw ModelError("the key '" + k + "' appears twice in this object; give each key once")
          .located(file_ + " at " + pointer(&k));
    }
    frame.add_key(k);
    // The member is made now, its value set by the next event.
    frame.node->get_ref<Json::object_t&>().Container::emplace_back(std::move(k), nullptr);
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& e) {
    throw e;
  }

 private:
  CheckedReader(std::string file, PackedPairs* pairs) : file_(std::move(file)), pairs_(pairs) {}

  struct Frame {
    Json* node = nullptr;
    bool array = false;
    std::size_t index = 0;  ///< in an array: the element being read
    /// In an object with many keys, its keys; with few, its members are searched.
    std::unique_ptr<std::unordered_set<std::string>> many_keys;

    [[nodiscard]] const Json::object_t& members() const { return node->get_ref<const Json::object_t&>(); }
    [[nodiscard]] bool has_key(const std::string& k) const {
      if (many_keys) return many_keys->count(k) != 0;
      const auto& m = members();
      return std::any_of(m.begin(), m.end(), [&k](const auto& member) { return member.first == k; });
    }
    void add_key(const std::string& k) {
      if (many_keys) {
        many_keys->insert(k);
      } else if (members().size() + 1 == kFewKeys) {
        many_keys = std::make_unique<std::unordered_set<std::string>>();
        for (const auto& member : members()) many_keys->insert(member.first);
        many_keys->insert(k);
      }
    }
    /// The key being read (the last member's).
    [[nodiscard]] std::string_view key() const {
      const auto& m = members();
      return m.empty() ? std::string_view() : std::string_view(m.back().first);
    }
    static constexpr std::size_t kFewKeys = 16;
  };

  /// Where the next value goes: the root, the array's end, or the object's
  /// member made by the key just read.
  Json* place(Json&& v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& frame = frames_.back();
    if (frame.array) {
      frame.node->get_ref<Json::array_t&>().push_back(std::move(v));
      ++frame.index;
      return &frame.node->get_ref<Json::array_t&>().back();
    }
    Json& member = frame.node->get_ref<Json::object_t&>().back().second;
    member = std::move(v);
    return &member;
  }

  template <class V>
  bool value(V&& v) {
    place(Json(std::forward<V>(v)));
    return true;
  }

  bool open(Json&& empty) {
    if (frames_.size() >= kMaxDepth) {
      throw ModelError("objects and arrays nest more than " + std::to_string(kMaxDepth) +
                       " levels deep; a model never needs that")
          .located(file_ + " at " + pointer());
    }
    const bool array = empty.is_array();
    Json* node = place(std::move(empty));
    if (!frames_.empty() && frames_.back().array) --frames_.back().index;  // counted when it closes
    frames_.push_back(Frame{node, array, 0, nullptr});
    return true;
  }

  bool close() {
    if (pairs_ != nullptr && frames_.size() == 3) pack_connection();
    frames_.pop_back();
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return true;
  }

  /// When the array closing is an element of the root's "connections" and
  /// a pair of strings: its strings go to pairs_, a null takes its place.
  void pack_connection() {
    const Frame& root = frames_[0];
    const Frame& connections = frames_[1];
    const Frame& pair = frames_[2];
    if (root.array || !connections.array || !pair.array || root.key() != "connections") return;
    auto& items = pair.node->get_ref<Json::array_t&>();
    if (items.size() != 2 || !items[0].is_string() || !items[1].is_string()) return;
    pairs_->add(connections.index, items[0].get_ref<const std::string&>(),
                items[1].get_ref<const std::string&>());
    *pair.node = nullptr;
  }

  /// The JSON pointer of the value being read; `key`, when given, is a key
  /// of the innermost object read but not added.
  [[nodiscard]] std::string pointer(const std::string* key = nullptr) const {
    std::string out;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      const bool last = i + 1 == frames_.size();
      out += "/" + (f.array ? std::to_string(f.index)
                            : json_pointer_token(last && key != nullptr ? std::string_view(*key) : f.key()));
    }
    return out.empty() ? "/" : out;
  }

  std::string file_;
  PackedPairs* pairs_;  ///< or null: every value in the document
  Json root_;
  std::vector<Frame> frames_;
};

/// Line and column (from 1) of byte offset `byte` (nlohmann counts from 1 past the error).
std::pair<std::size_t, std::size_t> line_column(const std::string& text, std::size_t byte) {
  std::size_t line = 1;
  std::size_t column = 1;
  const std::size_t end = std::min(byte == 0 ? 0 : byte - 1, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

/// The first number literal in JSON `text` (outside strings) that is beyond
/// a double's range: its offset and length, or npos.
std::pair<std::size_t, std::size_t> out_of_range_number(const std::string& text) {
  constexpr std::string_view kNumberChars = "+-.eE0123456789";
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c != '-' && (c < '0' || c > '9')) continue;
    std::size_t end = i;
    while (end < text.size() && kNumberChars.find(text[end]) != std::string_view::npos) ++end;
    if (beyond_double_range(std::string_view(text).substr(i, end - i))) return {i, end - i};
    i = end - 1;
  }
  return {std::string::npos, 0};
}

}  // namespace

Json parse_checked_json(const std::string& text, std::string file, PackedPairs* pairs) {
  return CheckedReader::parse(text, std::move(file), pairs);
}

Json read_model_json(const std::string& text, const std::string& file, PackedPairs* pairs) {
  try {
    return CheckedReader::parse(text, file, pairs);
  } catch (const Json::parse_error& e) {
    const auto [line, column] = line_column(text, e.byte);
    std::string what = e.what();
    // nlohmann's text is "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
    const auto colon = what.find(": ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw ModelError("JSON syntax error: " + what)
        .located(file + ":" + std::to_string(line) + ":" + std::to_string(column));
  } catch (const Json::exception& e) {  // a number beyond a double's range (found by the fuzzer)
    const auto [at, length] = out_of_range_number(text);
    if (at == std::string::npos) {
      std::string what = e.what();
      const auto bracket = what.find("] ");
      if (bracket != std::string::npos) what = what.substr(bracket + 2);
      throw ModelError("JSON value out of range: " + what).located(file);
    }
    const auto [line, column] = line_column(text, at + 1);  // nlohmann counts bytes from 1
    throw ModelError(text.substr(at, length) + " is beyond a double's range (write \"inf\" for infinity)")
        .located(file + ":" + std::to_string(line) + ":" + std::to_string(column));
  }
}

Json read_json_text(const std::string& text, const std::string& file) {
  return read_model_json(text, file, nullptr);
}

}  // namespace ctde
