#include "core/error.hpp"

#include <utility>

namespace ctde {

ModelError::ModelError(const std::string& message) : ModelError(message, "") {}

ModelError::ModelError(std::string message, std::string location)
    : std::runtime_error(location.empty() ? message : location + ": " + message),
      message_(std::move(message)),
      location_(std::move(location)) {}

ModelError ModelError::located(const SourceLocation& location) const { return {message_, location.text()}; }

}  // namespace ctde
