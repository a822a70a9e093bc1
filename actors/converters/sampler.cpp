#include "actors/converters/sampler.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

Sampler::Sampler(std::string name)
    : UnaryActor(std::move(name), kInfo, TimeMode::kHybrid, PortKind::kContinuous, PortKind::kDiscrete) {
  trigger_ = declare_input("trigger", PortKind::kDiscrete);
}

int Sampler::infer_output_width(std::size_t /*output*/, std::span<const int> input_widths) const {
  return input_widths[in_.index];
}

void Sampler::check_widths(std::span<const int> /*input_widths*/,
                           std::span<const int> /*output_widths*/) const {}  // any trigger width

void Sampler::fire(FireContext& context) const {
  if (!context.has_token(trigger_)) return;
  const auto in = context.input(in_);
  const auto token = context.scratch(in.size());
  std::copy(in.begin(), in.end(), token.begin());
  context.emit(out_, token);
}

}  // namespace ctde
