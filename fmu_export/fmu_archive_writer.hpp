#pragma once
/// The FMU archive `ctde export` writes: a zip file of named entries, each
/// a text or a file on disk, written under a temporary name beside the
/// target and renamed onto it when complete, so that a failed export leaves
/// nothing behind.

#include <string>
#include <vector>

namespace ctde::fmu {

/// One file of the archive. Copyable value type.
struct ArchiveEntry {
  std::string name;  ///< its path in the archive ("resources/model.json")
  std::string text;  ///< its content, unless `file` is given
  std::string file;  ///< a file on disk to copy in, or empty
};

/// Writes the archive `path` with `entries`, in order.
/// @throws std::runtime_error saying what could not be written (nothing is left at `path`).
void write_fmu_archive(const std::string& path, const std::vector<ArchiveEntry>& entries);

}  // namespace ctde::fmu
