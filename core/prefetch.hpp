#pragma once
/// Prefetching for passes over the actors of a large model: the actor
/// objects lie about a kilobyte apart in the heap (each beside its
/// parameters, name and location), so that a pass in the actors' order
/// misses the cache (and the TLB) at every actor unless it asks for the
/// actors a few places ahead.

#include <cstddef>

namespace ctde {

/// How many actors ahead a pass asks for: enough to cover a miss to memory
/// at a few tens of nanoseconds a step.
inline constexpr std::size_t kPrefetchAhead = 8;

/// Asks the cache for the first `lines` 64-byte lines of the object at `p`
/// (nullptr: nothing). Changes nothing the program can observe. Always
/// inlined: GCC takes a function that does nothing but prefetch, seen on
/// its own, for one without effects and drops its calls.
[[gnu::always_inline]] inline void prefetch_object(const void* p, std::size_t lines = 3) {
  if (p == nullptr) return;
  const char* bytes = static_cast<const char*>(p);
  for (std::size_t l = 0; l < lines; ++l) __builtin_prefetch(bytes + 64 * l);
}

}  // namespace ctde
