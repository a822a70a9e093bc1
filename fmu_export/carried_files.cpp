#include "fmu_export/carried_files.hpp"

#include <stdlib.h>  // mkdtemp

#include <stdexcept>
#include <system_error>

#include "core/error.hpp"

namespace ctde::fmu {

namespace {

/// The JSON object of the actor at `path` ("plant.table") in `model`: through
/// the `actors` arrays of the composites on the way.
nlohmann::ordered_json* actor_node(nlohmann::ordered_json& model, const std::string& path) {
  nlohmann::ordered_json* node = &model;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = path.find('.', start);
    const std::string name = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    nlohmann::ordered_json* next = nullptr;
    if (node->contains("actors") && (*node)["actors"].is_array()) {
      for (auto& child : (*node)["actors"]) {
        if (child.is_object() && child.value("name", "") == name) next = &child;
      }
    }
    if (next == nullptr) return nullptr;
    node = next;
    if (dot == std::string::npos) return node;
    start = dot + 1;
  }
  return nullptr;
}

/// "plant.table" -> "plant_table".
std::string flat_name(std::string path) {
  for (char& c : path) {
    if (c == '.') c = '_';
  }
  return path;
}

}  // namespace

std::vector<CarriedFile> carry_files(const RunSetup& setup, nlohmann::ordered_json& model) {
  std::vector<CarriedFile> files;
  for (const FlatActor& a : setup.flat.actors) {
    for (const ParamSlot& slot : a.actor->parameters()) {
      if (slot.kind != ParamKind::kFile || slot.resolved.is_unset() || slot.resolved.text().empty()) continue;
      const std::filesystem::path from(slot.resolved.text());
      CarriedFile file{from.string(), "files/" + flat_name(a.path) + "_" + from.filename().string()};
      nlohmann::ordered_json* node = actor_node(model, a.path);
      if (node == nullptr || !node->contains("params") || !(*node)["params"].contains(slot.name.str())) {
        throw ModelError("actor '" + a.path + "' reads the file " + file.from + " (parameter " +
                         slot.name.str() +
                         "), which the model file does not name: it cannot be carried into the FMU");
      }
      (*node)["params"][slot.name.str()] = file.name;
      files.push_back(std::move(file));
    }
  }
  return files;
}

ScratchFolder::ScratchFolder() {
  std::string pattern = (std::filesystem::temp_directory_path() / "ctde-export-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("cannot make a temporary folder: " + pattern);
  path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace ctde::fmu
