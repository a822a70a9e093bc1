#include "actors/discrete/current_time.hpp"

#include "core/actor_context.hpp"

namespace ctde {

CurrentTime::CurrentTime(std::string name) : TagReader(std::move(name), kInfo) {}

double CurrentTime::read(const FireContext& context) const {
  // The tag's time in seconds: the double nearest to the tick's exact time.
  return context.resolution().to_seconds(context.tag().time);
}

}  // namespace ctde
