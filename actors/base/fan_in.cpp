#include "actors/base/fan_in.hpp"

#include <cassert>

namespace ctde {

namespace {
PortKind port_kind(TimeMode mode) {
  assert(mode == TimeMode::kUnresolved || mode == TimeMode::kDiscrete);
  return mode == TimeMode::kDiscrete ? PortKind::kDiscrete : PortKind::kPolymorphic;
}
}  // namespace

FanIn::FanIn(std::string name, const ActorInfo& info, TimeMode mode) : Actor(std::move(name), info, mode) {
  out_ = declare_output("out", port_kind(mode));
  count_ = declare_parameter("inputs", ParamKind::kScalar, 2.0);
}

FanIn::FanIn(std::string name, const ActorInfo& info, std::string_view parameter, std::string_view alphabet,
             const char* default_operators)
    : Actor(std::move(name), info, TimeMode::kUnresolved), alphabet_(alphabet) {
  assert(alphabet.size() == 2);
  out_ = declare_output("out", PortKind::kPolymorphic);
  count_ = declare_parameter(parameter, ParamKind::kString, default_operators);
}

void FanIn::configure(const ParameterScope& /*scope*/) {
  const PortKind kind = port_kind(declared_mode());
  if (alphabet_.empty()) {
    declare_numbered_inputs(port_count(count_), kind);
    return;
  }
  const std::string& ops = operators();
  if (ops.empty() || ops.find_first_not_of(alphabet_) != std::string::npos) {
    fail(count_, "must be a non-empty string of '" + std::string(1, alphabet_[0]) + "' and '" +
                     std::string(1, alphabet_[1]) + "', got \"" + ops + "\"");
  }
  declare_numbered_inputs(ops.size(), kind);
}

}  // namespace ctde
