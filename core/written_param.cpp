#include "core/written_param.hpp"

#include <cstring>
#include <memory>
#include <string>
#include <utility>

namespace ctde {

namespace {
constexpr char kTextTag = 16;  // an inline text's tag is kTextTag + its length
}  // namespace

WrittenParam::WrittenParam(std::optional<ParamValue> value) {
  if (value) *this = std::move(*value);
}

WrittenParam::~WrittenParam() { clear(); }

WrittenParam::WrittenParam(const WrittenParam& other) : bytes_(other.bytes_) {
  if (other.form() == Form::kBoxed) set_boxed(new ParamValue(*other.boxed()));
}

WrittenParam& WrittenParam::operator=(const WrittenParam& other) {
  if (this != &other) *this = WrittenParam(other);
  return *this;
}

WrittenParam::WrittenParam(WrittenParam&& other) noexcept : bytes_(other.bytes_) { other.bytes_ = {}; }

WrittenParam& WrittenParam::operator=(WrittenParam&& other) noexcept {
  if (this != &other) {
    clear();
    bytes_ = std::exchange(other.bytes_, {});
  }
  return *this;
}

WrittenParam& WrittenParam::operator=(ParamValue value) {
  clear();
  if (value.kind() == ParamValue::Kind::kNumber) {
    const double number = value.number();
    std::memcpy(bytes_.data(), &number, sizeof number);
    bytes_[kTag] = static_cast<char>(Form::kNumber);
  } else if (value.kind() == ParamValue::Kind::kText && value.text().size() <= kInlineText) {
    const std::string& text = value.text();
    std::memcpy(bytes_.data(), text.data(), text.size());
    bytes_[kTag] = static_cast<char>(kTextTag + static_cast<char>(text.size()));
  } else {
    set_boxed(new ParamValue(std::move(value)));
  }
  return *this;
}

WrittenParam::Form WrittenParam::form() const {
  const char tag = bytes_[kTag];
  return tag >= kTextTag ? Form::kText : static_cast<Form>(tag);
}

void WrittenParam::clear() {
  delete boxed();
  bytes_ = {};
}

// The block's address is copied as bytes (sizeof(void*): the size of a pointer to an object on
// every platform ctde builds on).
void WrittenParam::set_boxed(ParamValue* value) {
  std::memcpy(bytes_.data(), &value, sizeof(void*));
  bytes_[kTag] = static_cast<char>(Form::kBoxed);
}

const ParamValue* WrittenParam::boxed() const {
  if (form() != Form::kBoxed) return nullptr;
  const ParamValue* value = nullptr;
  std::memcpy(&value, bytes_.data(), sizeof(void*));
  return value;
}

ParamValue::Kind WrittenParam::kind() const {
  switch (form()) {
    case Form::kNumber:
    case Form::kNone:  // (a precondition: has_value())
      return ParamValue::Kind::kNumber;
    case Form::kText:
      return ParamValue::Kind::kText;
    case Form::kBoxed:
      return boxed()->kind();
  }
  return ParamValue::Kind::kNumber;
}

double WrittenParam::number() const {
  if (form() == Form::kBoxed) return boxed()->number();
  if (form() != Form::kNumber) return 0.0;
  double number = 0;
  std::memcpy(&number, bytes_.data(), sizeof number);
  return number;
}

std::string_view WrittenParam::text() const {
  if (form() == Form::kBoxed) return boxed()->text();
  if (form() != Form::kText) return {};
  return {bytes_.data(), static_cast<std::size_t>(bytes_[kTag] - kTextTag)};
}

ParamValue WrittenParam::get() const {
  switch (form()) {
    case Form::kNumber:
    case Form::kNone:
      return number();
    case Form::kText:
      return std::string(text());
    case Form::kBoxed:
      return *boxed();
  }
  return 0.0;
}

}  // namespace ctde
