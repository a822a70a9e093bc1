#pragma once
/// The FMI 3.0 clocks of a Model Exchange FMU, the FMU actor's discrete side
/// (docs/fmi.md, "Clocks"):
///
///   variable (causality)          port               at a tick
///   triggered input Clock         discrete input     a token activates it (fmi3SetClock)
///   periodic input Clock          none               ctde activates it at t0 + k * interval
///   output Clock (triggered)      discrete output    a token (1) when fmi3GetClock says active
///   clocked input variable        discrete input     its last token is set while its clock is active
///   clocked output variable       discrete output    its value is sent when its clock ticks
///
/// An event of the FMU (any firing of the actor) runs, in Event Mode: the
/// inputs set, fmi3SetClock for the input clocks that tick now, the clocked
/// inputs of the active clocks set; then before every fmi3UpdateDiscreteStates
/// of the event iteration: fmi3GetClock for the output clocks and the clocked
/// outputs of the active clocks read. The tokens go out at the end of the
/// firing. Periodic clocks are `constant`, `fixed` and `tunable` input clocks:
/// their interval and shift are the description's intervalDecimal and
/// shiftDecimal (0 when absent), or, for a fixed or tunable clock without
/// intervalDecimal, fmi3GetIntervalDecimal and fmi3GetShiftDecimal in
/// Initialization Mode. Aperiodic clocks (`changing`, `countdown`) and local
/// clocks are refused.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../../core/time.hpp"
#include "fmi3_api.hpp"
#include "model_description.hpp"

namespace ctde {

class FireContext;
class Fmi2Instance;

/// What one run keeps of the clocks; buffers sized once (Fmi3Clocks::make_run).
/// Movable, not copyable (it lives in the actor's run state).
struct Fmi3ClockRun {
  std::vector<Tick> next;                  ///< per clock: its next tick (periodic clocks; kNever: none)
  std::vector<std::int64_t> ticks;         ///< per clock: ticks so far (periodic clocks)
  std::vector<double> first;               ///< per clock: the time of its first tick, start + shift (s)
  std::vector<double> interval;            ///< per clock: its interval (s)
  std::vector<char> active;                ///< per clock: active in this iteration of the event
  std::vector<char> ticked;                ///< per clock: output clock active in this event: a token due
  std::vector<double> latched;             ///< per clocked input: its last token (0 before one)
  std::vector<double> value;               ///< per clocked output: the value read at its clock's tick
  std::vector<char> due;                   ///< per clocked output: a token due
  std::vector<fmi3::ValueReference> refs;  ///< scratch: value references of one call
  std::unique_ptr<fmi3::Clock[]> flags;    ///< scratch: the values of one fmi3Get/SetClock call
};

/// The clocks and clocked ports of one FMU, read from its description.
/// Copyable value type.
class Fmi3Clocks {
 public:
  /// Reads the clocks and the clocked variables of causality input or output
  /// from `md` (any version: FMI 2.0 has none).
  /// @param what names the FMU in messages ("FMU 'c.fmu'").
  /// @throws ModelError "<what>: ..." for a clocked variable naming no clock,
  ///         an unsupported clock kind (naming the clock and the kind), a
  ///         periodic clock without a usable interval, a clocked port of a type
  ///         ctde's ports do not carry.
  void configure(const ModelDescription& md, const std::string& what);
  /// @throws ModelError naming the FMI 3 functions the clocks need and the binary lacks.
  void check_functions(const fmi3::Functions& f, const std::string& what) const;

  /// True when the FMU has clocks or clocked ports (after configure()).
  [[nodiscard]] bool any() const { return !clocks_.empty() || !clocked_.empty(); }
  /// The name of the first clock or clocked port (messages).
  [[nodiscard]] const std::string& first_name() const;
  /// True when variable `v` of the description is ctde's: a port of this class, or a periodic input clock.
  [[nodiscard]] bool owns(std::size_t v) const { return v < entry_.size() && entry_[v] != kNone; }
  /// True when variable `v` (owns(v)) has a port.
  [[nodiscard]] bool has_port(std::size_t v) const;
  /// Records the port index declared for variable `v` (has_port(v)).
  void set_port(std::size_t v, std::size_t port);
  /// ", clocks: tick (constant, interval 0.1 s, shift 0 s), ..." for `ctde validate` (empty without clocks).
  [[nodiscard]] std::string summary() const;

  /// The run's buffers.
  [[nodiscard]] Fmi3ClockRun make_run() const;
  /// In Initialization Mode: the intervals and shifts of the periodic clocks
  /// (fmi3SetIntervalDecimal for a fixed or tunable clock's intervalDecimal,
  /// fmi3GetIntervalDecimal and fmi3GetShiftDecimal where the description has none).
  /// @param owner "actor 'a' (FMU)", the prefix of messages.
  /// @throws RunError for a failing call or a non-positive interval.
  void initialize(Fmi3ClockRun& run, Fmi2Instance& fmu, double start, const std::string& owner) const;
  /// After initialization: asks for the first tick of each periodic clock.
  void start(FireContext& context, Fmi3ClockRun& run) const;
  /// In Event Mode, before the event iteration: the input clocks that tick
  /// now (a token, or a periodic clock's tick) activated, the clocked inputs'
  /// tokens latched and those of the active clocks set; the next ticks asked for.
  /// @throws RunError for a failing call, or a periodic clock's interval shorter than a tick.
  void activate(FireContext& context, Fmi3ClockRun& run, Fmi2Instance& fmu, const std::string& owner) const;
  /// Before each fmi3UpdateDiscreteStates: the output clocks read, and the
  /// clocked outputs of the active clocks; input clocks are inactive after it.
  void before_update(Fmi3ClockRun& run, Fmi2Instance& fmu) const;
  /// At the end of the firing: the tokens of the output clocks that ticked and of the clocked outputs read.
  void send(FireContext& context, Fmi3ClockRun& run) const;

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  struct Clock {
    std::string name;
    fmi3::ValueReference vr = 0;
    bool input = true;
    bool periodic = false;  ///< a time-based input clock: ctde activates it
    bool ask = false;       ///< interval and shift from the FMU in Initialization Mode
    FmuClockAttributes attributes;
    std::size_t port = kNone;
  };
  struct Clocked {
    std::string name;
    fmi3::ValueReference vr = 0;
    VariableType type = VariableType::kReal;
    bool input = true;
    std::vector<std::size_t> clocks;  ///< indices into clocks_
    std::size_t port = kNone;
  };

  /// Reads the input and output clocks of `md` (configure()).
  void add_clocks(const ModelDescription& md, const std::string& what);
  /// Reads the clocked inputs and outputs of `md`, after the clocks (configure()).
  void add_clocked(const ModelDescription& md, const std::string& what);
  void set_clocked(Fmi3ClockRun& run, Fmi2Instance& fmu) const;
  void read_clocked(Fmi3ClockRun& run, Fmi2Instance& fmu) const;
  [[nodiscard]] bool any_active(const Clocked& c, const Fmi3ClockRun& run) const;

  std::vector<Clock> clocks_;
  std::vector<Clocked> clocked_;
  /// Per variable of the description: its index into clocks_ (< clocks_.size())
  /// or clocks_.size() + its index into clocked_; kNone: not ours.
  std::vector<std::size_t> entry_;
  bool has_input_clocks_ = false, has_output_clocks_ = false, asks_ = false, sets_interval_ = false;
};

}  // namespace ctde
