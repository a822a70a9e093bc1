#include "domains/ctde/jacobian_program.hpp"

#include <algorithm>

namespace ctde {

void JacobianProgram::begin_actor(ActorId d, std::uint32_t points) {
  current_ = nullptr;
  if (points == 0) return;
  const auto seen =
      std::find_if(points_.begin(), points_.end(), [d](const PointActor& a) { return a.actor == d; });
  if (seen != points_.end()) {
    current_ = &*seen;
    return;
  }
  points_.push_back({d, static_cast<std::uint32_t>(slots_.size()), points, point_entries_.size()});
  slots_.resize(slots_.size() + points, 0.0);
  point_entries_.resize(point_entries_.size() + points);
  current_ = &points_.back();
}

std::uint32_t JacobianProgram::slot(const LocalJacobian::Entry& e) {
  if (e.point != LocalJacobian::kNotAtPoint) {
    point_entries_[current_->entries + e.point] = e;
    return current_->first + e.point;
  }
  slots_.push_back(e.value);
  return static_cast<std::uint32_t>(slots_.size() - 1);
}

void JacobianProgram::add_state(std::uint32_t slot, std::uint32_t state) {
  terms_.push_back({slot, kState, state, 0});
}

void JacobianProgram::add_row(std::uint32_t slot, std::uint32_t from) {
  terms_.push_back({slot, from, 0, 0});
}

std::uint32_t JacobianProgram::end_row(std::span<const std::uint32_t> states) {
  const std::size_t start = row_states_.size();
  row_states_.insert(row_states_.end(), states.begin(), states.end());
  const auto place = [&](std::uint32_t state) {
    const auto first = row_states_.begin() + static_cast<std::ptrdiff_t>(start);
    return static_cast<std::size_t>(std::lower_bound(first, row_states_.end(), state) - row_states_.begin());
  };
  for (std::size_t t = row_terms_.back(); t < terms_.size(); ++t) {
    Term& term = terms_[t];
    term.at = places_.size();
    if (term.from == kState) {
      places_.push_back(place(term.state));
      continue;
    }
    for (std::size_t k = row_starts_[term.from]; k < row_starts_[term.from + 1]; ++k)
      places_.push_back(place(row_states_[k]));
  }
  row_terms_.push_back(terms_.size());
  row_starts_.push_back(row_states_.size());
  row_values_.resize(row_states_.size(), 0.0);
  return static_cast<std::uint32_t>(row_starts_.size() - 2);
}

void JacobianProgram::derivative_row(std::uint32_t row, std::uint32_t i) { derivatives_.push_back({row, i}); }

void JacobianProgram::finish(const JacobianPattern& pattern) {
  entries_.clear();
  for (const Derivative& d : derivatives_) {
    for (std::size_t k = row_starts_[d.row]; k < row_starts_[d.row + 1]; ++k)
      entries_.push_back(pattern.entry(d.i, row_states_[k]));
  }
}

void JacobianProgram::compose(double* values) {
  for (std::size_t r = 0; r + 1 < row_starts_.size(); ++r) {
    std::fill(row_values_.begin() + static_cast<std::ptrdiff_t>(row_starts_[r]),
              row_values_.begin() + static_cast<std::ptrdiff_t>(row_starts_[r + 1]), 0.0);
    for (std::size_t t = row_terms_[r]; t < row_terms_[r + 1]; ++t) {
      const Term& term = terms_[t];
      const double v = slots_[term.slot];
      if (term.from == kState) {
        row_values_[places_[term.at]] += v;
        continue;
      }
      const std::size_t first = row_starts_[term.from];
      const std::size_t count = row_starts_[term.from + 1] - first;
      for (std::size_t m = 0; m < count; ++m) row_values_[places_[term.at + m]] += v * row_values_[first + m];
    }
  }
  std::size_t e = 0;
  for (const Derivative& d : derivatives_) {
    for (std::size_t k = row_starts_[d.row]; k < row_starts_[d.row + 1]; ++k)
      values[entries_[e++]] = row_values_[k];
  }
}

}  // namespace ctde
