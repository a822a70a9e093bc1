#pragma once
/// The right-hand-side path as a flat program, compiled once per run from a
/// list of actors in schedule order; running it allocates nothing.
///
/// Actors that offer a built-in kernel (core/kernel.hpp: an integrator's
/// output is its state, a gain scales, a sum adds with weights) become
/// scalar operations over buffer offsets, one per element of their output,
/// and consecutive operations of one kind whose offsets step evenly (the
/// elements of a wide port; the same actors repeated along a network, laid
/// out in depth order) are merged into runs: one loop over strided, or
/// contiguous, arrays per run;
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
    for (const Segment& seg : segments_) {
      if (seg.op == Op::kCall) {
        for (OpIndex i = seg.begin; i < seg.end; ++i) call(calls_[i]);
      } else {
        run_kernels(seg, b.signals.data(), b.x);
      }
    }
  }

  /// The derivatives: writes dxdt; `call(ActorId)` runs the actors without a kernel.
  template <class Call>
  void run_derivatives(const RunBuffers& b, double* dxdt, Call&& call) const {
    run_input_copies(b.signals.data(), dxdt);
    for (const ActorId d : calls_) call(d);
  }

  /// What the program is made of, for tests and benchmarks.
  struct Shape {
    std::size_t levels = 0;
    std::size_t copies = 0;      ///< outputs: state elements; derivatives: input elements
    std::size_t scales = 0;      ///< output elements scaled
    std::size_t sums = 0;        ///< output elements summed (of 2, 3, 4 or any other number of terms)
    std::size_t runs = 0;        ///< the kernel operations the elements above are merged into
    std::vector<ActorId> calls;  ///< the actors called virtually (in run order)
  };
  [[nodiscard]] Shape shape() const;

 private:
  /// A position in one of the operation arrays (copies_, scales_, ...,
  /// terms_, calls_). A plain number: private to the program, the counter
  /// of the loops of run_outputs, never mixed with the indices above.
  using OpIndex = std::uint32_t;

  /// A run of `count` element operations of one form: operation k writes
  /// element `to` + k `to_stride` from elements `from[i]` + k `from_stride[i]`
  /// (consecutive operations of a level whose indices step evenly, as the
  /// elements of a wide port or the same actor repeated along a network,
  /// merged at compile time). `unit`: every stride is 1 (contiguous arrays).
  /// A single operation is a run of one, its strides 0.
  template <class To, class From, std::size_t N>
  struct Run {
    To to;
    std::array<From, N> from;
    OpIndex count = 1;
    bool unit = false;
    std::int32_t to_stride = 0;
    std::array<std::int32_t, N> from_stride{};
  };
  /// Outputs: signal `to` <- state `from`.
  using StateCopy = Run<SignalIndex, StateIndex, 1>;
  /// Derivatives: dxdt `to` <- signal `from`.
  using InputCopy = Run<StateIndex, SignalIndex, 1>;
  /// signal `to` <- gain * signal `from`, operation k's gain gains_[gain + k].
  struct Scale : Run<SignalIndex, SignalIndex, 1> {
    OpIndex gain = 0;
  };
  /// signal `to` <- the sum of its N terms, in order, from 0 (as Sum::evaluate);
  /// one set of weights for the whole run.
  template <std::size_t N>
  struct SumOf : Run<SignalIndex, SignalIndex, N> {
    std::array<double, N> weight{};
  };
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

  /// The kernel operations of `seg` (not kCall), over signals `s` and states `x`.
  void run_kernels(const Segment& seg, double* s, const double* x) const;
  /// dxdt from the signals `s`: the derivatives' input copies.
  void run_input_copies(const double* s, double* dxdt) const;
  template <std::size_t N>
  static void run_sums(double* s, const std::vector<SumOf<N>>& ops, OpIndex begin, OpIndex end);
  /// Whether `op` continues `run` (its strides fixed by its second
  /// operation); extends the run when it does.
  template <class To, class From, std::size_t N>
  static bool extend(Run<To, From, N>& run, const Run<To, From, N>& op);
  /// Merges the operations ops[begin, end) into runs, in place: each
  /// operation continues the run before it when `same(run, op)` and its
  /// indices step on evenly.
  template <class R, class Same>
  static void merge_runs(std::vector<R>& ops, std::size_t begin, Same&& same);

  void compile_outputs(std::span<const ActorId> depths, std::span<const Actor* const> actors,
                       const RunBuffers& b);
  void compile_derivatives(std::span<const ActorId> depths, std::span<const Actor* const> actors,
                           const RunBuffers& b);

  std::vector<Segment> segments_;  ///< outputs: level by level
  std::size_t n_levels_ = 0;
  std::vector<StateCopy> copies_;        ///< outputs
  std::vector<InputCopy> input_copies_;  ///< derivatives
  std::vector<Scale> scales_;
  std::vector<double> gains_;  ///< the scales' gains, one per element
  std::vector<SumOf<2>> sums2_;
  std::vector<SumOf<3>> sums3_;
  std::vector<SumOf<4>> sums4_;
  std::vector<Sum> sums_;
  std::vector<Term> terms_;
  std::vector<ActorId> calls_;
};

}  // namespace ctde
