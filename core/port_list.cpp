#include "core/port_list.hpp"

#include <algorithm>
#include <mutex>
#include <set>
#include <tuple>

namespace ctde {

namespace {

/// Orders lists element by element (any total order would do: the set only finds equal lists).
struct ListOrder {
  static auto key(const PortSpec& p) { return std::tie(p.name, p.direction, p.kind, p.width, p.optional); }
  bool operator()(const PortList& a, const PortList& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                        [](const PortSpec& x, const PortSpec& y) { return key(x) < key(y); });
  }
};

struct Interned {
  std::mutex mutex;
  std::set<PortList, ListOrder> lists;  ///< nodes never move: their addresses are handed out
};

Interned& interned() {
  static Interned table;
  return table;
}

}  // namespace

const PortList* empty_port_list() {
  static const PortList* const empty = intern_port_list({});
  return empty;
}

const PortList* intern_port_list(PortList ports) {
  Interned& table = interned();
  const std::lock_guard lock(table.mutex);
  return &*table.lists.insert(std::move(ports)).first;
}

const PortList* with_port(const PortList& list, PortSpec spec) {
  PortList longer(list);
  longer.push_back(std::move(spec));
  return intern_port_list(std::move(longer));
}

}  // namespace ctde
