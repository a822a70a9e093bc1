#include "core/source_location.hpp"

#include <array>
#include <atomic>
#include <cassert>
#include <charconv>
#include <ostream>
#include <utility>
#include <vector>

namespace ctde {

/// The patterns of one document's locations, counted: every location and
/// the LocationTable that adds to it hold one count.
struct SourceLocation::Table {
  struct Pattern {
    std::string head;
    std::string tail;
  };
  std::atomic<std::size_t> count{1};
  std::vector<Pattern> patterns;

  void acquire() { count.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (count.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
};

SourceLocation::SourceLocation(std::string_view text) {
  if (text.empty()) return;
  table_ = new Table;
  table_->patterns.push_back({std::string(text), {}});
}

SourceLocation::SourceLocation(Table* table, std::uint32_t pattern, std::uint32_t index)
    : table_(table), pattern_(pattern), index_(index) {
  table_->acquire();
}

SourceLocation::SourceLocation(const SourceLocation& other) noexcept
    : table_(other.table_), pattern_(other.pattern_), index_(other.index_) {
  if (table_ != nullptr) table_->acquire();
}

SourceLocation::SourceLocation(SourceLocation&& other) noexcept
    : table_(std::exchange(other.table_, nullptr)), pattern_(other.pattern_), index_(other.index_) {}

SourceLocation& SourceLocation::operator=(const SourceLocation& other) noexcept {
  if (this == &other) return *this;
  if (other.table_ != nullptr) other.table_->acquire();
  if (table_ != nullptr) table_->release();
  table_ = other.table_;
  pattern_ = other.pattern_;
  index_ = other.index_;
  return *this;
}

SourceLocation& SourceLocation::operator=(SourceLocation&& other) noexcept {
  if (this != &other) {
    if (table_ != nullptr) table_->release();
    table_ = std::exchange(other.table_, nullptr);
    pattern_ = other.pattern_;
    index_ = other.index_;
  }
  return *this;
}

SourceLocation::~SourceLocation() {
  if (table_ != nullptr) table_->release();
}

void SourceLocation::append_to(std::string& out) const {
  if (table_ == nullptr) return;
  const Table::Pattern& pattern = table_->patterns[pattern_];
  out += pattern.head;
  if (index_ != kNoIndex) {
    std::array<char, 16> digits{};
    const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), index_).ptr;
    out.append(digits.data(), end);
  }
  out += pattern.tail;
}

std::string SourceLocation::text() const {
  std::string out;
  append_to(out);
  return out;
}

std::ostream& operator<<(std::ostream& out, const SourceLocation& location) { return out << location.text(); }

LocationTable::LocationTable() : table_(new SourceLocation::Table) {}

LocationTable::~LocationTable() { table_->release(); }

LocationTable::Pattern LocationTable::add(std::string head, std::string tail) {
  table_->patterns.push_back({std::move(head), std::move(tail)});
  return static_cast<Pattern>(table_->patterns.size() - 1);
}

const std::string& LocationTable::head(Pattern pattern) const {
  assert(pattern < table_->patterns.size());
  return table_->patterns[pattern].head;
}

SourceLocation LocationTable::at(Pattern pattern, std::size_t index) const {
  assert(pattern < table_->patterns.size());
  if (index >= SourceLocation::kNoIndex) {
    // Beyond the index's 32 bits (never in a document that fits in memory): as text.
    const SourceLocation::Table::Pattern& p = table_->patterns[pattern];
    return {p.head + std::to_string(index) + p.tail};
  }
  return {table_, pattern, static_cast<std::uint32_t>(index)};
}

}  // namespace ctde
