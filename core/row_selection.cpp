#include "core/row_selection.hpp"

#include <cmath>
#include <utility>

namespace ctde {

std::optional<RowSelection> parse_row_selection(const std::string& text) {
  if (text == "all") return RowSelection::kAll;
  if (text == "output") return RowSelection::kOutput;
  if (text == "events") return RowSelection::kEvents;
  if (text == "final") return RowSelection::kFinal;
  return std::nullopt;
}

SelectedRows::SelectedRows(ResultsSink& next, RowSelection selection, double start,
                           std::optional<double> interval)
    : next_(next), selection_(selection), start_(start), interval_(interval) {
  std::size_t width = 0;
  for (const RecordedSignal& s : next_.signals()) width += s.width;
  for (Held* held : {&row_, &waiting_}) {
    held->cells.assign(width, 0.0);
    held->present.assign(next_.signals().size(), 0);
  }
}

bool SelectedRows::on_grid(const RowTime& time) const {
  if (!interval_) return false;
  // The director writes grid rows at exactly start + k h: in ticks when h is
  // a whole number of them, else the double it computes.
  if (time.resolution != nullptr) {
    if (const std::optional<Tick> h = time.resolution->whole_ticks(*interval_)) {
      return (time.tick - time.resolution->to_ticks(start_)) % *h == 0;
    }
  }
  const double k = std::nearbyint((time.seconds - start_) / *interval_);
  return start_ + k * *interval_ == time.seconds;
}

void SelectedRows::begin_row(const RowTime& time, std::uint32_t microstep) {
  switch (selection_) {
    case RowSelection::kAll:
      fate_ = Fate::kPass;
      break;
    case RowSelection::kOutput:
      fate_ = microstep == 0 && on_grid(time) ? Fate::kPass : Fate::kDrop;
      break;
    case RowSelection::kEvents:
      if (microstep > 0) {
        // Events at t: the row just before them first, if it was held back.
        if (waiting_.full && waiting_.time.seconds == time.seconds) pass(waiting_);
        waiting_.full = false;
        fate_ = Fate::kPass;
      } else {
        fate_ = Fate::kHold;
      }
      break;
    case RowSelection::kFinal:
      fate_ = Fate::kHold;
      break;
  }
  if (fate_ == Fate::kPass) next_.begin_row(time, microstep);
  row_.time = time;
  row_.microstep = microstep;
  cell_ = 0;
  signal_ = 0;
}

void SelectedRows::value(std::span<const double> values) {
  if (fate_ == Fate::kPass) next_.value(values);
  if (fate_ != Fate::kHold) return;
  std::copy(values.begin(), values.end(), row_.cells.begin() + static_cast<std::ptrdiff_t>(cell_));
  cell_ += values.size();
  row_.present[signal_++] = 1;
}

void SelectedRows::absent(std::uint32_t width) {
  if (fate_ == Fate::kPass) next_.absent(width);
  if (fate_ != Fate::kHold) return;
  cell_ += width;
  row_.present[signal_++] = 0;
}

void SelectedRows::end_row() {
  if (fate_ == Fate::kPass) next_.end_row();
  if (fate_ == Fate::kHold) {
    row_.full = true;
    std::swap(row_, waiting_);  // the newest held row replaces the one before
  }
}

void SelectedRows::pass(const Held& row) {
  next_.begin_row(row.time, row.microstep);
  std::size_t cell = 0;
  const std::vector<RecordedSignal>& signals = next_.signals();
  for (std::size_t i = 0; i < signals.size(); ++i) {
    if (row.present[i] != 0) {
      next_.value(std::span<const double>(row.cells.data() + cell, signals[i].width));
    } else {
      next_.absent(signals[i].width);
    }
    cell += signals[i].width;
  }
  next_.end_row();
}

void SelectedRows::flush() {
  if (selection_ == RowSelection::kFinal && waiting_.full) pass(waiting_);
  waiting_.full = false;
  next_.flush();
}

}  // namespace ctde
