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
/// run its operations grouped by kind, no dispatch per actor. Within a
/// level, consecutive operations of one kind whose offsets step evenly (the
/// elements of a wide port; the same actors repeated along a network, laid
/// out in depth order) are merged into runs: one loop per run over strided
/// arrays, or contiguous ones (every stride 1), which the compiler
/// vectorizes. Every output is computed by the same expression, in the same
/// order of terms, as the actor's own evaluate(): the results are those of
/// the plain schedule, bit for bit (tests/ctde/test_rhs_program.cpp).
///
/// Measured (bench/ct, chain1000: 7001 scalar actors, 5000 of them Gains,
/// Sums and Integrators): see docs/performance.md.

#include <array>
#include <cstddef>
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
  /// kOutputs: an algebraic loop's head is a call that solves its loop
  /// (RunBuffers::loop_headed_by); kLoopOutputs: the actors are a loop's
  /// own, each computed as itself (for the loop's solver, LoopSolver).
  enum class Part : std::uint8_t { kOutputs, kLoopOutputs, kDerivatives };

  RhsProgram() = default;
  /// Compiles `part` for the actors `depths` (schedule order) of `actors`
  /// (by depth), laid out in `b`. A kernel whose widths do not fit becomes a
  /// virtual call.
  RhsProgram(Part part, std::span<const ActorId> depths, std::span<const Actor* const> actors,
             const RunBuffers& b);

  /// The outputs: writes b.signals from b.x and b.signals; `call(ActorId)`
  /// evaluates the actors without a kernel. A single operation is done
  /// here; a run's loop is out of line (rhs_program.cpp).
  template <class Call>
  void run_outputs(RunBuffers& b, Call&& call) const {
    double* s = b.signals.data();
    const double* x = b.x;
    for (const Segment& seg : segments_) {
      switch (seg.op) {
        case Op::kCopy:
          for (OpIndex i = seg.begin; i < seg.end; ++i) {
            const StateCopy& op = copies_[i];
            if (op.count == 1) {
              s[op.to.index()] = x[op.from[0].index()];
            } else {
              copy_run(s + op.to.index(), op.to_stride, x + op.from[0].index(), op.from_stride[0], op.count,
                       op.unit);
            }
          }
          break;
        case Op::kScale:
          for (OpIndex i = seg.begin; i < seg.end; ++i) {
            const Scale& op = scales_[i];
            if (op.count == 1) {
              s[op.to.index()] = gains_[op.gain] * s[op.from[0].index()];
            } else {
              scale_run(s + op.to.index(), op.to_stride, s + op.from[0].index(), op.from_stride[0],
                        gains_.data() + op.gain, op.count, op.unit);
            }
          }
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
    for (const InputCopy& op : input_copies_) {
      if (op.count == 1) {
        dxdt[op.to.index()] = s[op.from[0].index()];
      } else {
        copy_run(dxdt + op.to.index(), op.to_stride, s + op.from[0].index(), op.from_stride[0], op.count,
                 op.unit);
      }
    }
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
  /// A single operation is a run of one, its strides 0. Fewer than kMinRun
  /// operations that would make a run stay single: a loop's set-up (the
  /// vectorized loop's overlap checks) costs more than it saves on them.
  static constexpr std::size_t kMinRun = 4;
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

  /// The loops of a run of `count` operations: element k of the output is
  /// out[k so] (out[k] when `unit`: every stride 1, the arrays contiguous,
  /// which the compiler vectorizes), of input t in_t[k si_t].
  using Stride = std::ptrdiff_t;
  static void copy_run(double* out, Stride so, const double* in, Stride si, OpIndex count, bool unit);
  static void scale_run(double* out, Stride so, const double* in, Stride si, const double* gain,
                        OpIndex count, bool unit);
  template <std::size_t N>
  static void sum_run(double* out, Stride so, const std::array<const double*, N>& in,
                      const std::array<Stride, N>& si, const std::array<double, N>& w, OpIndex count,
                      bool unit);
  /// The sums ops[begin, end) of N terms.
  template <std::size_t N>
  static void run_sums(double* s, const std::vector<SumOf<N>>& ops, OpIndex begin, OpIndex end) {
    for (OpIndex i = begin; i < end; ++i) {
      const SumOf<N>& op = ops[i];
      if (op.count == 1) {
        double sum = 0.0;
        for (std::size_t t = 0; t < N; ++t) sum += op.weight[t] * s[op.from[t].index()];
        s[op.to.index()] = sum;
        continue;
      }
      std::array<const double*, N> in{};
      std::array<Stride, N> strides{};
      for (std::size_t t = 0; t < N; ++t) {
        in[t] = s + op.from[t].index();
        strides[t] = op.from_stride[t];
      }
      sum_run<N>(s + op.to.index(), op.to_stride, in, strides, op.weight, op.count, op.unit);
    }
  }
  /// Whether `op` continues `run` (its strides fixed by its second
  /// operation); extends the run when it does.
  template <class To, class From, std::size_t N>
  static bool extend(Run<To, From, N>& run, const Run<To, From, N>& op);
  /// Merges the operations ops[begin, end) into runs of at least kMinRun,
  /// in place: each operation continues the run before it when
  /// `same(run, op)` and its indices step on evenly.
  template <class R, class Same>
  static void merge_runs(std::vector<R>& ops, std::size_t begin, Same&& same);

  void compile_outputs(std::span<const ActorId> depths, std::span<const Actor* const> actors,
                       const RunBuffers& b, bool whole_loops);
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
