#include "domains/ctde/run_result.hpp"

namespace ctde {

const char* to_string(RunStatus status) {
  switch (status) {
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kStopped:
      return "stopped";
    case RunStatus::kError:
      return "error";
    case RunStatus::kInterrupted:
      return "interrupted";
  }
  return "?";
}

}  // namespace ctde
