#include "actors/discrete/tag_reader.hpp"

#include "core/actor_context.hpp"

namespace ctde {

TagReader::TagReader(std::string name, const ActorInfo& info)
    : Actor(std::move(name), info, TimeMode::kDiscrete) {
  trigger_ = declare_input("trigger", PortKind::kDiscrete);
  out_ = declare_output("out", PortKind::kDiscrete, 1);
}

void TagReader::fire(FireContext& context) const {
  if (context.has_token(trigger_)) context.emit(out_, read(context));
}

}  // namespace ctde
