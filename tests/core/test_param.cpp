#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/param.hpp"

using ctde::ParameterScope;
using ctde::ParamKind;
using ctde::ParamValue;

TEST_CASE("model parameters refer to each other in any order") {
  ParameterScope scope;
  scope.set("b", "2 * a + 1");
  scope.set("a", 3.0);
  scope.set("c", "sqrt(b + 7)");
  scope.resolve();
  CHECK(scope.value("b").scalar() == 7.0);
  CHECK(scope.value("c").scalar() == doctest::Approx(std::sqrt(14.0)));
}

TEST_CASE("a cycle among parameters names the cycle") {
  ParameterScope scope;
  scope.set("a", "b + 1");
  scope.set("b", "a * 2");
  CHECK_THROWS_WITH_AS(scope.resolve(), doctest::Contains("a -> b -> a"), ctde::ModelError);
}

TEST_CASE("an undefined name in a parameter expression is named") {
  ParameterScope scope;
  scope.set("h0", "height * 2");
  CHECK_THROWS_WITH_AS(scope.resolve(),
                       doctest::Contains("parameter 'h0': 'height' in expression \"height * 2\" "
                                         "is not a defined parameter"),
                       ctde::ModelError);
}

TEST_CASE("a syntax error in an expression is reported with the expression") {
  ParameterScope scope;
  scope.set("k", "2 * (3 +");
  CHECK_THROWS_WITH_AS(scope.resolve(), doctest::Contains("bad expression \"2 * (3 +\""), ctde::ModelError);
}

TEST_CASE("vectors and matrices evaluate element by element and by name") {
  ParameterScope scope;
  scope.set("w", 2.0);
  scope.set("K",
            std::vector<ParamValue>{std::vector<ParamValue>{1.0, "w"}, std::vector<ParamValue>{"-w", 4.0}});
  scope.resolve();
  const auto m = scope.evaluate("K", ParamKind::kMatrix, "k");
  CHECK(m.rows() == 2);
  CHECK(m.cols() == 2);
  CHECK(std::ranges::equal(m.values(), std::vector<double>{1, 2, -2, 4}));
  const auto v = scope.evaluate(std::vector<ParamValue>{"w", "w*w", 1.5}, ParamKind::kVector, "v");
  CHECK(std::ranges::equal(v.values(), std::vector<double>{2, 4, 1.5}));
  CHECK(scope.evaluate(3.0, ParamKind::kVector, "s").values().size() == 1);
}

TEST_CASE("shape mismatches name the parameter and the shape") {
  ParameterScope scope;
  scope.set("K", std::vector<double>{1, 2});
  scope.resolve();
  CHECK_THROWS_WITH_AS((void)scope.evaluate("K", ParamKind::kScalar, "parameter 'k' of 'g'"),
                       doctest::Contains("parameter 'k' of 'g' must be a number, got a vector"),
                       ctde::ModelError);
  const ParamValue ragged(
      std::vector<ParamValue>{std::vector<ParamValue>{1.0, 2.0}, std::vector<ParamValue>{3.0}});
  CHECK_THROWS_WITH_AS((void)scope.evaluate(ragged, ParamKind::kMatrix, "A"),
                       doctest::Contains("matrix row 1 does not have 2 columns"), ctde::ModelError);
  CHECK_THROWS_WITH_AS((void)scope.evaluate("K + 1", ParamKind::kScalar, "x"),
                       doctest::Contains("'K' in expression \"K + 1\" is a vector"), ctde::ModelError);
}

TEST_CASE("plain numbers and inf in text are numbers") {
  ParameterScope scope;
  scope.resolve();
  CHECK(scope.evaluate_scalar("10", "x") == 10.0);
  CHECK(std::isinf(scope.evaluate_scalar("inf", "x")));
  CHECK(scope.evaluate_scalar(" 2.5e-3 ", "x") == 2.5e-3);
}

TEST_CASE("a parameter name must be an identifier") {
  ParameterScope scope;
  CHECK_THROWS_WITH_AS(scope.set("a-b", 1.0), doctest::Contains("not a valid identifier"), ctde::ModelError);
}

// Found by fuzzing the command path: a name the expression parser refuses
// escaped validation as a muparser exception (not a ModelError).
TEST_CASE("a parameter name must be one expressions can read") {
  ParameterScope scope;
  CHECK_THROWS_WITH_AS(scope.set(std::string(101, 'a'), 1.0),
                       doctest::Contains("cannot be used in expressions"), ctde::ModelError);
  CHECK_THROWS_WITH_AS(scope.set("_pi", 1.0), doctest::Contains("cannot be used in expressions"),
                       ctde::ModelError);
  CHECK_THROWS_AS(scope.set("_e", 1.0), ctde::ModelError);
  scope.set(std::string(100, 'a'), 2.0);  // the longest name it takes
  scope.set("b", std::string(100, 'a') + " * 3");
  scope.resolve();
  CHECK(scope.value("b").scalar() == 6.0);
}

TEST_CASE("floor, ceil, round and mod in parameter expressions") {
  ParameterScope scope;
  scope.resolve();
  CHECK(scope.evaluate_scalar("floor(-0.5)", "x") == -1);
  CHECK(scope.evaluate_scalar("ceil(-0.5)", "x") == 0);
  CHECK(scope.evaluate_scalar("ceil(1.25)", "x") == 2);
  CHECK(scope.evaluate_scalar("round(2.5)", "x") == 3);  // halfway cases away from zero
  CHECK(scope.evaluate_scalar("round(-2.5)", "x") == -3);
  CHECK(scope.evaluate_scalar("mod(7, 3)", "x") == 1);
  CHECK(scope.evaluate_scalar("mod(-1, 3)", "x") == 2);  // the sign of the divisor
  CHECK(scope.evaluate_scalar("mod(1, -3)", "x") == -2);
  CHECK(scope.evaluate_scalar("mod(5, 0)", "x") == 5);
  CHECK(scope.evaluate_scalar("mod(5.5, 2)", "x") == 1.5);
}
