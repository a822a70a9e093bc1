#include "actors/base/unary_actor.hpp"

#include <cassert>

namespace ctde {

namespace {
PortKind port_kind(TimeMode mode) {
  assert(mode == TimeMode::kUnresolved || mode == TimeMode::kContinuous || mode == TimeMode::kDiscrete);
  if (mode == TimeMode::kContinuous) return PortKind::kContinuous;
  return mode == TimeMode::kDiscrete ? PortKind::kDiscrete : PortKind::kPolymorphic;
}
}  // namespace

UnaryActor::UnaryActor(std::string name, const ActorInfo& info, TimeMode mode, int width)
    : UnaryActor(std::move(name), info, mode, port_kind(mode), port_kind(mode), width) {}

UnaryActor::UnaryActor(std::string name, const ActorInfo& info, TimeMode mode, PortKind in_kind,
                       PortKind out_kind, int width)
    : Actor(std::move(name), info, mode) {
  in_ = declare_input("in", in_kind, width);
  out_ = declare_output("out", out_kind, width);
}

int UnaryActor::fix_width_by(ParamHandle values) {
  const std::size_t count = vector(values).size();
  const int width = count == 1 ? kInferredWidth : static_cast<int>(count);
  set_width(in_, width);
  set_width(out_, width);
  return width;
}

}  // namespace ctde
