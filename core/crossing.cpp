#include "core/crossing.hpp"

namespace ctde {

std::string_view to_string(Crossing crossing) {
  switch (crossing) {
    case Crossing::kNone:
      return "none";
    case Crossing::kRising:
      return "rising";
    case Crossing::kFalling:
      return "falling";
    case Crossing::kBoth:
      return "both";
  }
  return "?";
}

std::optional<Crossing> parse_crossing(std::string_view text) {
  if (text == "rising") return Crossing::kRising;
  if (text == "falling") return Crossing::kFalling;
  if (text == "both") return Crossing::kBoth;
  return std::nullopt;
}

}  // namespace ctde
