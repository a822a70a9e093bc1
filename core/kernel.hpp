#pragma once
/// Built-in evaluations an actor may offer the director for the right-hand
/// side path, in place of its virtual evaluate() and derivatives().
///
/// Most continuous actors of a large model are a handful of kinds (an
/// integrator's output is its state, a gain scales, a sum adds). The
/// director runs those from a flat program of buffer offsets (see
/// domains/ctde/rhs_program.hpp), without a virtual call, a context or
/// a slice lookup per actor; anything else (sources, expressions, matrices,
/// modal models, user actors) keeps its virtual calls in the same program.
/// A kernel must compute exactly what the actor's evaluate()/derivatives()
/// compute for the widths it is offered at; the director falls back to the
/// virtual calls when the widths do not fit the kernel (see rhs_program.cpp).

#include <cstdint>
#include <span>

namespace ctde {

/// What an actor's outputs and derivatives are, when they are one of the
/// built-in forms. Copyable value type; `weights` points into the actor,
/// which outlives the run.
struct Kernel {
  /// How output 0 is computed (all inputs and output 0 of one width w).
  enum class Output : std::uint8_t {
    kVirtual,      ///< evaluate() (the default)
    kState,        ///< output 0 = the actor's continuous states (w of them)
    kScale,        ///< output 0 = gain * input 0
    kWeightedSum,  ///< output 0 = sum over inputs i of weights[i] * input i
  };
  /// How the derivatives are computed.
  enum class Derivatives : std::uint8_t {
    kVirtual,  ///< derivatives() (the default)
    kInput,    ///< dx/dt = input 0 (w states, input 0 of width w)
  };
  Output output = Output::kVirtual;
  Derivatives derivatives = Derivatives::kVirtual;
  double gain = 1.0;                ///< kScale
  std::span<const double> weights;  ///< kWeightedSum: one per input
};

}  // namespace ctde
