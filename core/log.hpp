#pragma once
/// The framework's own logging, in one place (spdlog underneath).
///
/// Logging is for people reading what the framework does (info, debug); it is
/// never mixed into the event trace, which is data (see trace.hpp). Messages
/// go to stderr. This header keeps spdlog out of every other header.

#include <string_view>

namespace ctde::log {

enum class Level { kDebug, kInfo, kWarn, kError, kOff };

/// Sets the threshold (default kWarn, so that runs are quiet unless asked).
void set_level(Level level);
[[nodiscard]] Level level();

void debug(std::string_view message);
void info(std::string_view message);
void warn(std::string_view message);
void error(std::string_view message);

}  // namespace ctde::log
