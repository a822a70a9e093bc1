#include "core/param.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <unordered_map>

#include "core/error.hpp"
#include "core/expression_engine.hpp"
#include "core/format.hpp"

namespace ctde {

// ---------------------------------------------------------------- ParamValue

ParamValue::ParamValue(double number) : value_(number) {}
ParamValue::ParamValue(int number) : value_(static_cast<double>(number)) {}
ParamValue::ParamValue(const char* text) : value_(std::string(text)) {}
ParamValue::ParamValue(std::string text) : value_(std::move(text)) {}
ParamValue::ParamValue(std::vector<ParamValue> items) : value_(std::move(items)) {}
ParamValue::ParamValue(const std::vector<double>& numbers)
    : value_(std::vector<ParamValue>(numbers.begin(), numbers.end())) {}
ParamValue::ParamValue(const Matrix& matrix) : value_(std::vector<ParamValue>()) {
  auto& rows = std::get<std::vector<ParamValue>>(value_);
  for (std::size_t r = 0; r < matrix.rows; ++r) {
    std::vector<ParamValue> row;
    for (std::size_t c = 0; c < matrix.cols; ++c) row.emplace_back(matrix(r, c));
    rows.emplace_back(std::move(row));
  }
}

ParamValue::ParamValue(const nlohmann::ordered_json& json)
    : value_(std::make_shared<const nlohmann::ordered_json>(json)) {}

double ParamValue::number() const {
  const double* number = std::get_if<double>(&value_);
  return number == nullptr ? 0.0 : *number;
}

const std::string& ParamValue::text() const {
  static const std::string kNone;
  const std::string* text = std::get_if<std::string>(&value_);
  return text == nullptr ? kNone : *text;
}

const std::vector<ParamValue>& ParamValue::items() const {
  static const std::vector<ParamValue> kNone;
  const auto* items = std::get_if<std::vector<ParamValue>>(&value_);
  return items == nullptr ? kNone : *items;
}

const std::shared_ptr<const nlohmann::ordered_json>& ParamValue::json() const {
  static const std::shared_ptr<const nlohmann::ordered_json> kNone;
  const auto* json = std::get_if<std::shared_ptr<const nlohmann::ordered_json>>(&value_);
  return json == nullptr ? kNone : *json;
}

std::string ParamValue::to_string() const {
  switch (kind()) {
    case Kind::kJson:
      return shorten_for_message(
          json()->dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    case Kind::kNumber:
      return format_double(number());
    case Kind::kText:
      return "\"" + text() + "\"";
    case Kind::kList: {
      const auto& list = items();
      std::string out = "[";
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (i > 0) out += ", ";
        out += list[i].to_string();
      }
      return out + "]";
    }
  }
  return {};
}

// ---------------------------------------------------------------- helpers

namespace {

/// A text that is a plain number ("10", "-1.5e3", "inf") gives that number.
bool parse_number(const std::string& text, double& out) {
  const char* first = text.data();
  const char* last = first + text.size();
  while (first < last && *first == ' ') ++first;
  while (last > first && last[-1] == ' ') --last;
  if (first < last && *first == '+') ++first;
  if (first == last) return false;
  const auto result = std::from_chars(first, last, out);
  return result.ec == std::errc() && result.ptr == last;
}

}  // namespace

bool beyond_double_range(std::string_view text) {
  const char* first = text.data();
  const char* last = first + text.size();
  while (first < last && *first == ' ') ++first;
  while (last > first && last[-1] == ' ') --last;
  if (first < last && *first == '+') ++first;
  double ignored = 0;
  const auto result = std::from_chars(first, last, ignored);
  return result.ec == std::errc::result_out_of_range && result.ptr == last;
}

namespace {

const char* kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::kScalar:
      return "a number";
    case ParamKind::kVector:
      return "a vector";
    case ParamKind::kMatrix:
      return "a matrix";
    case ParamKind::kString:
      return "a string";
    case ParamKind::kFile:
      return "a file name";
    case ParamKind::kStructure:
      return "a structured value (JSON)";
  }
  return "";
}

/// A structured parameter: its JSON value (from a model file), or JSON text
/// (from C++) parsed once.
ResolvedParam structure(const ParamValue& value, const std::string& what) {
  using Json = nlohmann::ordered_json;
  if (value.kind() == ParamValue::Kind::kJson) return ResolvedParam::structure(value.json());
  // JSON text from C++; a number or a list written as a ParamValue reads as its JSON text.
  const std::string text = value.kind() == ParamValue::Kind::kText ? value.text() : value.to_string();
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) throw ModelError(what + " is not a JSON value: " + shorten_for_message(text));
  return ResolvedParam::structure(std::make_shared<const Json>(std::move(parsed)));
}

}  // namespace

// ---------------------------------------------------------------- ParameterScope

struct ParameterScope::Parser {
  CompiledExpression parser;              ///< every parameter bound as a variable
  std::map<std::string, double> storage;  // node-stable addresses for DefineVar
  /// Values of expressions already evaluated since the last resolve(): models
  /// repeat the same few expressions over many actors ("-e", "k0 * 0.5").
  std::unordered_map<std::string, double> cache;
};

ParameterScope::ParameterScope() : parser_(std::make_unique<Parser>()) {}
ParameterScope::~ParameterScope() = default;
ParameterScope::ParameterScope(ParameterScope&&) noexcept = default;
ParameterScope& ParameterScope::operator=(ParameterScope&&) noexcept = default;

void ParameterScope::set(const std::string& name, ParamValue value, std::string location) {
  if (!is_identifier(name)) {
    throw ModelError("parameter name '" + name +
                     "' is not a valid identifier (letters, digits and _, not starting with a digit)");
  }
  // Expressions read it as a variable: the parser must take the name (at
  // most 100 characters, none of its constants _pi and _e).
  CompiledExpression::check_name(name, "parameter name '" + name + "'");
  raw_.insert_or_assign(name, std::move(value));
  if (location.empty()) {
    location_.erase(name);
  } else {
    location_.insert_or_assign(name, std::move(location));
  }
  resolved_.clear();
}

bool ParameterScope::has(const std::string& name) const { return raw_.contains(name); }

const ResolvedParam& ParameterScope::value(const std::string& name) const {
  const auto it = resolved_.find(name);
  if (it == resolved_.end()) throw ModelError("parameter '" + name + "' is not defined");
  return it->second;
}

void ParameterScope::resolve() {
  resolved_.clear();
  auto& p = *parser_;
  p.parser.clear_bindings();
  p.storage.clear();
  p.cache.clear();
  for (const auto& [name, raw] : raw_) {
    double& slot = p.storage[name];
    slot = std::nan("");
    p.parser.bind(name, &slot, "parameter '" + name + "'");
  }

  // Depth-first evaluation in dependency order; `stack` detects cycles.
  std::vector<std::string> stack;
  auto used_names = [&](const ParamValue& value, auto& self, std::set<std::string>& out) -> void {
    if (value.kind() == ParamValue::Kind::kList) {
      for (const auto& item : value.items()) self(item, self, out);
      return;
    }
    double number = 0;
    if (value.kind() != ParamValue::Kind::kText || parse_number(value.text(), number)) return;
    if (raw_.contains(value.text())) {
      out.insert(value.text());
      return;
    }
    try {
      for (const auto& name : CompiledExpression::names_in(value.text(), "")) out.insert(name);
    } catch (const ModelError&) {
      // Reported with its message when the value is evaluated.
    }
  };
  // An error about a parameter carries where it was written.
  const auto locate = [&](const ModelError& e, const std::string& name) {
    const auto where = location_.find(name);
    return e.location().empty() && where != location_.end() ? e.located(where->second) : e;
  };
  auto resolve_one = [&](const std::string& name, auto& self) -> void {
    if (resolved_.contains(name)) return;
    for (std::size_t i = 0; i < stack.size(); ++i) {
      if (stack[i] != name) continue;
      std::string cycle;
      for (std::size_t j = i; j < stack.size(); ++j) cycle += stack[j] + " -> ";
      throw locate(ModelError("parameters depend on each other in a cycle: " + cycle + name), name);
    }
    stack.push_back(name);
    const ParamValue& raw = raw_.at(name);
    std::set<std::string> deps;
    used_names(raw, used_names, deps);
    for (const auto& dep : deps) {
      if (raw_.contains(dep)) self(dep, self);
    }
    const std::string what = "parameter '" + name + "'";
    ParamKind kind = ParamKind::kScalar;
    if (raw.kind() == ParamValue::Kind::kList) {
      const bool nested = !raw.items().empty() && raw.items()[0].kind() == ParamValue::Kind::kList;
      kind = nested ? ParamKind::kMatrix : ParamKind::kVector;
    } else if (raw.kind() == ParamValue::Kind::kText && raw_.contains(raw.text())) {
      kind = resolved_.at(raw.text()).kind();
    }
    ResolvedParam value;
    try {
      value = evaluate(raw, kind, what);
    } catch (const ModelError& e) {
      throw locate(e, name);
    }
    if (value.kind() == ParamKind::kScalar) p.storage[name] = value.scalar();
    resolved_.emplace(name, std::move(value));
    stack.pop_back();
  };
  for (const auto& [name, raw] : raw_) resolve_one(name, resolve_one);
}

double ParameterScope::evaluate_scalar(const std::string& expression, const std::string& what) const {
  double number = 0;
  if (parse_number(expression, number)) {
    if (std::isnan(number)) throw ModelError(what + ": \"" + expression + "\" is not a number");
    return number;
  }
  if (beyond_double_range(expression)) {
    throw ModelError(what + ": " + expression + " is beyond a double's range (write \"inf\" for infinity)");
  }
  const auto it = resolved_.find(expression);
  if (it != resolved_.end() && it->second.kind() == ParamKind::kScalar) return it->second.scalar();
  const bool cacheable = resolved_.size() == raw_.size();  // every parameter is final
  if (cacheable) {
    const auto hit = parser_->cache.find(expression);
    if (hit != parser_->cache.end()) return hit->second;
  }
  parser_->parser.set(expression, what, "a defined parameter");
  number = parser_->parser.evaluate();
  if (std::isnan(number)) {
    // A NaN from a variable means it refers to a vector or matrix parameter.
    for (const auto& var : CompiledExpression::names_in(expression, what)) {
      const auto r = resolved_.find(var);
      if (r != resolved_.end() && r->second.kind() != ParamKind::kScalar) {
        throw ModelError(what + ": '" + var + "' in expression \"" + expression + "\" is " +
                         kind_name(r->second.kind()) + "; only numbers can be used in expressions");
      }
    }
    throw ModelError(what + ": expression \"" + expression + "\" evaluates to NaN");
  }

  if (cacheable) parser_->cache.emplace(expression, number);
  return number;
}

std::vector<std::string> ParameterScope::check_expression(const std::string& expression,
                                                          const std::vector<std::string>& locals,
                                                          const std::string& what) const {
  std::vector<std::string> used = CompiledExpression::names_in(expression, what);
  for (const auto& name : used) {
    if (raw_.contains(name)) continue;
    if (std::find(locals.begin(), locals.end(), name) != locals.end()) continue;
    throw ModelError(what + ": '" + name + "' in expression \"" + expression +
                     "\" is neither a model parameter nor one of " + join(locals));
  }
  return used;
}

ResolvedParam ParameterScope::evaluate(const ParamValue& value, ParamKind kind,
                                       const std::string& what) const {
  auto mismatch = [&](const std::string& got) {
    return ModelError(what + " must be " + kind_name(kind) + ", got " + got + " " + value.to_string());
  };
  auto scalar_of = [&](const ParamValue& item) {
    if (item.kind() == ParamValue::Kind::kNumber) return item.number();
    if (item.kind() == ParamValue::Kind::kText) return evaluate_scalar(item.text(), what);
    throw mismatch("a nested list");
  };

  if (kind == ParamKind::kStructure) return structure(value, what);
  if (value.kind() == ParamValue::Kind::kJson) throw mismatch("a structured value");
  if (kind == ParamKind::kString || kind == ParamKind::kFile) {
    if (value.kind() != ParamValue::Kind::kText) throw mismatch("the value");
    return ResolvedParam::text_value(kind, value.text());
  }
  // A text that names a vector or matrix parameter stands for all of it.
  if (value.kind() == ParamValue::Kind::kText) {
    const auto it = resolved_.find(value.text());
    if (it != resolved_.end() && it->second.kind() != ParamKind::kScalar) {
      const ResolvedParam& named = it->second;
      if (kind == ParamKind::kScalar) throw mismatch(std::string(kind_name(named.kind())));
      if (kind == ParamKind::kVector && named.kind() == ParamKind::kMatrix && named.rows() != 1 &&
          named.cols() != 1) {
        throw mismatch("a matrix");
      }
      return named.as(kind);
    }
  }
  switch (value.kind()) {
    case ParamValue::Kind::kNumber:
    case ParamValue::Kind::kText:
      return ResolvedParam::number(kind, scalar_of(value));
    case ParamValue::Kind::kList:
      break;
    case ParamValue::Kind::kJson:  // refused above
      throw mismatch("a structured value");
  }
  if (kind == ParamKind::kScalar) throw mismatch("a list");
  const auto& items = value.items();
  if (items.empty()) throw ModelError(what + " must not be an empty list");
  std::vector<double> values;
  const bool nested = items[0].kind() == ParamValue::Kind::kList;
  if (!nested) {
    values.reserve(items.size());
    for (const auto& item : items) values.push_back(scalar_of(item));
    return ResolvedParam::numbers(kind, std::move(values), 1, items.size());
  }
  if (kind == ParamKind::kVector) throw mismatch("a matrix");
  const std::size_t rows = items.size();
  const std::size_t cols = items[0].items().size();
  values.reserve(rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    if (items[r].kind() != ParamValue::Kind::kList || items[r].items().size() != cols) {
      throw ModelError(what + ": matrix row " + std::to_string(r) + " does not have " + std::to_string(cols) +
                       " columns like row 0");
    }
    for (const auto& item : items[r].items()) values.push_back(scalar_of(item));
  }
  return ResolvedParam::numbers(kind, std::move(values), rows, cols);
}

}  // namespace ctde
