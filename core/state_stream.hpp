#pragma once
/// The bytes of a saved run state (a snapshot's body, docs/snapshots.md):
/// what an actor's run state (ActorState::save, restore), the scheduler, the
/// solvers and the director write, and read back in the same order.
///
/// Plain and explicit: each value is written as its bytes (integers and
/// doubles as the machine holds them, little-endian IEEE 754 on the only
/// platform ctde builds for), a sequence with its length first. Nothing is
/// named in the stream: the reader reads what the writer wrote, in that
/// order. A block (StateWriter::block) is a length-prefixed run of values,
/// so the reader can tell a state that reads less or more than was written
/// for it (a model changed under a snapshot) from a good one.
///
/// Reading past the end, a length larger than what is left, or a block not
/// read to its end throws SnapshotError naming what was being read: a
/// truncated or foreign snapshot is refused, never read as garbage.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <span>

namespace ctde {

/// A snapshot that cannot be read (truncated, corrupt, of another model or
/// version), or a run state that cannot be saved (an FMU without
/// get/set FMU state). Copyable.
class SnapshotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Appends values to a byte buffer. Not copyable (one buffer per snapshot).
class StateWriter {
 public:
  StateWriter() = default;
  StateWriter(const StateWriter&) = delete;
  StateWriter& operator=(const StateWriter&) = delete;

  void u8(std::uint8_t v) { raw(v); }
  void u32(std::uint32_t v) { raw(v); }
  void u64(std::uint64_t v) { raw(v); }
  void i64(std::int64_t v) { raw(v); }
  void f64(double v) { raw(v); }
  void boolean(bool v) { raw(static_cast<std::uint8_t>(v ? 1 : 0)); }
  /// A string, its length first.
  void text(std::string_view s) {
    u64(s.size());
    append(s.data(), s.size());
  }
  /// A sequence of trivially copyable values (doubles, ids, events), its length first.
  template <class T>
  void values(std::span<const T> v) {
    static_assert(std::is_trivially_copyable_v<T>);
    u64(v.size());
    append(v.data(), v.size() * sizeof(T));
  }
  template <class T>
  void values(const std::vector<T>& v) {
    values(std::span<const T>(v));
  }
  /// A block: what `write` writes, its length first (StateReader::block).
  template <class Write>
  void block(Write&& write) {
    const std::size_t at = bytes_.size();
    u64(0);
    write();
    const std::uint64_t length = bytes_.size() - at - sizeof(std::uint64_t);
    std::memcpy(bytes_.data() + at, &length, sizeof length);
  }

  [[nodiscard]] const std::vector<std::byte>& bytes() const { return bytes_; }

 private:
  template <class T>
  void raw(T v) {
    append(&v, sizeof v);
  }
  void append(const void* data, std::size_t size) {
    const auto* p = static_cast<const std::byte*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }
  std::vector<std::byte> bytes_;
};

/// Reads values from bytes a StateWriter wrote, in the same order.
/// `what` names the bytes in messages ("the snapshot's body").
/// Not copyable; the bytes must outlive it.
class StateReader {
 public:
  StateReader(std::span<const std::byte> bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}
  StateReader(const StateReader&) = delete;
  StateReader& operator=(const StateReader&) = delete;

  std::uint8_t u8() { return raw<std::uint8_t>(); }
  std::uint32_t u32() { return raw<std::uint32_t>(); }
  std::uint64_t u64() { return raw<std::uint64_t>(); }
  std::int64_t i64() { return raw<std::int64_t>(); }
  double f64() { return raw<double>(); }
  bool boolean();
  std::string text();
  /// A sequence written by StateWriter::values.
  template <class T>
  std::vector<T> values() {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::uint64_t n = count(sizeof(T));
    std::vector<T> v(n);
    take(v.data(), n * sizeof(T));
    return v;
  }
  /// A sequence of exactly `out.size()` values, into `out`.
  /// @throws SnapshotError when the saved length differs.
  template <class T>
  void values_into(std::span<T> out) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::uint64_t n = count(sizeof(T));
    if (n != out.size()) mismatch(n, out.size());
    take(out.data(), n * sizeof(T));
  }
  /// A block written by StateWriter::block, read by `read` (given a reader
  /// of the block alone), which must read all of it. `name` says whose it
  /// is in messages ("actor 'q' (Queue)").
  template <class Read>
  void block(const std::string& name, Read&& read) {
    const std::uint64_t length = count(1);
    StateReader inner(bytes_.subspan(at_, length), name + "'s saved state");
    read(inner);
    inner.expect_end();
    at_ += length;
  }

  [[nodiscard]] bool at_end() const { return at_ == bytes_.size(); }
  /// The number of bytes not read yet.
  [[nodiscard]] std::size_t remaining() const { return bytes_.size() - at_; }
  /// @throws SnapshotError when bytes are left unread.
  void expect_end() const;
  /// Throws SnapshotError "<what>: <message>".
  [[noreturn]] void fail(const std::string& message) const;

 private:
  template <class T>
  T raw() {
    T v;
    take(&v, sizeof v);
    return v;
  }
  /// A length (of `size`-byte elements) that fits in what is left.
  std::uint64_t count(std::size_t size);
  void take(void* out, std::size_t size);
  [[noreturn]] void mismatch(std::uint64_t saved, std::size_t expected) const;

  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
  std::string what_;
};

}  // namespace ctde
