#include "core/state_stream.hpp"

#include "core/run_buffers.hpp"

namespace ctde {

bool StateReader::boolean() {
  const std::uint8_t v = u8();
  if (v > 1) fail("a yes/no value of " + std::to_string(v));
  return v == 1;
}

std::string StateReader::text() {
  const std::uint64_t n = count(1);
  std::string s(n, '\0');
  take(s.data(), n);
  return s;
}

void StateReader::expect_end() const {
  if (!at_end())
    fail(std::to_string(bytes_.size() - at_) + " bytes left unread (saved by another model or version)");
}

void StateReader::fail(const std::string& message) const { throw SnapshotError(what_ + ": " + message); }

std::uint64_t StateReader::count(std::size_t size) {
  const std::uint64_t n = u64();
  if (n > (bytes_.size() - at_) / size)
    fail("a length of " + std::to_string(n) + " where " + std::to_string(bytes_.size() - at_) +
         " bytes are left (truncated or corrupt)");
  return n;
}

void StateReader::take(void* out, std::size_t size) {
  if (size > bytes_.size() - at_)
    fail("truncated: ends " + std::to_string(size - (bytes_.size() - at_)) + " bytes early");
  if (size > 0) std::memcpy(out, bytes_.data() + at_, size);
  at_ += size;
}

void StateReader::mismatch(std::uint64_t saved, std::size_t expected) const {
  fail(std::to_string(saved) + " values saved where this run has " + std::to_string(expected) +
       " (saved by another model or version)");
}

}  // namespace ctde

namespace ctde {

void ActorState::save(StateWriter& out) const {
  (void)out;
  throw SnapshotError("its run state cannot be saved: its type does not define ActorState::save");
}

void ActorState::restore(StateReader& in) {
  in.fail("its run state cannot be restored: its type does not define ActorState::restore");
}

}  // namespace ctde
