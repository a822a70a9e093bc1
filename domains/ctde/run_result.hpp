#pragma once
/// How a run ended.

#include <string>

#include "../../core/run_statistics.hpp"
#include "../../core/time.hpp"

namespace ctde {

enum class RunStatus {
  kOk,           ///< reached the stop time
  kStopped,      ///< a Stop actor ended it
  kError,        ///< failed part way (see message, tag, actor)
  kInterrupted,  ///< the stop check (Director::set_stop_check) asked it to end
};

/// The outcome of Director::run(). Copyable value type.
struct RunResult {
  RunStatus status = RunStatus::kOk;
  std::string message;  ///< for errors: what happened, with time, tag and actor
  std::string actor;    ///< the culprit's path, if any
  Tag tag;              ///< where the run ended
  double time = 0;      ///< tag.time in seconds
  RunStatistics stats;
};

/// The status as the trace's `run_end` line names it ("ok", "stopped", "error", "interrupted").
[[nodiscard]] const char* to_string(RunStatus status);

}  // namespace ctde
