#include "fmu_export/fmu_archive_writer.hpp"

#include <zip.h>

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace ctde::fmu {

namespace {

std::string zip_message(zip_t* archive) { return zip_strerror(archive); }

}  // namespace

void write_fmu_archive(const std::string& path, const std::vector<ArchiveEntry>& entries) {
  const std::string partial = path + ".partial";
  int error = 0;
  zip_t* archive = zip_open(partial.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (archive == nullptr) {
    zip_error_t e;
    zip_error_init_with_code(&e, error);
    const std::string why = zip_error_strerror(&e);
    zip_error_fini(&e);
    throw std::runtime_error("cannot write " + path + ": " + why);
  }
  try {
    for (const ArchiveEntry& entry : entries) {
      zip_source_t* source = entry.file.empty()
                                 ? zip_source_buffer(archive, entry.text.data(), entry.text.size(), 0)
                                 : zip_source_file(archive, entry.file.c_str(), 0, -1);
      if (source == nullptr)
        throw std::runtime_error("cannot add " + entry.name + " to " + path + ": " + zip_message(archive));
      if (zip_file_add(archive, entry.name.c_str(), source, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE) < 0) {
        zip_source_free(source);
        throw std::runtime_error("cannot add " + entry.name + " to " + path + ": " + zip_message(archive));
      }
    }
    if (zip_close(archive) != 0)
      throw std::runtime_error("cannot write " + path + ": " + zip_message(archive));
  } catch (...) {
    zip_discard(archive);  // (after a failed zip_close the archive is still open)
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw;
  }
  std::error_code renamed;
  std::filesystem::rename(partial, path, renamed);
  if (renamed) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw std::runtime_error("cannot write " + path + ": " + renamed.message());
  }
}

}  // namespace ctde::fmu
