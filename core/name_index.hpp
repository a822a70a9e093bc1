#pragma once
/// An index from names to positions 0, 1, 2... of a list that holds the
/// names (a composite's children): open addressing over 8 bytes a slot,
/// without a node or a copy of the name per entry, so that models of a
/// million actors find each one in about one cache miss.

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace ctde {

/// Positions by name; the names stay in the caller's list (`name_of(i)`
/// gives the name at position i). Copyable, movable value type.
class NameIndex {
 public:
  /// The position whose name is `name`, if any.
  template <class NameOf>
  [[nodiscard]] std::optional<std::uint32_t> find(std::string_view name, const NameOf& name_of) const {
    if (slots_.empty()) return std::nullopt;
    const auto hash = hash_of(name);
    for (std::size_t s = hash & mask(); slots_[s].position != 0; s = (s + 1) & mask()) {
      const Slot& slot = slots_[s];
      if (slot.hash == hash && name_of(slot.position - 1) == name) return slot.position - 1;
    }
    return std::nullopt;
  }

  /// For a find(name) to come, in a large index whose slots miss the cache:
  /// asks for the slot its search starts at, and returns the name's hash.
  [[nodiscard]] std::uint32_t prefetch(std::string_view name) const {
    const auto hash = hash_of(name);
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & mask()]);
    return hash;
  }

  /// The position in the first slot of hash `hash`: what find() will most
  /// likely compare first (for prefetching the name), if any.
  [[nodiscard]] std::optional<std::uint32_t> likely(std::uint32_t hash) const {
    if (slots_.empty()) return std::nullopt;
    for (std::size_t s = hash & mask(); slots_[s].position != 0; s = (s + 1) & mask()) {
      if (slots_[s].hash == hash) return slots_[s].position - 1;
    }
    return std::nullopt;
  }

  /// Adds `name` at `position`. Precondition: find(name) is empty.
  void insert(std::string_view name, std::uint32_t position) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    place({hash_of(name), position + 1});
    ++size_;
  }

 private:
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t position = 0;  ///< the position + 1; 0: empty
  };

  static std::uint32_t hash_of(std::string_view name) {
    return static_cast<std::uint32_t>(std::hash<std::string_view>{}(name));
  }
  [[nodiscard]] std::size_t mask() const { return slots_.size() - 1; }

  void place(Slot slot) {
    std::size_t s = slot.hash & mask();
    while (slots_[s].position != 0) s = (s + 1) & mask();
    slots_[s] = slot;
  }

  void grow() {
    std::vector<Slot> old(slots_.empty() ? 16 : 2 * slots_.size());
    old.swap(slots_);
    for (const Slot& slot : old) {
      if (slot.position != 0) place(slot);
    }
  }

  std::vector<Slot> slots_;  ///< a power of two of them, at most half full
  std::size_t size_ = 0;
};

}  // namespace ctde
