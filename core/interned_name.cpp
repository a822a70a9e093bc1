#include "core/interned_name.hpp"

#include <mutex>
#include <set>

namespace ctde {

InternedName::InternedName(std::string_view text) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>> names;  // nodes never move: their addresses are handed out
  const std::lock_guard lock(mutex);
  const auto known = names.find(text);
  text_ = known != names.end() ? &*known : &*names.emplace(text).first;
}

}  // namespace ctde
