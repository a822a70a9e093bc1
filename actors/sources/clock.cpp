#include "actors/sources/clock.hpp"

namespace ctde {

Clock::Clock(std::string name) : Actor(std::move(name), "Clock", TimeMode::kContinuous) {
  declare_output("out", PortKind::kContinuous, 1);
  set_feedthrough(false);
}

}  // namespace ctde
