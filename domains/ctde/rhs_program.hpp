#pragma once
/// The right-hand-side path as a flat program: one step per actor, in
/// schedule order, each either a built-in kernel over buffer offsets
/// (core/kernel.hpp) or a call back to the director for the actor's virtual
/// evaluate()/derivatives(). Compiled once per run; running it allocates
/// nothing.
///
/// Measured (bench/ct, chain1000: 7001 scalar actors, 5000 of them Gains,
/// Sums and Integrators): see docs/performance.md.

#include <cstdint>
#include <span>
#include <vector>

#include "../../core/actor.hpp"
#include "../../core/run_buffers.hpp"

namespace ctde {

/// One actor's part of the program. Copyable value type.
struct RhsStep {
  Kernel::Output output = Kernel::Output::kVirtual;
  Kernel::Derivatives derivatives = Kernel::Derivatives::kVirtual;
  std::uint32_t actor = 0;  ///< depth
  std::uint32_t width = 0;  ///< of output 0, or of the states
  std::uint32_t out = 0;    ///< offset of output 0 in signals, or of the states in dx/dt
  std::uint32_t first = 0;  ///< kState: offset in x; kScale, kInput: of input 0 in signals;
                            ///< kWeightedSum: index of the first input in RhsProgram's inputs
  std::uint32_t count = 0;  ///< kWeightedSum: number of inputs
  double gain = 1.0;
  const double* weights = nullptr;
};

/// The steps for a list of actors. Copyable value type.
class RhsProgram {
 public:
  enum class Part : std::uint8_t { kOutputs, kDerivatives };

  RhsProgram() = default;
  /// Compiles `part` for the actors `depths` (schedule order) of `actors`
  /// (by depth), laid out in `b`. A kernel whose widths do not fit becomes a
  /// virtual call.
  RhsProgram(Part part, std::span<const std::uint32_t> depths, std::span<const Actor* const> actors,
             const RunBuffers& b);

  /// The outputs: writes b.signals from b.x and b.signals; `call(depth)`
  /// evaluates the actors without a kernel.
  template <class Call>
  void run_outputs(RunBuffers& b, Call&& call) const {
    double* s = b.signals.data();
    const double* x = b.x;
    for (const RhsStep& step : steps_) {
      switch (step.output) {
        case Kernel::Output::kVirtual:
          call(step.actor);
          break;
        case Kernel::Output::kState:
          for (std::uint32_t j = 0; j < step.width; ++j) s[step.out + j] = x[step.first + j];
          break;
        case Kernel::Output::kScale:
          for (std::uint32_t j = 0; j < step.width; ++j) s[step.out + j] = step.gain * s[step.first + j];
          break;
        case Kernel::Output::kWeightedSum: {
          const std::uint32_t* in = inputs_.data() + step.first;
          for (std::uint32_t j = 0; j < step.width; ++j) {
            double sum = 0.0;
            for (std::uint32_t i = 0; i < step.count; ++i) sum += step.weights[i] * s[in[i] + j];
            s[step.out + j] = sum;
          }
          break;
        }
      }
    }
  }

  /// The derivatives: writes dxdt; `call(depth)` runs the actors without a kernel.
  template <class Call>
  void run_derivatives(const RunBuffers& b, double* dxdt, Call&& call) const {
    const double* s = b.signals.data();
    for (const RhsStep& step : steps_) {
      if (step.derivatives == Kernel::Derivatives::kVirtual) {
        call(step.actor);
        continue;
      }
      for (std::uint32_t j = 0; j < step.width; ++j) dxdt[step.out + j] = s[step.first + j];
    }
  }

  [[nodiscard]] std::span<const RhsStep> steps() const { return steps_; }

 private:
  std::vector<RhsStep> steps_;
  std::vector<std::uint32_t> inputs_;  ///< signal offsets of the inputs of weighted sums
};

}  // namespace ctde
