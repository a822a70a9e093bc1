#pragma once
/// The files the `ctde` commands write, written so that no data is lost:
/// they are checked against the inputs and each other before anything runs,
/// written under a temporary name and renamed onto their own only when
/// complete, and every write is checked.

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace ctde {

/// A path named on the command line with the option that named it, for
/// messages ("-o", "--trace", "MODEL"). "-" is standard output. Copyable.
struct NamedPath {
  std::string option;
  std::string path;
};

/// The permissions a new file gets: rw for all, less the umask (files made
/// private by mkstemp get them back).
[[nodiscard]] mode_t new_file_mode();

/// `path` made absolute with every symbolic link followed, even a dangling
/// one (a file that does not exist yet is created at the link's target), and
/// `.`/`..` resolved: where an OutputFile of `path` writes (final_path). The
/// file need not exist.
[[nodiscard]] std::string resolved_output_path(const std::string& path);

/// Checks a command's files before it reads or writes anything.
/// @throws CommandError (kExitUsage), naming the file(s), when an input is a
///         folder, an output is a folder or its folder does not exist, or an
///         output is the same file as an input or as another output. "Same"
///         is decided after resolving relative paths, `..` and symbolic links,
///         and by device and inode for files that exist (so hard links and
///         /dev/stdout against "-" count); /dev/null may be named twice.
///         Empty paths (options not given) are skipped.
void check_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

/// A stream buffer that writes to a file descriptor and remembers the first
/// error (errno); after it every write fails, so the stream's state tells.
/// Not copyable, not movable.
class FdBuffer : public std::streambuf {
 public:
  /// @param fd the descriptor (not owned), or -1 for none yet (attach()).
  explicit FdBuffer(int fd = -1);
  FdBuffer(const FdBuffer&) = delete;
  FdBuffer& operator=(const FdBuffer&) = delete;
  FdBuffer(FdBuffer&&) = delete;
  FdBuffer& operator=(FdBuffer&&) = delete;
  ~FdBuffer() override;

  /// Writes to `fd` from now on (the buffer is empty).
  void attach(int fd) { fd_ = fd; }

  /// The errno of the first failed write, or 0.
  [[nodiscard]] int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int sync() override;

 private:
  /// Writes `count` bytes from `data`, retrying short writes and EINTR.
  bool write_all(const char* data, std::size_t count);
  bool drain();

  int fd_;
  int error_ = 0;
  std::vector<char> buffer_;
};

/// One output of a command.
///
/// A regular file, or one that does not exist yet, is written under a
/// temporary name in its own folder (`.NAME.XXXXXX.EXT`, with the
/// permissions the file has or would get) and renamed onto its name by
/// commit(): until then the previous file stays whole, and a file is never
/// seen half written. A symbolic link is written through (its target is
/// replaced, not the link). The destructor removes the temporary file when
/// commit() was not called (the command failed before producing anything).
///
/// Anything else cannot be renamed onto and is written directly: "-"
/// (standard output), a device (/dev/null, /dev/full), a pipe.
///
/// Written either through stream(), or by a helper program given
/// write_path() (for a plot or a Graphviz drawing). Not copyable, not movable.
class OutputFile {
 public:
  /// How the file is filled.
  enum class Writer {
    kStream,  ///< through stream()
    kHelper,  ///< by another program, at write_path()
  };

  /// Creates the temporary file (or opens the file to be written directly).
  /// @pre check_paths() accepted `path`.
  /// @throws CommandError (kExitUsage) when it cannot be created.
  OutputFile(NamedPath path, Writer writer);
  /// A regular file written across checkpoints (docs/snapshots.md,
  /// "Checkpoints"): under the visible name `PATH.partial`, which a run
  /// killed outright leaves for the run resumed from its checkpoint, and
  /// renamed onto PATH by commit(). With `continue_at`, that run's file:
  /// PATH.partial, or PATH when the run that wrote it ended and renamed it,
  /// cut back to the `continue_at` bytes its checkpoint covers and written
  /// on from there (it is then kept even without commit()).
  /// @throws CommandError (kExitUsage) when the path is not a regular file,
  ///         the file cannot be created or opened, or it is shorter than
  ///         `continue_at` (not the file the checkpoint was taken with).
  OutputFile(NamedPath path, std::optional<std::uint64_t> continue_at);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  OutputFile(OutputFile&&) = delete;
  OutputFile& operator=(OutputFile&&) = delete;

  /// The stream to write (Writer::kStream).
  [[nodiscard]] std::ostream& stream() { return stream_; }
  /// Where a helper program writes the file (Writer::kHelper): the temporary
  /// file, or the path itself when it is written directly.
  [[nodiscard]] const std::string& write_path() const { return write_path_; }
  /// The path as given.
  [[nodiscard]] const std::string& path() const { return path_.path; }

  /// True once a write has failed. Cheap: the run polls it.
  [[nodiscard]] bool failed() const { return buffer_.error() != 0 || stream_.fail(); }

  /// The path it is renamed onto (symbolic links resolved).
  [[nodiscard]] const std::string& final_path() const { return final_path_; }

  /// Flushes what was written and puts it on disk (a checkpoint's);
  /// returns the file's length.
  /// @throws CommandError (kExitRunFailed) naming the file and the reason.
  std::uint64_t sync();

  /// Flushes and closes the file and renames it onto its name. The file is
  /// kept even after a failed write (what was written is worth having).
  /// @throws CommandError (kExitRunFailed) naming the file and the reason
  ///         when a write, the flush, the close or the rename failed.
  void commit();

 private:
  [[noreturn]] void fail_write(int error) const;

  NamedPath path_;
  std::string final_path_;  ///< the path written at commit() (links resolved)
  std::string write_path_;  ///< the temporary file, or final_path_ when written directly
  bool temporary_ = false;  ///< written under a temporary name
  bool keep_ = false;       ///< kept even without commit() (a continued file)
  int emergency_ = -1;      ///< its slot in the emergency renames (run/interrupt.hpp), or -1
  bool committed_ = false;
  int fd_ = -1;
  FdBuffer buffer_;
  std::ostream stream_;
};

}  // namespace ctde
