#include "domains/ctde/rhs_program.hpp"

#include <algorithm>

namespace ctde {

namespace {

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
/// (a virtual call may read any of its inputs).
template <class F>
void for_each_read(const Planned& p, const Actor& actor, const RunBuffers& b, F&& f) {
  const ActorSlots& slots = b.actors[p.depth.index()];
  std::size_t n = actor.inputs().size();
  if (p.form == Kernel::Output::kState) n = 0;
  if (p.form == Kernel::Output::kScale) n = 1;
  for (std::size_t i = 0; i < n; ++i) f(b.inputs[slots.input(i).index()]);
}

template <class F>
void for_each_write(const Planned& p, const Actor& actor, const RunBuffers& b, F&& f) {
  const ActorSlots& slots = b.actors[p.depth.index()];
  for (std::size_t o = 0; o < actor.outputs().size(); ++o) f(b.outputs[slots.output(o).index()]);
}

std::size_t signal_count(const RunBuffers& b) {
  std::size_t n = 0;
  for (const SignalSlice& s : b.outputs) n = std::max(n, s.past_end());
  for (const SignalSlice& s : b.inputs) n = std::max(n, s.past_end());
  return n;
}

/// The signal element `j` of slice `s` (of RunBuffers::signals).
SignalIndex signal(SignalSlice s, std::uint32_t j) { return s.at(j); }

}  // namespace

RhsProgram::RhsProgram(Part part, std::span<const ActorId> depths, std::span<const Actor* const> actors,
                       const RunBuffers& b) {
  if (part == Part::kOutputs) {
    compile_outputs(depths, actors, b);
  } else {
    compile_derivatives(depths, actors, b);
  }
}

void RhsProgram::compile_outputs(std::span<const ActorId> depths, std::span<const Actor* const> actors,
                                 const RunBuffers& b) {
  std::vector<Planned> plan(depths.size());
  std::vector<Kernel> kernels(depths.size());
  // Levels, in schedule order: after the writer of every signal read (read
  // after write) and after every earlier reader of a signal written (write
  // after read), so that no dependency the schedule expresses is lost.
  constexpr Level kNone = ~Level{0};
  const std::size_t n_signals = signal_count(b);
  std::vector<Level> written_at(n_signals, kNone);  // per signal element: level + 1 of the writer
  std::vector<Level> read_at(n_signals, 0);         // per signal element: level + 1 of the latest reader
  Level n_levels = 0;
  for (std::size_t i = 0; i < depths.size(); ++i) {
    Planned& p = plan[i];
    p.depth = depths[i];
    const Actor& actor = *actors[p.depth.index()];
    kernels[i] = actor.kernel();
    p.form = output_form(p.depth, actor, kernels[i], b);
    Level level = 0;
    for_each_read(p, actor, b, [&](SignalSlice s) {
      for (std::size_t o = s.offset.index(); o < s.past_end(); ++o) {
        if (written_at[o] != kNone) level = std::max(level, written_at[o]);
      }
    });
    for_each_write(p, actor, b, [&](SignalSlice s) {
      for (std::size_t o = s.offset.index(); o < s.past_end(); ++o) level = std::max(level, read_at[o]);
    });
    p.level = level;
    for_each_read(p, actor, b, [&](SignalSlice s) {
      for (std::size_t o = s.offset.index(); o < s.past_end(); ++o)
        read_at[o] = std::max(read_at[o], level + 1);
    });
    for_each_write(p, actor, b, [&](SignalSlice s) {
      for (std::size_t o = s.offset.index(); o < s.past_end(); ++o) written_at[o] = level + 1;
    });
    n_levels = std::max(n_levels, level + 1);
  }

  // The actors of each level, in schedule order.
  std::vector<PlanIndex> by_level(plan.size());
  for (PlanIndex i = 0; i < by_level.size(); ++i) by_level[i] = i;
  std::stable_sort(by_level.begin(), by_level.end(),
                   [&](PlanIndex l, PlanIndex r) { return plan[l].level < plan[r].level; });

  std::vector<std::size_t> level_end(n_levels, 0);  // in by_level
  for (const PlanIndex i : by_level) level_end[plan[i].level] += 1;
  for (std::size_t k = 1; k < n_levels; ++k) level_end[k] += level_end[k - 1];

  const auto out_of = [&](PlanIndex i) {
    return b.outputs[b.actors[plan[i].depth.index()].first_output.index()];
  };
  const auto in_of = [&](PlanIndex i, std::size_t k) {
    return b.inputs[b.actors[plan[i].depth.index()].input(k).index()];
  };
  const auto terms = [&](PlanIndex i) { return kernels[i].weights.size(); };
  // The operations of each kind for actor i; j is an element of its output.
  const auto add_copies = [&](PlanIndex i) {
    const SignalSlice out = out_of(i);
    const Slice states = b.actors[plan[i].depth.index()].states;
    for (std::uint32_t j = 0; j < out.width; ++j) copies_.push_back({signal(out, j), states.at(j)});
  };
  const auto add_scales = [&](PlanIndex i) {
    const SignalSlice out = out_of(i);
    for (std::uint32_t j = 0; j < out.width; ++j) {
      scales_.push_back({signal(out, j), signal(in_of(i, 0), j), kernels[i].gain});
    }
  };
  const auto add_sums_of = [&]<std::size_t N>(std::vector<SumOf<N>>& ops, PlanIndex i) {
    const SignalSlice out = out_of(i);
    for (std::uint32_t j = 0; j < out.width; ++j) {
      SumOf<N> op{signal(out, j), {}, {}};
      for (std::size_t t = 0; t < N; ++t) {
        op.from[t] = signal(in_of(i, t), j);
        op.weight[t] = kernels[i].weights[t];
      }
      ops.push_back(op);
    }
  };
  const auto add_sums = [&](PlanIndex i) {
    const SignalSlice out = out_of(i);
    const std::span<const double> weights = kernels[i].weights;
    for (std::uint32_t j = 0; j < out.width; ++j) {
      sums_.push_back(
          {signal(out, j), static_cast<OpIndex>(terms_.size()), static_cast<OpIndex>(weights.size())});
      for (std::size_t t = 0; t < weights.size(); ++t) terms_.push_back({signal(in_of(i, t), j), weights[t]});
    }
  };
  // Level by level, one segment per kind of operation present in the level.
  n_levels_ = n_levels;
  for (std::size_t k = 0, first = 0; k < n_levels; first = level_end[k], ++k) {
    const auto segment = [&](Op op, const auto& size, const auto& wanted, const auto& add) {
      const auto begin = static_cast<OpIndex>(size());
      for (std::size_t j = first; j < level_end[k]; ++j) {
        if (wanted(by_level[j])) add(by_level[j]);
      }
      const auto end = static_cast<OpIndex>(size());
      if (end > begin) segments_.push_back({op, begin, end});
    };
    const auto form_is = [&](Kernel::Output form) {
      return [&, form](PlanIndex i) { return plan[i].form == form; };
    };
    const auto sum_of = [&](std::size_t n) {
      return [&, n](PlanIndex i) { return plan[i].form == Kernel::Output::kWeightedSum && terms(i) == n; };
    };
    segment(
        Op::kCopy, [&] { return copies_.size(); }, form_is(Kernel::Output::kState), add_copies);
    segment(
        Op::kScale, [&] { return scales_.size(); }, form_is(Kernel::Output::kScale), add_scales);
    segment(
        Op::kSum2, [&] { return sums2_.size(); }, sum_of(2), [&](PlanIndex i) { add_sums_of(sums2_, i); });
    segment(
        Op::kSum3, [&] { return sums3_.size(); }, sum_of(3), [&](PlanIndex i) { add_sums_of(sums3_, i); });
    segment(
        Op::kSum4, [&] { return sums4_.size(); }, sum_of(4), [&](PlanIndex i) { add_sums_of(sums4_, i); });
    segment(
        Op::kSum, [&] { return sums_.size(); },
        [&](PlanIndex i) {
          return plan[i].form == Kernel::Output::kWeightedSum && (terms(i) < 2 || terms(i) > 4);
        },
        add_sums);
    segment(
        Op::kCall, [&] { return calls_.size(); }, form_is(Kernel::Output::kVirtual),
        [&](PlanIndex i) { calls_.push_back(plan[i].depth); });
  }
}

void RhsProgram::compile_derivatives(std::span<const ActorId> depths, std::span<const Actor* const> actors,
                                     const RunBuffers& b) {
  // Derivatives write only dx/dt: no order among them matters.
  for (const ActorId d : depths) {
    const Actor& actor = *actors[d.index()];
    const Kernel kernel = actor.kernel();
    const ActorSlots& slots = b.actors[d.index()];
    if (kernel.derivatives == Kernel::Derivatives::kInput && !actor.inputs().empty() &&
        b.inputs[slots.first_input.index()].width == slots.states.width) {
      const SignalSlice in = b.inputs[slots.first_input.index()];
      for (std::uint32_t j = 0; j < in.width; ++j)
        input_copies_.push_back({slots.states.at(j), signal(in, j)});
    } else {
      calls_.push_back(d);
    }
  }
}

RhsProgram::Shape RhsProgram::shape() const {
  return Shape{n_levels_, copies_.size() + input_copies_.size(), scales_.size(),
               sums2_.size() + sums3_.size() + sums4_.size() + sums_.size(), calls_};
}

}  // namespace ctde
