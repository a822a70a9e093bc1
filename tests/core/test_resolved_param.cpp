// An evaluated parameter: one number inline, everything else behind one
// pointer; copies independent of their original.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "core/param.hpp"
#include "core/resolved_param.hpp"

using ctde::ParamKind;
using ctde::ResolvedParam;
using Json = nlohmann::ordered_json;

namespace {
bool same_numbers(const ResolvedParam& p, const std::vector<double>& expected) {
  return std::ranges::equal(p.values(), expected);
}
}  // namespace

TEST_CASE("a resolved number is held in the object itself") {
  CHECK(sizeof(ResolvedParam) <= 16);
  const ResolvedParam k = ResolvedParam::number(ParamKind::kScalar, 2.5);
  CHECK(k.kind() == ParamKind::kScalar);
  CHECK_FALSE(k.is_unset());
  CHECK(k.scalar() == 2.5);
  CHECK(same_numbers(k, {2.5}));
  // The numbers are viewed where the object is: no block of their own.
  const auto* begin = reinterpret_cast<const char*>(&k);
  const auto* number = reinterpret_cast<const char*>(k.values().data());
  CHECK((number >= begin && number < begin + sizeof(k)));
  CHECK(k.rows() == 1);
  CHECK(k.cols() == 1);
  CHECK(k.text().empty());
  CHECK(k.json() == nullptr);
}

TEST_CASE("one number of shape 1x1 is held inline as a vector or a matrix too") {
  for (const ParamKind kind : {ParamKind::kVector, ParamKind::kMatrix}) {
    const ResolvedParam one = ResolvedParam::numbers(kind, {-4.0}, 1, 1);
    CHECK(one.kind() == kind);
    CHECK(one.scalar() == -4.0);
    const auto* begin = reinterpret_cast<const char*>(&one);
    const auto* number = reinterpret_cast<const char*>(one.values().data());
    CHECK((number >= begin && number < begin + sizeof(one)));
  }
}

TEST_CASE("a resolved vector keeps its numbers and the shape it is given") {
  const ResolvedParam v = ResolvedParam::numbers(ParamKind::kVector, {1, 2, 3}, 1, 3);
  CHECK(v.kind() == ParamKind::kVector);
  CHECK(same_numbers(v, {1, 2, 3}));
  CHECK(v.scalar() == 1);
  CHECK(v.rows() == 1);
  CHECK(v.cols() == 3);
  CHECK(v.text().empty());
}

TEST_CASE("a resolved matrix is row-major with its shape") {
  const ResolvedParam m = ResolvedParam::numbers(ParamKind::kMatrix, {1, 2, 3, 4, 5, 6}, 2, 3);
  CHECK(m.rows() == 2);
  CHECK(m.cols() == 3);
  CHECK(same_numbers(m, {1, 2, 3, 4, 5, 6}));
}

TEST_CASE("a resolved string and a file name are texts without numbers") {
  for (const ParamKind kind : {ParamKind::kString, ParamKind::kFile}) {
    const ResolvedParam s = ResolvedParam::text_value(kind, "a text longer than the short-string buffer");
    CHECK(s.kind() == kind);
    CHECK(s.text() == "a text longer than the short-string buffer");
    CHECK(s.values().empty());
    CHECK(s.json() == nullptr);
    CHECK_FALSE(s.is_unset());
  }
}

TEST_CASE("a resolved structure shares its JSON value and holds its text") {
  const auto json = std::make_shared<const Json>(Json::parse(R"({"b": [1, 2], "a": "x"})"));
  const ResolvedParam s = ResolvedParam::structure(json);
  CHECK(s.kind() == ParamKind::kStructure);
  CHECK(s.json() == json);  // the same value, not a copy
  CHECK(s.text() == R"({"b":[1,2],"a":"x"})");
  CHECK(s.values().empty());
}

TEST_CASE("an unset parameter has its kind and nothing else") {
  const ResolvedParam unset(ParamKind::kMatrix);
  CHECK(unset.is_unset());
  CHECK(unset.kind() == ParamKind::kMatrix);
  CHECK(unset.values().empty());
  CHECK(unset.rows() == 0);
  CHECK(unset.cols() == 0);
  CHECK(unset.text().empty());
  CHECK(unset.json() == nullptr);
  CHECK(ResolvedParam().is_unset());
  CHECK(ResolvedParam().kind() == ParamKind::kScalar);
}

TEST_CASE("a copy of a resolved parameter is independent of its original") {
  ResolvedParam original = ResolvedParam::numbers(ParamKind::kMatrix, {1, 2, 3, 4}, 2, 2);
  const ResolvedParam copy =
      original;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
  CHECK(copy.values().data() != original.values().data());
  original = ResolvedParam::text_value(ParamKind::kString, "replaced");
  CHECK(copy.kind() == ParamKind::kMatrix);
  CHECK(same_numbers(copy, {1, 2, 3, 4}));
  CHECK(copy.rows() == 2);

  ResolvedParam assigned = ResolvedParam::number(ParamKind::kScalar, 7);
  assigned = copy;
  CHECK(same_numbers(assigned, {1, 2, 3, 4}));
  assigned = ResolvedParam::number(ParamKind::kScalar, 8);  // a block given back for a number
  CHECK(same_numbers(assigned, {8}));
  const ResolvedParam& alias = assigned;
  assigned = alias;  // assigned to itself: unchanged
  CHECK(same_numbers(assigned, {8}));

  const auto json = std::make_shared<const Json>(Json::parse("[1]"));
  const ResolvedParam structure = ResolvedParam::structure(json);
  const ResolvedParam structure_copy = structure;  // NOLINT(performance-unnecessary-copy-initialization)
  CHECK(structure_copy.json() == json);            // shared, never changed
  CHECK(structure_copy.text() == "[1]");
}

TEST_CASE("a moved resolved parameter hands over its block and is left unset") {
  ResolvedParam from = ResolvedParam::numbers(ParamKind::kVector, {1, 2}, 1, 2);
  const double* numbers = from.values().data();
  ResolvedParam to = std::move(from);
  CHECK(to.values().data() == numbers);
  CHECK(from.is_unset());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  ResolvedParam again = ResolvedParam::number(ParamKind::kScalar, 1);
  again = std::move(to);
  CHECK(again.values().data() == numbers);
  CHECK(same_numbers(again, {1, 2}));
  CHECK(to.is_unset());  // NOLINT(bugprone-use-after-move)
}

TEST_CASE("a resolved parameter used whole as another kind takes that kind's shape") {
  const ResolvedParam v = ResolvedParam::numbers(ParamKind::kVector, {1, 2, 3}, 1, 3);
  const ResolvedParam as_matrix = v.as(ParamKind::kMatrix);
  CHECK(as_matrix.kind() == ParamKind::kMatrix);
  CHECK(as_matrix.rows() == 1);
  CHECK(as_matrix.cols() == 3);
  const ResolvedParam m = ResolvedParam::numbers(ParamKind::kMatrix, {1, 2, 3}, 3, 1);
  const ResolvedParam as_vector = m.as(ParamKind::kVector);
  CHECK(as_vector.kind() == ParamKind::kVector);
  CHECK(same_numbers(as_vector, {1, 2, 3}));
  CHECK(as_vector.rows() == 1);  // as a vector made from a number
  CHECK(as_vector.cols() == 1);
}

TEST_CASE("the scope's values are the same whichever way they are held") {
  ctde::ParameterScope scope;
  scope.set("k", 2.0);
  scope.set("v", std::vector<double>{1, 2});
  scope.set("one", std::vector<double>{5});
  scope.resolve();
  CHECK(scope.evaluate("k * 3", ParamKind::kScalar, "x").scalar() == 6.0);
  const ResolvedParam v = scope.evaluate("v", ParamKind::kMatrix, "x");
  CHECK(v.rows() == 1);
  CHECK(v.cols() == 2);
  CHECK(same_numbers(v, {1, 2}));
  const ResolvedParam one = scope.evaluate("one", ParamKind::kVector, "x");
  CHECK(one.kind() == ParamKind::kVector);
  CHECK(same_numbers(one, {5}));
  CHECK(scope.evaluate("rising", ParamKind::kString, "x").text() == "rising");
}
