#pragma once
/// Command-line options that several commands share (cli/main.cpp): how
/// each is added to a command and how its text becomes a request's value,
/// written once so that the commands read them alike.

#include <CLI/CLI.hpp>

#include <string>

#include "core/trace.hpp"
#include "run/run_setup.hpp"

namespace ctde::cli {

/// A time option's value (--stop-time, --at): seconds, with or without a
/// trailing "s" ("10", "2.5e3", "10s"); anything else is refused naming it.
[[nodiscard]] CLI::Validator seconds_value();

/// --record and --rows as the command line gives them (`ctde run`, and
/// `ctde sweep` for every run). CLI11 writes into it as it parses: not to be
/// moved once added.
struct ResultsFilterOptions {
  std::string record;
  CLI::Option* record_option = nullptr;  ///< --record: given or not
  std::string rows = "all";

  /// Adds --record and --rows to `command`; `whose` says whose results
  /// ("" for a run, "every run's " for a sweep).
  void add(CLI::App& command, const std::string& whose);
  /// The filter the options give (parse_record, parse_rows).
  /// @throws ModelError for an empty signal name or an unknown --rows.
  [[nodiscard]] ResultsFilter parsed() const;
};

/// --trace-events as the command line gives it. Not to be moved once added.
struct TraceEventsOption {
  std::string kinds;
  CLI::Option* option = nullptr;  ///< given or not

  /// Adds --trace-events to `command`.
  void add(CLI::App& command);
  /// The filter it gives (every line when not given).
  /// @throws ModelError for an unknown kind (listing the known ones);
  ///         CommandError (kExitUsage) when given without a trace (`trace` empty).
  [[nodiscard]] TraceFilter parsed(const std::string& trace) const;
};

}  // namespace ctde::cli
