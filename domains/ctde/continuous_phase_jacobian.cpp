// The structure of a part's Jacobian ∂f/∂x from the model (docs/semantics.md,
// "Jacobians"): each actor's local Jacobian (Actor::local_jacobian,
// core/local_jacobian.hpp) composed along the connections, in schedule
// order, so that a derivative's row names every state it reads through any
// chain of feedthrough actors, vector widths included. The values travel
// with the structure: an unknown local value (NaN) makes every entry it
// touches unknown, and the rows that stay known are exact (a linear
// right-hand side: its Jacobian is a constant of the run).
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "domains/ct/jacobian_evaluator_impl.hpp"
#include "domains/ct/linear_solver.hpp"
#include "domains/ctde/continuous_part_impl.hpp"
#include "domains/ctde/jacobian_program.hpp"

namespace ctde {

namespace {

constexpr std::uint32_t kNoRow = std::numeric_limits<std::uint32_t>::max();

/// A sparse accumulator over n states: the sum of scaled rows, in the order
/// the states were first touched, each sum marked when a value at each
/// point (LocalJacobian::kAtPoint) went into it.
class RowAccumulator {
 public:
  explicit RowAccumulator(std::size_t n) : value_(n, 0.0), point_(n, 0), seen_(n, 0) {}
  void add(std::uint32_t state, double v, bool point) {
    if (seen_[state] != epoch_) {
      seen_[state] = epoch_;
      value_[state] = 0.0;
      point_[state] = 0;
      touched_.push_back(state);
    }
    value_[state] += v;
    if (point) point_[state] = 1;
  }
  /// The row so far, sorted by state; then empty for the next one.
  template <class Out>
  void take(Out&& out) {
    std::sort(touched_.begin(), touched_.end());
    for (const std::uint32_t s : touched_) out(s, value_[s], point_[s] != 0);
    touched_.clear();
    ++epoch_;
  }

 private:
  std::vector<double> value_;
  std::vector<std::uint8_t> point_;
  std::vector<std::uint32_t> seen_;
  std::vector<std::uint32_t> touched_;
  std::uint32_t epoch_ = 1;
};

/// Per signal element an output program computes: its row over a part's
/// states (compressed, in the order computed).
struct RowTable {
  explicit RowTable(std::size_t signals) : row_of(signals, kNoRow) {}
  std::vector<std::uint32_t> row_of;  ///< per signal element: its row, or kNoRow
  std::vector<std::size_t> row_starts{0};
  std::vector<std::uint32_t> row_states;
  std::vector<double> row_values;
  std::vector<std::uint8_t> row_points;  ///< per value: given at each point

  /// Appends the row `acc` holds; returns its number. A program records it too.
  std::uint32_t take(RowAccumulator& acc, JacobianProgram* program) {
    const auto row = static_cast<std::uint32_t>(row_starts.size() - 1);
    acc.take([&](std::uint32_t s, double v, bool point) {
      row_states.push_back(s);
      row_values.push_back(v);
      row_points.push_back(point ? 1 : 0);
    });
    row_starts.push_back(row_states.size());
    if (program != nullptr) {
      (void)program->end_row({row_states.data() + row_starts[row], row_starts[row + 1] - row_starts[row]});
    }
    return row;
  }
};

/// The composition of a part's Jacobian: each actor's local entries summed
/// along the connections into rows over the part's states (and recorded in a
/// JacobianProgram when one is given).
class Composer {
 public:
  Composer(const RunState& run, std::vector<std::uint32_t> local, std::size_t n, JacobianProgram* program)
      : run_(run), local_(std::move(local)), rows_(run.b_.signals.size()), acc_(n), program_(program) {}

  /// The part's number of the run's state `state` (kNoRow: not the part's).
  [[nodiscard]] std::uint32_t local(StateIndex state) const { return local_[state.index()]; }
  /// Actor d's local entries are next (points: those at each point).
  void begin_actor(ActorId d, std::uint32_t points) {
    if (program_ != nullptr) program_->begin_actor(d, points);
  }
  /// Adds local entry e of actor d (its column: a state of d, or an input element) to the row.
  void contribute(ActorId d, const LocalJacobian::Entry& e) {
    const ActorSlots& slots = run_.b_.actors[d.index()];
    const bool point = e.point != LocalJacobian::kNotAtPoint;
    const std::uint32_t slot = program_ != nullptr ? program_->slot(e) : 0;
    if (e.column.kind == LocalJacobian::Kind::kState) {
      if (e.column.index >= slots.states.width) return;
      const std::uint32_t s = local_[slots.states.at(e.column.index).index()];
      if (s == kNoRow) return;
      acc_.add(s, e.value, point);
      if (program_ != nullptr) program_->add_state(slot, s);
      return;
    }
    const SignalSlice in = run_.b_.inputs[slots.input(e.column.port).index()];
    if (e.column.index >= in.width) return;
    const std::uint32_t r = rows_.row_of[in.at(e.column.index).index()];
    if (r == kNoRow) return;  // not computed by the part: constant during a step
    for (std::size_t k = rows_.row_starts[r]; k < rows_.row_starts[r + 1]; ++k)
      acc_.add(rows_.row_states[k], e.value * rows_.row_values[k], point || rows_.row_points[k] != 0);
    if (program_ != nullptr) program_->add_row(slot, r);
  }
  /// Ends an output element's row: signal element `out`'s.
  void end_output(SignalIndex out) { rows_.row_of[out.index()] = rows_.take(acc_, program_); }
  /// Ends derivative i's row: its entries into `entries` (kAtPoint where a value at each point went in).
  void end_derivative(std::uint32_t i, std::vector<JacobianPattern::Entry>& entries) {
    row_.clear();
    acc_.take([&](std::uint32_t s, double v, bool point) {
      double value = v;
      if (point && !std::isnan(v)) value = JacobianPattern::kAtPoint;
      entries.push_back({i, s, value});
      row_.push_back(s);
    });
    if (program_ != nullptr) program_->derivative_row(program_->end_row(row_), i);
  }
  /// The rows of algebraic loop `loop`'s outputs: each may depend on every
  /// input from outside it and every state of its actors (values unknown).
  void add_loop_rows(std::span<const ActorId> loop);

 private:
  const RunState& run_;
  std::vector<std::uint32_t> local_;  ///< the part's number of each of the run's states
  RowTable rows_;
  RowAccumulator acc_;
  JacobianProgram* program_;
  std::vector<std::uint32_t> row_;  ///< scratch: a derivative row's states
};

void Composer::add_loop_rows(std::span<const ActorId> loop) {
  constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  const LocalJacobian::Entry unknown{};
  begin_actor(loop.front(), 0);
  const std::uint32_t slot = program_ != nullptr ? program_->slot(unknown) : 0;
  const auto add = [&](std::uint32_t s) {
    acc_.add(s, kUnknown, false);
    if (program_ != nullptr) program_->add_state(slot, s);
  };
  for (const ActorId m : loop) {
    const ActorSlots& slots = run_.b_.actors[m.index()];
    for (std::uint32_t j = 0; j < slots.states.width; ++j) {
      const std::uint32_t s = local_[slots.states.at(j).index()];
      if (s != kNoRow) add(s);
    }
    for (std::size_t k = 0; k < run_.flat(m).input_widths.size(); ++k) {
      const SignalSlice in = run_.b_.inputs[slots.input(k).index()];
      for (std::uint32_t j = 0; j < in.width; ++j) {
        const std::uint32_t r = rows_.row_of[in.at(j).index()];
        if (r == kNoRow) continue;
        for (std::size_t e = rows_.row_starts[r]; e < rows_.row_starts[r + 1]; ++e) add(rows_.row_states[e]);
      }
    }
  }
  const std::uint32_t row = rows_.take(acc_, program_);
  for (const ActorId m : loop) {
    const ActorSlots& slots = run_.b_.actors[m.index()];
    for (std::size_t o = 0; o < run_.flat(m).output_kinds.size(); ++o) {
      if (run_.flat(m).output_kinds[o] != PortKind::kContinuous) continue;
      const SignalSlice out = run_.b_.outputs[slots.output(o).index()];
      for (std::uint32_t j = 0; j < out.width; ++j) rows_.row_of[out.at(j).index()] = row;
    }
  }
}

/// Calls `each_row(row, entries)` for each run of `sorted`'s entries with the same row.
template <class EachRow>
void by_row(const std::vector<LocalJacobian::Entry>& sorted, EachRow&& each_row) {
  for (std::size_t e = 0; e < sorted.size();) {
    std::size_t next = e;
    while (next < sorted.size() && sorted[next].row.kind == sorted[e].row.kind &&
           sorted[next].row.port == sorted[e].row.port && sorted[next].row.index == sorted[e].row.index)
      ++next;
    each_row(sorted[e].row, std::span<const LocalJacobian::Entry>(sorted.data() + e, next - e));
    e = next;
  }
}

}  // namespace

ContinuousPhase::LocalEntries ContinuousPhase::sorted_local_jacobian(ActorId d) const {
  const FlatActor& actor = run_.flat(d);
  std::vector<std::uint32_t> in_widths(actor.input_widths.size());
  std::vector<std::uint32_t> out_widths(actor.output_widths.size());
  const ActorSlots& slots = run_.b_.actors[d.index()];
  for (std::size_t k = 0; k < in_widths.size(); ++k)
    in_widths[k] = run_.b_.inputs[slots.input(k).index()].width;
  for (std::size_t o = 0; o < out_widths.size(); ++o) {
    // A discrete output keeps its token's value during a step: no row.
    out_widths[o] =
        actor.output_kinds[o] == PortKind::kContinuous ? run_.b_.outputs[slots.output(o).index()].width : 0;
  }
  LocalJacobian jacobian(std::move(in_widths), std::move(out_widths), slots.states.width);
  run_.layout_.actors[d.index()]->local_jacobian(jacobian);
  std::vector<LocalJacobian::Entry> sorted(jacobian.entries().begin(), jacobian.entries().end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return std::tie(a.row.kind, a.row.port, a.row.index) < std::tie(b.row.kind, b.row.port, b.row.index);
  });
  return {std::move(sorted), jacobian.points()};
}

JacobianPattern ContinuousPhase::jacobian_pattern(const Part* part, JacobianProgram* program) const {
  const bool whole = part == nullptr || part->whole;
  const std::size_t n = whole ? run_.b_.x_storage.size() : part->states.size();
  // The part's number of each of the run's states.
  std::vector<std::uint32_t> local(run_.b_.x_storage.size(), kNoRow);
  for (std::size_t k = 0; k < n; ++k) {
    local[whole ? k : part->states[k].index()] = static_cast<std::uint32_t>(k);
  }
  Composer composer(run_, std::move(local), n, program);
  std::vector<JacobianPattern::Entry> entries;
  const auto mine = [&](ActorId d) { return whole || parts_.of[d.index()] == part->id; };
  for (const ActorId d : run_.layout_.rhs_inputs) {
    if (!mine(d)) continue;
    if (const std::span<const ActorId> loop = run_.b_.loop_headed_by(d); !loop.empty()) {
      composer.add_loop_rows(loop);
      continue;
    }
    const ActorSlots& slots = run_.b_.actors[d.index()];
    const LocalEntries local_entries = sorted_local_jacobian(d);
    composer.begin_actor(d, local_entries.points);
    by_row(local_entries.entries,
           [&](const LocalJacobian::Element& row, std::span<const LocalJacobian::Entry> es) {
             if (row.kind != LocalJacobian::Kind::kOutput) return;
             const SignalSlice out = run_.b_.outputs[slots.output(row.port).index()];
             if (row.index >= out.width) return;
             for (const auto& e : es) composer.contribute(d, e);
             composer.end_output(out.at(row.index));
           });
  }
  for (const ActorId d : run_.layout_.stateful) {
    if (!mine(d)) continue;
    const ActorSlots& slots = run_.b_.actors[d.index()];
    const LocalEntries local_entries = sorted_local_jacobian(d);
    composer.begin_actor(d, local_entries.points);
    by_row(local_entries.entries,
           [&](const LocalJacobian::Element& row, std::span<const LocalJacobian::Entry> es) {
             if (row.kind != LocalJacobian::Kind::kDerivative || row.index >= slots.states.width) return;
             const std::uint32_t i = composer.local(slots.states.at(row.index));
             if (i == kNoRow) return;
             for (const auto& e : es) composer.contribute(d, e);
             composer.end_derivative(i, entries);
           });
  }
  JacobianPattern pattern(n, std::move(entries));
  if (program != nullptr) program->finish(pattern);
  return pattern;
}

JacobianPattern ContinuousPhase::part_pattern(Part& p) const {
  JacobianPattern pattern = jacobian_pattern(&p);
  if (!pattern.values_at_point()) return pattern;
  // Composed again and recorded, only then: the program takes memory.
  p.program.emplace();
  return jacobian_pattern(&p, &*p.program);
}

std::vector<double> ContinuousPhase::jacobian_at_start(bool finite_differences) {
  const std::size_t n = run_.b_.x_storage.size();
  std::vector<double> jacobian(n * n, 0.0);
  const double t = run_.resolution_.to_seconds(run_.start_);
  for (Part& p : parts_.all) {
    if (p.x.empty()) continue;
    const std::size_t m = p.x.size();
    const JacobianPattern exact = part_pattern(p);
    const JacobianPattern pattern = finite_differences ? exact.unknown_values() : exact;
    JacobianEvaluator evaluator(pattern, &ContinuousPhase::part_rhs, &p,
                                JacobianEvaluator::Storage::kColumnMajor,
                                &ContinuousPhase::part_values_at_point);
    const std::vector<double> x(part_state(p), part_state(p) + m);
    std::vector<double> fx(m);
    std::vector<double> local(m * m);
    if (part_rhs(t, x.data(), fx.data(), &p) != 0 ||
        evaluator.evaluate(t, x.data(), fx.data(), local.data()) != 0) {
      throw std::runtime_error(
          "the Jacobian at the start could not be evaluated: f failed or a value is not finite");
    }
    const auto global = [&](std::size_t k) { return p.whole ? k : p.states[k].index(); };
    for (std::size_t j = 0; j < m; ++j) {
      for (std::size_t i = 0; i < m; ++i) jacobian[global(i) + global(j) * n] = local[i + j * m];
    }
  }
  return jacobian;
}

LoopSolver::Linear ContinuousPhase::loop_jacobian(std::span<const ActorId> members, std::size_t tears,
                                                  std::span<const SignalIndex> unknowns) const {
  LoopSolver::Linear linear;
  const std::size_t n = unknowns.size();
  // Per signal element the loop computes: its derivatives over the unknowns.
  std::unordered_map<std::uint32_t, std::vector<double>> rows;
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<double>& row = rows[unknowns[k].value()];
    row.assign(n, 0.0);
    row[k] = 1.0;
  }
  std::vector<double> jacobian(n * n, 0.0);  // -I, plus the tears' outputs' rows below
  for (std::size_t k = 0; k < n; ++k) jacobian[k + k * n] = -1.0;
  bool known = true;
  for (std::size_t i = 0; i < members.size() && known; ++i) {
    const ActorId d = members[i];
    const ActorSlots& slots = run_.b_.actors[d.index()];
    const bool tear = i >= members.size() - tears;
    by_row(sorted_local_jacobian(d).entries, [&](const LocalJacobian::Element& row,
                                                 std::span<const LocalJacobian::Entry> es) {
      if (row.kind != LocalJacobian::Kind::kOutput || !known) return;
      std::vector<double> sum(n, 0.0);
      for (const LocalJacobian::Entry& e : es) {
        if (e.column.kind != LocalJacobian::Kind::kInput) continue;  // states are fixed in a solve
        const auto it =
            rows.find(run_.b_.inputs[slots.input(e.column.port).index()].at(e.column.index).value());
        if (it == rows.end()) continue;  // from outside the loop: fixed in a solve
        if (std::isnan(e.value) || e.point != LocalJacobian::kNotAtPoint) known = false;  // not a constant
        for (std::size_t j = 0; j < n; ++j) sum[j] += e.value * it->second[j];
      }
      const SignalIndex out = run_.b_.outputs[slots.output(row.port).index()].at(row.index);
      if (!tear) {
        if (std::any_of(sum.begin(), sum.end(), [](double v) { return v != 0.0; })) {
          linear.outputs.push_back(out);
          linear.slopes.insert(linear.slopes.end(), sum.begin(), sum.end());
        }
        rows[out.value()] = std::move(sum);
        return;
      }
      const auto k =
          static_cast<std::size_t>(std::find(unknowns.begin(), unknowns.end(), out) - unknowns.begin());
      if (k == n) return;
      for (std::size_t j = 0; j < n; ++j) jacobian[k + j * n] += sum[j];
    });
  }
  if (!known) return {};
  linear.jacobian = std::move(jacobian);
  return linear;
}

Director::JacobianSummary ContinuousPhase::jacobian_summary() const {
  const JacobianPattern j = jacobian_pattern(nullptr);
  const LinearSolverChoice choice = choose_linear_solver(run_.options_.linear_solver, j);
  return {j.size(),
          j.nonzeros(),
          j.lower_bandwidth(),
          j.upper_bandwidth(),
          j.structural_group_count(),
          j.size() - j.unknown_rows(),
          to_string(choice.kind),
          choice.reason};
}

}  // namespace ctde
