// The director's flat buffers and evaluation lists.
#include "domains/ctde/director_parts_impl.hpp"

#include <algorithm>
#include <limits>

namespace ctde {

Director::Impl::Impl(const FlatModel& model, const RunOptions& options, std::string name, TraceWriter* trace,
                     ResultsSink* results)
    : model_(model),
      options_(options),
      name_(std::move(name)),
      trace_(trace),
      results_(results),
      resolution_(options.time_resolution),
      start_(resolution_.to_ticks(options.start_time)),
      stop_(resolution_.to_ticks(options.stop_time)) {
  for (const FlatActor& actor : model_.actors) actor.actor->check_time_resolution(resolution_);
  lay_out();
  if (!options_.atol_per_state.empty() && options_.atol_per_state.size() != b_.x_storage.size()) {
    throw OptionError("atol", "director option 'atol' lists " +
                                  std::to_string(options_.atol_per_state.size()) +
                                  " tolerances but the model has " + std::to_string(b_.x_storage.size()) +
                                  " continuous states (give one number, or one per state in the order ctde "
                                  "validate prints)");
  }
}

void Director::Impl::lay_out() {
  const auto n = static_cast<std::uint32_t>(model_.actors.size());
  by_depth_.resize(n);
  flags_.assign(n, 0);
  prefetch_ahead_ = n >= kPrefetchActors;
  scheduler_.lay_out(n, /*open_early=*/prefetch_ahead_);
  for (FlatIndex a{0}; a.index() < n; ++a) by_depth_[model_.actors[a.index()].depth.index()] = a;
  actors_.resize(n);
  b_.actors.resize(n);
  std::uint32_t signal_size = 0;
  std::uint32_t state_size = 0;
  std::uint32_t token_size = 0;
  std::uint32_t inputs = 0;
  std::uint32_t outputs = 0;
  for (ActorId d{0}; d.index() < n; ++d) {
    const FlatActor& actor = flat(d);
    actors_[d.index()] = actor.actor;
    if (std::find(actor.output_kinds.begin(), actor.output_kinds.end(), PortKind::kContinuous) !=
        actor.output_kinds.end()) {
      flags_[d.index()] = kDrivesContinuous;
    }
    const auto states = static_cast<std::uint32_t>(actor.actor->state_size());
    b_.actors[d.index()].states = {StateIndex{state_size}, states};
    const auto guards = static_cast<std::uint32_t>(actor.actor->guard_count());
    b_.actors[d.index()].guards = {GuardId::at(guards_.owner.size()), guards};
    if (guards > 0) {
      guards_.generators.push_back(d);
      flags_[d.index()] |= kGenerator;
    }
    for (std::uint32_t i = 0; i < guards; ++i) guards_.owner.push_back(d);
    state_size += states;
    if (states > 0) stateful_.push_back(d);
    if (actor.actor->watches_steps()) step_watchers_.push_back(d);
    b_.actors[d.index()].first_input = InputId{inputs};
    b_.actors[d.index()].first_output = OutputId{outputs};
    for (const int w : actor.output_widths) {
      b_.outputs.push_back({SignalIndex{signal_size}, static_cast<std::uint32_t>(w)});
      signal_size += static_cast<std::uint32_t>(w);
      ++outputs;
    }
    for (std::size_t i = 0; i < actor.input_widths.size(); ++i) {
      const auto w = static_cast<std::uint32_t>(actor.input_widths[i]);
      b_.input_tokens.push_back({TokenIndex{token_size}, w});
      b_.input_owner.push_back(d);
      token_size += w;
      ++inputs;
    }
  }
  // Unconnected inputs read a slice of zeros at the end of the signals.
  std::uint32_t widest = 1;
  for (const TokenSlice& s : b_.input_tokens) widest = std::max(widest, s.width);
  const std::uint32_t zeros = signal_size;
  signal_size += widest;
  b_.signals.assign(signal_size, 0.0);
  for (const SignalSlice& s : b_.outputs) widest = std::max(widest, s.width);
  b_.scratch.assign(widest, 0.0);
  b_.inputs.resize(inputs);
  b_.input_flags.assign(inputs, 0);
  std::vector<std::vector<InputId>> receivers(outputs);  // per output: the discrete inputs it drives
  for (ActorId d{0}; d.index() < n; ++d) {
    const FlatActor& actor = flat(d);
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
  b_.tokens_now.assign(token_size, 0.0);
  b_.tokens_next.assign(token_size, 0.0);
  b_.present_now.assign(inputs, 0);
  b_.present_next.assign(inputs, 0);
  b_.states.resize(n);
  b_.x_storage.assign(state_size, 0.0);
  b_.x = b_.x_storage.data();
  dense_.assign(state_size, 0.0);
  b_.crossed.assign(guards_.owner.size(), 0);
  schedule_guards_and_outputs();
  // Who can move any guard when it fires (microstep_crossings): an actor
  // with continuous outputs, or the driver of a generator's discrete input.
  for (const ActorId g : guards_.generators) {
    const FlatActor& generator = flat(g);
    for (std::size_t i = 0; i < generator.drivers.size(); ++i) {
      if (generator.drivers[i] && generator.input_kinds[i] == PortKind::kDiscrete) {
        flags_[model_[generator.drivers[i]->actor].depth.index()] |= kMovesGuards;
      }
    }
  }
  guards_.fired_generators.reserve(guards_.generators.size());  // nothing allocates while firing
  if (!guards_.generators.empty()) {
    for (ActorId d{0}; d.index() < n; ++d) {
      if ((flags_[d.index()] & kDrivesContinuous) != 0) flags_[d.index()] |= kMovesGuards;
    }
  }
  for (ActorId d{0}; d.index() < n; ++d) {
    const FlatActor& actor = flat(d);
    if (actor.mode == TimeMode::kDiscrete && actor.actor->declared_mode() == TimeMode::kUnresolved) {
      flags_[d.index()] |= kFunction;
    }
    for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
      if (!actor.drivers[i]) continue;
      const FlatActor& driver = model_[actor.drivers[i]->actor];
      if (timed_[driver.depth.index()] != 0) flags_[d.index()] |= kReadsTimed;
      if (driver.mode == TimeMode::kConstant && actor.input_kinds[i] == PortKind::kDiscrete) {
        const InputId input = b_.actors[d.index()].input(i);
        constant_inputs_.emplace_back(input, b_.inputs[input.index()]);
      }
    }
  }
  bound_steps();
  outputs_ = RhsProgram(RhsProgram::Part::kOutputs, continuous_, actors_, b_);
  lay_out_parts();
  // The fixed flags are all set now. Only a generator serves state events
  // (kStateEvent), and generators are special: a plain firing never has one.
  static_assert((kSpecial & kGenerator) != 0);
  firing_table_.lay_out(n);
  for (ActorId d{0}; d.index() < n; ++d) {
    firing_table_.set(d, actors_[d.index()], (flags_[d.index()] & kSpecial) == 0);
  }
  pure_de_ = b_.x_storage.empty() && continuous_.empty() && results_ == nullptr && guards_.generators.empty();
  lone_events_ = pure_de_ && step_watchers_.empty() && !split_;
  if (results_ != nullptr) {
    record_index_.assign(outputs, -1);
    recorded_token_tag_.assign(results_->signals().size(), Tag{kNever, 0});
    for (std::size_t i = 0; i < results_->signals().size(); ++i) {
      const RecordedSignal& s = results_->signals()[i];
      const OutputId port = b_.actors[model_[s.actor].depth.index()].output(s.port);
      record_index_[port.index()] = static_cast<int>(i);
    }
  }
}

void Director::Impl::schedule_guards_and_outputs() {
  timed_.assign(actors_.size(), 0);
  for (const FlatIndex a : model_.continuous_schedule) {
    const FlatActor& actor = model_[a];
    const ActorId d = actor.depth;
    at_start_.push_back(d);
    if (actor.mode == TimeMode::kConstant || (flags_[d.index()] & kDrivesContinuous) == 0) continue;
    continuous_.push_back(d);
    timed_[d.index()] = 1;
  }
  rhs_inputs_ = upstream(stateful_, /*with_seeds=*/false);
  guard_inputs_ = upstream(guards_.generators, /*with_seeds=*/true);
}

std::vector<ActorId> Director::Impl::upstream(const std::vector<ActorId>& seeds, bool with_seeds) const {
  std::vector<std::uint8_t> reached(actors_.size(), 0);
  std::vector<ActorId> work;
  // Every input of a seed, then inputs that feed a reached output through.
  const auto walk = [&](ActorId d, bool all_inputs) {
    const FlatActor& actor = flat(d);
    for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
      if (!actor.drivers[i] || (!all_inputs && !actor.actor->feeds_through(i))) continue;
      const ActorId u = model_[actor.drivers[i]->actor].depth;
      if (timed_[u.index()] == 0 || reached[u.index()] != 0) continue;
      reached[u.index()] = 1;
      work.push_back(u);
    }
  };
  for (const ActorId d : seeds) walk(d, /*all_inputs=*/true);
  while (!work.empty()) {
    const ActorId d = work.back();
    work.pop_back();
    walk(d, /*all_inputs=*/false);
  }
  if (with_seeds) {
    for (const ActorId d : seeds) reached[d.index()] = 1;
  }
  std::vector<ActorId> list;
  for (const ActorId d : continuous_) {
    if (reached[d.index()] != 0) list.push_back(d);
  }
  return list;
}

void Director::Impl::bound_steps() {
  // What must be looked at between events: the guards' inputs, the
  // recorded signals unless output_interval rows sample them anyway, and
  // the inputs of actors that sample them at every step end (a
  // TransportDelay's history).
  std::vector<ActorId> seeds = guards_.generators;
  for (ActorId d{0}; d.index() < actors_.size(); ++d) {
    if (actors_[d.index()]->bounds_every_step()) seeds.push_back(d);
  }
  if (results_ != nullptr && !options_.output_interval) {
    for (const RecordedSignal& s : results_->signals()) seeds.push_back(model_[s.actor].depth);
  }
  step_bound_ = std::numeric_limits<double>::infinity();
  for (const ActorId d : upstream(seeds, /*with_seeds=*/true)) {
    step_bound_ = std::min(step_bound_, actors_[d.index()]->max_step());
  }
}

}  // namespace ctde
