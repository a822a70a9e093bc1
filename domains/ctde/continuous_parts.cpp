#include "domains/ctde/continuous_parts.hpp"

#include <utility>

namespace ctde {

ContinuousParts::ContinuousParts(std::size_t n) : parent_(n) {
  for (ActorId a{0}; a.index() < n; ++a) parent_[a.index()] = a;
}

ActorId ContinuousParts::root(ActorId a) {
  while (parent_[a.index()] != a) {
    parent_[a.index()] = parent_[parent_[a.index()].index()];  // path halving
    a = parent_[a.index()];
  }
  return a;
}

void ContinuousParts::join(ActorId a, ActorId b) {
  a = root(a);
  b = root(b);
  if (a == b) return;
  if (b < a) std::swap(a, b);
  parent_[b.index()] = a;  // the smaller actor is the root: a component's root is its first actor
}

std::vector<PartId> ContinuousParts::number(std::span<const std::uint8_t> keep) {
  const std::size_t n = parent_.size();
  std::vector<std::uint8_t> kept(n, 0);
  for (ActorId a{0}; a.index() < n; ++a) {
    if (keep[a.index()] != 0) kept[root(a).index()] = 1;
  }
  std::vector<PartId> number(n, kNoPart);
  std::vector<PartId> of_root(n, kNoPart);
  PartId next{0};
  for (ActorId a{0}; a.index() < n; ++a) {
    const ActorId r = root(a);
    if (kept[r.index()] == 0) continue;
    if (of_root[r.index()] == kNoPart) {
      of_root[r.index()] = next;
      ++next;
    }
    number[a.index()] = of_root[r.index()];
  }
  return number;
}

}  // namespace ctde
