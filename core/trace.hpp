#pragma once
/// The event trace (docs/trace-format.md): one JSON object per line,
/// in the order things happened, byte-identical for the same model and
/// options. Written through an spdlog sink of its own ("%v" pattern, no
/// timestamps), never mixed with the framework's logging.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "run_statistics.hpp"
#include "time.hpp"

namespace spdlog {
class logger;
}

namespace ctde {

/// What `run_start` reports. Copyable value type.
struct TraceHeader {
  std::string model;
  std::string solver;
  double rtol = 0;
  double atol = 0;
  double stop_time = 0;
  double time_resolution = 0;
};

/// One key of a line that an actor writes itself (FireContext::trace): a
/// string value. Copyable; views valid only during the call.
struct TraceField {
  std::string_view key;
  std::string_view value;
};

/// True for the kinds the director writes ("event", "reset"...): an actor's
/// own lines take other kinds.
[[nodiscard]] bool is_director_trace_kind(std::string_view kind);

/// The kinds of line docs/trace-format.md documents, in its order: the
/// director's, and `fmu_log`, the one built-in actors write.
enum class TraceKind : std::uint8_t {
  kRunStart,
  kTimeEvent,
  kEvent,
  kStep,  ///< written only when named: not by an unfiltered trace (one line per solver step)
  kStepReject,
  kStateEvent,
  kReset,
  kMode,
  kSolver,
  kSnapshot,
  kFmuLog,
  kError,
  kRunEnd,
};

/// Which lines a trace keeps (`ctde run --trace-events`): every line but
/// `step` (the default), or the documented kinds named. `run_start`, `snapshot`,
/// `error` and `run_end` are always kept (a filtered trace still says what
/// ran, from where, how it ended and what it counted); an actor's own lines
/// of undocumented kinds only in an unfiltered trace. Copyable value type.
class TraceFilter {
 public:
  /// Keeps every line but `step` lines.
  TraceFilter() = default;
  /// Keeps the kinds named in `text`, separated by commas
  /// ("state_event,reset"), and the four always kept.
  /// @throws ModelError naming `option` for an empty name or one that is not
  ///         a documented kind (the message lists the known ones).
  [[nodiscard]] static TraceFilter parse(std::string_view text, std::string_view option = "--trace-events");
  /// True for the default: every kind but `step` (written only when named).
  [[nodiscard]] bool keeps_all() const { return all_; }
  [[nodiscard]] bool keeps(TraceKind kind) const {
    return all_ ? kind != TraceKind::kStep : ((mask_ >> static_cast<unsigned>(kind)) & 1U) != 0;
  }
  /// For an actor's line: its kind kept (an undocumented kind: only by an unfiltered trace).
  [[nodiscard]] bool keeps(std::string_view kind) const;
  /// The documented kinds kept, in the documented order.
  [[nodiscard]] std::vector<std::string_view> kinds() const;

 private:
  bool all_ = true;
  std::uint32_t mask_ = 0;  ///< bit i: TraceKind i kept (when not all_)
};

/// Writes trace lines. Not copyable; movable.
class TraceWriter {
 public:
  /// Writes to file `path` (truncated). @throws std::runtime_error when it
  /// cannot be opened, or its folder does not exist (it is not created).
  explicit TraceWriter(const std::string& path);
  /// Writes to `out` (which must outlive the writer).
  explicit TraceWriter(std::ostream& out);
  ~TraceWriter();
  TraceWriter(TraceWriter&&) noexcept;
  TraceWriter& operator=(TraceWriter&&) noexcept;
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  /// Writes only the lines `filter` keeps; run_start() then names the kinds
  /// kept (its key `trace_events`).
  void set_filter(const TraceFilter& filter) { filter_ = filter; }
  /// True when lines of `kind` are written (the director asks before it
  /// gathers what a `step` line says).
  [[nodiscard]] bool writes(TraceKind kind) const { return filter_.keeps(kind); }
  /// The stream already holds the lines of the run up to a checkpoint
  /// (docs/snapshots.md, "Checkpoints"): run_start() writes no line.
  void continue_run() { continuing_ = true; }
  /// The first line. Its `time_resolution` is the one that the tags of the
  /// lines after it are in (their `t` is TimeResolution::append_seconds of
  /// the tick: exact at 10^-n s).
  /// @throws ModelError for a time_resolution out of range.
  void run_start(const TraceHeader& header);
  /// A discrete token sent on `actor.port`, delivered at `tag`.
  void event(Tag tag, std::string_view actor, std::string_view port, std::span<const double> value);
  /// A firing of `actor` requested in advance.
  void time_event(Tag tag, std::string_view actor);
  /// What a state-event search found (docs/trace-format.md, "state_event").
  struct StateEventInfo {
    std::string_view actor;
    std::string_view guard;  ///< the guard's name, or empty: then `guard_index` is written
    std::size_t guard_index = 0;
    std::string_view direction;  ///< "rising" or "falling"
    double bracket = 0;          ///< width of the final time bracket, s
    double residual = 0;         ///< the guard's value at the event
    int iterations = 0;          ///< guard evaluations in the search (plus redone steps)
    double rejected_t1 = 0;      ///< end of the step that overshot, s
  };
  /// A located crossing, fired as a discrete event at `tag`.
  void state_event(Tag tag, const StateEventInfo& info);
  /// What one solver step did (docs/trace-format.md, "step").
  struct StepInfo {
    double t0 = 0;
    double t1 = 0;
    std::uint32_t part = 0;               ///< the independent part (0 in a joined run)
    std::uint64_t rhs_evals = 0;          ///< right-hand-side evaluations since the part's last step line
    std::uint64_t rejected = 0;           ///< error-test failures since then
    std::uint64_t newton_iterations = 0;  ///< an implicit method's Newton iterations since then
    std::uint64_t loop_solves = 0;        ///< algebraic loops solved since the last step line
    std::uint64_t loop_iterations = 0;    ///< their Newton iterations
  };
  /// A step the solver took, [t0, t1] (before any cut back to an event).
  void step(const StepInfo& info);
  /// The step [t0, t1] was rejected because `by` found a crossing inside it.
  void step_reject(double t0, double t1, std::string_view by);
  /// A modal model's transition: `via` is the instantaneous mode, empty for none (null).
  void mode(Tag tag, std::string_view actor, std::string_view from, std::string_view via,
            std::string_view to);
  /// The integrator of independent part `part` (0 in a joined run): at the
  /// start of an implicit method's run (its linear solver and why), and at
  /// each switch of `auto` (the method it switched to and why).
  void solver(Tag tag, std::uint32_t part, std::string_view method, std::string_view linear_solver,
              std::string_view reason);
  /// The run was saved (`resumed` false) or resumed from a snapshot (true)
  /// at `tag`, after its events (docs/snapshots.md).
  void snapshot(Tag tag, bool resumed);
  /// Continuous states of `actor` changed at an event.
  void reset(Tag tag, std::string_view actor, std::span<const double> before, std::span<const double> after);
  /// A line of a kind `actor` defines (docs/trace-format.md, "Actors' own
  /// lines"): the tag, `actor`, then `fields` in their order, as strings.
  void actor_line(Tag tag, std::string_view kind, std::string_view actor, std::span<const TraceField> fields);
  /// The run stopped on an error.
  void error(Tag tag, std::string_view status, std::string_view message, std::string_view actor);
  void run_end(std::string_view status, const RunStatistics& stats);
  /// Writes buffered lines out.
  void flush();
  /// True once a write or a flush has failed: the caller ends the run and
  /// reports it (spdlog itself would only print a line and go on).
  [[nodiscard]] bool failed() const;

 private:
  void write(const std::string& line);
  TimeResolution resolution_;  ///< of the tags (run_start's)
  bool continuing_ = false;    ///< continue_run()
  TraceFilter filter_;         ///< set_filter()
  std::shared_ptr<spdlog::logger> logger_;
  std::ostream* out_ = nullptr;  ///< the stream written, when there is one (its state tells failures)
  /// Set by the logger's error handler when writing to a file failed (shared:
  /// the handler must not point into a writer that may be moved).
  std::shared_ptr<bool> file_failed_ = std::make_shared<bool>(false);
};

/// Appends `text` to `out` as a JSON string (quoted, escaped).
void append_json_string(std::string& out, std::string_view text);
/// Appends a number that reads back to the same double (non-finite: null).
void append_json_number(std::string& out, double value);

}  // namespace ctde
