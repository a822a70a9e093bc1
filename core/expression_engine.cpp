#include "core/expression_engine.hpp"

#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/error.hpp"

namespace ctde {

namespace {

/// mod(a, b) = a - floor(a / b) * b: the sign of b, as MATLAB's mod
/// (mod(-1, 3) = 2); mod(a, 0) = a.
double floored_mod(double a, double b) { return b == 0 ? a : a - std::floor(a / b) * b; }
double floor_of(double a) { return std::floor(a); }
double ceil_of(double a) { return std::ceil(a); }
/// Halfway cases away from zero (round(2.5) = 3, round(-2.5) = -3).
double round_of(double a) { return std::round(a); }

/// The functions ctde adds to muparser's own (docs/model-reference.md,
/// "Expressions"): every parser of the engine has them, so that every
/// expression of a model can use them.
void define_functions(mu::Parser& parser) {
  parser.DefineFun("floor", floor_of);
  parser.DefineFun("ceil", ceil_of);
  parser.DefineFun("round", round_of);
  parser.DefineFun("mod", floored_mod);
}

}  // namespace

std::vector<std::string> engine_functions() {
  return {"sin",   "cos",   "tan",  "asin",  "acos", "atan",  "sinh", "cosh",  "tanh", "asinh",
          "acosh", "atanh", "log2", "log10", "log",  "ln",    "exp",  "sqrt",  "sign", "rint",
          "abs",   "min",   "max",  "sum",   "avg",  "floor", "ceil", "round", "mod"};
}

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])) != 0) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

std::size_t find_assignment(std::string_view expression) {
  for (std::size_t i = 0; i < expression.size(); ++i) {
    if (expression[i] != '=') continue;
    const char before = i > 0 ? expression[i - 1] : ' ';
    const char after = i + 1 < expression.size() ? expression[i + 1] : ' ';
    if (after == '=') {
      ++i;  // "=="
      continue;
    }
    if (before == '<' || before == '>' || before == '!') continue;
    return i;
  }
  return std::string_view::npos;
}

void reject_assignment(std::string_view expression, const std::string& what) {
  const std::size_t at = find_assignment(expression);
  if (at == std::string_view::npos) return;
  throw ModelError(what + ": \"" + std::string(expression) + "\" assigns with '=' (column " +
                   std::to_string(at + 1) + "); an expression only computes a value");
}

struct CompiledExpression::Parser {
  Parser() { define_functions(parser); }
  mu::Parser parser;
};

CompiledExpression::CompiledExpression() : parser_(std::make_unique<Parser>()) {}
CompiledExpression::~CompiledExpression() = default;
CompiledExpression::CompiledExpression(CompiledExpression&&) noexcept = default;
CompiledExpression& CompiledExpression::operator=(CompiledExpression&&) noexcept = default;

std::vector<std::string> CompiledExpression::names_in(const std::string& text, const std::string& what) {
  reject_assignment(text, what);
  mu::Parser parser;
  define_functions(parser);
  std::vector<std::string> names;
  try {
    parser.SetExpr(text);
    for (const auto& [name, address] : parser.GetUsedVar()) names.push_back(name);  // parses, binds nothing
  } catch (const mu::Parser::exception_type& e) {
    throw ModelError(what + ": bad expression \"" + text + "\": " + e.GetMsg());
  }
  return names;
}

void CompiledExpression::check_name(const std::string& name, const std::string& what) {
  try {
    thread_local mu::Parser probe;  // one per thread: defining and removing allocates once
    double ignored = 0;
    probe.DefineVar(name, &ignored);
    probe.RemoveVar(name);
  } catch (const mu::Parser::exception_type& e) {
    throw ModelError(what + " cannot be used in expressions: " + e.GetMsg());
  }
}

void CompiledExpression::bind(const std::string& name, double* value, const std::string& what) {
  try {
    parser_->parser.DefineVar(name, value);
  } catch (const mu::Parser::exception_type& e) {
    throw ModelError(what + ": the name '" + name + "' cannot be used in expressions: " + e.GetMsg());
  }
}

void CompiledExpression::bind_constant(const std::string& name, double value, const std::string& what) {
  try {
    parser_->parser.DefineConst(name, value);
  } catch (const mu::Parser::exception_type& e) {
    throw ModelError(what + ": the name '" + name + "' cannot be used in expressions: " + e.GetMsg());
  }
}

void CompiledExpression::clear_bindings() {
  parser_->parser.ClearVar();
  parser_->parser.ClearConst();
}

void CompiledExpression::set(const std::string& text, const std::string& what, const std::string& unbound) {
  parse(text, what, unbound, /*list=*/false);
}

void CompiledExpression::set_list(const std::string& text, const std::string& what,
                                  const std::string& unbound) {
  parse(text, what, unbound, /*list=*/true);
}

namespace {
/// Every name a probe parser meets reads this (list_size() needs no values).
double* probe_variable(const char* /*name*/, void* storage) { return static_cast<double*>(storage); }
}  // namespace

std::size_t CompiledExpression::list_size(const std::string& text, const std::string& what) {
  reject_assignment(text, what);
  mu::Parser parser;
  define_functions(parser);
  double storage = 1.0;
  parser.SetVarFactory(probe_variable, &storage);
  try {
    parser.SetExpr(text);
    int count = 0;
    (void)parser.Eval(count);
    return static_cast<std::size_t>(count);
  } catch (const mu::Parser::exception_type& e) {
    throw ModelError(what + ": bad expression \"" + text + "\": " + e.GetMsg());
  }
}

void CompiledExpression::parse(const std::string& text, const std::string& what, const std::string& unbound,
                               bool list) {
  reject_assignment(text, what);
  text_ = text;
  try {
    parser_->parser.SetExpr(text);
    int count = 0;
    (void)parser_->parser.Eval(count);  // parses now: later evaluations run the bytecode, without allocation
    size_ = static_cast<std::size_t>(count);
    if (!list && size_ != 1) {
      throw ModelError(what + ": \"" + text + "\" is a list of expressions; give one");
    }
  } catch (const mu::Parser::exception_type& e) {
    const std::string& token = e.GetToken();
    if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN && !token.empty()) {
      throw ModelError(what + ": '" + token + "' in expression \"" + text + "\" is not " + unbound);
    }
    throw ModelError(what + ": bad expression \"" + text + "\": " + e.GetMsg());
  }
}

void CompiledExpression::evaluate(std::span<double> out) const {
  try {
    int count = 0;
    const double* values = parser_->parser.Eval(count);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = values[i];
  } catch (const mu::Parser::exception_type& e) {
    throw RunError("expression \"" + text_ + "\": " + e.GetMsg());
  }
}

double CompiledExpression::evaluate() const {
  try {
    return parser_->parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw RunError("expression \"" + text_ + "\": " + e.GetMsg());
  }
}

}  // namespace ctde
