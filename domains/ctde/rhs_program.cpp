#include "domains/ctde/rhs_program.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <limits>

#include "core/fast_paths.hpp"

namespace ctde {

namespace {

/// What `actor` says it computes as a kernel operation, or none (its
/// virtual evaluate() and derivatives()) when the fast paths are off.
Kernel kernel_of(const Actor& actor) { return fast_paths_enabled() ? actor.kernel() : Kernel{}; }

/// How one actor takes part in an output program: its kernel when the
/// widths fit it, else a virtual call; and the signals it reads and writes.
/// A level of the program (see rhs_program.hpp): a count, not an index.
using Level = std::uint32_t;

/// A position in the list of actors being compiled (schedule order).
using PlanIndex = std::uint32_t;

struct Planned {
  Kernel::Output form = Kernel::Output::kVirtual;
  ActorId depth;
  Level level = 0;
  std::span<const ActorId> loop;  ///< the algebraic loop it heads and its call solves, or none
};

/// The kernel form of actor `d`'s output 0 when its widths fit the kernel,
/// else kVirtual.
Kernel::Output output_form(ActorId d, const Actor& actor, const Kernel& kernel, const RunBuffers& b) {
  if (kernel.output == Kernel::Output::kVirtual || actor.outputs().size() != 1)
    return Kernel::Output::kVirtual;
  const ActorSlots& slots = b.actors[d.index()];
  const SignalSlice out = b.outputs[slots.first_output.index()];
  const std::size_t n_inputs = actor.inputs().size();
  const auto input = [&](std::size_t i) { return b.inputs[slots.input(i).index()]; };
  switch (kernel.output) {
    case Kernel::Output::kVirtual:
      break;
    case Kernel::Output::kState:
      if (slots.states.width == out.width) return kernel.output;
      break;
    case Kernel::Output::kScale:
      if (n_inputs >= 1 && input(0).width == out.width) return kernel.output;
      break;
    case Kernel::Output::kWeightedSum:
      if (kernel.weights.size() != n_inputs) break;
      for (std::size_t i = 0; i < n_inputs; ++i) {
        if (input(i).width != out.width) return Kernel::Output::kVirtual;
      }
      return kernel.output;
  }
  return Kernel::Output::kVirtual;
}

/// Calls `f(slice)` for every signal slice the actor's output computation
/// reads: none for a state kernel, input 0 for a scale, every input otherwise
/// (a virtual call may read any of its inputs); for a loop's head, every
/// input of the loop's actors (the head's call solves the loop).
template <class F>
void for_each_read(const Planned& p, std::span<const Actor* const> actors, const RunBuffers& b, F&& f) {
  const auto reads = [&](ActorId d, std::size_t n) {
    const ActorSlots& slots = b.actors[d.index()];
    for (std::size_t i = 0; i < n; ++i) f(b.inputs[slots.input(i).index()]);
  };
  for (const ActorId m : p.loop) reads(m, actors[m.index()]->inputs().size());
  if (!p.loop.empty()) return;
  std::size_t n = actors[p.depth.index()]->inputs().size();
  if (p.form == Kernel::Output::kState) n = 0;
  if (p.form == Kernel::Output::kScale) n = 1;
  reads(p.depth, n);
}

/// Calls `f(slice)` for every output the actor writes (for a loop's head:
/// every output of the loop's actors).
template <class F>
void for_each_write(const Planned& p, std::span<const Actor* const> actors, const RunBuffers& b, F&& f) {
  const auto writes = [&](ActorId d) {
    const ActorSlots& slots = b.actors[d.index()];
    for (std::size_t o = 0; o < actors[d.index()]->outputs().size(); ++o)
      f(b.outputs[slots.output(o).index()]);
  };
  for (const ActorId m : p.loop) writes(m);
  if (p.loop.empty()) writes(p.depth);
}

std::size_t signal_count(const RunBuffers& b) {
  std::size_t n = 0;
  for (const SignalSlice& s : b.outputs) n = std::max(n, s.past_end());
  for (const SignalSlice& s : b.inputs) n = std::max(n, s.past_end());
  return n;
}

/// The signal element `j` of slice `s` (of RunBuffers::signals).
SignalIndex signal(SignalSlice s, std::uint32_t j) { return s.at(j); }

/// The step from element `a` to element `b` of one buffer, when it fits a
/// run's stride.
template <class Index>
bool step_between(Index a, Index b, std::int32_t& step) {
  const std::int64_t d = std::int64_t{b.value()} - std::int64_t{a.value()};
  if (d < std::numeric_limits<std::int32_t>::min() || d > std::numeric_limits<std::int32_t>::max())
    return false;
  step = static_cast<std::int32_t>(d);
  return true;
}

/// Whether element `next` is element `first` moved `count` strides on.
template <class Index>
bool continues(Index first, std::int32_t stride, std::uint32_t count, Index next) {
  return std::int64_t{next.value()} == std::int64_t{first.value()} + std::int64_t{stride} * count;
}

/// What an output program is compiled from: each actor's form and level
/// (schedule order), its kernel, and the actors grouped by level.
struct OutputPlan {
  std::vector<Planned> actors;  ///< by PlanIndex
  std::vector<Kernel> kernels;  ///< by PlanIndex
  Level n_levels = 0;
  std::vector<PlanIndex> by_level;     ///< the actors of each level, in schedule order
  std::vector<std::size_t> level_end;  ///< per level: where its actors end in by_level
};

/// Fills plan.by_level and plan.level_end from the actors' levels.
void group_by_level(OutputPlan& plan) {
  plan.by_level.resize(plan.actors.size());
  for (PlanIndex i = 0; i < plan.by_level.size(); ++i) plan.by_level[i] = i;
  std::stable_sort(plan.by_level.begin(), plan.by_level.end(),
                   [&](PlanIndex l, PlanIndex r) { return plan.actors[l].level < plan.actors[r].level; });

  plan.level_end.assign(plan.n_levels, 0);  // in by_level
  for (const PlanIndex i : plan.by_level) plan.level_end[plan.actors[i].level] += 1;
  for (std::size_t k = 1; k < plan.n_levels; ++k) plan.level_end[k] += plan.level_end[k - 1];
}

/// The plan of the output program of the actors `depths` (schedule order):
/// each actor's kernel and form, and its level. `whole_loops`: an algebraic
/// loop's head stands for its loop (a call that solves it); else each actor
/// is itself.
OutputPlan plan_outputs(std::span<const ActorId> depths, std::span<const Actor* const> actors,
                        const RunBuffers& b, bool whole_loops) {
  OutputPlan plan;
  plan.actors.resize(depths.size());
  plan.kernels.resize(depths.size());
  // Levels, in schedule order: after the writer of every signal read (read
  // after write) and after every earlier reader of a signal written (write
  // after read), so that no dependency the schedule expresses is lost.
  constexpr Level kNone = ~Level{0};
  const std::size_t n_signals = signal_count(b);
  std::vector<Level> written_at(n_signals, kNone);  // per signal element: level + 1 of the writer
  std::vector<Level> read_at(n_signals, 0);         // per signal element: level + 1 of the latest reader
  Level n_levels = 0;
  for (std::size_t i = 0; i < depths.size(); ++i) {
    Planned& p = plan.actors[i];
    p.depth = depths[i];
    const Actor& actor = *actors[p.depth.index()];
    plan.kernels[i] = kernel_of(actor);
    if (whole_loops) p.loop = b.loop_headed_by(p.depth);
    p.form = p.loop.empty() ? output_form(p.depth, actor, plan.kernels[i], b) : Kernel::Output::kVirtual;
    Level level = 0;
    for_each_read(p, actors, b, [&](SignalSlice s) {
      for (std::size_t o = s.offset.index(); o < s.past_end(); ++o) {
        if (written_at[o] != kNone) level = std::max(level, written_at[o]);
      }
    });
    for_each_write(p, actors, b, [&](SignalSlice s) {
      for (std::size_t o = s.offset.index(); o < s.past_end(); ++o) level = std::max(level, read_at[o]);
    });
    p.level = level;
    for_each_read(p, actors, b, [&](SignalSlice s) {
      for (std::size_t o = s.offset.index(); o < s.past_end(); ++o)
        read_at[o] = std::max(read_at[o], level + 1);
    });
    for_each_write(p, actors, b, [&](SignalSlice s) {
      for (std::size_t o = s.offset.index(); o < s.past_end(); ++o) written_at[o] = level + 1;
    });
    n_levels = std::max(n_levels, level + 1);
  }
  plan.n_levels = n_levels;
  group_by_level(plan);
  return plan;
}

/// Output 0 of planned actor `p`.
SignalSlice output_of(const Planned& p, const RunBuffers& b) {
  return b.outputs[b.actors[p.depth.index()].first_output.index()];
}

/// Input `k` of planned actor `p`.
SignalSlice input_of(const Planned& p, std::size_t k, const RunBuffers& b) {
  return b.inputs[b.actors[p.depth.index()].input(k).index()];
}

// The operations of each kind for a planned actor, one per element j of
// its output, appended to RhsProgram's arrays (whose element types are
// private to it: deduced here).

/// Appends to `ops` the copies of `p`'s states to its output.
template <class Copy>
void add_copies(std::vector<Copy>& ops, const Planned& p, const RunBuffers& b) {
  const SignalSlice out = output_of(p, b);
  const StateSlice states = b.actors[p.depth.index()].states;
  for (std::uint32_t j = 0; j < out.width; ++j) {
    Copy op;
    op.to = signal(out, j);
    op.from[0] = states.at(j);
    ops.push_back(op);
  }
}

/// Appends to `ops` the scales of `p`'s input 0 by `gain` to its output,
/// and to `gains` that gain once per element.
template <class ScaleOp>
void add_scales(std::vector<ScaleOp>& ops, std::vector<double>& gains, const Planned& p, double gain,
                const RunBuffers& b) {
  const SignalSlice out = output_of(p, b);
  for (std::uint32_t j = 0; j < out.width; ++j) {
    ScaleOp op;
    op.to = signal(out, j);
    op.from[0] = signal(input_of(p, 0, b), j);
    op.gain = static_cast<decltype(op.gain)>(gains.size());
    gains.push_back(gain);
    ops.push_back(op);
  }
}

/// Appends to `ops` the sums of `p`'s inputs with `weights` (one a term, as
/// many as `ops`' operations have) to its output.
template <class SumOp>
void add_sums_of(std::vector<SumOp>& ops, const Planned& p, std::span<const double> weights,
                 const RunBuffers& b) {
  const SignalSlice out = output_of(p, b);
  for (std::uint32_t j = 0; j < out.width; ++j) {
    SumOp op;
    op.to = signal(out, j);
    for (std::size_t t = 0; t < op.weight.size(); ++t) {
      op.from[t] = signal(input_of(p, t, b), j);
      op.weight[t] = weights[t];
    }
    ops.push_back(op);
  }
}

/// Appends to `sums` the sums of `p`'s inputs with `weights` to its output,
/// their terms to `terms` (any number of terms).
template <class SumOp, class TermOp>
void add_sums(std::vector<SumOp>& sums, std::vector<TermOp>& terms, const Planned& p,
              std::span<const double> weights, const RunBuffers& b) {
  const SignalSlice out = output_of(p, b);
  for (std::uint32_t j = 0; j < out.width; ++j) {
    sums.push_back({signal(out, j), static_cast<decltype(SumOp::first)>(terms.size()),
                    static_cast<decltype(SumOp::count)>(weights.size())});
    for (std::size_t t = 0; t < weights.size(); ++t)
      terms.push_back({signal(input_of(p, t, b), j), weights[t]});
  }
}

// Which operations may share a run: any copies or scales (each scale has
// its own gain in gains_), sums with the same weights (bit for bit).

/// Any two operations of one kind.
constexpr auto any_pair = [](const auto&, const auto&) { return true; };

/// Two sums whose weights are the same, bit for bit.
constexpr auto same_weights = [](const auto& run, const auto& op) {
  for (std::size_t t = 0; t < run.weight.size(); ++t) {
    if (std::bit_cast<std::uint64_t>(run.weight[t]) != std::bit_cast<std::uint64_t>(op.weight[t]))
      return false;
  }
  return true;
};

}  // namespace

template <class To, class From, std::size_t N>
bool RhsProgram::extend(Run<To, From, N>& run, const Run<To, From, N>& op) {
  if (run.count == 1) {
    Run<To, From, N> two = run;
    if (!step_between(run.to, op.to, two.to_stride) || two.to_stride == 0) return false;
    for (std::size_t i = 0; i < N; ++i) {
      if (!step_between(run.from[i], op.from[i], two.from_stride[i])) return false;
    }
    two.count = 2;
    run = two;
    return true;
  }
  if (run.count == std::numeric_limits<OpIndex>::max()) return false;
  if (!continues(run.to, run.to_stride, run.count, op.to)) return false;
  for (std::size_t i = 0; i < N; ++i) {
    if (!continues(run.from[i], run.from_stride[i], run.count, op.from[i])) return false;
  }
  ++run.count;
  return true;
}

template <class R, class Same>
void RhsProgram::merge_runs(std::vector<R>& ops, std::size_t begin, Same&& same) {
  // In place: what is kept never passes what is read.
  std::size_t kept = begin;
  for (std::size_t i = begin; i < ops.size();) {
    R run = ops[i];
    std::size_t j = i + 1;
    while (j < ops.size() && same(run, ops[j]) && extend(run, ops[j])) ++j;
    if (j - i >= kMinRun) {
      run.unit = run.to_stride == 1 && std::all_of(run.from_stride.begin(), run.from_stride.end(),
                                                   [](std::int32_t d) { return d == 1; });
      ops[kept++] = run;
    } else {
      for (std::size_t m = i; m < j; ++m) ops[kept++] = ops[m];
    }
    i = j;
  }
  ops.resize(kept);
}

RhsProgram::RhsProgram(Part part, std::span<const ActorId> depths, std::span<const Actor* const> actors,
                       const RunBuffers& b) {
  if (part == Part::kOutputs || part == Part::kLoopOutputs) {
    compile_outputs(depths, actors, b, part == Part::kOutputs);
  } else {
    compile_derivatives(depths, actors, b);
  }
}

void RhsProgram::compile_outputs(std::span<const ActorId> depths, std::span<const Actor* const> actors,
                                 const RunBuffers& b, bool whole_loops) {
  const OutputPlan plan = plan_outputs(depths, actors, b, whole_loops);
  const auto terms = [&](PlanIndex i) { return plan.kernels[i].weights.size(); };
  // The operations of each kind for actor i; merged into runs level by level below.
  const auto add_copy = [&](PlanIndex i) { add_copies(copies_, plan.actors[i], b); };
  const auto add_scale = [&](PlanIndex i) {
    add_scales(scales_, gains_, plan.actors[i], plan.kernels[i].gain, b);
  };
  const auto add_sum = [&](PlanIndex i) {
    add_sums(sums_, terms_, plan.actors[i], plan.kernels[i].weights, b);
  };
  const auto add_sum_of = [&](auto& ops, PlanIndex i) {
    add_sums_of(ops, plan.actors[i], plan.kernels[i].weights, b);
  };
  // Level by level, one segment per kind of operation present in the level.
  n_levels_ = plan.n_levels;
  for (std::size_t k = 0, first = 0; k < plan.n_levels; first = plan.level_end[k], ++k) {
    // The operations of the level's actors that `wanted` picks, added to
    // `ops`; a segment of `op` over what was added (after merging, for the
    // kinds that merge into runs).
    const auto collect = [&](auto& ops, const auto& wanted, const auto& add) {
      const std::size_t begin = ops.size();
      for (std::size_t j = first; j < plan.level_end[k]; ++j) {
        if (wanted(plan.by_level[j])) add(plan.by_level[j]);
      }
      return begin;
    };
    const auto close = [&](Op op, std::size_t begin, std::size_t end) {
      if (end > begin) segments_.push_back({op, static_cast<OpIndex>(begin), static_cast<OpIndex>(end)});
    };
    const auto merged = [&](Op op, auto& ops, const auto& wanted, const auto& add, const auto& same) {
      const std::size_t begin = collect(ops, wanted, add);
      merge_runs(ops, begin, same);
      close(op, begin, ops.size());
    };
    const auto form_is = [&](Kernel::Output form) {
      return [&, form](PlanIndex i) { return plan.actors[i].form == form; };
    };
    const auto sum_of = [&](std::size_t n) {
      return [&, n](PlanIndex i) {
        return plan.actors[i].form == Kernel::Output::kWeightedSum && terms(i) == n;
      };
    };
    merged(Op::kCopy, copies_, form_is(Kernel::Output::kState), add_copy, any_pair);
    merged(Op::kScale, scales_, form_is(Kernel::Output::kScale), add_scale, any_pair);
    merged(
        Op::kSum2, sums2_, sum_of(2), [&](PlanIndex i) { add_sum_of(sums2_, i); }, same_weights);
    merged(
        Op::kSum3, sums3_, sum_of(3), [&](PlanIndex i) { add_sum_of(sums3_, i); }, same_weights);
    merged(
        Op::kSum4, sums4_, sum_of(4), [&](PlanIndex i) { add_sum_of(sums4_, i); }, same_weights);
    // Sums of other numbers of terms and virtual calls: one operation each.
    const std::size_t sums_begin = collect(
        sums_,
        [&](PlanIndex i) {
          return plan.actors[i].form == Kernel::Output::kWeightedSum && (terms(i) < 2 || terms(i) > 4);
        },
        add_sum);
    close(Op::kSum, sums_begin, sums_.size());
    const std::size_t calls_begin = collect(calls_, form_is(Kernel::Output::kVirtual),
                                            [&](PlanIndex i) { calls_.push_back(plan.actors[i].depth); });
    close(Op::kCall, calls_begin, calls_.size());
  }
}

void RhsProgram::compile_derivatives(std::span<const ActorId> depths, std::span<const Actor* const> actors,
                                     const RunBuffers& b) {
  // Derivatives write only dx/dt, each element once, and read only signals:
  // no order among them matters. In the order of the signals they read, so
  // that integrators fed along a network in depth order form runs.
  for (const ActorId d : depths) {
    const Actor& actor = *actors[d.index()];
    const Kernel kernel = kernel_of(actor);
    const ActorSlots& slots = b.actors[d.index()];
    if (kernel.derivatives == Kernel::Derivatives::kInput && !actor.inputs().empty() &&
        b.inputs[slots.first_input.index()].width == slots.states.width) {
      const SignalSlice in = b.inputs[slots.first_input.index()];
      for (std::uint32_t j = 0; j < in.width; ++j) {
        InputCopy op;
        op.to = slots.states.at(j);
        op.from[0] = signal(in, j);
        input_copies_.push_back(op);
      }
    } else {
      calls_.push_back(d);
    }
  }
  std::stable_sort(input_copies_.begin(), input_copies_.end(), [](const InputCopy& l, const InputCopy& r) {
    return l.from[0] < r.from[0] || (l.from[0] == r.from[0] && l.to < r.to);
  });
  merge_runs(input_copies_, 0, [](const auto&, const auto&) { return true; });
}

void RhsProgram::copy_run(double* out, Stride so, const double* in, Stride si, OpIndex count, bool unit) {
  if (unit) {
    for (OpIndex k = 0; k < count; ++k) out[k] = in[k];
  } else {
#pragma GCC unroll 4
    for (OpIndex k = 0; k < count; ++k) out[k * so] = in[k * si];
  }
}

void RhsProgram::scale_run(double* out, Stride so, const double* in, Stride si, const double* gain,
                           OpIndex count, bool unit) {
  if (unit) {
    for (OpIndex k = 0; k < count; ++k) out[k] = gain[k] * in[k];
  } else {
#pragma GCC unroll 4
    for (OpIndex k = 0; k < count; ++k) out[k * so] = gain[k] * in[k * si];
  }
}

/// The sum of N terms in order from 0, as Sum::evaluate adds them.
template <std::size_t N>
void RhsProgram::sum_run(double* out, Stride so, const std::array<const double*, N>& in,
                         const std::array<Stride, N>& si, const std::array<double, N>& w, OpIndex count,
                         bool unit) {
  if (unit) {
    for (OpIndex k = 0; k < count; ++k) {
      double sum = 0.0;
      for (std::size_t t = 0; t < N; ++t) sum += w[t] * in[t][k];
      out[k] = sum;
    }
  } else {
#pragma GCC unroll 4
    for (OpIndex k = 0; k < count; ++k) {
      double sum = 0.0;
      for (std::size_t t = 0; t < N; ++t) sum += w[t] * in[t][k * si[t]];
      out[k * so] = sum;
    }
  }
}

template void RhsProgram::sum_run<2>(double*, Stride, const std::array<const double*, 2>&,
                                     const std::array<Stride, 2>&, const std::array<double, 2>&, OpIndex,
                                     bool);
template void RhsProgram::sum_run<3>(double*, Stride, const std::array<const double*, 3>&,
                                     const std::array<Stride, 3>&, const std::array<double, 3>&, OpIndex,
                                     bool);
template void RhsProgram::sum_run<4>(double*, Stride, const std::array<const double*, 4>&,
                                     const std::array<Stride, 4>&, const std::array<double, 4>&, OpIndex,
                                     bool);

RhsProgram::Shape RhsProgram::shape() const {
  const auto elements = [](const auto& ops) {
    std::size_t n = 0;
    for (const auto& op : ops) n += op.count;
    return n;
  };
  return Shape{n_levels_,
               elements(copies_) + elements(input_copies_),
               elements(scales_),
               elements(sums2_) + elements(sums3_) + elements(sums4_) + sums_.size(),
               copies_.size() + input_copies_.size() + scales_.size() + sums2_.size() + sums3_.size() +
                   sums4_.size() + sums_.size(),
               calls_};
}

}  // namespace ctde
