#include "core/registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/error.hpp"

namespace ctde {

namespace {

/// Edit distance, case-insensitive, for "did you mean".
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

void ActorRegistry::add(const ActorInfo& info, ActorFactory factory) {
  std::string type(info.type);
  const auto pos = std::lower_bound(entries_.begin(), entries_.end(), type,
                                    [](const Entry& e, const std::string& t) { return e.type < t; });
  if (pos != entries_.end() && pos->type == type) {
    throw std::logic_error("actor type '" + type + "' is registered twice");
  }
  entries_.insert(pos, Entry{std::move(type), std::string(info.family), std::string(info.summary),
                             std::string(info.sample_params), factory});
}

const ActorRegistry::Entry* ActorRegistry::find(const std::string& type) const {
  const auto pos = std::lower_bound(entries_.begin(), entries_.end(), type,
                                    [](const Entry& e, const std::string& t) { return e.type < t; });
  return pos != entries_.end() && pos->type == type ? &*pos : nullptr;
}

bool ActorRegistry::has(const std::string& type) const { return find(type) != nullptr; }

std::unique_ptr<Actor> ActorRegistry::make(const std::string& type, std::string name) const {
  if (const Entry* entry = find(type)) return entry->factory(std::move(name));
  std::string message = "unknown actor type '" + type + "' for actor '" + name + "'";
  const Entry* best = nullptr;
  std::size_t best_distance = 3;  // suggest only close names
  for (const auto& entry : entries_) {
    const std::size_t d = distance(type, entry.type);
    if (d < best_distance) {
      best_distance = d;
      best = &entry;
    }
  }
  if (best != nullptr) message += " (did you mean '" + best->type + "'?)";
  throw ModelError(message);
}

}  // namespace ctde
