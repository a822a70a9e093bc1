// Mode-chart predicates: the boolean-structure parser, its errors, and the
// guard functions and exact truth values of compiled predicates.

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "actors/modal/chart_program.hpp"
#include "actors/modal/predicate.hpp"
#include "core/error.hpp"

using namespace ctde;

namespace {

/// The message of parse_predicate(text)'s ModelError, or "".
std::string parse_error(const std::string& text) {
  try {
    (void)parse_predicate(text);
  } catch (const ModelError& e) {
    return e.message();
  }
  return "";
}

/// A compiler and an evaluator over the variables x, v, y and the constant k = 2.
struct Fixture {
  ExpressionCompiler compiler;
  std::uint32_t x = 0;
  std::uint32_t v = 0;
  std::uint32_t y = 0;

  Fixture() {
    compiler.define_constant("k", 2.0);
    x = compiler.define_variable("x", SymbolKind::kState);
    v = compiler.define_variable("v", SymbolKind::kState);
    y = compiler.define_variable("y", SymbolKind::kInput);
  }
  CompiledPredicate compile(const std::string& text) {
    return compiler.compile(parse_predicate(text), kAnySymbol, "test");
  }
};

}  // namespace

TEST_CASE("a modal predicate parses into comparisons joined by &&, ||, ! and parentheses") {
  const Predicate p = parse_predicate("x <= lower_bnd && v < 0");
  REQUIRE(p.nodes.size() == 3);
  CHECK(p.nodes[p.root()].kind == PredicateNode::Kind::kAnd);
  const PredicateNode& first = p.nodes[p.nodes[p.root()].left];
  CHECK(first.kind == PredicateNode::Kind::kCompare);
  CHECK(first.comparison == Comparison::kLessEqual);
  CHECK(first.lhs == "x");
  CHECK(first.rhs == "lower_bnd");
  CHECK(first.lhs_column == 1);
  CHECK(first.rhs_column == 6);
  const PredicateNode& second = p.nodes[p.nodes[p.root()].right];
  CHECK(second.comparison == Comparison::kLess);
  CHECK(second.rhs == "0");

  // || binds looser than &&; ! takes the group after it.
  const Predicate q = parse_predicate("a > 1 || b >= 2 && !(c < 3)");
  CHECK(q.nodes[q.root()].kind == PredicateNode::Kind::kOr);
  const PredicateNode& conjunction = q.nodes[q.nodes[q.root()].right];
  CHECK(conjunction.kind == PredicateNode::Kind::kAnd);
  CHECK(q.nodes[conjunction.right].kind == PredicateNode::Kind::kNot);

  // Operators inside parentheses belong to the sides (muparser reads them).
  const Predicate r = parse_predicate("  max(x, y) * 2 <= (a + b) / 2 ");
  REQUIRE(r.nodes.size() == 1);
  CHECK(r.nodes[0].lhs == "max(x, y) * 2");
  CHECK(r.nodes[0].rhs == "(a + b) / 2");
  CHECK(r.nodes[0].lhs_column == 3);

  const Predicate grouped = parse_predicate("((x > 1))");
  REQUIRE(grouped.nodes.size() == 1);
  CHECK(grouped.nodes[0].comparison == Comparison::kGreater);
}

TEST_CASE("modal predicate syntax errors say what is wrong and at which column") {
  CHECK(parse_error("") == "the predicate is empty at column 1");
  CHECK(parse_error("x <= lower_bnd &&") == "'&&' needs a comparison on its right at column 16");
  CHECK(parse_error("|| x < 1") == "'||' needs a comparison on its left at column 1");
  CHECK(parse_error("x <= ") == "'<=' needs an expression on its right at column 3");
  CHECK(parse_error("x == 1").find("'==' is not supported") == 0);
  CHECK(parse_error("x == 1").find("at column 3") != std::string::npos);
  CHECK(parse_error("x = 1") == "'=' is not a comparison (use <=, >=, < or >) at column 3");
  CHECK(parse_error("x != 1").find("'!=' is not supported") == 0);
  CHECK(parse_error("0 < x < 1").find("a second comparison in one term") == 0);
  CHECK(parse_error("0 < x < 1").find("at column 7") != std::string::npos);
  CHECK(parse_error("(x < 1") == "'(' is not closed at column 1");
  CHECK(parse_error("x < 1)") == "')' without a matching '(' at column 6");
  CHECK(parse_error("x < 1 && v").find("\"v\" is not a comparison") == 0);
  CHECK(parse_error("x < 1 & v > 0") == "a single '&' is not an operator (use && or ||) at column 7");
  CHECK(parse_error("!") == "'!' needs a comparison or a parenthesised predicate after it at column 1");
  CHECK(parse_error("()") == "empty parentheses at column 1");
  CHECK(parse_error(std::string(100, '(') + "x < 1" + std::string(100, ')')) ==
        "parentheses nest too deeply at column 65");
  std::string long_chain = "x < 1";
  for (int i = 0; i < 600; ++i) long_chain += " && x < 1";
  CHECK(parse_error(long_chain) == "the predicate has too many terms at column 1");
  CHECK(parse_error(std::string(100000, '!') + "x < 1") ==
        "negations and parentheses nest too deeply at column 65");
}

TEST_CASE("a modal guard function is >= 0 where its predicate holds: min for &&, max for ||, minus for !") {
  Fixture f;
  const CompiledPredicate impact = f.compile("x >= 0.1 && v > 0");
  const CompiledPredicate either = f.compile("x <= -0.1 || x >= k * 0.05");
  const CompiledPredicate negated = f.compile("!(x + y < k)");
  ChartEvaluator run(f.compiler.variables().size(), f.compiler.programs());
  auto at = [&](double x, double v, double y) {
    run.frame()[f.x] = x;
    run.frame()[f.v] = v;
    run.frame()[f.y] = y;
  };
  at(0.05, 2.0, 0.0);
  CHECK(run.guard(impact) == doctest::Approx(-0.05));  // min(x - 0.1, v)
  CHECK_FALSE(run.holds(impact));
  CHECK(run.guard(either) == doctest::Approx(-0.05));   // max(-0.1 - x, x - 0.1)
  CHECK(run.guard(negated) == doctest::Approx(-1.95));  // -(k - (x + y))
  at(0.3, 0.25, 1.0);
  CHECK(run.guard(impact) == doctest::Approx(0.2));
  CHECK(run.holds(impact));
  CHECK(run.guard(either) == doctest::Approx(0.2));
  CHECK(run.holds(either));
  CHECK(run.guard(negated) == doctest::Approx(-0.7));
  CHECK_FALSE(run.holds(negated));

  // Strictness: the guard function ignores it, the predicate does not.
  at(0.1, 0.0, 0.0);
  CHECK(run.guard(impact) == 0.0);
  CHECK_FALSE(run.holds(impact));  // v > 0 is false at v = 0
}

TEST_CASE("modal expressions compile to constants, variables or muparser programs, and bad ones are named") {
  Fixture f;
  const Term constant = f.compiler.compile("k * 3 + 1", kAnySymbol, "test");
  CHECK(constant.kind == Term::Kind::kConstant);
  CHECK(constant.value == 7.0);
  const Term variable = f.compiler.compile(" v ", kAnySymbol, "test");
  CHECK(variable.kind == Term::Kind::kVariable);
  CHECK(variable.index == f.v);
  const Term program = f.compiler.compile("-k * v + sin(x)", kAnySymbol, "test");
  CHECK(program.kind == Term::Kind::kProgram);
  ChartEvaluator run(f.compiler.variables().size(), f.compiler.programs());
  run.frame()[f.x] = 0.5;
  run.frame()[f.v] = 3.0;
  CHECK(run.value(program) == doctest::Approx(-6.0 + std::sin(0.5)));

  auto error = [&](const std::string& text, std::uint8_t allowed) {
    try {
      (void)f.compiler.compile(text, allowed, "here");
    } catch (const ModelError& e) {
      return e.message();
    }
    return std::string();
  };
  CHECK(error("vv + 1", kAnySymbol) ==
        "here: 'vv' in \"vv + 1\" is not defined (expressions here read parameters, states, inputs, event "
        "variables and t)");
  CHECK(error("x * 2", static_cast<std::uint8_t>(SymbolKind::kParameter)) ==
        "here: 'x' in \"x * 2\" is a continuous state; expressions here read only parameters");
  CHECK(error("x = 2", kAnySymbol).find("assigns with '='") != std::string::npos);
  CHECK(error("x +", kAnySymbol).find("here: bad expression \"x +\": ") == 0);
  CHECK(error("x, v", kAnySymbol).find("is a list of expressions") != std::string::npos);
  CHECK(error("1 / (k - 2)", kAnySymbol).find("gives inf") != std::string::npos);
}
