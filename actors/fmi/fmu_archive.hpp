#pragma once
/// An FMU file unpacked into a temporary folder of its own.
///
/// An FMU is a zip archive (modelDescription.xml, binaries/<platform>/,
/// resources/...). FmuArchive extracts every entry into a fresh folder under
/// the system's temporary directory and removes that folder when destroyed,
/// so that each FMU actor has its own copy (and its own loaded binary).
/// Entries whose names are absolute paths or climb out of the folder ("..")
/// are refused before anything is written ("zip slip").

#include <filesystem>
#include <string>

namespace ctde {

/// Not copyable, not movable (owns the folder on disk).
class FmuArchive {
 public:
  /// Extracts `fmu` (a zip file).
  /// @throws ModelError "FMU 'file': ..." when the file cannot be read, is
  ///         not a zip archive, or holds an unsafe entry name.
  explicit FmuArchive(const std::filesystem::path& fmu);
  ~FmuArchive();
  FmuArchive(const FmuArchive&) = delete;
  FmuArchive& operator=(const FmuArchive&) = delete;
  FmuArchive(FmuArchive&&) = delete;
  FmuArchive& operator=(FmuArchive&&) = delete;

  /// The folder holding the extracted files.
  [[nodiscard]] const std::filesystem::path& folder() const { return folder_; }
  /// The FMU file as given (for messages).
  [[nodiscard]] const std::filesystem::path& file() const { return file_; }
  /// The text of extracted file `entry` ("modelDescription.xml").
  /// @throws ModelError "<describe()>: no <entry> in the archive".
  [[nodiscard]] std::string text(const std::string& entry) const;
  /// "FMU 'path/to/x.fmu'" — the prefix of messages about this file.
  [[nodiscard]] std::string describe() const;

 private:
  std::filesystem::path file_;
  std::filesystem::path folder_;
};

/// The file:// URI of `folder` (absolute), with every byte other than ASCII
/// letters, digits, '-', '.', '_', '~' and '/' percent-encoded (RFC 3986:
/// "a b%41" -> "a%20b%2541"), ending in '/'. FMI 2.0's resource location.
[[nodiscard]] std::string file_uri(const std::filesystem::path& folder);
/// The path of a file:// URI that file_uri() made (percent-decoded); other
/// text is returned as it is. FMI 3.0 takes the resource location as a path.
[[nodiscard]] std::string file_uri_path(const std::string& uri);

/// True when `entry` (a zip entry name) is safe to extract below a folder:
/// relative, without a ".." component, without a backslash or a drive letter.
[[nodiscard]] bool is_safe_zip_entry(const std::string& entry);

}  // namespace ctde
