// The FMI 3.0 clocks of a Model Exchange FMU (fmi3_clocks.hpp): reading
// them from the description, and the calls of Event Mode (spec section 2.3,
// "Event Mode": fmi3SetClock, fmi3GetClock; section 2.2, "Clocks": the
// intervals and shifts of time-based clocks in Initialization Mode).
#include "actors/fmi/fmi3_clocks.hpp"

#include <cmath>
#include <map>

#include "actors/fmi/fmi2_instance.hpp"
#include "actors/fmi/fmi3_adapter.hpp"
#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

namespace {

/// An FMI 3 status as the FMI 2.0 status of the same value (Fmi2Instance::require names it fmi3...).
fmi2::Status status(fmi3::Status s) { return static_cast<fmi2::Status>(static_cast<int>(s)); }

bool positive_finite(double x) { return x > 0 && std::isfinite(x); }

/// Throws the ModelError "<what>: <message>".
[[noreturn]] void fail_for(const std::string& what, const std::string& message) {
  throw ModelError(what + ": " + message);
}

/// Checks the intervalVariability `kind` of the input or output clock `named` ("clock 'c'") of FMU `what`.
/// @throws ModelError for a missing, unknown or aperiodic kind, and for an output clock that is not
/// triggered.
void check_interval_variability(const std::string& kind, bool input, const std::string& named,
                                const std::string& what) {
  const auto fail = [&](const std::string& message) { fail_for(what, message); };
  if (kind.empty()) fail(named + " has no intervalVariability");
  if (!input && kind != "triggered") {
    fail(named + " is an output clock with intervalVariability '" + kind + "' (output clocks are triggered)");
  }
  if (kind == "changing" || kind == "countdown") {
    fail(named + ": intervalVariability '" + kind +
         "' (an aperiodic clock) is not supported; ctde runs triggered, constant, fixed and tunable clocks");
  }
  if (kind != "triggered" && kind != "constant" && kind != "fixed" && kind != "tunable") {
    fail(named + " has an unknown intervalVariability '" + kind + "'");
  }
}

/// Checks the interval and shift of the periodic input clock `named` ("clock 'c'") of FMU `what`.
/// @throws ModelError for a constant clock without intervalDecimal, an interval <= 0 or a shift < 0.
void check_periodic(const FmuClockAttributes& attributes, const std::string& named, const std::string& what) {
  const auto fail = [&](const std::string& message) { fail_for(what, message); };
  const auto& interval = attributes.interval;
  const auto& shift = attributes.shift;
  if (!interval && attributes.interval_variability == "constant") {
    fail(named + " is constant and has no intervalDecimal");
  }
  if (interval && !positive_finite(*interval)) {
    fail(named + " has intervalDecimal " + format_double(*interval) + " (a periodic clock needs one > 0)");
  }
  if (shift && !(*shift >= 0 && std::isfinite(*shift))) {
    fail(named + " has shiftDecimal " + format_double(*shift) + " (it must be >= 0)");
  }
}

}  // namespace

void Fmi3Clocks::configure(const ModelDescription& md, const std::string& what) {
  *this = Fmi3Clocks{};
  entry_.assign(md.variables.size(), kNone);
  add_clocks(md, what);
  add_clocked(md, what);
}

void Fmi3Clocks::add_clocks(const ModelDescription& md, const std::string& what) {
  for (std::size_t v = 0; v < md.variables.size(); ++v) {
    const FmuVariable& var = md.variables[v];
    const bool input = var.causality == Causality::kInput;
    if (var.type != VariableType::kClock || (!input && var.causality != Causality::kOutput)) continue;
    Clock c;
    c.name = var.name;
    c.vr = var.value_reference;
    c.input = input;
    c.attributes = *var.clock;
    const std::string& kind = c.attributes.interval_variability;
    const std::string named = "clock '" + var.name + "'";
    check_interval_variability(kind, input, named, what);
    if (input && kind != "triggered") {
      c.periodic = true;
      const auto& interval = c.attributes.interval;
      check_periodic(c.attributes, named, what);
      c.ask = !interval;
      asks_ = asks_ || c.ask;
      sets_interval_ = sets_interval_ || (interval && kind != "constant");
    }
    has_input_clocks_ = has_input_clocks_ || input;
    has_output_clocks_ = has_output_clocks_ || !input;
    entry_[v] = clocks_.size();
    clocks_.push_back(std::move(c));
  }
}

void Fmi3Clocks::add_clocked(const ModelDescription& md, const std::string& what) {
  const auto fail = [&](const std::string& message) { fail_for(what, message); };
  std::map<unsigned int, std::size_t> clock_variable;  // value reference -> variable index
  for (std::size_t v = 0; v < md.variables.size(); ++v) {
    if (md.variables[v].type == VariableType::kClock)
      clock_variable.emplace(md.variables[v].value_reference, v);
  }
  for (std::size_t v = 0; v < md.variables.size(); ++v) {
    const FmuVariable& var = md.variables[v];
    const bool input = var.causality == Causality::kInput;
    if (var.clocks.empty() || var.type == VariableType::kClock) continue;
    if (!input && var.causality != Causality::kOutput) continue;
    if (var.type != VariableType::kReal && var.type != VariableType::kInteger &&
        var.type != VariableType::kBoolean) {
      fail(std::string("clocked ") + (input ? "input" : "output") + " '" + var.name +
           "' is of a type ctde's ports do not carry (they carry Float64, Int32, Boolean)");
    }
    Clocked clocked;
    clocked.name = var.name;
    clocked.vr = var.value_reference;
    clocked.type = var.type;
    clocked.input = input;
    for (const unsigned int vr : var.clocks) {
      const auto found = clock_variable.find(vr);
      if (found == clock_variable.end()) {
        fail("variable '" + var.name + "' names value reference " + std::to_string(vr) +
             " in its clocks attribute, and no <Clock> has it");
      }
      const std::size_t e = entry_[found->second];
      if (e == kNone) {
        fail("variable '" + var.name + "' is clocked by the local clock '" +
             md.variables[found->second].name +
             "' (ctde runs the clocked ports of input and output clocks only)");
      }
      clocked.clocks.push_back(e);
    }
    entry_[v] = clocks_.size() + clocked_.size();  // the clocks are all read: clocked entries follow them
    clocked_.push_back(std::move(clocked));
  }
}

void Fmi3Clocks::check_functions(const fmi3::Functions& f, const std::string& what) const {
  const auto need = [&](bool needed, bool exported, const char* name, const char* why) {
    if (needed && !exported) {
      throw ModelError(what + ": the binary does not export the function " + name + ", which its " + why +
                       " need");
    }
  };
  need(has_input_clocks_, f.set_clock != nullptr, "fmi3SetClock", "input clocks");
  need(has_output_clocks_, f.get_clock != nullptr, "fmi3GetClock", "output clocks");
  need(asks_, f.get_interval_decimal != nullptr, "fmi3GetIntervalDecimal",
       "periodic clocks without intervalDecimal");
  need(asks_, f.get_shift_decimal != nullptr, "fmi3GetShiftDecimal",
       "periodic clocks without intervalDecimal");
}

const std::string& Fmi3Clocks::first_name() const {
  static const std::string kEmpty;
  if (!clocks_.empty()) return clocks_.front().name;
  return clocked_.empty() ? kEmpty : clocked_.front().name;
}

bool Fmi3Clocks::has_port(std::size_t v) const {
  const std::size_t e = entry_[v];
  return e >= clocks_.size() || !clocks_[e].periodic;
}

void Fmi3Clocks::set_port(std::size_t v, std::size_t port) {
  const std::size_t e = entry_[v];
  if (e < clocks_.size()) {
    clocks_[e].port = port;
  } else {
    clocked_[e - clocks_.size()].port = port;
  }
}

std::string Fmi3Clocks::summary() const {
  if (clocks_.empty()) return "";
  std::string s = ", clocks:";
  for (std::size_t c = 0; c < clocks_.size(); ++c) {
    const Clock& clock = clocks_[c];
    s += (c == 0 ? " " : ", ") + clock.name + " (" + (clock.input ? "input" : "output") + ", " +
         clock.attributes.interval_variability;
    if (clock.periodic) {
      if (clock.ask) {
        s += ", interval from the FMU";
      } else {
        s += ", interval " + format_double(*clock.attributes.interval) + " s, shift " +
             format_double(clock.attributes.shift.value_or(0.0)) + " s";
      }
    }
    s += ")";
  }
  return s;
}

Fmi3ClockRun Fmi3Clocks::make_run() const {
  Fmi3ClockRun run;
  const std::size_t n = clocks_.size();
  run.next.assign(n, kNever);
  run.ticks.assign(n, 0);
  run.first.assign(n, 0.0);
  run.interval.assign(n, 0.0);
  run.active.assign(n, 0);
  run.ticked.assign(n, 0);
  run.latched.assign(clocked_.size(), 0.0);
  run.value.assign(clocked_.size(), 0.0);
  run.due.assign(clocked_.size(), 0);
  run.refs.resize(n);
  run.flags = std::make_unique<fmi3::Clock[]>(n == 0 ? 1 : n);
  return run;
}

void Fmi3Clocks::initialize(Fmi3ClockRun& run, Fmi2Instance& fmu, double start,
                            const std::string& owner) const {
  const fmi3::Functions& f = fmu.library().fmi3_functions();
  const fmi3::Instance instance = fmi3_instance(fmu.component());
  for (std::size_t c = 0; c < clocks_.size(); ++c) {
    const Clock& clock = clocks_[c];
    if (!clock.periodic) continue;
    double interval = clock.attributes.interval.value_or(0.0);
    double shift = clock.attributes.shift.value_or(0.0);
    if (clock.ask) {
      fmi3::IntervalQualifier qualifier = fmi3::IntervalQualifier::kNotYetKnown;
      fmu.require(status(f.get_interval_decimal(instance, &clock.vr, 1, &interval, &qualifier)),
                  "fmi3GetIntervalDecimal");
      fmu.require(status(f.get_shift_decimal(instance, &clock.vr, 1, &shift)), "fmi3GetShiftDecimal");
      if (qualifier == fmi3::IntervalQualifier::kNotYetKnown || !positive_finite(interval) ||
          !(shift >= 0 && std::isfinite(shift))) {
        throw RunError(owner + ": clock '" + clock.name +
                       "': fmi3GetIntervalDecimal and fmi3GetShiftDecimal gave interval " +
                       format_double(interval) + " s, shift " + format_double(shift) +
                       " s (a periodic clock needs a known interval > 0 and a shift >= 0)");
      }
    } else if (clock.attributes.interval_variability != "constant" && f.set_interval_decimal != nullptr) {
      fmu.require(status(f.set_interval_decimal(instance, &clock.vr, 1, &interval)),
                  "fmi3SetIntervalDecimal");
    }
    run.first[c] = start + shift;
    run.interval[c] = interval;
    run.ticks[c] = 0;
  }
}

void Fmi3Clocks::start(FireContext& context, Fmi3ClockRun& run) const {
  for (std::size_t c = 0; c < clocks_.size(); ++c) {
    if (!clocks_[c].periodic) continue;
    const Tick tick = context.resolution().to_ticks_clamped(run.first[c]);
    run.next[c] = tick == kNever || tick > context.stop_tick() ? kNever : std::max(tick, context.tag().time);
    if (run.next[c] != kNever) context.fire_at(run.next[c]);
  }
}

bool Fmi3Clocks::any_active(const Clocked& c, const Fmi3ClockRun& run) const {
  for (const std::size_t k : c.clocks) {
    if (run.active[k] != 0) return true;
  }
  return false;
}

void Fmi3Clocks::activate(FireContext& context, Fmi3ClockRun& run, Fmi2Instance& fmu,
                          const std::string& owner) const {
  const Tick now = context.tag().time;
  std::size_t n = 0;
  for (std::size_t c = 0; c < clocks_.size(); ++c) {
    const Clock& clock = clocks_[c];
    run.active[c] = 0;
    if (!clock.input) continue;
    bool ticks = false;
    if (clock.periodic) {
      ticks = run.next[c] == now;
      if (ticks) {
        // t_k = start + shift + k * interval, each to its nearest tick: no drift.
        const double t = run.first[c] + static_cast<double>(++run.ticks[c]) * run.interval[c];
        const Tick next = context.resolution().to_ticks_clamped(t);
        if (next != kNever && next <= now) {
          throw RunError(owner + ": clock '" + clock.name + "': its interval " +
                         format_double(run.interval[c]) + " s is shorter than the run's time resolution");
        }
        run.next[c] = next == kNever || next > context.stop_tick() ? kNever : next;
        if (run.next[c] != kNever) context.fire_at(run.next[c]);
      }
    } else {
      ticks = context.has_token(InputPort(clock.port));
    }
    if (ticks) {
      run.active[c] = 1;
      run.refs[n] = clock.vr;
      run.flags[n] = true;
      ++n;
    }
  }
  for (std::size_t k = 0; k < clocked_.size(); ++k) {
    const Clocked& c = clocked_[k];
    if (c.input && context.has_token(InputPort(c.port))) run.latched[k] = context.token(InputPort(c.port))[0];
  }
  if (n == 0) return;
  const fmi3::Functions& f = fmu.library().fmi3_functions();
  fmu.require(status(f.set_clock(fmi3_instance(fmu.component()), run.refs.data(), n, run.flags.get())),
              "fmi3SetClock");
  set_clocked(run, fmu);
}

void Fmi3Clocks::set_clocked(Fmi3ClockRun& run, Fmi2Instance& fmu) const {
  const fmi3::Functions& f = fmu.library().fmi3_functions();
  const fmi3::Instance instance = fmi3_instance(fmu.component());
  for (std::size_t k = 0; k < clocked_.size(); ++k) {
    const Clocked& c = clocked_[k];
    if (!c.input || !any_active(c, run)) continue;
    const double x = run.latched[k];
    if (c.type == VariableType::kReal) {
      fmu.require(status(f.set_float64(instance, &c.vr, 1, &x, 1)), "fmi3SetFloat64");
    } else if (c.type == VariableType::kInteger) {
      const auto i = static_cast<fmi3::Int32>(std::lround(x));
      fmu.require(status(f.set_int32(instance, &c.vr, 1, &i, 1)), "fmi3SetInt32");
    } else {
      const fmi3::Boolean b = x != 0.0;
      fmu.require(status(f.set_boolean(instance, &c.vr, 1, &b, 1)), "fmi3SetBoolean");
    }
  }
}

void Fmi3Clocks::before_update(Fmi3ClockRun& run, Fmi2Instance& fmu) const {
  if (has_output_clocks_) {
    std::size_t n = 0;
    for (const Clock& clock : clocks_) {
      if (!clock.input) run.refs[n++] = clock.vr;
    }
    const fmi3::Functions& f = fmu.library().fmi3_functions();
    fmu.require(status(f.get_clock(fmi3_instance(fmu.component()), run.refs.data(), n, run.flags.get())),
                "fmi3GetClock");
    n = 0;
    for (std::size_t c = 0; c < clocks_.size(); ++c) {
      if (clocks_[c].input) continue;
      run.active[c] = run.flags[n++] ? 1 : 0;
      if (run.active[c] != 0) run.ticked[c] = 1;
    }
  }
  read_clocked(run, fmu);
  // fmi3UpdateDiscreteStates deactivates the clocks; output clocks are asked again next time.
  std::fill(run.active.begin(), run.active.end(), 0);
}

void Fmi3Clocks::read_clocked(Fmi3ClockRun& run, Fmi2Instance& fmu) const {
  const fmi3::Functions& f = fmu.library().fmi3_functions();
  const fmi3::Instance instance = fmi3_instance(fmu.component());
  for (std::size_t k = 0; k < clocked_.size(); ++k) {
    const Clocked& c = clocked_[k];
    if (c.input || !any_active(c, run)) continue;
    if (c.type == VariableType::kReal) {
      fmu.require(status(f.get_float64(instance, &c.vr, 1, &run.value[k], 1)), "fmi3GetFloat64");
    } else if (c.type == VariableType::kInteger) {
      fmi3::Int32 i = 0;
      fmu.require(status(f.get_int32(instance, &c.vr, 1, &i, 1)), "fmi3GetInt32");
      run.value[k] = i;
    } else {
      fmi3::Boolean b = false;
      fmu.require(status(f.get_boolean(instance, &c.vr, 1, &b, 1)), "fmi3GetBoolean");
      run.value[k] = b ? 1.0 : 0.0;
    }
    run.due[k] = 1;
  }
}

void Fmi3Clocks::send(FireContext& context, Fmi3ClockRun& run) const {
  for (std::size_t c = 0; c < clocks_.size(); ++c) {
    if (run.ticked[c] == 0) continue;
    run.ticked[c] = 0;
    context.emit(OutputPort(clocks_[c].port), 1.0);
  }
  for (std::size_t k = 0; k < clocked_.size(); ++k) {
    if (run.due[k] == 0) continue;
    run.due[k] = 0;
    context.emit(OutputPort(clocked_[k].port), run.value[k]);
  }
}

}  // namespace ctde
