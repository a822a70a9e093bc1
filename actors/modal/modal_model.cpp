#include "actors/modal/modal_model.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/json_cursor.hpp"

namespace ctde {

namespace {

/// The parameters of a chart read from a model file, in the format's order.
constexpr const char* kStructureKeys[] = {"inputs", "outputs",    "parameters", "assert",
                                          "states", "event_vars", "modes",      "transitions"};

}  // namespace

// ---------------------------------------------------------------- run state

/// What changes during a run: the current mode and the frame (whose event
/// variables are the chart's discrete state). Not copyable.
struct ModalModel::RunState final : ActorState {
  RunState(std::size_t frame, const std::vector<ChartProgram>& programs, std::size_t widest,
           std::size_t mode_count)
      : evaluator(frame, programs), scratch(widest, 0.0), modes(mode_count) {}
  ChartEvaluator evaluator;
  std::uint32_t mode = 0;
  std::vector<double> scratch;  ///< values of one block of assignments, before they are written
  std::vector<double> held;     ///< per input element: a discrete input's last token (0 before)
  /// Per transition: its time guard, resolved to this run's ticks (or none).
  std::vector<std::optional<TimePredicate>> time_guards;
  bool time_guards_resolved = false;  ///< by initialize(), or after a restore by the first firing
  Tick start = 0;                     ///< the run's start tick: its firing looks at every transition
  Tick recheck = kNever;              ///< the tick of the look one tick after a strict miss
  std::size_t modes = 0;              ///< the chart's number of modes (a restored mode is checked)

  /// Fixes the time guards to the ticks of this run, from `start` to its stop tick.
  void resolve_time_guards(const ReadContext& context) {
    for (std::optional<TimePredicate>& time_guard : time_guards) {
      if (time_guard) time_guard->resolve(context.resolution(), start, context.stop_tick());
    }
    time_guards_resolved = true;
  }

  /// The mode, the whole frame (its event variables are the chart's state;
  /// t, the inputs and the states are loaded again before they are read),
  /// the held tokens, start and recheck. Not `scratch`, written before it is
  /// read, nor the resolved time guards: the first firing after a restore
  /// resolves them again from `start` (the same ticks for the same stop
  /// time, and the right ones when the resumed run stops later).
  void save(StateWriter& out) const override {
    out.u32(mode);
    out.values(evaluator.frame());
    out.values(held);
    out.i64(start);
    out.i64(recheck);
  }
  void restore(StateReader& in) override {
    mode = in.u32();
    if (mode >= modes) in.fail("mode " + std::to_string(mode) + " of a chart of " + std::to_string(modes));
    in.values_into(evaluator.frame());
    in.values_into(std::span<double>(held));
    start = in.i64();
    recheck = in.i64();
    time_guards_resolved = false;
  }
};

// ---------------------------------------------------------------- ModalModel

ModalModel::ModalModel(std::string name)
    : Actor(std::move(name), kInfo, TimeMode::kContinuous), from_parameters_(true) {
  for (const char* key : kStructureKeys) {
    structure_params_.push_back(std::string(key) == "modes"
                                    ? declare_parameter(key, ParamKind::kStructure)
                                    : declare_optional_parameter(key, ParamKind::kStructure));
  }
  initial_param_ = declare_optional_parameter("initial", ParamKind::kString);
}

ModalModel::ModalModel(std::string name, ModalChart chart)
    : Actor(std::move(name), kInfo, TimeMode::kContinuous),
      from_parameters_(false),
      chart_(std::move(chart)) {}

void ModalModel::read_chart_from_parameters() {
  chart_ = ModalChart{};
  for (const ParamHandle p : structure_params_) {
    if (!is_set(p)) continue;
    const ParamSlot& slot = parameters()[p.index];
    const std::string location =
        slot.location.empty() ? "parameter '" + slot.name.str() + "' at " : slot.location.text();
    read_chart_part(chart_, slot.name.str(), JsonCursor(structure(p), location).prefixed(describe()));
  }
  if (initial_param_ && is_set(*initial_param_)) {
    chart_.initial = text(*initial_param_);
    chart_.initial_location = parameters()[initial_param_->index].location.text();
  }
}

Crossing ModalModel::guard_direction(std::size_t /*i*/) const { return Crossing::kRising; }

std::string ModalModel::guard_name(std::size_t i) const { return program_.transitions[i].name; }

std::unique_ptr<ActorState> ModalModel::make_state() const {
  auto run = std::make_unique<RunState>(program_.frame, program_.programs, program_.widest_assignment,
                                        program_.modes.size());
  for (const Transition& tr : program_.transitions) run->time_guards.push_back(tr.time_guard);
  run->held.assign(program_.states_at - program_.inputs_at, 0.0);
  return run;
}

void ModalModel::load_frame(const ReadContext& context, RunState& run) const {
  const std::span<double> frame = run.evaluator.frame();
  frame[0] = context.time();
  std::uint32_t at = program_.inputs_at;
  for (std::size_t i = 0; i < program_.input_widths.size(); ++i) {
    if (chart_.inputs[i].discrete) {
      const auto held = run.held.begin() + (at - program_.inputs_at);
      std::copy_n(held, program_.input_widths[i], frame.begin() + at);
      at += program_.input_widths[i];
      continue;
    }
    const std::span<const double> in = context.input(input_ports_[i]);
    for (std::uint32_t k = 0; k < program_.input_widths[i]; ++k) frame[at++] = k < in.size() ? in[k] : 0.0;
  }
  const std::span<const double> x = context.states();
  std::copy(x.begin(), x.end(), frame.begin() + program_.states_at);
}

void ModalModel::initialize(FireContext& context) const {
  auto& run = context.state<RunState>();
  run.mode = program_.initial;
  const std::span<double> frame = run.evaluator.frame();
  std::copy(program_.event_initial.begin(), program_.event_initial.end(), frame.begin() + program_.events_at);
  const std::span<double> x = context.mutable_states();
  std::copy(program_.state_initial.begin(), program_.state_initial.end(), x.begin());
  run.start = context.tag().time;
  run.recheck = kNever;
  run.resolve_time_guards(context);
  // A transition whose predicate holds at the start is taken at once: look at (start, 0).
  if (!program_.modes[run.mode].leaving.empty()) context.fire_at(run.start);
  // The start's firing takes a time guard that holds there; later ones are time events.
  schedule_time_guards(context, run, run.start + 1);
}

void ModalModel::evaluate(EvalContext& context) const {
  auto& run = context.state<RunState>();
  load_frame(context, run);
  const Mode& mode = program_.modes[run.mode];
  for (std::size_t o = 0; o < mode.outputs.size(); ++o) {
    const double y = run.evaluator.value(mode.outputs[o]);
    if (!std::isfinite(y)) {
      throw RunError("output '" + program_.output_names[o] + "' is " + format_double(y) + " in mode '" +
                     mode.name + "' at t = " + format_double(context.time()) + " s");
    }
    context.output(output_ports_[o])[output_elements_[o]] = y;
  }
}

void ModalModel::derivatives(const ReadContext& context, std::span<double> dxdt) const {
  auto& run = context.state<RunState>();
  load_frame(context, run);
  const Mode& mode = program_.modes[run.mode];
  for (std::size_t i = 0; i < dxdt.size(); ++i) dxdt[i] = run.evaluator.value(mode.der[i]);
}

void ModalModel::guards(const ReadContext& context, std::span<double> g) const {
  auto& run = context.state<RunState>();
  load_frame(context, run);
  for (std::size_t k = 0; k < g.size(); ++k) {
    const Transition& tr = program_.transitions[k];
    // A time guard is a time event (schedule_time_guards): never searched.
    g[k] = tr.path[0] == run.mode && !tr.time_guard ? run.evaluator.guard(tr.guard) : -1.0;
  }
}

void ModalModel::fire(FireContext& context) const {
  auto& run = context.state<RunState>();
  if (!run.time_guards_resolved) run.resolve_time_guards(context);  // restored from a snapshot
  hold_tokens(context, run);
  load_frame(context, run);
  const Mode& mode = program_.modes[run.mode];
  const Tick now = context.tag().time;
  bool crossed = false;
  for (const std::uint32_t k : mode.leaving) crossed = crossed || context.crossing(k) != Crossing::kNone;
  // Time guards are decided on the tick, exactly, at every firing. Of the
  // others: at a located crossing, the crossed ones; at the start, or one
  // tick after a crossing that held only up to strictness, all of them;
  // at a time guard's time event, none (a state guard that holds there
  // would have crossed; and the time event may be stale, asked for in a
  // mode left since).
  const bool look_at_all = !crossed && (now == run.start || now == run.recheck);
  if (now == run.recheck) run.recheck = kNever;
  bool strict_miss = false;
  for (const std::uint32_t k : mode.leaving) {
    const Transition& tr = program_.transitions[k];
    if (!tr.time_guard) {
      if (crossed ? context.crossing(k) == Crossing::kNone : !look_at_all) continue;
    }
    if (guard_holds(context, run, k)) {
      take(context, run, k);
      return;
    }
    if (crossed && !tr.time_guard) strict_miss = true;
  }
  // The guard function reached 0 but a strict comparison does not hold yet
  // (`v > 0` at v = 0): look again one tick later.
  if (strict_miss) {
    run.recheck = now + 1;
    context.fire_at(run.recheck);
  }
}

void ModalModel::hold_tokens(FireContext& context, RunState& run) const {
  // A discrete input's token replaces its held value: the derivatives may
  // change with it, so the solver restarts (states asked for and left as
  // they are: no reset is traced). A guard it makes cross fires at the next
  // microstep (docs/semantics.md, "Crossings made by events").
  std::uint32_t at = 0;
  bool changed = false;
  for (std::size_t i = 0; i < program_.input_widths.size(); ++i) {
    const std::uint32_t width = program_.input_widths[i];
    if (chart_.inputs[i].discrete && context.has_token(input_ports_[i])) {
      const std::span<const double> token = context.token(input_ports_[i]);
      for (std::uint32_t k = 0; k < width; ++k) {
        const double v = k < token.size() ? token[k] : 0.0;
        changed = changed || run.held[at + k] != v;
        run.held[at + k] = v;
      }
    }
    at += width;
  }
  if (changed) (void)context.mutable_states();
}

bool ModalModel::guard_holds(const ReadContext& context, const RunState& run, std::uint32_t k) const {
  const std::optional<TimePredicate>& time_guard = run.time_guards[k];
  return time_guard ? time_guard->holds(context.tag().time)
                    : run.evaluator.holds(program_.transitions[k].guard);
}

void ModalModel::schedule_time_guards(FireContext& context, const RunState& run, Tick from) const {
  // One time event, at the earliest: when it fires, the chart takes that
  // transition (or one before it in priority), and asks again for the mode
  // it then enters.
  Tick first = kNever;
  for (const std::uint32_t k : program_.modes[run.mode].leaving) {
    if (run.time_guards[k]) first = std::min(first, run.time_guards[k]->first_from(from));
  }
  if (first != kNever) context.fire_at(first);
}

void ModalModel::assign(const std::vector<Assign>& assignments, RunState& run) const {
  for (std::size_t i = 0; i < assignments.size(); ++i) {
    const double value = run.evaluator.value(assignments[i].value);
    if (!std::isfinite(value)) throw RunError(assignments[i].what + " gives " + format_double(value));
    run.scratch[i] = value;
  }
  const std::span<double> frame = run.evaluator.frame();
  for (std::size_t i = 0; i < assignments.size(); ++i) frame[assignments[i].target] = run.scratch[i];
}

void ModalModel::take(FireContext& context, RunState& run, std::uint32_t k) const {
  const Transition& tr = program_.transitions[k];
  // The frame holds the values just before the event.
  assign(tr.set, run);
  for (std::size_t p = 1; p < tr.path.size(); ++p) {
    const Mode& entered = program_.modes[tr.path[p]];
    assign(entered.entry, run);
    assign(entered.set, run);
  }
  run.mode = tr.path.back();
  // Only a transition that writes states asks for them: the director traces
  // a reset for what it is given (and restarts the solver after any mode
  // change, with or without outputs: mode_changed).
  if (tr.writes_states) {
    const std::span<double> x = context.mutable_states();
    const std::span<const double> frame = run.evaluator.frame();
    std::copy_n(frame.begin() + program_.states_at, x.size(), x.begin());
  }
  context.mode_changed(
      program_.modes[tr.path.front()].name,
      tr.path.size() == 3 ? std::string_view(program_.modes[tr.path[1]].name) : std::string_view(),
      program_.modes[tr.path.back()].name);
  for (const std::uint32_t next : program_.modes[run.mode].leaving) {
    if (guard_holds(context, run, next)) loops(run, k, next);
  }
  // A time guard that holds now would loop too (above): the next can only be later.
  schedule_time_guards(context, run, context.tag().time + 1);
}

void ModalModel::loops(const RunState& run, std::uint32_t taken, std::uint32_t holding) const {
  const Transition& tr = program_.transitions[taken];
  std::string message;
  if (taken == holding) {
    message = "the guard of " + tr.label + " still holds after the transition";
  } else {
    message =
        "after " + tr.label + ", the guard of " + program_.transitions[holding].label + " holds at once";
  }
  const std::span<const double> frame = run.evaluator.frame();
  std::string values;
  for (std::uint32_t i = 0; i < program_.states + program_.events; ++i) {
    values += values.empty() ? " (" : ", ";
    values += i < program_.states ? chart_.states[i].name : chart_.event_vars[i - program_.states].name;
    values += " = ";
    values += format_double(frame[program_.states_at + i]);
  }
  if (!values.empty()) values += ")";
  message += values;
  message +=
      taken == holding
          ? ": it would be taken again at once and loop forever; make the transition falsify its guard "
            "(guard an impact with the sign of the velocity, as \"x >= upper && v > 0\")"
          : ": the chart takes one transition per event; make the guards of a mode's way in and way "
            "out exclusive";
  throw RunError(message);
}

}  // namespace ctde
