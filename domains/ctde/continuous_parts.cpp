#include "domains/ctde/continuous_parts.hpp"

#include <numeric>
#include <utility>

namespace ctde {

ContinuousParts::ContinuousParts(std::size_t n) : parent_(n) {
  std::iota(parent_.begin(), parent_.end(), 0U);
}

std::uint32_t ContinuousParts::root(std::uint32_t a) {
  while (parent_[a] != a) {
    parent_[a] = parent_[parent_[a]];  // path halving
    a = parent_[a];
  }
  return a;
}

void ContinuousParts::join(std::uint32_t a, std::uint32_t b) {
  a = root(a);
  b = root(b);
  if (a == b) return;
  if (b < a) std::swap(a, b);
  parent_[b] = a;  // the smaller node is the root: a component's root is its first node
}

std::vector<std::uint32_t> ContinuousParts::number(std::span<const std::uint8_t> keep) {
  const auto n = static_cast<std::uint32_t>(parent_.size());
  std::vector<std::uint8_t> kept(n, 0);
  for (std::uint32_t a = 0; a < n; ++a) {
    if (keep[a] != 0) kept[root(a)] = 1;
  }
  std::vector<std::uint32_t> number(n, kNoPart);
  std::vector<std::uint32_t> of_root(n, kNoPart);
  std::uint32_t next = 0;
  for (std::uint32_t a = 0; a < n; ++a) {
    const std::uint32_t r = root(a);
    if (kept[r] == 0) continue;
    if (of_root[r] == kNoPart) of_root[r] = next++;
    number[a] = of_root[r];
  }
  return number;
}

}  // namespace ctde
