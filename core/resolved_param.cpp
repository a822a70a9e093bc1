#include "core/resolved_param.hpp"

#include <nlohmann/json.hpp>

#include <utility>

namespace ctde {

std::string_view to_string(ParamKind kind) {
  switch (kind) {
    case ParamKind::kScalar:
      return "scalar";
    case ParamKind::kVector:
      return "vector";
    case ParamKind::kMatrix:
      return "matrix";
    case ParamKind::kString:
      return "string";
    case ParamKind::kFile:
      return "file";
    case ParamKind::kStructure:
      return "structure";
  }
  return "?";
}

ResolvedParam::ResolvedParam(ParamKind kind, Boxed boxed)
    : boxed_(new Boxed(std::move(boxed))), kind_(kind), form_(Form::kBoxed) {}

ResolvedParam::ResolvedParam(const ResolvedParam& other) : kind_(other.kind_), form_(other.form_) {
  if (form_ == Form::kBoxed) {
    boxed_ = new Boxed(*other.boxed_);
  } else {
    number_ = other.number_;
  }
}

ResolvedParam& ResolvedParam::operator=(const ResolvedParam& other) {
  if (this != &other) *this = ResolvedParam(other);
  return *this;
}

ResolvedParam::ResolvedParam(ResolvedParam&& other) noexcept : kind_(other.kind_), form_(other.form_) {
  take_value(other);
}

ResolvedParam& ResolvedParam::operator=(ResolvedParam&& other) noexcept {
  if (this == &other) return *this;
  delete boxed();
  kind_ = other.kind_;
  form_ = other.form_;
  take_value(other);
  return *this;
}

void ResolvedParam::take_value(ResolvedParam& other) noexcept {
  if (form_ == Form::kBoxed) {
    boxed_ = std::exchange(other.boxed_, nullptr);
    other.form_ = Form::kUnset;
    other.number_ = 0;
  } else {
    number_ = other.number_;
  }
}

ResolvedParam ResolvedParam::number(ParamKind kind, double value) {
  ResolvedParam out(kind);
  out.number_ = value;
  out.form_ = Form::kNumber;
  return out;
}

ResolvedParam ResolvedParam::numbers(ParamKind kind, std::vector<double> values, std::size_t rows,
                                     std::size_t cols) {
  if (values.size() == 1 && rows == 1 && cols == 1) return number(kind, values[0]);
  return {kind, Boxed{std::move(values), rows, cols, {}, {}}};
}

ResolvedParam ResolvedParam::text_value(ParamKind kind, std::string text) {
  return {kind, Boxed{{}, 1, 1, std::move(text), {}}};
}

ResolvedParam ResolvedParam::structure(std::shared_ptr<const nlohmann::ordered_json> json) {
  std::string text = json->dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  return {ParamKind::kStructure, Boxed{{}, 1, 1, std::move(text), std::move(json)}};
}

std::size_t ResolvedParam::rows() const {
  if (form_ == Form::kBoxed) return boxed_->rows;
  return form_ == Form::kNumber ? 1 : 0;
}

std::size_t ResolvedParam::cols() const {
  if (form_ == Form::kBoxed) return boxed_->cols;
  return form_ == Form::kNumber ? 1 : 0;
}

const std::string& ResolvedParam::text() const {
  static const std::string kNone;
  return form_ == Form::kBoxed ? boxed_->text : kNone;
}

const std::shared_ptr<const nlohmann::ordered_json>& ResolvedParam::json() const {
  static const std::shared_ptr<const nlohmann::ordered_json> kNone;
  return form_ == Form::kBoxed ? boxed_->json : kNone;
}

ResolvedParam ResolvedParam::as(ParamKind kind) const {
  const std::span<const double> numbers_now = values();
  std::size_t rows_as = rows();
  std::size_t cols_as = cols();
  if (kind == ParamKind::kVector) rows_as = cols_as = 1;
  if (kind == ParamKind::kMatrix && kind_ == ParamKind::kVector) {
    rows_as = 1;
    cols_as = numbers_now.size();
  }
  return numbers(kind, {numbers_now.begin(), numbers_now.end()}, rows_as, cols_as);
}

}  // namespace ctde
