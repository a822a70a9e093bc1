#include "actors/fmi/fmu_archive.hpp"

#include <zip.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>
#include <vector>

#include "core/error.hpp"

namespace ctde {

namespace fs = std::filesystem;

bool is_safe_zip_entry(const std::string& entry) {
  if (entry.empty() || entry.front() == '/' || entry.find('\\') != std::string::npos) return false;
  if (entry.size() >= 2 && entry[1] == ':') return false;  // "C:..."
  std::size_t begin = 0;
  while (begin <= entry.size()) {
    const std::size_t end = std::min(entry.find('/', begin), entry.size());
    if (entry.compare(begin, end - begin, "..") == 0 && end - begin == 2) return false;
    begin = end + 1;
  }
  return true;
}

namespace {

struct ZipCloser {
  void operator()(zip_t* archive) const { zip_discard(archive); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* file) const { zip_fclose(file); }
};

fs::path make_temporary_folder() {
  std::string pattern = (fs::temp_directory_path() / "ctde-fmu-XXXXXX").string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr) {
    throw ModelError("cannot make a temporary folder under " + fs::temp_directory_path().string());
  }
  return {buffer.data()};
}

}  // namespace

std::string FmuArchive::describe() const { return "FMU '" + file_.string() + "'"; }

FmuArchive::FmuArchive(const fs::path& fmu) : file_(fmu) {
  int error = 0;
  std::unique_ptr<zip_t, ZipCloser> archive(zip_open(fmu.c_str(), ZIP_RDONLY, &error));
  if (!archive) {
    zip_error_t z;
    zip_error_init_with_code(&z, error);
    const std::string reason = zip_error_strerror(&z);
    zip_error_fini(&z);
    throw ModelError(describe() + ": cannot open it as a zip archive (" + reason + ")");
  }
  const zip_int64_t count = zip_get_num_entries(archive.get(), 0);
  // Check every name before writing anything.
  for (zip_int64_t i = 0; i < count; ++i) {
    const char* name = zip_get_name(archive.get(), static_cast<zip_uint64_t>(i), 0);
    if (name == nullptr || !is_safe_zip_entry(name)) {
      throw ModelError(describe() + ": unsafe entry name '" + std::string(name == nullptr ? "" : name) +
                       "' (absolute or leaving the archive's folder); refusing to extract it");
    }
  }
  folder_ = make_temporary_folder();
  try {
    std::vector<char> buffer(1 << 16);
    for (zip_int64_t i = 0; i < count; ++i) {
      const std::string name = zip_get_name(archive.get(), static_cast<zip_uint64_t>(i), 0);
      const fs::path target = folder_ / name;
      // A file and a folder of the same name (a file "binaries" and entries
      // under "binaries/") cannot both be extracted: a bad FMU.
      std::error_code made;
      fs::create_directories(name.back() == '/' ? target : target.parent_path(), made);
      if (made) {
        throw ModelError(describe() + ": cannot extract entry '" + name + "' (" + made.message() +
                         "): the archive holds a file where this entry needs a folder");
      }
      if (name.back() == '/') continue;
      std::unique_ptr<zip_file_t, ZipFileCloser> in(
          zip_fopen_index(archive.get(), static_cast<zip_uint64_t>(i), 0));
      if (!in) throw ModelError(describe() + ": cannot read entry '" + name + "'");
      std::ofstream out(target, std::ios::binary);
      if (!out) throw ModelError(describe() + ": cannot write '" + target.string() + "'");
      for (;;) {
        const zip_int64_t got = zip_fread(in.get(), buffer.data(), buffer.size());
        if (got < 0) throw ModelError(describe() + ": cannot read entry '" + name + "'");
        if (got == 0) break;
        out.write(buffer.data(), static_cast<std::streamsize>(got));
      }
      if (!out) throw ModelError(describe() + ": cannot write '" + target.string() + "'");
    }
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(folder_, ignored);
    throw;
  }
}

std::string FmuArchive::text(const std::string& entry) const {
  std::ifstream in(folder_ / entry, std::ios::binary);
  if (!in) throw ModelError(describe() + ": no " + entry + " in the archive");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

FmuArchive::~FmuArchive() {
  std::error_code ignored;
  fs::remove_all(folder_, ignored);
}

std::string file_uri(const std::filesystem::path& folder) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (const char c : folder.string()) {
    const auto byte = static_cast<unsigned char>(c);
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      uri += c;
    } else {
      uri += '%';
      uri += kHex[byte >> 4U];
      uri += kHex[byte & 15U];
    }
  }
  if (uri.back() != '/') uri += '/';
  return uri;
}

std::string file_uri_path(const std::string& uri) {
  const std::string scheme = "file://";
  if (uri.rfind(scheme, 0) != 0) return uri;
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string path;
  for (std::size_t i = scheme.size(); i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
      path += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
      i += 2;
    } else {
      path += uri[i];
    }
  }
  return path;
}

}  // namespace ctde
