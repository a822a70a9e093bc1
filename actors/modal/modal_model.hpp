#pragma once
/// ModalModel: a mode chart over continuous states (docs/modal.md). Each mode
/// gives the derivatives of the states
/// and the outputs; transitions between modes are taken when their guard (a
/// predicate, predicate.hpp) becomes true, located by the director like any
/// state event. A compound transition A -> B -> C passes through the
/// instantaneous mode B for one microstep: B's entry assignments read the
/// values just before the event (`v_old = v`), B's set assignments reset
/// states (`v = -e * v_old`), and the chart settles in C.
///
/// At an event (fire(), at (te, 0) with context.crossing(k) for the guards
/// that crossed):
/// ```
/// k ← the lowest-numbered crossed transition leaving the current mode whose
///     predicate holds (exactly, with its strictness); none → if a crossed
///     one holds only up to strictness (`v > 0` with v = 0), look again one
///     tick later; return
/// the frame holds the values just before the event (x⁻, event variables)
/// a plain transition's set: states ← its expressions (all read the frame first)
/// for each mode entered along the path (B, then C):
///   its entry: event variables ← expressions over the frame
///   its set:   states ← expressions over the frame (with the new event variables)
/// mode ← C; states written → context.mutable_states() (a `reset` trace line
///   when a value changed); context.mode_changed(A, B or "", C) (the solver
///   restarts)
/// consistency: a transition leaving C whose predicate holds now → RunError
///   naming it (the chart would loop forever at this instant)
/// time guards: fire_at(the first tick after now where one leaving C holds)
/// ```
/// Guard k is the guard function of transition k's predicate while its first
/// mode is the current one, and -1 otherwise (no events from other modes).
/// At the start, the chart is fired once (a time event at the start time) to
/// take a transition whose predicate already holds.
///
/// A guard on the time alone (`t >= T_on`, `t > 1 && t < 2`: TimePredicate,
/// chart_program.hpp) is a time event instead: its guard function is the
/// constant -1 (never searched), and on entering a mode (and at the start)
/// the chart asks to be fired at the first tick where such a guard leaving
/// it holds. At every firing, a time guard is decided on the firing's tick,
/// so it is taken exactly there, in priority order with the others.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../../core/actor.hpp"
#include "chart_program.hpp"
#include "modal_chart.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class ModalModel : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "ModalModel",
      .family = "modal",
      .summary =
          "A mode chart over continuous states: per-mode derivatives and outputs, transitions taken when "
          "their guard predicate becomes true (located as state events), compound transitions through "
          "instantaneous modes with entry and set actions (docs/modal.md).",
      .sample_params = R"({"inputs": {"u": 1}, "outputs": {"y": "x"}, "parameters": {"top": 0.5},
                          "states": {"x": 0}, "initial": "UP",
                          "modes": {"UP": {"der": {"x": "u"}}, "DOWN": {"der": {"x": "-u"}}},
                          "transitions": [{"path": ["UP", "DOWN"], "guard": "x >= top"},
                                          {"path": ["DOWN", "UP"], "guard": "x <= 0"}]})",
  };

  /// A chart read from parameters (model files): `inputs`, `outputs`,
  /// `parameters`, `assert`, `states`, `event_vars`, `modes`, `transitions`
  /// (structured values, ParamKind::kStructure) and `initial` (a string).
  explicit ModalModel(std::string name);
  /// A chart given in C++ (modal_chart.hpp); the actor has no parameters.
  ModalModel(std::string name, ModalChart chart);

  [[nodiscard]] std::size_t state_size() const override { return program_.states; }
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void derivatives(const ReadContext& context, std::span<double> dxdt) const override;
  void fire(FireContext& context) const override;

  /// One guard per transition, in the chart's order.
  [[nodiscard]] std::size_t guard_count() const override { return program_.transitions.size(); }
  /// kRising: an event when the predicate becomes true.
  [[nodiscard]] Crossing guard_direction(std::size_t i) const override;
  /// "0: FREE->IMPACT->FREE": the transition's index and path.
  [[nodiscard]] std::string guard_name(std::size_t i) const override;
  void guards(const ReadContext& context, std::span<double> g) const override;

  /// The chart as written (after configure(), for charts read from parameters).
  [[nodiscard]] const ModalChart& chart() const { return chart_; }

  // ---- Drawn by `ctde graph` as its mode chart (modal_graph.cpp)

  /// The chart's local parameters and initial states, as written.
  [[nodiscard]] std::string tooltip_lines() const override;
  [[nodiscard]] bool draws_cluster() const override { return true; }
  /// The mode chart as a cluster: one node per mode (an instantaneous one a
  /// small dashed circle with its actions, when short), the initial mode
  /// pointed at by an arrow from a dot, one edge per step of a transition
  /// labelled with its guard (and its resets, when short). Node ids are
  /// `mV_I` (mode I of vertex V).
  void write_graph_cluster(std::ostream& out, const GraphVertex& vertex) const override;

 protected:
  /// Reads the chart (from the parameters, unless given in C++), checks it
  /// and its asserts, compiles its expressions, declares the ports.
  /// @throws ModelError naming the item and, for model files, its JSON location.
  void configure(const ParameterScope& scope) override;

 private:
  /// An assignment `target = value` (target: a frame index).
  struct Assign {
    std::uint32_t target = 0;
    Term value;
    std::string what;  ///< "mode 'IMPACT', set 'v' = \"-e * v_old\"", for messages
  };
  struct Mode {
    std::string name;
    bool instantaneous = false;
    std::vector<Term> der;      ///< per state
    std::vector<Term> outputs;  ///< per output
    std::vector<Assign> entry;
    std::vector<Assign> set;
    std::vector<std::uint32_t> leaving;  ///< transitions from this mode, ascending
  };
  struct Transition {
    std::vector<std::uint32_t> path;  ///< mode indices
    CompiledPredicate guard;
    std::vector<Assign> set;
    std::string name;   ///< "0: FREE->IMPACT->FREE"
    std::string label;  ///< "transition 0 (FREE -> IMPACT -> FREE, guard \"...\")"
    bool writes_states = false;
    /// A guard on the time alone: a time event (resolved per run in RunState).
    std::optional<TimePredicate> time_guard;
  };
  /// Everything configure() compiles. Copyable value type.
  struct Program {
    std::uint32_t inputs_at = 0;  ///< frame index of the first input element
    std::uint32_t states_at = 0;
    std::uint32_t events_at = 0;
    std::uint32_t states = 0;
    std::uint32_t events = 0;
    std::uint32_t frame = 0;  ///< frame size
    std::vector<std::uint32_t> input_widths;
    std::vector<std::string> output_names;
    std::vector<double> state_initial;
    std::vector<double> event_initial;
    std::vector<Mode> modes;
    std::uint32_t initial = 0;
    std::vector<Transition> transitions;
    std::vector<ChartProgram> programs;
    std::size_t widest_assignment = 0;
  };
  class Compiler;
  struct RunState;

  void read_chart_from_parameters();
  void declare_ports();
  void load_frame(const ReadContext& context, RunState& run) const;
  /// Keeps the tokens on discrete inputs as their held values.
  void hold_tokens(FireContext& context, RunState& run) const;
  void assign(const std::vector<Assign>& assignments, RunState& run) const;
  void take(FireContext& context, RunState& run, std::uint32_t k) const;
  /// Whether transition k's guard holds now (a time guard: at the firing's tick).
  [[nodiscard]] bool guard_holds(const ReadContext& context, const RunState& run, std::uint32_t k) const;
  /// Asks to be fired at the first tick at or after `from` where a time guard
  /// leaving the current mode holds (none: nothing).
  void schedule_time_guards(FireContext& context, const RunState& run, Tick from) const;
  [[noreturn]] void loops(const RunState& run, std::uint32_t taken, std::uint32_t holding) const;

  bool from_parameters_;
  ModalChart chart_;
  Program program_;
  std::vector<InputPort> input_ports_;          ///< per chart input
  std::vector<OutputPort> output_ports_;        ///< per program output (element)
  std::vector<std::uint32_t> output_elements_;  ///< per program output: its element in its port
  std::vector<ParamHandle> structure_params_;
  std::optional<ParamHandle> initial_param_;
};

}  // namespace ctde
