#pragma once
/// The right-hand-side path as a flat program, compiled once per run from a
/// list of actors in schedule order; running it allocates nothing.
///
/// Actors that offer a built-in kernel (core/kernel.hpp: an integrator's
/// output is its state, a gain scales, a sum adds with weights) become
/// scalar operations over buffer offsets, one per element of their output;
/// every other actor stays a call back to the director for its virtual
/// evaluate() or derivatives(). The program is cut into levels: an actor's
/// level is one more than that of every actor before it in the schedule
/// whose output it reads (and of every one before it that reads its output),
/// so the actors of one level are independent of each other and a level may
/// run its operations grouped by kind: contiguous arrays walked by one tight
/// loop each, no dispatch per actor. Every output is computed by the same
/// expression, in the same order of terms, as the actor's own evaluate():
/// the results are those of the plain schedule, bit for bit
/// (tests/ctde/test_rhs_program.cpp).
///
/// Measured (bench/ct, chain1000: 7001 scalar actors, 5000 of them Gains,
/// Sums and Integrators): see docs/performance.md.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "../../core/actor.hpp"
#include "../../core/ids.hpp"
#include "../../core/run_buffers.hpp"

namespace ctde {

/// A compiled output or derivatives program. Copyable value type.
///
/// Its operations name what they read and write by kind: signal elements
/// (SignalIndex), state elements (StateIndex), actors (ActorId, their
/// depths). The one raw integer, OpIndex, is a position in the program's
/// own operation arrays: private, and the counter of the hot loops.
class RhsProgram {
 public:
  enum class Part : std::uint8_t { kOutputs, kDerivatives };

  RhsProgram() = default;
  /// Compiles `part` for the actors `depths` (schedule order) of `actors`
  /// (by depth), laid out in `b`. A kernel whose widths do not fit becomes a
  /// virtual call.
  RhsProgram(Part part, std::span<const ActorId> depths, std::span<const Actor* const> actors,
             const RunBuffers& b);

  /// The outputs: writes b.signals from b.x and b.signals; `call(ActorId)`
  /// evaluates the actors without a kernel.
  template <class Call>
  void run_outputs(RunBuffers& b, Call&& call) const {
    double* s = b.signals.data();
    const double* x = b.x;
    for (const Segment& seg : segments_) {
      switch (seg.op) {
        case Op::kCopy:
          for (OpIndex i = seg.begin; i < seg.end; ++i) s[copies_[i].to.index()] = x[copies_[i].from.index()];
          break;
        case Op::kScale:
          for (OpIndex i = seg.begin; i < seg.end; ++i)
            s[scales_[i].to.index()] = scales_[i].gain * s[scales_[i].from.index()];
          break;
        case Op::kSum2:
          run_sums(s, sums2_, seg.begin, seg.end);
          break;
        case Op::kSum3:
          run_sums(s, sums3_, seg.begin, seg.end);
          break;
        case Op::kSum4:
          run_sums(s, sums4_, seg.begin, seg.end);
          break;
        case Op::kSum:
          for (OpIndex i = seg.begin; i < seg.end; ++i) {
            const Sum& op = sums_[i];
            double sum = 0.0;
            for (OpIndex k = op.first; k < op.first + op.count; ++k) {
              sum += terms_[k].weight * s[terms_[k].from.index()];
            }
            s[op.to.index()] = sum;
          }
          break;
        case Op::kCall:
          for (OpIndex i = seg.begin; i < seg.end; ++i) call(calls_[i]);
          break;
      }
    }
  }

  /// The derivatives: writes dxdt; `call(ActorId)` runs the actors without a kernel.
  template <class Call>
  void run_derivatives(const RunBuffers& b, double* dxdt, Call&& call) const {
    const double* s = b.signals.data();
    for (const InputCopy& op : input_copies_) dxdt[op.to.index()] = s[op.from.index()];
    for (const ActorId d : calls_) call(d);
  }

  /// What the program is made of, for tests and benchmarks.
  struct Shape {
    std::size_t levels = 0;
    std::size_t copies = 0;      ///< outputs: state elements; derivatives: input elements
    std::size_t scales = 0;      ///< output elements scaled
    std::size_t sums = 0;        ///< output elements summed (of 2, 3, 4 or any other number of terms)
    std::vector<ActorId> calls;  ///< the actors called virtually (in run order)
  };
  [[nodiscard]] Shape shape() const;

 private:
  /// A position in one of the operation arrays (copies_, scales_, ...,
  /// terms_, calls_). A plain number: private to the program, the counter
  /// of the loops of run_outputs, never mixed with the indices above.
  using OpIndex = std::uint32_t;

  /// Outputs: signal `to` <- state `from`.
  struct StateCopy {
    SignalIndex to;
    StateIndex from;
  };
  /// Derivatives: dxdt `to` <- signal `from`.
  struct InputCopy {
    StateIndex to;
    SignalIndex from;
  };
  /// signal `to` <- gain * signal `from`.
  struct Scale {
    SignalIndex to;
    SignalIndex from;
    double gain;
  };
  /// signal `to` <- the sum of its N terms, in order, from 0 (as Sum::evaluate).
  template <std::size_t N>
  struct SumOf {
    SignalIndex to;
    std::array<SignalIndex, N> from;
    std::array<double, N> weight;
  };
  template <std::size_t N>
  static void run_sums(double* s, const std::vector<SumOf<N>>& ops, OpIndex begin, OpIndex end) {
    for (OpIndex i = begin; i < end; ++i) {
      const SumOf<N>& op = ops[i];
      double sum = 0.0;
      for (std::size_t k = 0; k < N; ++k) sum += op.weight[k] * s[op.from[k].index()];
      s[op.to.index()] = sum;
    }
  }
  /// signal `to` <- the sum of terms_[first, first + count) (other numbers of terms).
  struct Sum {
    SignalIndex to;
    OpIndex first;
    OpIndex count;
  };
  struct Term {
    SignalIndex from;
    double weight;
  };
  /// A run of operations of one kind (a range of its array), within a level.
  enum class Op : std::uint8_t { kCopy, kScale, kSum2, kSum3, kSum4, kSum, kCall };
  struct Segment {
    Op op;
    OpIndex begin;
    OpIndex end;
  };

  void compile_outputs(std::span<const ActorId> depths, std::span<const Actor* const> actors,
                       const RunBuffers& b);
  void compile_derivatives(std::span<const ActorId> depths, std::span<const Actor* const> actors,
                           const RunBuffers& b);

  std::vector<Segment> segments_;  ///< outputs: level by level
  std::size_t n_levels_ = 0;
  std::vector<StateCopy> copies_;        ///< outputs
  std::vector<InputCopy> input_copies_;  ///< derivatives
  std::vector<Scale> scales_;
  std::vector<SumOf<2>> sums2_;
  std::vector<SumOf<3>> sums3_;
  std::vector<SumOf<4>> sums4_;
  std::vector<Sum> sums_;
  std::vector<Term> terms_;
  std::vector<ActorId> calls_;
};

}  // namespace ctde
