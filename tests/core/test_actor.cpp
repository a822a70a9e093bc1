// The actor's parameter storage: every kind of parameter declared, set,
// resolved and read back through the accessors actors use; slots and names
// small and shared.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <vector>

#include "core/actor.hpp"
#include "core/error.hpp"
#include "core/param.hpp"

using namespace ctde;

namespace {

/// An actor that declares one parameter of every kind and shows their values.
class EveryKind : public Actor {
 public:
  explicit EveryKind(std::string name) : Actor(std::move(name), "EveryKind", TimeMode::kContinuous) {
    k = declare_parameter("k", ParamKind::kScalar, 0.5);
    v = declare_parameter("v", ParamKind::kVector);
    m = declare_parameter("m", ParamKind::kMatrix);
    s = declare_parameter("s", ParamKind::kString, "rising");
    f = declare_parameter("f", ParamKind::kFile);
    chart = declare_parameter("chart", ParamKind::kStructure);
    limit = declare_optional_parameter("limit", ParamKind::kScalar);
  }
  ParamHandle k, v, m, s, f, chart, limit;

  [[nodiscard]] double scalar_of(ParamHandle p) const { return scalar(p); }
  [[nodiscard]] std::vector<double> vector_of(ParamHandle p) const {
    const auto values = vector(p);
    return {values.begin(), values.end()};
  }
  [[nodiscard]] Matrix matrix_of(ParamHandle p) const { return matrix(p); }
  [[nodiscard]] const std::string& text_of(ParamHandle p) const { return text(p); }
  [[nodiscard]] const nlohmann::ordered_json& structure_of(ParamHandle p) const { return structure(p); }
  [[nodiscard]] bool set(ParamHandle p) const { return is_set(p); }
};

/// Every required parameter of `a` set; k an expression over the scope's `gain`.
ParameterScope resolved_scope(EveryKind& a) {
  ParameterScope scope;
  scope.set("gain", 4.0);
  scope.resolve();
  a.set_parameter("k", "gain * 0.5");
  a.set_parameter("v", std::vector<double>{1, 2, 3});
  a.set_parameter("m", Matrix{2, 2, {1, 2, 3, 4}});
  a.set_parameter("f", "data/table.csv");
  a.set_parameter("chart", ParamValue(nlohmann::ordered_json::parse(R"({"modes": ["on", "off"]})")));
  a.resolve_parameters(scope);
  return scope;
}

}  // namespace

TEST_CASE("every kind of parameter reads back as set") {
  EveryKind a("a");
  (void)resolved_scope(a);
  CHECK(a.scalar_of(a.k) == 2.0);
  CHECK(a.vector_of(a.v) == std::vector<double>{1, 2, 3});
  const Matrix m = a.matrix_of(a.m);
  CHECK(m.rows == 2);
  CHECK(m.cols == 2);
  CHECK(m(1, 0) == 3);
  CHECK(a.text_of(a.s) == "rising");  // the default
  CHECK(a.text_of(a.f) == "data/table.csv");
  CHECK(a.structure_of(a.chart)["modes"][1] == "off");
  CHECK_FALSE(a.set(a.limit));
  CHECK(a.parameters()[a.limit.index].resolved.is_unset());
  CHECK(a.parameters()[a.k.index].value.text() == "gain * 0.5");  // as written, kept
}

TEST_CASE("a scalar's slot holds its value without a block of its own") {
  EveryKind a("a");
  (void)resolved_scope(a);
  const ParamSlot& k = a.parameters()[a.k.index];
  const auto in_slot = [&k](const void* p) {
    const auto* begin = reinterpret_cast<const char*>(&k);
    const auto* at = static_cast<const char*>(p);
    return at >= begin && at < begin + sizeof(ParamSlot);
  };
  CHECK(in_slot(k.resolved.values().data()));  // 2.0
  CHECK(k.value.boxed() == nullptr);           // "gain * 0.5"
  CHECK(in_slot(k.value.text().data()));
  // The name is one pointer, the written and the resolved values 16 bytes
  // each: a scalar's slot is those, its location and two words (224 bytes
  // and a block before).
  CHECK(sizeof(ParamSlot) <=
        3 * sizeof(void*) + sizeof(WrittenParam) + sizeof(ResolvedParam) + sizeof(std::string));
}

TEST_CASE("actors that declare the same parameter share its name") {
  const EveryKind a("a");
  const EveryKind b("b");
  CHECK(&a.parameters()[a.k.index].name.str() == &b.parameters()[b.k.index].name.str());
  CHECK(a.parameters()[a.chart.index].name == "chart");
}

TEST_CASE("a copied slot is independent of its original") {
  EveryKind a("a");
  (void)resolved_scope(a);
  const std::vector<ParamSlot> copies = a.parameters();
  const ParamSlot& v = copies[a.v.index];
  CHECK(v.name == "v");
  CHECK(v.kind == ParamKind::kVector);
  CHECK(std::ranges::equal(v.resolved.values(), std::vector<double>{1, 2, 3}));
  CHECK(v.resolved.values().data() != a.parameters()[a.v.index].resolved.values().data());

  ParameterScope scope;
  scope.set("gain", 10.0);
  scope.resolve();
  a.set_parameter("v", std::vector<double>{7, 8});
  a.resolve_parameters(scope);
  CHECK(a.scalar_of(a.k) == 5.0);
  CHECK(a.vector_of(a.v) == std::vector<double>{7, 8});
  CHECK(copies[a.k.index].resolved.scalar() == 2.0);
  CHECK(std::ranges::equal(copies[a.v.index].resolved.values(), std::vector<double>{1, 2, 3}));
  CHECK(copies[a.chart.index].resolved.json() == a.parameters()[a.chart.index].resolved.json());
}

TEST_CASE("a parameter of the wrong shape or missing is named in the error") {
  EveryKind a("a");
  ParameterScope scope;
  scope.resolve();
  CHECK_THROWS_WITH_AS(a.resolve_parameters(scope),
                       "actor 'a' (EveryKind): required parameter 'v' is not set", ModelError);
  a.set_parameter("v", std::vector<double>{1});
  a.set_parameter("m", 1.0);
  a.set_parameter("f", 2.0);
  CHECK_THROWS_WITH_AS(a.resolve_parameters(scope),
                       "actor 'a' (EveryKind), parameter 'f' must be a file name, got the value 2",
                       ModelError);
  CHECK_THROWS_WITH_AS(
      a.set_parameter("kk", 1.0),
      "actor 'a' (EveryKind) has no parameter 'kk' (its parameters: k, v, m, s, f, chart, limit)",
      ModelError);
}
