#include "core/port.hpp"

namespace ctde {

std::string_view to_string(PortKind kind) {
  switch (kind) {
    case PortKind::kContinuous:
      return "continuous";
    case PortKind::kDiscrete:
      return "discrete";
    case PortKind::kPolymorphic:
      return "polymorphic";
    case PortKind::kConstant:
      return "constant";
  }
  return "?";
}

std::string_view to_string(TimeMode mode) {
  switch (mode) {
    case TimeMode::kUnresolved:
      return "unresolved";
    case TimeMode::kContinuous:
      return "continuous";
    case TimeMode::kDiscrete:
      return "discrete";
    case TimeMode::kConstant:
      return "constant";
    case TimeMode::kHybrid:
      return "hybrid";
  }
  return "?";
}

}  // namespace ctde
