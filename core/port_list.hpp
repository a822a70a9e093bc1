#pragma once
/// Port lists held once: actors of one type declare the same ports, so each
/// distinct list of port declarations is kept once, for the process's life,
/// and every actor that declares it points to that one copy (a model of a
/// million actors holds a few dozen lists). A change to an actor's ports
/// makes (or finds) the changed list: copy on write.

#include <vector>

#include "port.hpp"

namespace ctde {

/// An interned list of port declarations: compare by address.
using PortList = std::vector<PortSpec>;

/// The one copy of the empty list.
[[nodiscard]] const PortList* empty_port_list();

/// The one copy of `ports` (made on first use; thread-safe).
[[nodiscard]] const PortList* intern_port_list(PortList ports);

/// The one copy of `list` followed by `spec`.
[[nodiscard]] const PortList* with_port(const PortList& list, PortSpec spec);

}  // namespace ctde
