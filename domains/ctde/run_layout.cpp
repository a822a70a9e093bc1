// Laying a run out before it starts (RunState::lay_out): the flat buffers,
// the evaluation lists, the algebraic loops' solvers, the rows' columns, and
// the continuous phase's guards and parts.
#include <algorithm>
#include <limits>

#include "core/fast_paths.hpp"
#include "core/loop_sampling.hpp"
#include "core/model_graph.hpp"
#include "domains/ctde/continuous_phase_impl.hpp"
#include "domains/ctde/run_state_impl.hpp"

namespace ctde {
namespace {

/// RunState::lay_out's steps, over the run and its continuous phase.
class Layout {
 public:
  Layout(RunState& run, ContinuousPhase& continuous)
      : run_(run), continuous_(continuous), model_(run.model_), b_(run.b_), layout_(run.layout_) {}

  void lay_out();

 private:
  /// The lengths of the run's buffers, counted by lay_out_actors().
  struct BufferSizes {
    std::uint32_t signals = 0;  ///< output values
    std::uint32_t states = 0;   ///< continuous states
    std::uint32_t tokens = 0;   ///< input token slots
    std::uint32_t inputs = 0;   ///< input ports
    std::uint32_t outputs = 0;  ///< output ports
  };
  /// Per actor (by depth): its slices of the buffers, its guards, whether
  /// it has states, watches steps or drives continuous signals.
  BufferSizes lay_out_actors();
  /// Each input's slice (its driver's output, or zeros when unconnected),
  /// the receivers of each output's tokens, the token and value buffers.
  void connect_inputs(const BufferSizes& sizes);
  /// The algebraic loops (FlatModel::algebraic_loops): their actors by
  /// depth (RunBuffers::loop_members) and their solvers; refused here when
  /// the option `algebraic_loops` is "error".
  void lay_out_loops();
  /// The head of the algebraic loop actor `d` belongs to, or d itself.
  [[nodiscard]] ActorId loop_head(ActorId d) const;
  /// The fixed flags that need the evaluation lists: who moves guards,
  /// functions, readers of timed outputs; the constant discrete inputs.
  void set_fixed_flags();
  /// The evaluation lists, each in schedule order: every continuous and
  /// constant actor (at_start, once); those whose outputs change with time
  /// (continuous: at step ends, output_interval points and after events; a
  /// constant's outputs never change, an actor without continuous outputs
  /// has nothing to evaluate); those the derivatives read (rhs_inputs: the
  /// RHS evaluates only these, not outputs that only the results or discrete
  /// actors read); and those the guards read (guard_inputs: a state-event
  /// search evaluates only these at its trial times).
  void schedule_guards_and_outputs();
  /// The actors of `continuous` (RunLayout::timed) whose outputs `seeds` read: the
  /// drivers of the seeds' inputs and, upstream of those, drivers of inputs
  /// that feed an output through (an output that depends on states only ends
  /// the walk). With `with_seeds`, the seeds too. Schedule order.
  [[nodiscard]] std::vector<ActorId> upstream(const std::vector<ActorId>& seeds, bool with_seeds) const;
  /// The step bound (RunLayout::step_bound) from the actors that drive the guards
  /// and, without output_interval rows, the recorded signals.
  void bound_steps();

  /// Models with this many actors look ahead in the queue (Director::Impl::prefetch_ahead):
  /// their actors outgrow the caches (4096 actors of ~300 bytes: 1.2 MB).
  static constexpr std::size_t kPrefetchActors = 4096;

  RunState& run_;
  ContinuousPhase& continuous_;
  const FlatModel& model_;
  RunBuffers& b_;
  RunLayout& layout_;
};

void Layout::lay_out() {
  const auto n = static_cast<std::uint32_t>(model_.actors.size());
  layout_.by_depth.resize(n);
  layout_.flags.assign(n, 0);
  // The fast paths of the DE phase (core/fast_paths.hpp): the lookahead, the
  // plain firing and the run loop's shortcut for lone events.
  const bool fast = fast_paths_enabled();
  layout_.prefetch_ahead = fast && n >= kPrefetchActors;
  run_.scheduler_.lay_out(n, /*open_early=*/layout_.prefetch_ahead);
  for (FlatIndex a{0}; a.index() < n; ++a) layout_.by_depth[model_.actors[a.index()].depth.index()] = a;
  const BufferSizes sizes = lay_out_actors();
  connect_inputs(sizes);
  lay_out_loop_sampling(model_, b_);  // discrete loops through a delay
  lay_out_loops();
  b_.states.resize(n);
  b_.x_storage.assign(sizes.states, 0.0);
  b_.x = b_.x_storage.data();
  b_.crossed.assign(continuous_.guard_count(), 0);
  schedule_guards_and_outputs();
  set_fixed_flags();
  bound_steps();
  layout_.outputs = RhsProgram(RhsProgram::Part::kOutputs, layout_.continuous, layout_.actors, b_);
  continuous_.lay_out_parts();
  // The fixed flags are all set now. Only a generator serves state events
  // (kStateEvent), and generators are special: a plain firing never has one.
  static_assert((RunState::kSpecial & RunState::kGenerator) != 0);
  layout_.firing_table.lay_out(n);
  for (ActorId d{0}; d.index() < n; ++d) {
    layout_.firing_table.set(d, layout_.actors[d.index()],
                             fast && (layout_.flags[d.index()] & RunState::kSpecial) == 0);
  }
  layout_.pure_de = b_.x_storage.empty() && layout_.continuous.empty() && !run_.rows_.active() &&
                    continuous_.generators().empty();
  layout_.lone_events = fast && layout_.pure_de && layout_.step_watchers.empty() && !continuous_.split();
  std::vector<RecordedColumn> columns;
  for (const RecordedSignal& s : run_.rows_.signals()) {
    const OutputId port = b_.actors[model_[s.actor].depth.index()].output(s.port);
    columns.push_back({port, b_.outputs[port.index()]});
  }
  run_.rows_.lay_out(std::move(columns), sizes.outputs);
}

Layout::BufferSizes Layout::lay_out_actors() {
  const auto n = static_cast<std::uint32_t>(model_.actors.size());
  layout_.actors.resize(n);
  b_.actors.resize(n);
  BufferSizes sizes;
  for (ActorId d{0}; d.index() < n; ++d) {
    const FlatActor& actor = run_.flat(d);
    layout_.actors[d.index()] = actor.actor;
    if (std::find(actor.output_kinds.begin(), actor.output_kinds.end(), PortKind::kContinuous) !=
        actor.output_kinds.end()) {
      layout_.flags[d.index()] = RunState::kDrivesContinuous;
    }
    const auto states = static_cast<std::uint32_t>(actor.actor->state_size());
    b_.actors[d.index()].states = {StateIndex{sizes.states}, states};
    const auto guards = static_cast<std::uint32_t>(actor.actor->guard_count());
    b_.actors[d.index()].guards = {continuous_.add_guards(d, guards), guards};
    if (guards > 0) layout_.flags[d.index()] |= RunState::kGenerator;
    sizes.states += states;
    if (states > 0) layout_.stateful.push_back(d);
    if (actor.actor->watches_steps()) layout_.step_watchers.push_back(d);
    b_.actors[d.index()].first_input = InputId{sizes.inputs};
    b_.actors[d.index()].first_output = OutputId{sizes.outputs};
    for (const int w : actor.output_widths) {
      b_.outputs.push_back({SignalIndex{sizes.signals}, static_cast<std::uint32_t>(w)});
      sizes.signals += static_cast<std::uint32_t>(w);
      ++sizes.outputs;
    }
    for (std::size_t i = 0; i < actor.input_widths.size(); ++i) {
      const auto w = static_cast<std::uint32_t>(actor.input_widths[i]);
      b_.input_tokens.push_back({TokenIndex{sizes.tokens}, w});
      b_.input_owner.push_back(d);
      sizes.tokens += w;
      ++sizes.inputs;
    }
  }
  return sizes;
}

void Layout::connect_inputs(const BufferSizes& sizes) {
  const auto n = static_cast<std::uint32_t>(model_.actors.size());
  // Unconnected inputs read a slice of zeros at the end of the signals.
  std::uint32_t widest = 1;
  for (const TokenSlice& s : b_.input_tokens) widest = std::max(widest, s.width);
  const std::uint32_t zeros = sizes.signals;
  b_.signals.assign(sizes.signals + widest, 0.0);
  for (const SignalSlice& s : b_.outputs) widest = std::max(widest, s.width);
  b_.scratch.assign(widest, 0.0);
  b_.inputs.resize(sizes.inputs);
  b_.input_flags.assign(sizes.inputs, 0);
  std::vector<std::vector<InputId>> receivers(sizes.outputs);  // per output: the discrete inputs it drives
  for (ActorId d{0}; d.index() < n; ++d) {
    const FlatActor& actor = run_.flat(d);
    for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
      const InputId input = b_.actors[d.index()].input(i);
      if (actor.input_kinds[i] == PortKind::kDiscrete) b_.input_flags[input.index()] |= 2U;
      if (!actor.drivers[i]) {
        b_.inputs[input.index()] = {SignalIndex{zeros}, static_cast<std::uint32_t>(actor.input_widths[i])};
        b_.input_flags[input.index()] |= 1U;
        continue;
      }
      const ActorId driver = model_[actor.drivers[i]->actor].depth;
      const OutputId output = b_.actors[driver.index()].output(actor.drivers[i]->port);
      b_.inputs[input.index()] = b_.outputs[output.index()];
      if (actor.input_kinds[i] == PortKind::kDiscrete) receivers[output.index()].push_back(input);
    }
  }
  b_.receivers_begin.assign(1, ReceiverIndex{0});
  for (const auto& list : receivers) {
    b_.receivers.insert(b_.receivers.end(), list.begin(), list.end());
    b_.receivers_begin.push_back(ReceiverIndex::at(b_.receivers.size()));
  }
  b_.tokens_now.assign(sizes.tokens, 0.0);
  b_.tokens_next.assign(sizes.tokens, 0.0);
  b_.present_now.assign(sizes.inputs, 0);
  b_.present_next.assign(sizes.inputs, 0);
}

void Layout::set_fixed_flags() {
  const auto n = static_cast<std::uint32_t>(model_.actors.size());
  // Who can move any guard when it fires (microstep_crossings): an actor
  // with continuous outputs, or the driver of a generator's discrete input.
  for (const ActorId g : continuous_.generators()) {
    const FlatActor& generator = run_.flat(g);
    for (std::size_t i = 0; i < generator.drivers.size(); ++i) {
      if (generator.drivers[i] && generator.input_kinds[i] == PortKind::kDiscrete) {
        layout_.flags[model_[generator.drivers[i]->actor].depth.index()] |= RunState::kMovesGuards;
      }
    }
  }
  if (!continuous_.generators().empty()) {
    for (ActorId d{0}; d.index() < n; ++d) {
      if ((layout_.flags[d.index()] & RunState::kDrivesContinuous) != 0)
        layout_.flags[d.index()] |= RunState::kMovesGuards;
    }
  }
  for (ActorId d{0}; d.index() < n; ++d) {
    const FlatActor& actor = run_.flat(d);
    if (actor.mode == TimeMode::kDiscrete && actor.actor->declared_mode() == TimeMode::kUnresolved) {
      layout_.flags[d.index()] |= RunState::kFunction;
    }
    for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
      if (!actor.drivers[i]) continue;
      const FlatActor& driver = model_[actor.drivers[i]->actor];
      if (layout_.timed[driver.depth.index()] != 0) layout_.flags[d.index()] |= RunState::kReadsTimed;
      if (driver.mode == TimeMode::kConstant && actor.input_kinds[i] == PortKind::kDiscrete) {
        const InputId input = b_.actors[d.index()].input(i);
        layout_.constant_inputs.emplace_back(input, b_.inputs[input.index()]);
      }
    }
  }
}

void Layout::lay_out_loops() {
  if (model_.algebraic_loops.empty()) return;
  if (run_.options_.algebraic_loops == AlgebraicLoops::kError)
    throw_algebraic_loop(model_, model_.algebraic_loops.front());
  b_.loop_of.assign(layout_.actors.size(), 0);
  for (const AlgebraicLoop& loop : model_.algebraic_loops) {
    std::vector<ActorId> members;
    for (const FlatIndex a : loop.order) {
      members.push_back(model_[a].depth);
      b_.loop_of[members.back().index()] = static_cast<std::uint32_t>(b_.loop_members.size() + 1);
    }
    // The unknowns: every element of the tears' continuous outputs.
    std::vector<SignalIndex> unknowns;
    std::vector<std::uint32_t> tear_end;
    for (const FlatIndex a : loop.tear_actors()) {
      const FlatActor& tear = model_[a];
      for (std::size_t o = 0; o < tear.output_kinds.size(); ++o) {
        if (tear.output_kinds[o] != PortKind::kContinuous) continue;
        const SignalSlice out = b_.outputs[b_.actors[tear.depth.index()].output(o).index()];
        for (std::uint32_t j = 0; j < out.width; ++j) unknowns.push_back(out.at(j));
      }
      tear_end.push_back(static_cast<std::uint32_t>(unknowns.size()));
    }
    b_.loop_members.push_back(members);
    LoopSolver::Linear linear = continuous_.loop_jacobian(members, loop.tears, unknowns);
    run_.loops_.push_back(std::make_unique<LoopSolver>(std::move(members), std::move(unknowns),
                                                       std::move(tear_end), layout_.actors, b_));
    if (!linear.jacobian.empty()) run_.loops_.back()->set_linear(std::move(linear));
  }
}

ActorId Layout::loop_head(ActorId d) const {
  if (b_.loop_of.empty() || b_.loop_of[d.index()] == 0) return d;
  return b_.loop_members[b_.loop_of[d.index()] - 1].front();
}

void Layout::schedule_guards_and_outputs() {
  layout_.timed.assign(layout_.actors.size(), 0);
  for (const FlatIndex a : model_.continuous_schedule) {
    const FlatActor& actor = model_[a];
    const ActorId d = actor.depth;
    // An algebraic loop is in the lists once, as its head (its actors follow it in the schedule).
    const bool listed = loop_head(d) == d;
    if (listed) layout_.at_start.push_back(d);
    if (actor.mode == TimeMode::kConstant || (layout_.flags[d.index()] & RunState::kDrivesContinuous) == 0)
      continue;
    if (listed) layout_.continuous.push_back(d);
    layout_.timed[d.index()] = 1;
  }
  layout_.rhs_inputs = upstream(layout_.stateful, /*with_seeds=*/false);
  layout_.guard_inputs = upstream(continuous_.generators(), /*with_seeds=*/true);
}

std::vector<ActorId> Layout::upstream(const std::vector<ActorId>& seeds, bool with_seeds) const {
  std::vector<std::uint8_t> reached(layout_.actors.size(), 0);
  std::vector<ActorId> work;
  // Every input of a seed, then inputs that feed a reached output through;
  // an algebraic loop is reached as its head, and walked from all its actors.
  const auto walk_one = [&](ActorId d, bool all_inputs) {
    const FlatActor& actor = run_.flat(d);
    for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
      if (!actor.drivers[i] || (!all_inputs && !actor.actor->feeds_through(i))) continue;
      const ActorId u = loop_head(model_[actor.drivers[i]->actor].depth);
      if (layout_.timed[u.index()] == 0 || reached[u.index()] != 0) continue;
      reached[u.index()] = 1;
      work.push_back(u);
    }
  };
  const auto walk = [&](ActorId d, bool all_inputs) {
    const std::span<const ActorId> loop = b_.loop_headed_by(d);
    if (loop.empty()) walk_one(d, all_inputs);
    for (const ActorId m : loop) walk_one(m, all_inputs);
  };
  for (const ActorId d : seeds) walk(d, /*all_inputs=*/true);
  while (!work.empty()) {
    const ActorId d = work.back();
    work.pop_back();
    walk(d, /*all_inputs=*/false);
  }
  if (with_seeds) {
    for (const ActorId d : seeds) reached[loop_head(d).index()] = 1;
  }
  std::vector<ActorId> list;
  for (const ActorId d : layout_.continuous) {
    if (reached[d.index()] != 0) list.push_back(d);
  }
  return list;
}

void Layout::bound_steps() {
  // What must be looked at between events: the guards' inputs, the
  // recorded signals unless output_interval rows sample them anyway, and
  // the inputs of actors that sample them at every step end (a
  // TransportDelay's history).
  std::vector<ActorId> seeds = continuous_.generators();
  for (ActorId d{0}; d.index() < layout_.actors.size(); ++d) {
    if (layout_.actors[d.index()]->bounds_every_step()) seeds.push_back(d);
  }
  if (!run_.options_.output_interval) {
    for (const RecordedSignal& s : run_.rows_.signals()) seeds.push_back(model_[s.actor].depth);
  }
  layout_.step_bound = std::numeric_limits<double>::infinity();
  for (const ActorId d : upstream(seeds, /*with_seeds=*/true)) {
    const std::span<const ActorId> loop = b_.loop_headed_by(d);
    for (const ActorId m : loop.empty() ? std::span<const ActorId>(&d, 1) : loop)
      layout_.step_bound = std::min(layout_.step_bound, layout_.actors[m.index()]->max_step());
  }
}

}  // namespace

void RunState::lay_out(ContinuousPhase& continuous) { Layout(*this, continuous).lay_out(); }

}  // namespace ctde
