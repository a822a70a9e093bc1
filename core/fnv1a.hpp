#pragma once
/// 64-bit FNV-1a, fed value by value: the model fingerprints and the
/// checksum of a snapshot (docs/snapshots.md). Not a cryptographic hash: it
/// tells a changed model or a damaged file, not a forged one.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

namespace ctde {

/// A running FNV-1a hash. Copyable value type.
class Fnv1a {
 public:
  void bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
      hash_ ^= p[i];
      hash_ *= 0x100000001b3ULL;
    }
  }
  void bytes(std::span<const std::byte> data) { bytes(data.data(), data.size()); }
  /// A trivially copyable value's bytes.
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof v);
  }
  /// A string, its length first (so that "ab", "c" and "a", "bc" differ).
  void text(std::string_view s) {
    value(s.size());
    bytes(s.data(), s.size());
  }
  [[nodiscard]] std::uint64_t get() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace ctde
