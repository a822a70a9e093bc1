#pragma once
/// FMU: a Functional Mock-up Unit (FMI 2.0; FMI 3.0 through
/// fmi3_adapter.hpp) as an actor (docs/fmi.md).
///
/// Every call follows the FMI state machine (fmi_rules.hpp), checked call
/// by call. Initialization: the start values, fmi2EnterInitializationMode,
/// the connected inputs, fmi2ExitInitializationMode (the director
/// initializes an FMU after the actors that drive it).
///
/// Model Exchange: the FMU's continuous states are the actor's states (the
/// director's solver integrates them), its event indicators are the actor's
/// guards, its nextEventTime a time event at exactly that time, and
/// fmi2CompletedIntegratorStep is called after every accepted step. In
/// Continuous-Time Mode only the time, the states and the continuous inputs
/// are set. At an event the actor fires: time, states and continuous inputs
/// (still in Continuous-Time Mode), fmi2EnterEventMode, the discrete inputs
/// that received a token, the event iteration (fmi2NewDiscreteStates until
/// no new discrete states are needed), fmi2EnterContinuousTimeMode, and the
/// states the FMU changed become a reset of the actor's states.
///
/// Co-Simulation: a discrete actor that fires every `communication_step`;
/// at t_k it calls fmi2DoStep from t_{k-1} (with the inputs set then), sets
/// the inputs at t_k and sends the outputs read then as tokens.
///
/// Ports: one port of width 1 per variable of causality input or output of
/// a type ports carry (Real, Integer, Boolean, Enumeration; FMI 3 Float64,
/// Int32, Boolean), named after the variable (characters other than
/// letters, digits and '_' become '_'). Model Exchange: continuous Real
/// inputs and every output continuous, the other inputs discrete;
/// Co-Simulation: discrete outputs and inputs of their drivers' kind.
/// Inputs are optional: an unconnected one keeps its start value. Direct
/// feedthrough comes from ModelStructure.
/// FMI 3 clocks and clocked variables are discrete ports (fmi3_clocks.hpp).
///
/// Snapshots (docs/fmi.md, "Snapshots"): the run state saves the FMU's own
/// state through the optional FMU-state functions (fmi2GetFMUstate,
/// fmi2SerializeFMUstate...; FMI 3.0 fmi3GetFMUState...) and restores it
/// into a new instance brought to the saved mode; an FMU whose description
/// does not declare canGetAndSetFMUstate and canSerializeFMUstate cannot be
/// saved (SnapshotError naming the actor and the missing flag).

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../../core/actor.hpp"
#include "fmi3_clocks.hpp"
#include "fmi_rules.hpp"
#include "fmi_values.hpp"
#include "model_description.hpp"

namespace ctde {

class FmuArchive;
class Fmi2Library;
class Fmi2Instance;
class StateWriter;
class StateReader;

/// Not copyable, not movable (see Actor).
class FMU : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "FMU",
      .family = "fmi",
      .summary = "A Functional Mock-up Unit (FMI 2.0 or 3.0, Model Exchange or Co-Simulation) as an actor",
      // @CTDE_TEST_FMUS@: the folder where the tests build their FMUs (tests/fmi/).
      .sample_params = R"({"file": "@CTDE_TEST_FMUS@/dahlquist.fmu"})"};

  explicit FMU(std::string name);
  ~FMU() override;
  FMU(const FMU&) = delete;
  FMU& operator=(const FMU&) = delete;
  FMU(FMU&&) = delete;
  FMU& operator=(FMU&&) = delete;

  /// The parsed modelDescription.xml (after configure()).
  [[nodiscard]] const ModelDescription& description() const { return md_; }
  /// True for Model Exchange, false for Co-Simulation (after configure()).
  [[nodiscard]] bool model_exchange() const { return me_; }
  /// "model-exchange, FMI 2.0, model 'ball', 2 states, 1 event indicators"
  /// (after configure()).
  [[nodiscard]] std::string validation_summary() const override;

  [[nodiscard]] std::size_t state_size() const override { return me_ ? states_ : 0; }
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(FireContext& context) const override;
  /// Connected inputs are set in Initialization Mode.
  [[nodiscard]] bool initializes_from_inputs() const override { return true; }
  /// A variable of a type ports do not carry.
  [[nodiscard]] std::string unconnectable(std::string_view port) const override;
  void evaluate(EvalContext& context) const override;
  void derivatives(const ReadContext& context, std::span<double> dxdt) const override;
  void state_tolerances(std::span<double> atol) const override;
  /// From <ModelStructure>: each derivative on the states and inputs its
  /// `dependencies` list, each output on its listed states and inputs
  /// (everything where the attribute is absent); values unknown (finite
  /// differences over column groups, docs/semantics.md "Jacobians").
  void local_jacobian(LocalJacobian& jacobian) const override;
  /// The entries local_jacobian() declared at each point (an FMU that
  /// provides directional derivatives), by fmi2GetDirectionalDerivative
  /// (fmi3GetDirectionalDerivative): one call per state or input, seed 1,
  /// for every derivative and output that depends on it (fmu_partials.cpp).
  void jacobian_values(const ReadContext& context, std::span<const LocalJacobian::Entry> entries,
                       std::span<double> values) const override;
  [[nodiscard]] bool watches_steps() const override;
  [[nodiscard]] bool step_completed(StepContext& context) const override;
  void fire(FireContext& context) const override;
  [[nodiscard]] std::size_t guard_count() const override { return me_ ? md_.event_indicators : 0; }
  [[nodiscard]] std::string guard_name(std::size_t i) const override;
  /// FMI's event-indicator domains: z > 0 and z <= 0.
  [[nodiscard]] ZeroSide guard_zero_side(std::size_t i) const override {
    (void)i;
    return ZeroSide::kBelow;
  }
  void guards(const ReadContext& context, std::span<double> g) const override;

 protected:
  void configure(const ParameterScope& scope) override;
  /// Co-simulation: `communication_step` a whole number of ticks.
  void check_times(const TimeResolution& resolution) const override;

 private:
  /// The ports of one Get/Set family (fmi_values.hpp), in one direction:
  /// the value reference, port index, variable (index into the
  /// description) and element count of each.
  struct PortGroup {
    std::vector<unsigned int> refs;
    std::vector<std::size_t> ports;
    std::vector<std::size_t> variables;
    std::vector<std::size_t> widths;
    std::size_t elements = 0;  ///< the sum of widths
    void add(unsigned int ref, std::size_t port, std::size_t variable, std::size_t width) {
      refs.push_back(ref);
      ports.push_back(port);
      variables.push_back(variable);
      widths.push_back(width);
      elements += width;
    }
    [[nodiscard]] std::size_t size() const { return refs.size(); }
  };
  /// Per family (ValueType).
  using Ports = std::array<PortGroup, kValueTypes>;
  /// A value of the `start` parameter: numbers (an array's elements), or text (String, Binary as hex).
  struct Start {
    std::size_t variable = 0;
    std::vector<double> values;
    std::string text;
  };
  struct RunState;

  /// Loads the `file` parameter's FMU, unless it is the one loaded already.
  void load_file();
  /// Sets me_ from the `interface` parameter, and the communication step of Co-Simulation.
  void choose_interface();
  /// Loads the binary of the `chosen` interface for this platform and checks the functions the clocks need.
  void open_library(const FmuInterface& chosen);
  /// Instantiates the FMU once, so that a wrong GUID (or resources) is a model error now.
  void check_instance() const;
  void load(const std::string& file);
  void declare_ports();
  /// Records why the input or output `var` (a type ports do not carry) has no port `port`.
  void add_unconnectable(const FmuVariable& var, const std::string& port, bool input);
  /// Declares the port of the input or output variable `v` of a type ports carry, and adds it to its family.
  void declare_value_port(std::size_t v, const std::string& port, bool input);
  /// Lists the families outputs_ has ports of, and each output port's slot among the values read.
  void lay_out_outputs();
  /// Declares the direct feedthrough from ModelStructure, from the variables of `input_variable`.
  void declare_feedthrough(const std::vector<std::size_t>& input_variable);
  void read_starts();
  [[nodiscard]] std::unique_ptr<Fmi2Instance> instantiate(const std::string& instance_name) const;
  /// Sets the inputs of `ports` that `take(port index)` selects (their values now).
  template <class Take>
  void set_inputs(const ReadContext& context, RunState& run, const Ports& ports, Take take) const;
  /// Continuous-Time Mode: time `t`, the states, the continuous inputs.
  void set_continuous(const ReadContext& context, RunState& run, double t) const;
  /// Sets the `start` parameter's values (before Initialization Mode).
  void set_starts(RunState& run) const;
  void read_outputs(RunState& run) const;
  /// Calls each(port index, values) for every output, from the values read last.
  template <class Each>
  void for_each_output(const RunState& run, Each each) const;
  void event_iteration(FireContext& context, RunState& run, bool initial) const;
  void schedule(FireContext& context, RunState& run, bool defined, double next) const;
  void initialize_now(FireContext& context, RunState& run) const;
  void fire_now(FireContext& context, RunState& run) const;
  /// Co-simulation: a firing at a communication point (the step to it, the
  /// inputs, the outputs sent), at a later microstep of it, or between two.
  void communicate(FireContext& context, RunState& run) const;
  /// Sends the outputs as tokens; only those that feed through from an input when `feedthrough_only`.
  void publish(FireContext& context, const RunState& run, bool feedthrough_only) const;
  /// Runs `call`, then writes what the FMU logged, also when `call` throws.
  template <class Call>
  void with_log(StepContext& context, RunState& run, Call call) const;
  /// Writes the messages the FMU logged since the last call as `fmu_log` trace lines, at the context's tag.
  void trace_log(StepContext& context, RunState& run) const;
  /// Co-simulation: a discarded step that fmi2GetBooleanStatus(fmi2Terminated) says ended the simulation.
  [[nodiscard]] bool terminated(RunState& run) const;
  /// Keeps in run.continuous_in and run.event_in the inputs that run.connected marks.
  void keep_connected(RunState& run) const;
  /// fmi2SetupExperiment (run.start_time, run.stop_time), the `start` values,
  /// fmi2EnterInitializationMode: initialize() and restore_run() alike.
  void enter_initialization(RunState& run) const;
  /// The calls jacobian_values() makes for `entries` (fmu_partials.cpp).
  void plan_partials(std::span<const LocalJacobian::Entry> entries, RunState& run) const;

  // Snapshots (fmu_snapshot.cpp).
  /// Why the FMU cannot save and restore its state ("modelDescription has no
  /// canSerializeFMUstate"); empty when it can.
  [[nodiscard]] std::string fmu_state_refusal() const;
  /// RunState::save: the FMU state's bytes, then the run's bookkeeping.
  /// @throws SnapshotError naming the actor and why it cannot.
  void save_run(const RunState& run, StateWriter& out) const;
  /// RunState::restore: instantiates, brings the instance to the saved mode,
  /// sets the saved FMU state, restores the bookkeeping.
  void restore_run(RunState& run, StateReader& in) const;
  /// The calls of restore_run() from Instantiated to `mode` (Event,
  /// Continuous-Time or Step Mode), as initialize() makes them.
  void enter_saved_mode(RunState& run, FmiMode mode) const;

  ParamHandle file_;
  ParamHandle interface_;
  ParamHandle step_;
  ParamHandle start_;

  std::string loaded_;  ///< the file loaded (configure() may run again)
  std::unique_ptr<FmuArchive> archive_;
  std::shared_ptr<Fmi2Library> library_;
  ModelDescription md_;
  bool me_ = true;
  /// Model Exchange with directional derivatives (declared, in the binary, scalar variables).
  bool directional_ = false;
  bool once_per_process_ = false;
  double communication_step_ = 0;
  std::string resource_uri_;
  /// The inputs set in every mode that sets inputs: continuous Real inputs
  /// of Model Exchange (the only ones Continuous-Time Mode sets).
  Ports continuous_inputs_;
  /// The inputs set in Initialization, Event and Step Mode only: the others
  /// of Model Exchange (discrete ports); every input of Co-Simulation.
  Ports event_inputs_;
  Ports outputs_;
  std::vector<std::size_t> output_families_;  ///< the families (ValueType) outputs_ has ports of
  /// Each output port's values among those read (RunState::out): port, family, first element, width.
  struct OutputSlot {
    std::size_t port, family, offset, width;
  };
  std::vector<OutputSlot> output_slots_;
  std::vector<std::vector<double>>
      output_starts_;  ///< per output port: its start values (before initialization)
  /// Inputs and outputs without a port (a type ports do not carry): port name and why.
  std::vector<std::pair<std::string, std::string>> unconnectable_;
  Fmi3Clocks clocks_;          ///< FMI 3 clocks and clocked variables: discrete ports
  std::vector<Start> starts_;  ///< from the `start` parameter
  std::size_t states_ = 0;     ///< continuous states (array states count their elements)
};

/// The kind of the input port of `variable`: Model Exchange, continuous for
/// a continuous input (Real, Float32, Float64) and discrete for the others (FMI changes them
/// only at events); Co-Simulation, polymorphic (its driver's kind).
[[nodiscard]] PortKind fmu_input_kind(const FmuVariable& variable, bool model_exchange);

/// A port name for an FMU variable: characters other than ASCII letters,
/// digits and '_' become '_' ("der(x)" -> "der_x_").
[[nodiscard]] std::string fmu_port_name(const std::string& variable);

}  // namespace ctde
