#pragma once
/// One instance of a ctde model exported as a Co-Simulation FMU
/// (docs/fmi.md, "Export"): the model read from the FMU's
/// resources/model.json, its director run from communication point to
/// communication point, its variables read and written by value
/// reference, its state saved and restored through snapshots. The FMI 2
/// and FMI 3 C functions (fmi2_functions.cpp, fmi3_functions.cpp) are thin
/// wrappers around it: they check nothing of their own beyond pointers.
///
/// Every member function checks the FMI state machine first (modes()
/// below) and returns kError, with a logged reason, for a call the standard
/// forbids in the mode the instance is in; after an error only getters,
/// reset and freeing are allowed. No exception leaves a member function
/// marked noexcept; the constructor throws (instantiation fails).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../actors/fmi/fmi_rules.hpp"
#include "../core/model.hpp"
#include "../core/time.hpp"
#include "../domains/ctde/director.hpp"
#include "../run/snapshot_file.hpp"
#include "fmu_variables.hpp"

namespace ctde::fmu {

/// The status of a call, as both standards number it.
enum class Status : int { kOk = 0, kWarning = 1, kDiscard = 2, kError = 3, kFatal = 4 };

// An instance's modes and calls are those of the FMI state machines'
// table (actors/fmi/fmi_rules.hpp), which the importer checks FMUs against:
// FmiMode, FmiCall, allowed(). Beyond the table: getters stay allowed in
// the error state, and ctde's states are taken and set only once the run
// stands somewhere (not in Instantiated) and only by Co-Simulation.

/// The saved state of an instance (fmi3FMUState, fmi2FMUstate): a snapshot
/// of its run and the parameter values it was run with.
struct SavedState {
  SnapshotFile file;
  std::vector<double> values;  ///< per variable: the inputs' and parameters' values
};

/// Not copyable, not movable (the C functions hand out its address).
class ExportedInstance {
 public:
  /// Logs one message: its status, its category (docs/fmi.md), the text.
  using Logger = std::function<void(Status, std::string_view category, const std::string& message)>;

  /// Reads the model in `resources` (a folder) and checks that
  /// `token` is the one its modelDescription.xml gives, and that the FMU
  /// offers the interface of `kind` (resources/fmu.json).
  /// @throws std::runtime_error saying why (instantiation then fails).
  ExportedInstance(std::string name, const std::string& resources, std::string_view token, FmiKind kind,
                   Logger log);
  ~ExportedInstance();
  ExportedInstance(const ExportedInstance&) = delete;
  ExportedInstance& operator=(const ExportedInstance&) = delete;
  ExportedInstance(ExportedInstance&&) = delete;
  ExportedInstance& operator=(ExportedInstance&&) = delete;

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] FmiMode mode() const { return mode_; }
  [[nodiscard]] FmiKind kind() const { return kind_; }
  void set_debug_logging(bool on) { debug_ = on; }
  /// FMI 3's earlyReturnAllowed: a step returns after the events of the
  /// first time with events inside it (docs/fmi.md, "Export").
  void allow_early_return(bool on) { early_return_ = on; }

  Status enter_initialization(std::optional<double> tolerance, double start,
                              std::optional<double> stop) noexcept;
  Status exit_initialization() noexcept;
  /// Runs from `t` (the last communication point) to t + h, inputs held.
  /// `terminate`: a Stop actor ended the run; `early`: it returned after the
  /// events of a time before t + h (allow_early_return); `last_time`: where
  /// the run stands.
  Status do_step(double t, double h, bool& terminate, bool& early, double& last_time) noexcept;
  Status get(std::span<const std::uint32_t> references, std::span<double> values) noexcept;
  Status set(std::span<const std::uint32_t> references, std::span<const double> values) noexcept;
  /// A Get or Set of a type the model has no variables of (`type`, e.g.
  /// "Int32"): nothing to do for no references, else an error naming the first.
  Status no_variables(FmiCall call, std::string_view function, std::string_view type,
                      std::span<const std::uint32_t> references) noexcept;
  Status terminate() noexcept;
  Status reset() noexcept;

  // ---- Model Exchange (exported_exchange.cpp): the importer integrates.

  /// The numbers of continuous states and of event indicators.
  [[nodiscard]] std::size_t state_count() const { return exchange_.x.size(); }
  [[nodiscard]] std::size_t indicator_count() const { return exchange_.z.size(); }
  Status set_time(double t) noexcept;
  Status set_continuous_states(std::span<const double> x) noexcept;
  Status get_derivatives(std::span<double> dx) noexcept;
  Status get_event_indicators(std::span<double> z) noexcept;
  Status get_continuous_states(std::span<double> x) noexcept;
  Status get_nominals(std::span<double> x) noexcept;
  Status enter_event_mode() noexcept;
  /// What an update of the discrete states tells (fmi2EventInfo, fmi3UpdateDiscreteStates).
  struct EventInfo {
    bool needs_update = false;  ///< never: the run takes every microstep in one update
    bool terminate = false;     ///< a Stop ended the run
    bool values_changed = false;
    bool next_defined = false;
    double next_time = 0;
  };
  /// Runs the events where the importer entered Event Mode (none after
  /// initialization: the start's events ran then), then says what changed.
  Status update_discrete_states(EventInfo& info) noexcept;
  Status enter_continuous_time_mode() noexcept;
  Status completed_integrator_step(bool& enter_event_mode, bool& terminate) noexcept;

  Status get_state(SavedState*& state) noexcept;
  Status set_state(const SavedState& state) noexcept;
  /// The bytes of `state` (encode_snapshot's, with the input values).
  Status serialize(const SavedState& state, std::vector<std::byte>& bytes) noexcept;
  Status deserialize(std::span<const std::byte> bytes, SavedState*& state) noexcept;

  /// Checks that `call` may be made in the current mode; logs and returns
  /// kError (entering the error state) when not.
  Status allowed(FmiCall call, std::string_view function) noexcept;
  /// Logs `message` as an error of `function` and enters the error state.
  Status fail(std::string_view function, const std::string& message) noexcept;
  /// Logs a message of category logStatusWarning or logEvents (the latter only with debug logging on).
  void log(Status status, std::string_view category, const std::string& message) const;

 private:
  /// Builds the model with the values set and its director, run to the
  /// start (or resumed from `resume` and run to its time): where the run stands.
  void build(const RunSnapshot* resume = nullptr);
  [[nodiscard]] std::vector<double> input_values(const std::string& input) const;
  [[nodiscard]] double get_variable(const Variable& v);
  /// Model Exchange: the derivatives, indicators and outputs at the
  /// importer's (time, states), unless they are there already.
  void evaluate_exchange();
  /// A Get of Model Exchange: the call checked, `out` of `from`'s size
  /// (else an error naming `what`), the run built, and with `evaluated`
  /// the values at the importer's point; then `from` copied to `out`.
  Status get_exchange(FmiCall call, const char* fn, const char* what, const std::vector<double>& from,
                      bool evaluated, std::span<double> out) noexcept;
  /// Where variable v's value lives while director_ does (value_at_).
  [[nodiscard]] const double* value_place(const Variable& v);

  std::string name_;
  std::string resources_;
  std::string model_text_;
  Logger log_;
  bool debug_ = false;
  FmiKind kind_;
  FmiMode mode_ = FmiMode::kInstantiated;
  std::vector<Variable> variables_;
  std::vector<double> values_;  ///< per variable: an input's or a parameter's value (set or start)
  std::vector<bool> parameter_changed_;
  double start_ = 0;
  double stop_ = 0;
  std::optional<double> tolerance_;
  TimeResolution resolution_;
  std::int64_t now_ticks_ = 0;
  double now_time_ = 0;  ///< now_ticks_ in seconds
  void stand_at(std::int64_t tick) {
    now_ticks_ = tick;
    now_time_ = resolution_.to_seconds(tick);
  }
  bool ended_ = false;     ///< the run ended (Stop): only getters until reset
  bool finished_ = false;  ///< the run is over (a Stop, or its stop time reached): inputs set change nothing

  std::unique_ptr<Model> model_;
  bool model_as_loaded_ = true;
  bool early_return_ = false;  ///< allow_early_return  ///< model_ is the constructor's, unchanged (build())
  std::unique_ptr<RunSetup> setup_;
  std::unique_ptr<Director> director_;
  std::vector<std::span<const double>>
      outputs_;  ///< per variable: the output or local port's values (else empty)
  /// Per variable, while director_ lives: where its value is (an output's
  /// element, an input's or parameter's entry of values_, the time).
  std::vector<const double*> value_at_;
  /// Model Exchange: what the importer set, and what the run computed there.
  struct Exchange {
    std::vector<double> x;       ///< SetContinuousStates' (after events: the run's)
    std::vector<double> dx;      ///< the derivatives at (now_time_, x)
    std::vector<double> z;       ///< the event indicators there
    bool evaluated = false;      ///< dx, z and the outputs are at (now_time_, x)
    bool event_pending = false;  ///< entered Event Mode from Continuous-Time Mode: its events not yet run
  };
  Exchange exchange_;
};

}  // namespace ctde::fmu
