#pragma once
/// The files an exported model reads (a TimeTable's CSV, an FMU inside it):
/// carried into the FMU's resources/files/, and the model file's `file`
/// parameters pointed at them, so that the FMU reads its own copies
/// wherever it runs (docs/fmi.md, "What the archive holds").

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "../run/run_setup.hpp"

namespace ctde::fmu {

/// One file to carry. Copyable value type.
struct CarriedFile {
  std::string from;  ///< where it is (as the loader resolved it)
  std::string name;  ///< its name under resources/ ("files/table_data.csv")
};

/// The files the actors of `setup` read through their `file` parameters;
/// each such parameter of `model` (the model file's JSON) is set to the
/// file's name under resources/.
/// @throws ModelError when the actor cannot be found in the JSON (a parameter set otherwise).
[[nodiscard]] std::vector<CarriedFile> carry_files(const RunSetup& setup, nlohmann::ordered_json& model);

/// A folder of its own under the system's temporary folder, removed with
/// everything in it when the object goes. Not copyable, not movable.
class ScratchFolder {
 public:
  ScratchFolder();
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  ScratchFolder(ScratchFolder&&) = delete;
  ScratchFolder& operator=(ScratchFolder&&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace ctde::fmu
