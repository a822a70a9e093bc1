#include "core/fast_paths.hpp"

#include <cstdlib>
#include <string_view>

namespace ctde {

bool fast_paths_enabled() {
  static const bool enabled = [] {
    const char* value = std::getenv("CTDE_FAST_PATHS");  // NOLINT(concurrency-mt-unsafe): read once
    return value == nullptr || std::string_view(value) != "off";
  }();
  return enabled;
}

}  // namespace ctde
