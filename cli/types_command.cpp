#include "cli/types_command.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/plugins.hpp"
#include "core/type_description.hpp"

namespace ctde::cli {

void types_command(bool json, std::ostream& out) {
  const std::string text = describe_types(command_actors());
  if (json) {
    out << text << "\n";
    return;
  }
  const auto types = nlohmann::json::parse(text);
  std::size_t type_width = 0;
  std::size_t family_width = 0;
  for (const auto& t : types) {
    type_width = std::max(type_width, t["type"].get_ref<const std::string&>().size());
    family_width = std::max(family_width, t["family"].get_ref<const std::string&>().size());
  }
  for (const auto& t : types) {
    const auto& type = t["type"].get_ref<const std::string&>();
    const auto& family = t["family"].get_ref<const std::string&>();
    out << type << std::string(type_width - type.size() + 2, ' ') << family
        << std::string(family_width - family.size() + 2, ' ') << t["summary"].get_ref<const std::string&>()
        << "\n";
  }
}

void describe_command(const std::string& type, std::ostream& out) {
  out << nlohmann::json::parse(describe_type(command_actors(), type)).dump(2) << "\n";
}

}  // namespace ctde::cli
