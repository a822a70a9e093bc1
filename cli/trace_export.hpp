#pragma once
/// `ctde trace export TRACE.jsonl -o trace.json`: an event trace (JSON Lines,
/// docs/trace-format.md) converted to the Chrome/Perfetto trace-event
/// JSON format, to look at a run on a timeline (ui.perfetto.dev,
/// chrome://tracing).
///
/// The layout: one process (the model); one track (a "thread") per actor
/// path, named by a `thread_name` metadata event, in the order the actors
/// first appear, after a "(director)" track for lines without an actor.
/// Times are the trace's `t` in microseconds, rounded to the nanosecond (a
/// quarter of a nanosecond away from zero is added, so that viewers that
/// truncate and viewers that round read the same nanosecond, and slices
/// that share an end still nest); `displayTimeUnit` is "ms".
/// - `step_reject` {t0, t1, by}: a slice [t0, t1] on the track of `by`;
/// - `state_event`: a slice [t, rejected_t1] (the search) on the actor's track;
/// - `event`, `time_event`, `reset`, `mode`: instants on the actor's track;
///   `error` and `run_end`: global instants (run_end at the last time seen);
/// - `run_start` names the process; it and `run_end` are also kept under
///   `otherData`;
/// - any other kind: an instant on its actor's track (or the director's), at
///   its `t` or else at the last time seen.
/// Every event's `args` hold the line's keys except `kind`. Slices that would
/// overlap without nesting on one track (which viewers cannot draw) go to
/// extra tracks of that actor, named "ACTOR (2)", "ACTOR (3)"...

#include <istream>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace ctde::cli {

/// Converts a trace read from `in` (named `source` in messages). Blank lines
/// are skipped. A last line that has no newline and is not JSON was cut
/// short (its writer was killed): it is left out, with a warning on
/// `warnings` (when not null), and the lines before it are converted.
/// @throws CommandError (kExitUsage) for a malformed line, naming
///         `source:LINE` and what is wrong (not JSON, not an object, no
///         `kind`, a key missing or of the wrong type); CommandError
///         (128 + signal) when SIGINT or SIGTERM came (run/interrupt.hpp).
[[nodiscard]] nlohmann::json chrome_trace(std::istream& in, const std::string& source,
                                          std::ostream* warnings = nullptr);

/// Writes `trace` (from chrome_trace()) with one event per line.
void write_chrome_trace(const nlohmann::json& trace, std::ostream& out);

/// Reads `input`, writes `output` (or stdout when `output` is empty or "-")
/// through an OutputFile (written whole, or not at all).
/// @throws CommandError: kExitUsage for an unreadable input, an output that
///         is the input or cannot be created, or a malformed line;
///         kExitRunFailed when writing the output failed.
void trace_export_command(const std::string& input, const std::string& output);

}  // namespace ctde::cli
