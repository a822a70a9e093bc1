#include "domains/ctde/row_recorder.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace ctde {

const std::vector<RecordedSignal>& RowRecorder::signals() const {
  static const std::vector<RecordedSignal> kNone;
  return results_ != nullptr ? results_->signals() : kNone;
}

void RowRecorder::lay_out(std::vector<RecordedColumn> columns, std::size_t output_ports) {
  columns_ = std::move(columns);
  const std::vector<RecordedSignal>& signals = this->signals();
  if (results_ == nullptr) {
    if (!columns_.empty()) throw std::invalid_argument("RowRecorder: columns without a results sink");
    return;
  }
  column_of_.assign(output_ports, -1);
  if (columns_.size() != signals.size()) {
    throw std::invalid_argument("RowRecorder: " + std::to_string(columns_.size()) + " columns for " +
                                std::to_string(signals.size()) + " recorded signals");
  }
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const RecordedColumn& c = columns_[i];
    if (c.port.index() >= output_ports) {
      throw std::invalid_argument("RowRecorder: the port of '" + signals[i].name + "' is out of range");
    }
    if (c.values.width != signals[i].width) {
      throw std::invalid_argument("RowRecorder: '" + signals[i].name + "' has width " +
                                  std::to_string(signals[i].width) + ", its values " +
                                  std::to_string(c.values.width));
    }
    column_of_[c.port.index()] = static_cast<int>(i);
  }
  token_tag_.assign(columns_.size(), Tag{kNever, 0});
}

void RowRecorder::write(const RowTime& time, Tick now, std::uint32_t microstep,
                        std::span<const double> signals) {
  if (results_ == nullptr) return;
  const std::vector<RecordedSignal>& recorded = results_->signals();
  results_->begin_row(time, microstep);
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    // A discrete signal has a value only on the row after the microstep that sent it.
    const bool present = !recorded[i].discrete || (microstep > 0 && token_tag_[i] == Tag{now, microstep});
    if (present) {
      results_->value(signals.subspan(columns_[i].values.offset.index(), columns_[i].values.width));
    } else {
      results_->absent(recorded[i].width);
    }
  }
  results_->end_row();
}

}  // namespace ctde
