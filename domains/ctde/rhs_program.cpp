#include "domains/ctde/rhs_program.hpp"

namespace ctde {

namespace {

/// Output 0's step for actor `d`, or a virtual call when its kernel does not fit.
RhsStep output_step(std::uint32_t d, const Actor& actor, const RunBuffers& b,
                    std::vector<std::uint32_t>& inputs) {
  RhsStep step;
  step.actor = d;
  const Kernel kernel = actor.kernel();
  const ActorSlots& slots = b.actors[d];
  if (kernel.output == Kernel::Output::kVirtual || actor.outputs().size() != 1) return step;
  const Slice out = b.outputs[slots.first_output];
  const std::size_t n_inputs = actor.inputs().size();
  const auto input = [&](std::size_t i) { return b.inputs[slots.first_input + i]; };
  switch (kernel.output) {
    case Kernel::Output::kVirtual:
      return step;
    case Kernel::Output::kState:
      if (slots.states.width != out.width) return step;
      step.first = slots.states.offset;
      break;
    case Kernel::Output::kScale:
      if (n_inputs < 1 || input(0).width != out.width) return step;
      step.first = input(0).offset;
      step.gain = kernel.gain;
      break;
    case Kernel::Output::kWeightedSum:
      if (kernel.weights.size() != n_inputs) return step;
      for (std::size_t i = 0; i < n_inputs; ++i) {
        if (input(i).width != out.width) return step;
      }
      step.first = static_cast<std::uint32_t>(inputs.size());
      step.count = static_cast<std::uint32_t>(n_inputs);
      step.weights = kernel.weights.data();
      for (std::size_t i = 0; i < n_inputs; ++i) inputs.push_back(input(i).offset);
      break;
  }
  step.output = kernel.output;
  step.out = out.offset;
  step.width = out.width;
  return step;
}

/// The derivatives' step for actor `d`, or a virtual call.
RhsStep derivatives_step(std::uint32_t d, const Actor& actor, const RunBuffers& b) {
  RhsStep step;
  step.actor = d;
  const Kernel kernel = actor.kernel();
  const ActorSlots& slots = b.actors[d];
  if (kernel.derivatives != Kernel::Derivatives::kInput || actor.inputs().empty()) return step;
  const Slice in = b.inputs[slots.first_input];
  if (in.width != slots.states.width) return step;
  step.derivatives = kernel.derivatives;
  step.out = slots.states.offset;
  step.width = slots.states.width;
  step.first = in.offset;
  return step;
}

}  // namespace

RhsProgram::RhsProgram(Part part, std::span<const std::uint32_t> depths, std::span<const Actor* const> actors,
                       const RunBuffers& b) {
  steps_.reserve(depths.size());
  for (const std::uint32_t d : depths) {
    steps_.push_back(part == Part::kOutputs ? output_step(d, *actors[d], b, inputs_)
                                            : derivatives_step(d, *actors[d], b));
  }
}

}  // namespace ctde
