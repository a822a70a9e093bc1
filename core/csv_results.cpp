#include "core/csv_results.hpp"

#include <charconv>
#include <stdexcept>

#include "core/format.hpp"

namespace ctde {

CsvResults::CsvResults(std::ostream& out, std::vector<RecordedSignal> signals, Header header)
    : out_(&out), signals_(std::move(signals)) {
  if (header == Header::kWrite) this->header();
}

CsvResults::CsvResults(const std::string& path, std::vector<RecordedSignal> signals)
    : file_(std::make_unique<std::ofstream>(path)), out_(file_.get()), signals_(std::move(signals)) {
  if (!*file_) throw std::runtime_error("cannot write the results file '" + path + "'");
  header();
}

void CsvResults::header() {
  line_ = "time,microstep";
  for (const std::string& column : column_names(signals_)) {
    line_ += ',';
    line_ += column;
  }
  line_ += '\n';
  *out_ << line_;
}

void CsvResults::begin_row(const RowTime& time, std::uint32_t microstep) {
  line_.clear();
  time.append_text(line_);
  line_ += ',';
  char digits[16];
  const auto end = std::to_chars(digits, digits + sizeof digits, microstep).ptr;
  line_.append(digits, end);
}

void CsvResults::value(std::span<const double> values) {
  for (const double v : values) {
    line_ += ',';
    append_double(line_, v);
  }
}

void CsvResults::absent(std::uint32_t width) { line_.append(width, ','); }

void CsvResults::end_row() {
  line_ += '\n';
  *out_ << line_;
}

void CsvResults::flush() { out_->flush(); }

}  // namespace ctde
