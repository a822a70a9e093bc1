#pragma once
/// The actor base: a named description with declared ports and parameters.
///
/// An actor describes a component; what changes during a run lives with the
/// director. Subclasses declare their ports and parameters in the constructor
/// (`declare_input`, `declare_parameter`...), and may finish the declaration in
/// `configure()`, which runs once the parameters are evaluated (for ports whose
/// number or width depends on a parameter, as `Sum`'s `signs`).

#include <cassert>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "crossing.hpp"
#include "interned_name.hpp"
#include "kernel.hpp"
#include "local_jacobian.hpp"
#include "param.hpp"
#include "port.hpp"
#include "port_list.hpp"
#include "run_buffers.hpp"
#include "source_location.hpp"
#include "time.hpp"
#include "written_param.hpp"

namespace ctde {

class Composite;
struct GraphVertex;
class EvalContext;
class FireContext;
class ReadContext;
class StepContext;

/// Which side of the events at a time Actor::at_events() sees.
enum class EventSide : std::uint8_t {
  kBefore,  ///< the left limits, before the first microstep
  kAfter    ///< the right limits, after the last microstep
};

/// Who an actor type is, written once, on the type:
/// `static constexpr ActorInfo kInfo{.type = "Gain", .family = "math", ...};`.
/// The constructor passes it to Actor (the type name), register_actor<T>()
/// makes the registry entry from it, and docs/model-reference.md is checked
/// against that entry (tests/core/test_model_reference.cpp). Every member
/// views a string literal. Copyable literal type.
struct ActorInfo {
  std::string_view type;     ///< the type name of model files ("Gain")
  std::string_view family;   ///< a built-in type's folder under actors/ ("math")
  std::string_view summary;  ///< one line: what it computes (the reference's)
  /// A "params" object of a model file (JSON text) that makes a valid actor:
  /// with a source on every required input (a DiscreteClock on a discrete
  /// input of width 1, else a Constant of the input's width, 1 where
  /// inferred), it validates and runs. Where the number of inputs is a
  /// parameter, two (the tests then see one absent while the other is
  /// present). tests/actors/test_builtin_actors.cpp runs every sample.
  std::string_view sample_params = "{}";
};

/// Handle of a declared parameter (index into the actor's parameters).
struct ParamHandle {
  std::size_t index = 0;
};

/// A declared parameter, its value as written and its evaluated value: a
/// scalar written as a number or a short expression is held in the slot
/// (WrittenParam, ResolvedParam), without a heap block. Copyable.
struct ParamSlot {
  InternedName name;  ///< held once for the process, shared by every actor that declares it
  ParamKind kind = ParamKind::kScalar;
  WrittenParam value;       ///< as written, or the default; empty = required and missing
  ResolvedParam resolved;   ///< after resolve_parameters()
  SourceLocation location;  ///< where the value was written (JSON location), or empty
  bool optional = false;    ///< may stay unset (then `resolved` is empty)
};

/// Base of every actor. Not copyable, not movable (ports and parents refer to it).
class Actor {
 public:
  virtual ~Actor();
  Actor(const Actor&) = delete;
  Actor& operator=(const Actor&) = delete;
  Actor(Actor&&) = delete;
  Actor& operator=(Actor&&) = delete;

  /// The actor's own name (no dots).
  [[nodiscard]] const std::string& name() const { return name_; }
  /// The registered type name ("Gain").
  [[nodiscard]] const std::string& type() const { return type_.str(); }
  /// Its type's family (ActorInfo::family: "converters", "events"...;
  /// empty for an actor made without an ActorInfo). `ctde graph` draws
  /// converters and state-event generators by it.
  [[nodiscard]] std::string_view family() const { return family_; }
  /// The full dotted path from the model's top ("plant.spring").
  [[nodiscard]] std::string path() const;
  [[nodiscard]] const Composite* parent() const { return parent_; }

  /// The time mode the actor declares (kUnresolved for polymorphic actors).
  [[nodiscard]] TimeMode declared_mode() const { return declared_mode_; }
  /// A user's `time_mode` override, if any.
  [[nodiscard]] std::optional<TimeMode> mode_override() const { return mode_override_; }
  /// Forces the time mode of a polymorphic actor (continuous or discrete).
  /// @throws ModelError if the actor is not polymorphic or `mode` is neither.
  void set_time_mode(TimeMode mode);

  /// The declared ports (shared with every actor that declares the same
  /// ones, core/port_list.hpp: compare them by value, not by address).
  [[nodiscard]] const std::vector<PortSpec>& inputs() const { return *inputs_; }
  [[nodiscard]] const std::vector<PortSpec>& outputs() const { return *outputs_; }
  [[nodiscard]] std::optional<std::size_t> find_input(std::string_view name) const;
  [[nodiscard]] std::optional<std::size_t> find_output(std::string_view name) const;

  /// Sets a parameter's value as written.
  /// @throws ModelError naming the actor and listing the known parameters
  ///         when `name` is not declared.
  void set_parameter(const std::string& name, ParamValue value, SourceLocation location = {});
  [[nodiscard]] const std::vector<ParamSlot>& parameters() const { return params_; }

  /// Evaluates every parameter in `scope`, then calls configure().
  /// @throws ModelError naming the actor and the parameter.
  void resolve_parameters(const ParameterScope& scope);

  /// Why `port`, a name the actor has no port of, cannot be connected
  /// though the user may expect it (an FMU variable of a type ports do not
  /// carry: "'label' is a String output: ..."), or empty: the usual "has no
  /// input" message.
  [[nodiscard]] virtual std::string unconnectable(std::string_view port) const {
    (void)port;
    return {};
  }

  /// True when input `in` feeds output `out` directly (without state or delay).
  [[nodiscard]] bool feeds_through(std::size_t in, std::size_t out) const;
  /// True when input `in` feeds any output directly.
  [[nodiscard]] bool feeds_through(std::size_t in) const;
  /// True for a sampled system without direct feedthrough (a UnitDelay...)
  /// that breaks a discrete loop closing through its input: in such a loop
  /// it sends its output from its state when the loop is sampled (a token
  /// enters the loop: FireContext::loop_sample()) and takes its input
  /// token after, without sending (docs/semantics.md, "Discrete loops
  /// through a delay"). Outside a loop it runs as always.
  [[nodiscard]] virtual bool samples_its_loop() const { return false; }

  /// Width of output `output` given the input widths known so far (0 =
  /// unknown). The default suits element-wise actors: the common width of the
  /// known inputs. Only called for outputs whose width is not fixed.
  [[nodiscard]] virtual int infer_output_width(std::size_t output, std::span<const int> input_widths) const;
  /// Checks the final widths. The default requires all inputs of an actor
  /// without fixed input widths to have the same width.
  /// @throws ModelError naming the ports and their widths.
  virtual void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const;

  /// Called by width inference once every port's width is final (after
  /// check_widths()), for an actor whose state size follows an inferred width
  /// (an Integrator with a scalar `initial`). The default does nothing.
  virtual void widths_resolved(std::span<const int> input_widths, std::span<const int> output_widths) {
    (void)input_widths;
    (void)output_widths;
  }

  [[nodiscard]] virtual bool is_composite() const { return false; }
  /// False for polymorphic actors whose output varies with time even when
  /// every input is constant (an Expression of `t`); such an actor is never
  /// folded into a constant by time-mode resolution.
  [[nodiscard]] virtual bool can_be_constant() const { return true; }

  // ---- Behaviour during a run (the director calls these; all const: what
  // changes lives in the run's buffers and the actor's ActorState). Each
  // call gets the context type that allows what it may do
  // (core/actor_context.hpp): derivatives() and guards() only read,
  // evaluate() also writes the outputs, initialize() and fire() read tokens
  // and use the director's services but write no outputs.

  /// The number of continuous states (after configure()).
  [[nodiscard]] virtual std::size_t state_size() const { return 0; }
  /// The actor's mutable run state, or null when it needs none.
  [[nodiscard]] virtual std::unique_ptr<ActorState> make_state() const { return nullptr; }
  /// At the start time: set the initial states (context.mutable_states())
  /// and the run state, request time events. The director evaluates the
  /// continuous outputs after every actor is initialized.
  virtual void initialize(FireContext& context) const;
  /// True for an actor whose initialize() reads its inputs (an FMU sets
  /// them in its Initialization Mode). The director initializes such actors
  /// after the others, one at a time in schedule order, each after the
  /// continuous outputs were evaluated (its inputs' values at the start;
  /// a constant's value is present on a discrete input). Until then its
  /// evaluate() may be called on a run state initialize() has not seen.
  [[nodiscard]] virtual bool initializes_from_inputs() const { return false; }
  /// Continuous and constant outputs from inputs, states and time
  /// (called in schedule order, on the RHS path: no allocation). Called
  /// where the outputs are read: in every RHS evaluation only when the
  /// derivatives read them, always at step ends, rows and events; for a
  /// constant-mode actor once, at the start; never for an actor without
  /// continuous outputs. No side effects beyond the outputs. In discrete
  /// mode (a polymorphic function such as Gain) the director calls it when
  /// the actor fires and emits the outputs as tokens.
  virtual void evaluate(EvalContext& context) const;
  /// The derivatives of the continuous states, on the RHS path. A failure
  /// at a trial point (a non-finite value written, or a RunError thrown —
  /// an FMU's discontinuity or a value outside its domain) is recoverable:
  /// the solver retries the step shorter; only a failure at the solution
  /// stops the run (docs/semantics.md, "The continuous phase").
  virtual void derivatives(const ReadContext& context, std::span<double> dxdt) const;
  /// Absolute tolerances for this actor's states (state_size() of them),
  /// given the run's `atol` in each: an actor that knows its states' scales
  /// (an FMU's nominal values) replaces or scales them. Default: unchanged.
  /// A model's per-state `atol` list, when given, wins.
  virtual void state_tolerances(std::span<double> atol) const { (void)atol; }
  /// True when the director must call step_completed() after each accepted
  /// step (fixed after configure(); default false, so that others cost nothing).
  [[nodiscard]] virtual bool watches_steps() const { return false; }
  /// After each accepted solver step (or time advance without states), with
  /// the step's end values: true asks for an event there — the actor fires
  /// at the step end's tick, microstep 0, as for a time event (an FMU's
  /// completedIntegratorStep asking for event mode). Trace lines written
  /// here carry that tag (an FMU's log of the step).
  [[nodiscard]] virtual bool step_completed(StepContext& context) const {
    (void)context;
    return false;
  }
  /// For an actor that watches_steps(): at each time with events (time
  /// events, located state events, the start time), once before them
  /// (kBefore: inputs and states are their left limits x⁻ there, as the step
  /// that ended there left them; at the start, the initial values) and once
  /// after the last microstep (kAfter: the right limits x⁺). The actor may
  /// update its run state and request time events, but writes no outputs
  /// (a TransportDelay records both sides of a jump of its input). Default:
  /// nothing.
  virtual void at_events(FireContext& context, EventSide side) const {
    (void)context;
    (void)side;
  }
  /// True when every solver step (and every advance of time without states)
  /// must be bounded by this actor's max_step() and by those of the actors
  /// varying in time without states that drive it: an actor that samples
  /// its inputs at the step ends and reads those samples back later (a
  /// TransportDelay). Default false: only the actors that drive guards or
  /// recorded signals bound the steps.
  [[nodiscard]] virtual bool bounds_every_step() const { return false; }
  /// A reaction at a tag: tokens on inputs and/or a requested time event.
  /// Sends tokens, requests time events, resets states; the director
  /// evaluates the continuous outputs after it.
  virtual void fire(FireContext& context) const;
  /// The longest step over which the director may look at this actor's
  /// outputs only at the two ends without missing a crossing of a level: for
  /// actors whose outputs vary in time without states (a Sine declares a
  /// sixteenth of its period). The director bounds its steps by the least
  /// max_step() of the actors that drive guards or recorded signals
  /// (docs/semantics.md, "Step control"). Default: infinity (outputs vary
  /// only with inputs and states, or monotonically between time events).
  [[nodiscard]] virtual double max_step() const;
  /// A built-in form of evaluate() and derivatives() the director may run
  /// instead of the virtual calls on the right-hand-side path (core/kernel.hpp;
  /// default: none). It must compute exactly what those compute.
  [[nodiscard]] virtual Kernel kernel() const { return {}; }
  /// Its local Jacobian (core/local_jacobian.hpp): which elements of its
  /// continuous outputs and derivatives depend on which input elements and
  /// states, with the values it knows as constants of the run. The default
  /// declares every dependency, values unknown (always correct; only
  /// finite differences then). An override must list every dependency its
  /// evaluate() and derivatives() have, or the Jacobian misses it.
  virtual void local_jacobian(LocalJacobian& jacobian) const;
  /// The values of `entries`, those local_jacobian() declared
  /// LocalJacobian::kAtPoint (in the order it declared them: entries[i].point
  /// is i), into values[i], at the point `context` reads (the director has
  /// just evaluated the model's outputs and derivatives there). Called at
  /// each evaluation of the Jacobian, with the same entries each time; an
  /// actor that declares kAtPoint overrides it (the default throws
  /// std::logic_error). It may throw what derivatives() throws: the step is
  /// then tried shorter.
  virtual void jacobian_values(const ReadContext& context, std::span<const LocalJacobian::Entry> entries,
                               std::span<double> values) const;

  // ---- State-event generators (docs/semantics.md, "State events"): an actor with
  // guards g(t, x, u). The director locates the instant a guard crosses zero
  // in one of its directions and fires the actor there, at (te, 0);
  // context.crossing(i) tells which guards crossed and how. A user-written
  // actor becomes a generator by overriding these three (and fire()).

  /// The number of guard functions (after configure()); 0: not a generator.
  [[nodiscard]] virtual std::size_t guard_count() const { return 0; }
  /// Which crossings of guard `i` are events (default: both).
  [[nodiscard]] virtual Crossing guard_direction(std::size_t i) const;
  /// A name for guard `i` in traces and messages; empty (the default): its index.
  [[nodiscard]] virtual std::string guard_name(std::size_t i) const;
  /// Where guard `i`'s value of exactly zero belongs (core/crossing.hpp):
  /// a side of its own by default.
  [[nodiscard]] virtual ZeroSide guard_zero_side(std::size_t i) const {
    (void)i;
    return ZeroSide::kOwn;
  }
  /// Writes the guard values at the context's time (from inputs, states and
  /// time) to `g` (guard_count() values). Called on the event-location path:
  /// no allocation. A NaN or infinite value stops the run naming the actor.
  virtual void guards(const ReadContext& context, std::span<double> g) const;

  /// Checks that the durations among the parameters (periods, delays, mean
  /// intervals) are whole numbers of ticks at `resolution` (the director
  /// calls it before a run, `ctde validate` too): a period of 1.5 ticks
  /// would be rounded by a third, one below a tick would never advance time.
  /// @throws ModelError naming the actor, the parameter and the rule, at the
  ///         actor's location.
  void check_time_resolution(const TimeResolution& resolution) const;

  // ---- What the front ends show of the actor (`ctde graph`, `ctde validate`;
  // core/graph_text.hpp). Each type says it of itself: a plug-in's too.

  /// The lines of its tooltip in `ctde graph` after "path (type)", each
  /// starting with a newline: by default one per parameter that is set,
  /// `name = value` (short_value).
  [[nodiscard]] virtual std::string tooltip_lines() const;

  /// A short mark `ctde graph` draws at the head of the connection into
  /// input `input` (a Sum's sign); none by default. After configure().
  [[nodiscard]] virtual std::string input_mark(std::size_t input) const {
    (void)input;
    return {};
  }

  /// True when `ctde graph` draws the actor as a cluster of its own
  /// (write_graph_cluster) instead of one node.
  [[nodiscard]] virtual bool draws_cluster() const { return false; }

  /// Writes that cluster (`subgraph "graph_cluster_id(path)" { ... }`) to
  /// `out`, holding the actor's own node `vertex.index`, drawn invisibly
  /// (its connections end on the cluster's border). Called only when
  /// draws_cluster().
  virtual void write_graph_cluster(std::ostream& out, const GraphVertex& vertex) const;

  /// What `ctde validate` says of the actor beyond its ports and time mode,
  /// in one line (an FMU: its interface, states and event indicators), or
  /// "" for nothing.
  [[nodiscard]] virtual std::string validation_summary() const { return {}; }

  /// "actor 'plant.gain' (Gain)" — the prefix of messages about this actor.
  [[nodiscard]] std::string describe() const;

  /// Where the actor was written (a JSON location), or empty; errors about
  /// the actor carry it.
  [[nodiscard]] const SourceLocation& location() const { return location_; }
  void set_location(SourceLocation location) { location_ = std::move(location); }

 protected:
  /// @param info the type's identity (`kInfo`); the actor's type() is info.type.
  Actor(std::string name, const ActorInfo& info, TimeMode mode);
  /// For an actor that no registry makes (used from C++ only): its type name alone.
  Actor(std::string name, std::string_view type, TimeMode mode);

  InputPort declare_input(std::string name, PortKind kind, int width = kInferredWidth, bool optional = false);
  OutputPort declare_output(std::string name, PortKind kind, int width = kInferredWidth);
  /// A parameter without a default that may stay unset (see is_set()).
  ParamHandle declare_optional_parameter(std::string_view name, ParamKind kind);
  /// Makes the inputs exactly in0..in{count-1} of `kind` (for configure():
  /// idempotent). Only for actors whose inputs are all numbered.
  void declare_numbered_inputs(std::size_t count, PortKind kind);
  /// The number of ports a parameter asks for (Mux's `inputs`, Demux's
  /// `outputs`...): a whole number from 1 to 1000. For configure().
  /// @throws ModelError naming `p` when it is not one.
  [[nodiscard]] std::size_t port_count(ParamHandle p) const;
  /// @param default_value empty: the parameter is required.
  ParamHandle declare_parameter(std::string_view name, ParamKind kind,
                                std::optional<ParamValue> default_value = std::nullopt);

  /// Called once the parameters are evaluated: declare parameter-dependent
  /// ports, fix widths, state feedthrough. `scope` holds the model's
  /// parameters (for actors that evaluate expressions later, as Expression).
  /// @throws ModelError via fail().
  virtual void configure(const ParameterScope& /*scope*/) {}

  void set_width(InputPort port, int width);
  void set_width(OutputPort port, int width);
  /// Changes a declared port's kind (for configure() run again with other
  /// parameters: an FMU's interface).
  void set_kind(InputPort port, PortKind kind);
  void set_kind(OutputPort port, PortKind kind);
  /// Changes the declared time mode, for an actor whose mode follows a
  /// parameter (an FMU: Model Exchange continuous, Co-Simulation discrete);
  /// in configure(). Not kUnresolved: a polymorphic actor is one by type.
  void set_declared_mode(TimeMode mode);
  /// Every input feeds every output directly (the default), or none does.
  void set_feedthrough(bool all);
  /// Only the listed (input, output) pairs feed through.
  void set_feedthrough(const std::vector<std::pair<InputPort, OutputPort>>& pairs);

  /// The handle of input `i` / output `o`, for ports made from a count or a
  /// list rather than one declaration each (declare_numbered_inputs():
  /// in0..in{n-1}; a modal model's ports). Other ports use the handles
  /// their declarations return.
  [[nodiscard]] InputPort input_port(std::size_t i) const {
    assert(i < inputs_->size());
    return InputPort{i};
  }
  [[nodiscard]] OutputPort output_port(std::size_t o) const {
    assert(o < outputs_->size());
    return OutputPort{o};
  }

  // Parameter values after resolve_parameters() (inline: run-time calls read them).
  [[nodiscard]] double scalar(ParamHandle p) const { return params_[p.index].resolved.scalar(); }
  [[nodiscard]] std::span<const double> vector(ParamHandle p) const {
    return params_[p.index].resolved.values();
  }
  [[nodiscard]] Matrix matrix(ParamHandle p) const;
  [[nodiscard]] const std::string& text(ParamHandle p) const { return params_[p.index].resolved.text(); }
  /// A structured parameter's JSON value (read it with a JsonCursor at the
  /// parameter's location, core/json_cursor.hpp). Precondition: is_set(p).
  [[nodiscard]] const nlohmann::ordered_json& structure(ParamHandle p) const {
    return *params_[p.index].resolved.json();
  }
  [[nodiscard]] bool is_set(ParamHandle p) const;

  /// The actor's checks for check_time_resolution() (default: none).
  virtual void check_times(const TimeResolution& resolution) const { (void)resolution; }
  /// A duration parameter must be a whole number of ticks (within 1e-6 of
  /// one) and at least one tick (or exactly 0 when `zero_allowed`); infinity
  /// passes (never).
  void check_duration(ParamHandle p, const TimeResolution& resolution, bool zero_allowed) const;
  /// As check_duration, for a value of a vector parameter.
  void check_duration(ParamHandle p, double seconds, const TimeResolution& resolution,
                      bool zero_allowed) const;

  /// Throws a ModelError "actor 'path' (Type): message".
  [[noreturn]] void fail(const std::string& message) const;
  /// Throws a ModelError "actor 'path' (Type), parameter 'p': message".
  [[noreturn]] void fail(ParamHandle p, const std::string& message) const;

 private:
  friend class Composite;
  enum class Feedthrough { kAll, kNone, kListed };

  std::string name_;
  InternedName type_;        ///< one copy per type name, shared by its actors
  std::string_view family_;  ///< ActorInfo::family (a string literal), or empty
  SourceLocation location_;
  Composite* parent_ = nullptr;
  TimeMode declared_mode_;
  std::optional<TimeMode> mode_override_;
  const PortList* inputs_;  ///< interned: shared by the actors that declare the same ports
  const PortList* outputs_;
  std::vector<ParamSlot> params_;
  Feedthrough feedthrough_ = Feedthrough::kAll;
  std::vector<std::pair<std::size_t, std::size_t>> feedthrough_pairs_;
};

}  // namespace ctde
