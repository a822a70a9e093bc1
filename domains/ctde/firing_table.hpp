#pragma once
/// What the director's discrete phase reads first when it fires an actor,
/// one machine word per actor (by depth): the actor's address, and whether
/// its firing is its fire() alone (a plain firing) or asks for more (the
/// director's per-actor flags must be read: fire_special, a state event).
///
/// Why a table of its own: in a large event-heavy model every firing
/// touches an actor cold in cache, and before this table it also read two
/// per-actor arrays (the actor pointers and the flags), each its own cache
/// miss. A word per actor puts both in one place, at 8 bytes per actor
/// (docs/performance.md, "Discrete events"). The flag is the low bit of
/// the address: an Actor is aligned to at least 8 bytes, so that bit is
/// always free.

#include <cstdint>
#include <vector>

#include "../../core/actor.hpp"
#include "../../core/ids.hpp"

namespace ctde {

/// One actor's word (FiringTable::at). Copyable value type.
class FiringEntry {
 public:
  /// The actor (never null once the table is filled).
  [[nodiscard]] const Actor* actor() const { return reinterpret_cast<const Actor*>(word_ & ~kSpecial); }
  /// True when a firing of the actor is its fire() and nothing else.
  [[nodiscard]] bool plain() const { return (word_ & kSpecial) == 0; }

 private:
  friend class FiringTable;
  static constexpr std::uintptr_t kSpecial = 1;
  static_assert(alignof(Actor) > kSpecial, "the flag lives in the address's low bit");
  std::uintptr_t word_ = 0;
};
static_assert(sizeof(FiringEntry) == sizeof(void*));

/// The words of a run's actors, by depth. Copyable value type; it points to
/// the actors, which must outlive it.
class FiringTable {
 public:
  /// Room for `actors` actors, all unset.
  void lay_out(std::size_t actors) { words_.assign(actors, FiringEntry{}); }
  /// Actor `a` is `actor`; `plain`: its firing is its fire() alone.
  void set(ActorId a, const Actor* actor, bool plain) {
    words_[a.index()].word_ = reinterpret_cast<std::uintptr_t>(actor) | (plain ? 0 : FiringEntry::kSpecial);
  }
  /// Actor `a`'s word.
  [[nodiscard]] FiringEntry at(ActorId a) const { return words_[a.index()]; }
  /// Where actor `a`'s word lives, for prefetching.
  [[nodiscard]] const void* address(ActorId a) const { return &words_[a.index()]; }

 private:
  std::vector<FiringEntry> words_;
};

}  // namespace ctde
