#include "actors/math/selector.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

Selector::Selector(std::string name) : UnaryFunction(std::move(name), kInfo) {
  indices_ = declare_parameter("indices", ParamKind::kVector);
}

void Selector::configure(const ParameterScope& /*scope*/) {
  picks_.clear();
  for (const double index : vector(indices_)) {
    if (!(index >= 0) || index != std::floor(index) || index > 1e9) {
      fail(indices_, "must be whole numbers >= 0 (element indices, from 0), got " + format_double(index));
    }
    picks_.push_back(static_cast<std::size_t>(index));
  }
  set_width(out_, static_cast<int>(picks_.size()));
}

void Selector::check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const {
  (void)output_widths;
  const auto width = static_cast<std::size_t>(input_widths[in_.index]);
  for (const std::size_t index : picks_) {
    if (index >= width) {
      fail(indices_, "index " + std::to_string(index) + " does not fit the input 'in' of width " +
                         std::to_string(width) + " (indices go from 0 to " + std::to_string(width - 1) + ")");
    }
  }
}

void Selector::apply(std::span<const double> u, std::span<double> y) const {
  for (std::size_t i = 0; i < picks_.size(); ++i) y[i] = u[picks_[i]];
}

}  // namespace ctde
