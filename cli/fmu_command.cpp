#include "cli/fmu_command.hpp"

#include "actors/fmi/fmu_info.hpp"

namespace ctde::cli {

void fmu_info_command(const std::string& file, bool json, std::ostream& out) {
  const nlohmann::ordered_json info = fmu_info(file);
  if (json) {
    out << info.dump(2) << "\n";
  } else {
    out << fmu_info_text(info);
  }
}

}  // namespace ctde::cli
