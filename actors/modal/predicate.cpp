#include "actors/modal/predicate.hpp"

#include "core/error.hpp"

namespace ctde {

std::string_view to_string(Comparison comparison) {
  switch (comparison) {
    case Comparison::kLess:
      return "<";
    case Comparison::kLessEqual:
      return "<=";
    case Comparison::kGreater:
      return ">";
    case Comparison::kGreaterEqual:
      return ">=";
  }
  return "?";
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Recursive descent over byte ranges [begin, end) of the text; operators
/// are looked for at parenthesis depth 0 of the range only.
class PredicateParser {
 public:
  explicit PredicateParser(const std::string& text) : text_(text), match_(text.size(), kNone) {}

  Predicate parse() {
    match_parentheses();
    const auto [begin, end] = trim(0, text_.size());
    if (begin == end) fail(0, "the predicate is empty");
    parse_or(begin, end);
    return {text_, std::move(nodes_)};
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  /// Bounds that keep the recursion here and in the evaluation shallow.
  static constexpr std::size_t kMaxNesting = 64;
  static constexpr std::size_t kMaxNodes = 1000;

  [[noreturn]] void fail(std::size_t position, const std::string& message) const {
    std::string text = message;
    text += " at column ";
    text += std::to_string(position + 1);
    throw ModelError(text);
  }

  /// match_[i]: for a '(' at i, its ')' (and the other way round).
  void match_parentheses() {
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < text_.size(); ++i) {
      if (text_[i] == '(') {
        if (open.size() == kMaxNesting) fail(i, "parentheses nest too deeply");
        open.push_back(i);
      } else if (text_[i] == ')') {
        if (open.empty()) fail(i, "')' without a matching '('");
        match_[i] = open.back();
        match_[open.back()] = i;
        open.pop_back();
      }
    }
    if (!open.empty()) fail(open.back(), "'(' is not closed");
  }

  [[nodiscard]] std::pair<std::size_t, std::size_t> trim(std::size_t begin, std::size_t end) const {
    while (begin < end && is_space(text_[begin])) ++begin;
    while (end > begin && is_space(text_[end - 1])) --end;
    return {begin, end};
  }

  /// Positions of the two-character operator `op` at depth 0 of [begin, end).
  [[nodiscard]] std::vector<std::size_t> split(std::size_t begin, std::size_t end,
                                               std::string_view op) const {
    std::vector<std::size_t> at;
    for (std::size_t i = begin; i < end; ++i) {
      if (text_[i] == '(') {
        i = match_[i];
        continue;
      }
      if (i + 1 < end && text_[i] == op[0] && text_[i + 1] == op[1]) {
        at.push_back(i);
        ++i;
      }
    }
    return at;
  }

  std::size_t add(PredicateNode node) {
    if (nodes_.size() == kMaxNodes) fail(0, "the predicate has too many terms");
    nodes_.push_back(std::move(node));
    return nodes_.size() - 1;
  }

  /// A chain of `op` ("||" or "&&") over the operands parsed by `operand`.
  template <class Operand>
  std::size_t parse_chain(std::size_t begin, std::size_t end, std::string_view op, PredicateNode::Kind kind,
                          Operand operand) {
    const std::vector<std::size_t> at = split(begin, end, op);
    std::size_t result = kNone;
    std::size_t from = begin;
    for (std::size_t k = 0; k <= at.size(); ++k) {
      const std::size_t to = k < at.size() ? at[k] : end;
      const auto [b, e] = trim(from, to);
      if (b == e) {
        const std::size_t near = k < at.size() ? at[k] : at[k - 1];
        std::string message = "'";
        message += op;
        message += k < at.size() ? "' needs a comparison on its left" : "' needs a comparison on its right";
        fail(near, message);
      }
      const std::size_t node = operand(b, e);
      if (result == kNone) {
        result = node;
      } else {
        PredicateNode joined;
        joined.kind = kind;
        joined.left = result;
        joined.right = node;
        result = add(std::move(joined));
      }
      from = to + 2;
    }
    return result;
  }

  std::size_t parse_or(std::size_t begin, std::size_t end) {
    return parse_chain(begin, end, "||", PredicateNode::Kind::kOr,
                       [this](std::size_t b, std::size_t e) { return parse_and(b, e); });
  }

  std::size_t parse_and(std::size_t begin, std::size_t end) {
    return parse_chain(begin, end, "&&", PredicateNode::Kind::kAnd,
                       [this](std::size_t b, std::size_t e) { return parse_unary(b, e); });
  }

  /// [begin, end) is trimmed and not empty.
  std::size_t parse_unary(std::size_t begin, std::size_t end) {
    if (++depth_ > kMaxNesting) fail(begin, "negations and parentheses nest too deeply");
    const std::size_t node = parse_unary_at(begin, end);
    --depth_;
    return node;
  }

  std::size_t parse_unary_at(std::size_t begin, std::size_t end) {
    if (text_[begin] == '!' && !(begin + 1 < end && text_[begin + 1] == '=')) {
      const auto [b, e] = trim(begin + 1, end);
      if (b == e) fail(begin, "'!' needs a comparison or a parenthesised predicate after it");
      PredicateNode negation;
      negation.kind = PredicateNode::Kind::kNot;
      negation.left = parse_unary(b, e);
      return add(std::move(negation));
    }
    std::size_t op = kNone;
    std::size_t op_length = 0;
    Comparison comparison = Comparison::kLess;
    for (std::size_t i = begin; i < end; ++i) {
      const char c = text_[i];
      if (c == '(') {
        i = match_[i];
        continue;
      }
      const bool equals_next = i + 1 < end && text_[i + 1] == '=';
      if (c == '<' || c == '>') {
        if (op != kNone) {
          fail(i,
               "a second comparison in one term (write \"a <= b && b <= c\" for a range, and put "
               "parentheses around a comparison used as a number)");
        }
        op = i;
        op_length = equals_next ? 2 : 1;
        comparison = c == '<' ? (equals_next ? Comparison::kLessEqual : Comparison::kLess)
                              : (equals_next ? Comparison::kGreaterEqual : Comparison::kGreater);
        i += op_length - 1;
      } else if (c == '=') {
        if (equals_next) {
          fail(i,
               "'==' is not supported: the equality of two real quantities is never located as a "
               "crossing (use <= or >=)");
        }
        fail(i, "'=' is not a comparison (use <=, >=, < or >)");
      } else if (c == '!') {
        if (equals_next) fail(i, "'!=' is not supported: use < or > (or !(a <= b) || ...)");
        fail(i, "'!' negates a whole comparison or a parenthesised predicate: write !(a < b)");
      } else if (c == '&' || c == '|') {
        std::string message = "a single '";
        message += c;
        message += "' is not an operator (use && or ||)";
        fail(i, message);
      }
    }
    if (op == kNone) {
      if (text_[begin] == '(' && match_[begin] == end - 1) {
        const auto [b, e] = trim(begin + 1, end - 1);
        if (b == e) fail(begin, "empty parentheses");
        return parse_or(b, e);
      }
      std::string message = "\"";
      message += text_.substr(begin, end - begin);
      message +=
          "\" is not a comparison: a predicate compares two expressions (x <= 1), and joins "
          "comparisons with &&, || and !";
      fail(begin, message);
    }
    const auto [lb, le] = trim(begin, op);
    const auto [rb, re] = trim(op + op_length, end);
    if (lb == le || rb == re) {
      std::string message = "'";
      message += to_string(comparison);
      message += lb == le ? "' needs an expression on its left" : "' needs an expression on its right";
      fail(op, message);
    }
    PredicateNode compare;
    compare.kind = PredicateNode::Kind::kCompare;
    compare.comparison = comparison;
    compare.lhs = text_.substr(lb, le - lb);
    compare.rhs = text_.substr(rb, re - rb);
    compare.lhs_column = lb + 1;
    compare.rhs_column = rb + 1;
    return add(std::move(compare));
  }

  const std::string& text_;
  std::vector<std::size_t> match_;
  std::vector<PredicateNode> nodes_;
  std::size_t depth_ = 0;  ///< parse_unary calls in progress
};

}  // namespace

Predicate parse_predicate(const std::string& text) { return PredicateParser(text).parse(); }

}  // namespace ctde
