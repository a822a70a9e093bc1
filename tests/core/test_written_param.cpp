// A parameter's value as written: a number or a short text in the object's
// 16 bytes, anything else behind one pointer; copies independent.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "core/written_param.hpp"

using ctde::ParamValue;
using ctde::WrittenParam;

namespace {
/// True when `p` points into `w` itself.
bool inside(const WrittenParam& w, const void* p) {
  const auto* begin = reinterpret_cast<const char*>(&w);
  const auto* at = static_cast<const char*>(p);
  return at >= begin && at < begin + sizeof(WrittenParam);
}
}  // namespace

TEST_CASE("a written parameter is none until given a value") {
  CHECK(sizeof(WrittenParam) == 16);
  const WrittenParam none;
  CHECK_FALSE(none.has_value());
  CHECK_FALSE(static_cast<bool>(none));
  CHECK(none.boxed() == nullptr);
  CHECK_FALSE(WrittenParam(std::nullopt).has_value());
}

TEST_CASE("a written number is held in the object") {
  WrittenParam w(ParamValue(-2.5e-300));
  CHECK(w.has_value());
  CHECK(w.kind() == ParamValue::Kind::kNumber);
  CHECK(w.number() == -2.5e-300);
  CHECK(w.boxed() == nullptr);
  CHECK(w.get().number() == -2.5e-300);
  CHECK(w.text().empty());
}

TEST_CASE("a written text of up to 15 characters is held in the object") {
  for (const std::string& text : {std::string(), std::string("k0 * 0.5"), std::string(15, 'x')}) {
    const WrittenParam w(ParamValue{text});
    CHECK(w.kind() == ParamValue::Kind::kText);
    CHECK(w.text() == text);
    CHECK(w.boxed() == nullptr);
    if (!text.empty()) CHECK(inside(w, w.text().data()));
    CHECK(w.get().text() == text);
    CHECK(w.number() == 0.0);
  }
}

TEST_CASE("a longer text, a list and a JSON value are held behind one pointer") {
  const std::string text(16, 'y');
  const WrittenParam long_text(ParamValue{text});
  REQUIRE(long_text.boxed() != nullptr);
  CHECK(long_text.kind() == ParamValue::Kind::kText);
  CHECK(long_text.text() == text);
  CHECK(long_text.get().text() == text);

  const WrittenParam list(ParamValue(std::vector<double>{1, 2}));
  REQUIRE(list.boxed() != nullptr);
  CHECK(list.kind() == ParamValue::Kind::kList);
  CHECK(list.get().to_string() == "[1, 2]");
  CHECK(list.text().empty());

  const ParamValue json(nlohmann::ordered_json::parse(R"({"a": [1]})"));
  const WrittenParam structure(json);
  CHECK(structure.kind() == ParamValue::Kind::kJson);
  CHECK(structure.get().json() == json.json());  // the JSON value shared, not copied
}

TEST_CASE("a copied written parameter is independent of its original") {
  WrittenParam original(ParamValue(std::vector<ParamValue>{1.0, "a + 1"}));
  const WrittenParam copy =
      original;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
  CHECK(copy.boxed() != original.boxed());
  original = ParamValue(3.0);  // the block given back
  CHECK(original.boxed() == nullptr);
  CHECK(original.number() == 3.0);
  CHECK(copy.get().to_string() == "[1, \"a + 1\"]");

  WrittenParam assigned(ParamValue("short"));
  assigned = copy;
  CHECK(assigned.get().to_string() == "[1, \"a + 1\"]");
  const WrittenParam& alias = assigned;
  assigned = alias;  // assigned to itself: unchanged
  CHECK(assigned.kind() == ParamValue::Kind::kList);

  const WrittenParam inline_text(ParamValue("k0 * 0.5"));
  const WrittenParam inline_copy = inline_text;  // NOLINT(performance-unnecessary-copy-initialization)
  CHECK(inline_copy.text() == "k0 * 0.5");
  CHECK(inside(inline_copy, inline_copy.text().data()));
}

TEST_CASE("a moved written parameter hands over its block and is left none") {
  WrittenParam from(ParamValue(std::string(40, 'z')));
  const ParamValue* block = from.boxed();
  WrittenParam to = std::move(from);
  CHECK(to.boxed() == block);
  CHECK_FALSE(from.has_value());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  WrittenParam again(ParamValue(1.0));
  again = std::move(to);
  CHECK(again.boxed() == block);
  CHECK(again.text() == std::string(40, 'z'));
  CHECK_FALSE(to.has_value());  // NOLINT(bugprone-use-after-move)
}
