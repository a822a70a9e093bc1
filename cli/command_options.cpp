#include "cli/command_options.hpp"

#include <exception>

#include "core/format.hpp"
#include "run/command_error.hpp"

namespace ctde::cli {

CLI::Validator seconds_value() {
  return {[](std::string& text) -> std::string {
            std::string number = text;
            if (!number.empty() && number.back() == 's') number.pop_back();
            std::size_t used = 0;
            try {
              (void)std::stod(number, &used);
            } catch (const std::exception&) {
              used = 0;
            }
            if (used == 0 || used != number.size())
              return concat({"expects a time in seconds, such as 10, 2.5e3 or 10s, not '", text, "'"});
            text = number;
            return {};
          },
          "SECONDS"};
}

void ResultsFilterOptions::add(CLI::App& command, const std::string& whose) {
  command.add_option("--rows", rows,
                     concat({"Which of ", whose,
                             "rows to write: all, output (the output_interval grid), events (the tags with "
                             "events), final (the last row)"}));
  record_option = command.add_option(
      "--record", record,
      concat({"Record these signals in ", whose, "results instead of the model's `record`: a.out,b.out"}));
}

ResultsFilter ResultsFilterOptions::parsed() const {
  ResultsFilter filter;
  if (*record_option) filter.record = parse_record(record);
  filter.rows = parse_rows(rows);
  return filter;
}

void TraceEventsOption::add(CLI::App& command) {
  option = command.add_option(
      "--trace-events", kinds,
      "Keep only these kinds of trace line: state_event,reset,... (run_start, snapshot, error and run_end "
      "stay; step, a line per solver step, is written only when named; docs/trace-format.md)");
}

TraceFilter TraceEventsOption::parsed(const std::string& trace) const {
  if (!*option) return {};
  if (trace.empty())
    throw CommandError(kExitUsage, "--trace-events needs --trace FILE: the trace it filters");
  return TraceFilter::parse(kinds);
}

}  // namespace ctde::cli
