#include "actors/math/demux.hpp"

#include <algorithm>
#include <cmath>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

Demux::Demux(std::string name) : Actor(std::move(name), kInfo, TimeMode::kUnresolved) {
  in_ = declare_input("in", PortKind::kPolymorphic);
  outputs_ = declare_parameter("outputs", ParamKind::kScalar, 2.0);
  widths_ = declare_optional_parameter("widths", ParamKind::kVector);
}

void Demux::configure(const ParameterScope& /*scope*/) {
  count_ = port_count(outputs_);
  if (is_set(widths_)) {
    count_ = vector(widths_).size();
    for (const double w : vector(widths_)) {
      if (!(w >= 1) || w != std::floor(w) || w > 1e6) {
        fail(widths_, "must be whole numbers >= 1 (one output's width each), got " + format_double(w));
      }
    }
    if (count_ > 1000) fail(widths_, "must have at most 1000 entries");
  }
  for (std::size_t o = 0; o < count_; ++o) {
    const std::string name = "out" + std::to_string(o);
    const int width = is_set(widths_) ? static_cast<int>(vector(widths_)[o]) : kInferredWidth;
    if (const auto found = find_output(name)) {
      set_width(output_port(*found), width);
    } else {
      (void)declare_output(name, PortKind::kPolymorphic, width);
    }
  }
}

int Demux::infer_output_width(std::size_t /*output*/, std::span<const int> input_widths) const {
  const int width = input_widths[in_.index];
  if (width == kInferredWidth || width % static_cast<int>(count_) != 0) return kInferredWidth;
  return width / static_cast<int>(count_);
}

void Demux::check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const {
  const int width = input_widths[in_.index];
  int sum = 0;
  for (std::size_t o = 0; o < count_; ++o) sum += output_widths[o];
  if (sum == width) return;
  if (is_set(widths_)) {
    fail(widths_,
         "add up to " + std::to_string(sum) + " but the input 'in' has width " + std::to_string(width));
  }
  fail(outputs_, "the input 'in' of width " + std::to_string(width) + " does not split into " +
                     std::to_string(count_) + " outputs of equal width");
}

void Demux::evaluate(EvalContext& context) const {
  const auto u = context.input(in_);
  auto from = u.begin();
  for (std::size_t o = 0; o < count_; ++o) {
    const auto y = context.output(output_port(o));
    std::copy_n(from, y.size(), y.begin());
    from += static_cast<std::ptrdiff_t>(y.size());
  }
}

}  // namespace ctde
