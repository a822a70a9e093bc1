#include "actors/discrete/current_microstep.hpp"

#include "core/actor_context.hpp"

namespace ctde {

CurrentMicrostep::CurrentMicrostep(std::string name) : TagReader(std::move(name), kInfo) {}

double CurrentMicrostep::read(const FireContext& context) const {
  return static_cast<double>(context.tag().microstep);
}

}  // namespace ctde
