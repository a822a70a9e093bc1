// The FMU actor during a run: the calling sequences of Model Exchange and
// Co-Simulation (FMI 2.0 3.2.3 and 4.2.4, FMI 3.0 3.2 and 4.2) mapped onto
// the actor's calls, every call checked against the mode table
// (fmi_rules.hpp) and every value converted by fmi_values.hpp. Buffers are
// made once in make_state(): the right-hand-side path (evaluate,
// derivatives, guards) allocates nothing.
#include <algorithm>
#include <array>
#include <cmath>

#include "actors/fmi/fmi2_instance.hpp"
#include "actors/fmi/fmi3_adapter.hpp"
#include "actors/fmi/fmu.hpp"
#include "actors/fmi/fmu_run_state.hpp"
#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

std::unique_ptr<ActorState> FMU::make_state() const {
  auto run = std::make_unique<RunState>();
  run->actor = this;
  std::size_t refs = 0;
  std::size_t elements = 0;
  for (const Ports* ports : {&continuous_inputs_, &event_inputs_, &outputs_}) {
    for (const PortGroup& group : *ports) {
      refs = std::max(refs, group.size());
      elements = std::max(elements, group.elements);
    }
  }
  for (const Start& start : starts_) elements = std::max(elements, start.values.size());
  run->refs.resize(refs);
  run->values.resize(elements);
  run->converted = FmiValues(elements);
  for (std::size_t t = 0; t < kValueTypes; ++t) run->out[t].resize(outputs_[t].elements);
  run->seen.assign(inputs().size(), 0);
  run->connected.assign(inputs().size(), 0);
  run->x.resize(state_size());
  run->clocks = clocks_.make_run();
  return run;
}

template <class Take>
void FMU::set_inputs(const ReadContext& context, RunState& run, const Ports& ports, Take take) const {
  Fmi2Instance& fmu = *run.fmu;
  for (std::size_t t = 0; t < kValueTypes; ++t) {
    const PortGroup& group = ports[t];
    if (group.size() == 0) continue;
    const auto type = static_cast<ValueType>(t);
    std::size_t n = 0;
    std::size_t elements = 0;
    for (std::size_t k = 0; k < group.size(); ++k) {
      const std::size_t port = group.ports[k];
      if (!take(port)) continue;
      run.refs[n++] = group.refs[k];
      for (const double value : context.input(input_port(port))) {
        // A number for an integer or Float32 variable must fit it.
        if (!fits(type, value)) {
          throw RunError(describe() + ": input '" + inputs()[port].name + "' is " + format_double(value) +
                         ", outside the range of " + range_text(type, fmu.kind().fmi3));
        }
        run.values[elements++] = value;
      }
    }
    if (n > 0) run.converted.set(fmu, type, run.refs.data(), n, run.values.data(), elements);
  }
}

void FMU::set_continuous(const ReadContext& context, RunState& run, double t) const {
  Fmi2Instance& fmu = *run.fmu;
  const auto& f = fmu.f();
  fmu.call(FmiCall::kSetTime, [&] { return f.set_time(fmu.component(), t); });
  const std::span<const double> x = context.states();
  if (!x.empty()) {
    fmu.call(FmiCall::kSetContinuousStates,
             [&] { return f.set_continuous_states(fmu.component(), x.data(), x.size()); });
  }
  if (run.any_continuous_in) set_inputs(context, run, run.continuous_in, [](std::size_t) { return true; });
}

template <class Each>
void FMU::for_each_output(const RunState& run, Each each) const {
  for (const OutputSlot& slot : output_slots_) {
    each(slot.port, std::span<const double>(run.out[slot.family].data() + slot.offset, slot.width));
  }
}

void FMU::read_outputs(RunState& run) const {
  for (const std::size_t t : output_families_) {
    const PortGroup& group = outputs_[t];
    run.converted.get(*run.fmu, static_cast<ValueType>(t), group.refs.data(), group.size(), run.out[t].data(),
                      group.elements);
  }
}

void FMU::set_starts(RunState& run) const {
  Fmi2Instance& fmu = *run.fmu;
  const bool fmi3 = fmu.kind().fmi3;
  for (const Start& start : starts_) {
    const FmuVariable& var = md_.variables[start.variable];
    const unsigned int vr = var.value_reference;
    if (var.type_name == "Binary") {  // FMI 3 only: the hex digits as bytes
      std::vector<std::uint8_t> bytes;
      for (std::size_t k = 0; k + 1 < start.text.size(); k += 2)
        bytes.push_back(static_cast<std::uint8_t>(std::stoi(start.text.substr(k, 2), nullptr, 16)));
      const std::size_t size = bytes.size();
      const fmi3::Binary data = bytes.data();
      fmu.call(
          FmiCall::kSetVariables,
          [&] {
            return static_cast<fmi2::Status>(fmu.library().fmi3_functions().set_binary(
                fmi3_instance(fmu.component()), &vr, 1, &size, &data, 1));
          },
          "fmi3SetBinary");
    } else if (var.type == VariableType::kString) {
      const char* text = start.text.c_str();
      fmu.call(
          FmiCall::kSetVariables, [&] { return fmu.f().set_string(fmu.component(), &vr, 1, &text); },
          "fmi2SetString");
    } else {
      run.converted.set(fmu, *value_type(var, fmi3), &vr, 1, start.values.data(), start.values.size());
    }
  }
}

// The FMU's messages go to the trace at the end of each firing and of each
// accepted step, also one that fails (they explain the failure).
template <class Call>
void FMU::with_log(StepContext& context, RunState& run, Call call) const {
  try {
    call();
  } catch (...) {
    trace_log(context, run);
    throw;
  }
  trace_log(context, run);
}

void FMU::initialize(FireContext& context) const {
  auto& run = context.state<RunState>();
  for (std::size_t port = 0; port < inputs().size(); ++port)
    run.connected[port] = context.connected(input_port(port)) ? 1 : 0;
  keep_connected(run);
  run.fmu = instantiate(name());
  with_log(context, run, [&] { initialize_now(context, run); });
}

void FMU::keep_connected(RunState& run) const {
  // Only the connected inputs are ever set.
  const auto connected = [&](const PortGroup& group) {
    PortGroup kept;
    for (std::size_t k = 0; k < group.size(); ++k) {
      if (run.connected[group.ports[k]] != 0)
        kept.add(group.refs[k], group.ports[k], group.variables[k], group.widths[k]);
    }
    return kept;
  };
  for (auto [all, kept] :
       {std::pair{&continuous_inputs_, &run.continuous_in}, std::pair{&event_inputs_, &run.event_in}}) {
    for (std::size_t t = 0; t < kValueTypes; ++t) (*kept)[t] = connected((*all)[t]);
  }
  run.any_continuous_in = std::any_of(run.continuous_in.begin(), run.continuous_in.end(),
                                      [](const PortGroup& group) { return group.size() > 0; });
}

void FMU::fire(FireContext& context) const {
  auto& run = context.state<RunState>();
  with_log(context, run, [&] { fire_now(context, run); });
}

void FMU::trace_log(StepContext& context, RunState& run) const {
  if (!run.fmu->has_log()) return;  // every accepted step comes here: nothing to allocate
  std::size_t dropped = 0;
  const std::vector<Fmi2Instance::LogEntry> log = run.fmu->take_log(dropped);
  for (const Fmi2Instance::LogEntry& entry : log) {
    const std::array<TraceField, 3> fields{{{"category", entry.category},
                                            {"status", run.fmu->status_name(entry.status)},
                                            {"message", entry.message}}};
    context.trace("fmu_log", fields);
  }
  if (dropped > 0) {
    const std::string message = std::to_string(dropped) +
                                " more messages were logged and not traced (at most " +
                                std::to_string(Fmi2Instance::kMaxKept) + " between two trace points)";
    const std::array<TraceField, 3> fields{
        {{"category", "ctde"}, {"status", "dropped"}, {"message", message}}};
    context.trace("fmu_log", fields);
  }
}

void FMU::initialize_now(FireContext& context, RunState& run) const {
  run.pending_tick = kNever;
  run.terminate = false;
  Fmi2Instance& fmu = *run.fmu;
  const auto& f = fmu.f();
  const double start = context.time();
  run.start_time = start;
  run.stop_time = context.resolution().to_seconds(context.stop_tick());
  enter_initialization(run);
  // The connected inputs' values at the start: continuous signals, and the
  // constants on discrete inputs (a discrete input without a token keeps its start value).
  set_inputs(context, run, run.continuous_in, [](std::size_t) { return true; });
  set_inputs(context, run, run.event_in, [&](std::size_t port) {
    const InputPort in = input_port(port);
    return !context.discrete(in) || context.has_token(in);
  });
  if (clocks_.any()) clocks_.initialize(run.clocks, fmu, start, describe());
  fmu.call(FmiCall::kExitInitializationMode, [&] { return f.exit_initialization_mode(fmu.component()); });
  if (me_) {
    // After initialization an ME FMU is in event mode: iterate, then go on in continuous time.
    event_iteration(context, run, true);
    if (clocks_.any()) clocks_.start(context, run.clocks);
  } else {
    run.cs_time = start;
    run.cs_tick = kNever;
    run.cs_next = context.tag().time;
    context.fire_at(run.cs_next);  // the first communication point: inputs set, outputs read and sent
  }
}

void FMU::enter_initialization(RunState& run) const {
  Fmi2Instance& fmu = *run.fmu;
  const auto& f = fmu.f();
  fmu.call(FmiCall::kSetupExperiment, [&] {
    return f.setup_experiment(fmu.component(), fmi2::kFalse, 0.0, run.start_time, fmi2::kTrue, run.stop_time);
  });
  set_starts(run);  // read_starts() checked that Instantiated allows them
  fmu.call(FmiCall::kEnterInitializationMode, [&] { return f.enter_initialization_mode(fmu.component()); });
}

void FMU::event_iteration(FireContext& context, RunState& run, bool initial) const {
  Fmi2Instance& fmu = *run.fmu;
  const auto& f = fmu.f();
  fmi2::EventInfo info{};
  info.new_discrete_states_needed = fmi2::kTrue;
  bool changed = false;
  int iterations = 0;
  while (info.new_discrete_states_needed != fmi2::kFalse) {
    if (++iterations > kMaxFmuEventIterations) {
      throw RunError(describe() + ": the event iteration did not converge in " +
                     std::to_string(kMaxFmuEventIterations) + " calls of " +
                     fmu.call_name("fmi2NewDiscreteStates"));
    }
    if (clocks_.any()) clocks_.before_update(run.clocks, fmu);
    info = fmi2::EventInfo{};
    fmu.call(FmiCall::kNewDiscreteStates, [&] { return f.new_discrete_states(fmu.component(), &info); });
    changed = changed || info.values_of_continuous_states_changed != fmi2::kFalse;
    if (info.terminate_simulation != fmi2::kFalse) break;
  }
  // At the start the states are always read: they are the initial states.
  if ((changed || initial) && !run.x.empty()) {
    fmu.call(FmiCall::kGetContinuousStates,
             [&] { return f.get_continuous_states(fmu.component(), run.x.data(), run.x.size()); });
    const std::span<double> x = context.mutable_states();
    std::copy(run.x.begin(), run.x.end(), x.begin());
  }
  if (info.terminate_simulation != fmi2::kFalse || run.terminate) {
    context.request_stop();  // in Event Mode: fmi2Terminate follows (Fmi2Instance's destructor)
  } else {
    fmu.call(FmiCall::kEnterContinuousTimeMode,
             [&] { return f.enter_continuous_time_mode(fmu.component()); });
  }
  if (clocks_.any()) clocks_.send(context, run.clocks);
  run.terminate = false;
  schedule(context, run, info.next_event_time_defined != fmi2::kFalse, info.next_event_time);
}

void FMU::schedule(FireContext& context, RunState& run, bool defined, double next) const {
  if (!defined) return;
  const TimeResolution& resolution = context.resolution();
  // The nearest tick: fire() gives the FMU `next` itself, so that
  // time >= nextEventTime holds in it even where the tick rounds down.
  Tick tick = resolution.to_ticks_clamped(next);
  if (tick == kNever) return;
  tick = std::max(tick, context.tag().time);
  if (tick > context.stop_tick() || tick == run.pending_tick) return;
  run.pending_tick = tick;
  run.pending_time = next;
  context.fire_at(tick);
}

void FMU::communicate(FireContext& context, RunState& run) const {
  const Tick now = context.tag().time;
  // A discrete input is set from its first token on (before it, the FMU keeps its start value).
  for (const PortGroup& group : run.event_in) {
    for (const std::size_t port : group.ports) {
      if (context.has_token(input_port(port))) run.seen[port] = 1;
    }
  }
  const auto take = [&](std::size_t port) {
    return !context.discrete(input_port(port)) || run.seen[port] != 0;
  };
  if (now == run.cs_tick) {
    // Tokens at a later microstep of this communication point: the inputs
    // change at it, and so do the outputs that feed through from them.
    set_inputs(context, run, run.event_in, take);
    read_outputs(run);
    publish(context, run, /*feedthrough_only=*/true);
    return;
  }
  if (now != run.cs_next) return;  // a token between two points: its value is read at the next one
  // Finish the step from the last communication point, then set the inputs
  // of this one, read the outputs and send them.
  const double t = context.time();
  if (t > run.cs_time) {
    Fmi2Instance& fmu = *run.fmu;
    fmu.expect(FmiCall::kDoStep);
    const fmi2::Status status = fmu.f().do_step(fmu.component(), run.cs_time, t - run.cs_time, fmi2::kTrue);
    if (status == fmi2::Status::kDiscard && terminated(run)) {
      context.request_stop();  // the FMU ended the simulation: no outputs at this point
      return;
    }
    fmu.require(status, "fmi2DoStep");
  }
  run.cs_time = t;
  run.cs_tick = now;
  set_inputs(context, run, run.event_in, take);
  read_outputs(run);
  publish(context, run, /*feedthrough_only=*/false);
  const Tick next = now + context.resolution().to_ticks(communication_step_);
  run.cs_next = next <= context.stop_tick() ? next : kNever;
  if (run.cs_next != kNever) context.fire_at(next);
}

void FMU::publish(FireContext& context, const RunState& run, bool feedthrough_only) const {
  for_each_output(run, [&](std::size_t port, std::span<const double> value) {
    bool send = !feedthrough_only;
    for (std::size_t i = 0; !send && i < inputs().size(); ++i) send = feeds_through(i, port);
    if (send) context.emit(output_port(port), value);
  });
}

void FMU::fire_now(FireContext& context, RunState& run) const {
  if (!me_) {
    communicate(context, run);
    return;
  }
  Fmi2Instance& fmu = *run.fmu;
  const auto& f = fmu.f();
  // The exact time the FMU asked for, when this is its time event.
  double t = context.time();
  if (context.tag().time == run.pending_tick) {
    t = run.pending_time;
    run.pending_tick = kNever;
  }
  if (fmu.mode() != FmiMode::kContinuousTime) return;  // terminated at an earlier event of this tag
  // Still in Continuous-Time Mode: the time, states and continuous inputs
  // at the event; then, in Event Mode, the discrete inputs that changed.
  set_continuous(context, run, t);
  fmu.call(FmiCall::kEnterEventMode, [&] { return f.enter_event_mode(fmu.component()); });
  set_inputs(context, run, run.event_in,
             [&](std::size_t port) { return context.has_token(input_port(port)); });
  if (clocks_.any()) clocks_.activate(context, run.clocks, fmu, describe());
  event_iteration(context, run, false);
}

bool FMU::terminated(RunState& run) const {
  Fmi2Instance& fmu = *run.fmu;
  if (fmu.f().get_boolean_status == nullptr) return false;
  fmu.expect(FmiCall::kGetStatus);
  fmi2::Boolean value = fmi2::kFalse;
  const fmi2::Status status =
      fmu.f().get_boolean_status(fmu.component(), fmi2::StatusKind::kTerminated, &value);
  return (status == fmi2::Status::kOK || status == fmi2::Status::kWarning) && value != fmi2::kFalse;
}

void FMU::evaluate(EvalContext& context) const {
  if (!me_) return;  // co-simulation: discrete outputs, sent at the communication points
  auto& run = context.state<RunState>();
  if (!run.fmu) {
    // Before initialize() (the director initializes an FMU after its drivers): the start values.
    for_each_output(run, [&](std::size_t port, std::span<const double>) {
      std::copy(output_starts_[port].begin(), output_starts_[port].end(),
                context.output(output_port(port)).begin());
    });
    return;
  }
  // After terminateSimulation the FMU stays in Event Mode: its outputs as they are.
  if (run.fmu->mode() == FmiMode::kContinuousTime) set_continuous(context, run, context.time());
  read_outputs(run);
  for_each_output(run, [&](std::size_t port, std::span<const double> value) {
    const std::span<double> out = context.output(output_port(port));
    for (std::size_t k = 0; k < value.size(); ++k) out[k] = value[k];  // mostly one element: no memmove call
  });
}

void FMU::derivatives(const ReadContext& context, std::span<double> dxdt) const {
  auto& run = context.state<RunState>();
  set_continuous(context, run, context.time());
  Fmi2Instance& fmu = *run.fmu;
  // A discard here is the FMU refusing a trial point: a recoverable failure (RunError).
  fmu.call(FmiCall::kGetDerivatives,
           [&] { return fmu.f().get_derivatives(fmu.component(), dxdt.data(), dxdt.size()); });
}

void FMU::guards(const ReadContext& context, std::span<double> g) const {
  auto& run = context.state<RunState>();
  set_continuous(context, run, context.time());
  Fmi2Instance& fmu = *run.fmu;
  fmu.call(FmiCall::kGetEventIndicators,
           [&] { return fmu.f().get_event_indicators(fmu.component(), g.data(), g.size()); });
}

void FMU::state_tolerances(std::span<double> atol) const {
  if (!me_) return;
  std::size_t i = 0;  // an array state's nominal scales each of its elements
  for (const std::size_t state : md_.states) {
    const FmuVariable& var = md_.variables[state];
    for (std::size_t k = 0; k < var.size && i < atol.size(); ++k, ++i) {
      if (var.nominal && std::isfinite(*var.nominal) && *var.nominal != 0.0)
        atol[i] *= std::fabs(*var.nominal);
    }
  }
}

// Every Model Exchange FMU watches the steps: what it logged during a step
// is traced at the step's end.
bool FMU::watches_steps() const { return me_; }

bool FMU::step_completed(StepContext& context) const {
  auto& run = context.state<RunState>();
  bool event = false;
  with_log(context, run, [&] {
    if (md_.model_exchange->completed_step_not_needed) return;
    set_continuous(context, run, context.time());
    Fmi2Instance& fmu = *run.fmu;
    fmi2::Boolean enter = fmi2::kFalse;
    fmi2::Boolean terminate = fmi2::kFalse;
    fmu.call(FmiCall::kCompletedIntegratorStep, [&] {
      return fmu.f().completed_integrator_step(fmu.component(), fmi2::kTrue, &enter, &terminate);
    });
    if (terminate != fmi2::kFalse) run.terminate = true;
    event = enter != fmi2::kFalse || terminate != fmi2::kFalse;
  });
  return event;
}

}  // namespace ctde
