#include "actors/discrete/server.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

Server::Server(std::string name) : Actor(std::move(name), "Server", TimeMode::kDiscrete) {
  declare_input("in", PortKind::kDiscrete);
  declare_output("out", PortKind::kDiscrete);
  service_ = declare_parameter("service_time", ParamKind::kScalar);
  set_feedthrough(false);
}

void Server::configure(const ParameterScope& scope) {
  (void)scope;
  if (!(scalar(service_) >= 0) || !std::isfinite(scalar(service_))) {
    fail(service_, "must be a finite number >= 0, got " + format_double(scalar(service_)));
  }
}

}  // namespace ctde
