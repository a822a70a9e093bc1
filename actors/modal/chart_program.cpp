#include "actors/modal/chart_program.hpp"

#include "core/expression_engine.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <limits>

#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string trimmed(const std::string& text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

bool parse_number(const std::string& text, double& out) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (first < last && *first == '+') ++first;
  if (first == last) return false;
  const auto result = std::from_chars(first, last, out);
  return result.ec == std::errc() && result.ptr == last;
}

const char* kind_name(std::uint8_t kind) {
  switch (kind) {
    case static_cast<std::uint8_t>(SymbolKind::kParameter):
      return "a parameter";
    case static_cast<std::uint8_t>(SymbolKind::kTime):
      return "the time";
    case static_cast<std::uint8_t>(SymbolKind::kInput):
      return "an input";
    case static_cast<std::uint8_t>(SymbolKind::kState):
      return "a continuous state";
    case static_cast<std::uint8_t>(SymbolKind::kEvent):
      return "an event variable";
    default:
      return "a name";
  }
}

}  // namespace

// ---------------------------------------------------------------- ExpressionCompiler

/// A muparser with every symbol defined as a variable (constants hold their
/// values), to list the names an expression reads and to fold constants.
struct ExpressionCompiler::Checker {
  CompiledExpression parser;
  std::deque<double> storage;  ///< per symbol, in symbols_ order (stable addresses)
  bool dirty = true;           ///< symbols changed since the last DefineVar round
};

ExpressionCompiler::ExpressionCompiler() : checker_(std::make_unique<Checker>()) {}
ExpressionCompiler::~ExpressionCompiler() = default;
ExpressionCompiler::ExpressionCompiler(ExpressionCompiler&&) noexcept = default;
ExpressionCompiler& ExpressionCompiler::operator=(ExpressionCompiler&&) noexcept = default;

const ExpressionCompiler::Symbol* ExpressionCompiler::find(const std::string& name) const {
  for (const auto& [n, symbol] : symbols_) {
    if (n == name) return &symbol;
  }
  return nullptr;
}

ExpressionCompiler::Symbol& ExpressionCompiler::slot(const std::string& name) {
  checker_->dirty = true;
  for (std::size_t i = 0; i < symbols_.size(); ++i) {
    if (symbols_[i].first == name) return symbols_[i].second;
  }
  symbols_.emplace_back(name, Symbol{});
  checker_->storage.push_back(0.0);
  return symbols_.back().second;
}

void ExpressionCompiler::define_constant(const std::string& name, double value) {
  Symbol& symbol = slot(name);
  symbol = Symbol{static_cast<std::uint8_t>(SymbolKind::kParameter), 0, value, {}};
}

void ExpressionCompiler::define_unusable(const std::string& name, const std::string& why) {
  Symbol& symbol = slot(name);
  symbol = Symbol{static_cast<std::uint8_t>(SymbolKind::kParameter), 0, 0.0, why};
}

std::uint32_t ExpressionCompiler::define_variable(const std::string& name, SymbolKind kind) {
  Symbol& symbol = slot(name);
  const auto index = static_cast<std::uint32_t>(variable_names_.size());
  symbol = Symbol{static_cast<std::uint8_t>(kind), index, 0.0, {}};
  variable_names_.push_back(name);
  return index;
}

std::uint8_t ExpressionCompiler::kind_of(const std::string& name) const {
  const Symbol* symbol = find(name);
  return symbol == nullptr ? std::uint8_t{0} : symbol->kind;
}

double ExpressionCompiler::constant_value(const std::string& name) const {
  const Symbol* symbol = find(name);
  if (symbol == nullptr || symbol->kind != static_cast<std::uint8_t>(SymbolKind::kParameter)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return symbol->value;
}

std::string ExpressionCompiler::describe_kinds(std::uint8_t allowed) {
  std::vector<std::string> parts;
  if ((allowed & static_cast<std::uint8_t>(SymbolKind::kParameter)) != 0) parts.emplace_back("parameters");
  if ((allowed & static_cast<std::uint8_t>(SymbolKind::kState)) != 0) parts.emplace_back("states");
  if ((allowed & static_cast<std::uint8_t>(SymbolKind::kInput)) != 0) parts.emplace_back("inputs");
  if ((allowed & static_cast<std::uint8_t>(SymbolKind::kEvent)) != 0) parts.emplace_back("event variables");
  if ((allowed & static_cast<std::uint8_t>(SymbolKind::kTime)) != 0) parts.emplace_back("t");
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? " and " : ", ";
    out += parts[i];
  }
  return out;
}

Term ExpressionCompiler::compile(const std::string& text, std::uint8_t allowed, const std::string& what,
                                 std::vector<std::string>* used) {
  const std::string expr = trimmed(text);
  const std::string quoted = "\"" + text + "\"";
  if (expr.empty()) throw ModelError(what + ": the expression is empty");
  double number = 0.0;
  if (parse_number(expr, number)) {
    if (!std::isfinite(number)) throw ModelError(what + ": " + quoted + " is not a finite number");
    return {Term::Kind::kConstant, number, 0};
  }
  reject_assignment(expr, what);
  Checker& checker = *checker_;
  if (checker.dirty) {
    checker.parser.clear_bindings();
    for (std::size_t i = 0; i < symbols_.size(); ++i) {
      const Symbol& symbol = symbols_[i].second;
      checker.storage[i] =
          symbol.kind == static_cast<std::uint8_t>(SymbolKind::kParameter) ? symbol.value : 1.0;
      checker.parser.bind(symbols_[i].first, &checker.storage[i], what);
    }
    checker.dirty = false;
  }
  const std::vector<std::string> names = CompiledExpression::names_in(expr, what);
  bool reads_variables = false;
  for (const auto& name : names) {
    const Symbol* symbol = find(name);
    if (symbol == nullptr) {
      throw ModelError(what + ": '" + name + "' in " + quoted + " is not defined (expressions here read " +
                       describe_kinds(allowed) + ")");
    }
    if (!symbol->unusable.empty()) {
      throw ModelError(what + ": '" + name + "' in " + quoted + " " + symbol->unusable);
    }
    if ((symbol->kind & allowed) == 0) {
      throw ModelError(what + ": '" + name + "' in " + quoted + " is " + kind_name(symbol->kind) +
                       "; expressions here read only " + describe_kinds(allowed));
    }
    if (symbol->kind != static_cast<std::uint8_t>(SymbolKind::kParameter)) reads_variables = true;
  }
  checker.parser.set(expr, what);  // one expression, not a list
  double folded = 0.0;
  try {
    folded = checker.parser.evaluate();
  } catch (const RunError& e) {
    throw ModelError(what + ": " + e.what());
  }
  if (used != nullptr) used->insert(used->end(), names.begin(), names.end());
  if (!reads_variables) {
    if (!std::isfinite(folded)) {
      throw ModelError(what + ": " + quoted + " gives " + format_double(folded) +
                       " (the parameters make it not finite)");
    }
    return {Term::Kind::kConstant, folded, 0};
  }
  if (const Symbol* symbol = find(expr); symbol != nullptr && is_identifier(expr)) {
    return {Term::Kind::kVariable, 0.0, symbol->index};
  }
  ChartProgram program;
  program.text = expr;
  for (const auto& name : names) {
    const Symbol* symbol = find(name);
    if (symbol->kind == static_cast<std::uint8_t>(SymbolKind::kParameter)) {
      program.constants.emplace_back(name, symbol->value);
    } else {
      program.variables.emplace_back(name, symbol->index);
    }
  }
  programs_.push_back(std::move(program));
  return {Term::Kind::kProgram, 0.0, static_cast<std::uint32_t>(programs_.size() - 1)};
}

CompiledPredicate ExpressionCompiler::compile(const Predicate& predicate, std::uint8_t allowed,
                                              const std::string& what, std::vector<std::string>* used) {
  CompiledPredicate out;
  out.text = predicate.text;
  for (const PredicateNode& node : predicate.nodes) {
    CompiledPredicate::Node compiled;
    compiled.kind = node.kind;
    compiled.comparison = node.comparison;
    compiled.left = static_cast<std::uint32_t>(node.left);
    compiled.right = static_cast<std::uint32_t>(node.right);
    if (node.kind == PredicateNode::Kind::kCompare) {
      compiled.lhs =
          compile(node.lhs, allowed, what + " (column " + std::to_string(node.lhs_column) + ")", used);
      compiled.rhs =
          compile(node.rhs, allowed, what + " (column " + std::to_string(node.rhs_column) + ")", used);
    }
    out.nodes.push_back(compiled);
  }
  return out;
}

// ---------------------------------------------------------------- ChartEvaluator

ChartEvaluator::ChartEvaluator(std::size_t frame_size, const std::vector<ChartProgram>& programs)
    : frame_(frame_size, 0.0) {
  programs_.reserve(programs.size());
  for (const ChartProgram& program : programs) {
    CompiledExpression& expression = programs_.emplace_back();
    const std::string what = "expression \"" + program.text + "\"";
    for (const auto& [name, index] : program.variables) expression.bind(name, &frame_[index], what);
    for (const auto& [name, value] : program.constants) expression.bind_constant(name, value, what);
    expression.set(program.text, what);  // parsed now: evaluations allocate nothing
  }
}

ChartEvaluator::~ChartEvaluator() = default;

double ChartEvaluator::value(const Term& term) const {
  switch (term.kind) {
    case Term::Kind::kConstant:
      return term.value;
    case Term::Kind::kVariable:
      return frame_[term.index];
    case Term::Kind::kProgram:
      return programs_[term.index].evaluate();
  }
  return std::numeric_limits<double>::quiet_NaN();
}

double ChartEvaluator::guard(const CompiledPredicate& predicate) const {
  return guard_at(predicate, static_cast<std::uint32_t>(predicate.nodes.size() - 1));
}

bool ChartEvaluator::holds(const CompiledPredicate& predicate) const {
  return holds_at(predicate, static_cast<std::uint32_t>(predicate.nodes.size() - 1));
}

double ChartEvaluator::guard_at(const CompiledPredicate& predicate, std::uint32_t node) const {
  const CompiledPredicate::Node& n = predicate.nodes[node];
  switch (n.kind) {
    case PredicateNode::Kind::kCompare: {
      const double a = value(n.lhs);
      const double b = value(n.rhs);
      return n.comparison == Comparison::kLess || n.comparison == Comparison::kLessEqual ? b - a : a - b;
    }
    case PredicateNode::Kind::kAnd:
    case PredicateNode::Kind::kOr: {
      const double l = guard_at(predicate, n.left);
      const double r = guard_at(predicate, n.right);
      if (std::isnan(l) || std::isnan(r)) return std::numeric_limits<double>::quiet_NaN();
      return n.kind == PredicateNode::Kind::kAnd ? std::min(l, r) : std::max(l, r);
    }
    case PredicateNode::Kind::kNot:
      return -guard_at(predicate, n.left);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

bool ChartEvaluator::holds_at(const CompiledPredicate& predicate, std::uint32_t node) const {
  const CompiledPredicate::Node& n = predicate.nodes[node];
  switch (n.kind) {
    case PredicateNode::Kind::kCompare: {
      const double a = value(n.lhs);
      const double b = value(n.rhs);
      switch (n.comparison) {
        case Comparison::kLess:
          return a < b;
        case Comparison::kLessEqual:
          return a <= b;
        case Comparison::kGreater:
          return a > b;
        case Comparison::kGreaterEqual:
          return a >= b;
      }
      return false;
    }
    case PredicateNode::Kind::kAnd:
      return holds_at(predicate, n.left) && holds_at(predicate, n.right);
    case PredicateNode::Kind::kOr:
      return holds_at(predicate, n.left) || holds_at(predicate, n.right);
    case PredicateNode::Kind::kNot:
      return !holds_at(predicate, n.left);
  }
  return false;
}

// ---------------------------------------------------------------- TimePredicate

std::optional<TimePredicate> TimePredicate::recognise(const CompiledPredicate& predicate,
                                                      std::uint32_t time_index) {
  const auto is_time = [time_index](const Term& term) {
    return term.kind == Term::Kind::kVariable && term.index == time_index;
  };
  TimePredicate out;
  for (const CompiledPredicate::Node& n : predicate.nodes) {
    Node node;
    node.kind = n.kind;
    node.left = n.left;
    node.right = n.right;
    if (n.kind == PredicateNode::Kind::kCompare) {
      // Written with t on the right, the comparison is the mirror image of
      // the one with t on the left: `c < t` is `t > c`.
      const bool time_left = is_time(n.lhs) && n.rhs.kind == Term::Kind::kConstant;
      const bool time_right = is_time(n.rhs) && n.lhs.kind == Term::Kind::kConstant;
      if (!time_left && !time_right) return std::nullopt;
      node.threshold = time_left ? n.rhs.value : n.lhs.value;
      const bool greater = n.comparison == Comparison::kGreater || n.comparison == Comparison::kGreaterEqual;
      const bool strict = n.comparison == Comparison::kGreater || n.comparison == Comparison::kLess;
      node.late = greater == time_left;  // t >= c, t > c, c <= t, c < t
      // The late side starts at K for t >= c and for the negation of t < c,
      // at K + 1 for t > c and for the negation of t <= c.
      node.strict_after = node.late == strict;
    }
    out.nodes_.push_back(node);
  }
  out.switches_.assign(out.nodes_.size(), 0);
  return out;
}

void TimePredicate::resolve(const TimeResolution& resolution, Tick first, Tick last) {
  last_ = last;
  std::size_t count = 0;
  for (Node& node : nodes_) {
    if (node.kind != PredicateNode::Kind::kCompare) continue;
    // to_ticks_clamped gives kBeforeAll or kNever far outside the horizon:
    // clamped to one tick beyond the run, K + 1 cannot overflow.
    const Tick nearest = std::clamp(resolution.to_ticks_clamped(node.threshold), first - 1, last + 1);
    node.switch_tick = nearest + (node.strict_after ? 1 : 0);
    switches_[count++] = node.switch_tick;
  }
  std::sort(switches_.begin(), switches_.begin() + static_cast<std::ptrdiff_t>(count));
  // Unused slots (operator nodes) sort after every real switch and are never reached.
  std::fill(switches_.begin() + static_cast<std::ptrdiff_t>(count), switches_.end(), kNever);
}

bool TimePredicate::holds(Tick tick) const {
  return holds_at(static_cast<std::uint32_t>(nodes_.size() - 1), tick);
}

bool TimePredicate::holds_at(std::uint32_t node, Tick tick) const {
  const Node& n = nodes_[node];
  switch (n.kind) {
    case PredicateNode::Kind::kCompare:
      return (tick >= n.switch_tick) == n.late;
    case PredicateNode::Kind::kAnd:
      return holds_at(n.left, tick) && holds_at(n.right, tick);
    case PredicateNode::Kind::kOr:
      return holds_at(n.left, tick) || holds_at(n.right, tick);
    case PredicateNode::Kind::kNot:
      return !holds_at(n.left, tick);
  }
  return false;
}

Tick TimePredicate::first_from(Tick from) const {
  // Every comparison keeps its value between two switch ticks, so the
  // predicate does too: it first holds at `from` or at a later switch.
  if (from > last_) return kNever;
  if (holds(from)) return from;
  for (const Tick at : switches_) {
    if (at > last_) break;
    if (at > from && holds(at)) return at;
  }
  return kNever;
}

}  // namespace ctde
