#include "actors/math/mux.hpp"

#include <algorithm>

#include "core/actor_context.hpp"
#include "core/error.hpp"

namespace ctde {

Mux::Mux(std::string name) : FanIn(std::move(name), kInfo, TimeMode::kUnresolved) {}

int Mux::infer_output_width(std::size_t /*output*/, std::span<const int> input_widths) const {
  int sum = 0;
  for (const int w : input_widths) {
    if (w == kInferredWidth) return kInferredWidth;  // known once every input is
    sum += w;
  }
  return sum;
}

void Mux::check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const {
  // Inputs of any widths; the output is their sum.
  const int sum = infer_output_width(0, input_widths);
  if (output_widths[out_.index] != sum) {
    throw ModelError("width mismatch in " + describe() + ": output 'out' has width " +
                     std::to_string(output_widths[out_.index]) + " but the inputs' widths add up to " +
                     std::to_string(sum));
  }
}

void Mux::evaluate(EvalContext& context) const {
  auto y = context.output(out_).begin();
  for (std::size_t i = 0; i < inputs().size(); ++i) {
    const auto u = context.input(input_port(i));
    y = std::copy(u.begin(), u.end(), y);
  }
}

}  // namespace ctde
