#include "run/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "core/format.hpp"
#include "run/command_error.hpp"
#include "run/interrupt.hpp"

namespace ctde {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kBufferBytes = std::size_t{64} * 1024;
/// Symbolic links followed at most in a row (the kernel's own limit).
constexpr int kMaxLinkHops = 40;
/// Room kept in a temporary file's name for the dot, the random part and the
/// extension, so that a long file name still gives a valid temporary one.
constexpr std::size_t kMaxStemBytes = 200;
constexpr std::size_t kMaxExtensionBytes = 16;

/// "-o 'results.csv'", or "-o - (standard output)" (for an output).
std::string describe(const NamedPath& named, bool output = true) {
  std::string text = named.option;
  if (output && named.path == "-") {
    text += " - (standard output)";
    return text;
  }
  text += " '";
  text += named.path;
  text += "'";
  return text;
}

/// What a path names, to tell whether two paths are one file: device and
/// inode when it exists (hard links, /dev/stdout and "-" then agree), else
/// the resolved path.
struct Identity {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string resolved;
};

/// @param output true: "-" means standard output (for an input it is a file name).
Identity identify(const std::string& path, bool output) {
  const bool standard_output = output && path == "-";
  Identity id;
  struct stat info {};
  const int status = standard_output ? fstat(STDOUT_FILENO, &info) : stat(path.c_str(), &info);
  if (status == 0) {
    id.exists = true;
    id.device = info.st_dev;
    id.inode = info.st_ino;
  }
  id.resolved = standard_output ? std::string("-") : resolved_output_path(path);
  return id;
}

bool same_file(const Identity& a, const Identity& b) {
  if (a.exists != b.exists) return false;
  if (!a.exists) return a.resolved == b.resolved;
  return a.device == b.device && a.inode == b.inode;
}

/// /dev/null discards what it is given: naming it for two outputs mixes nothing.
bool is_null_device(const Identity& id) {
  static const Identity null_device = identify("/dev/null", true);
  return id.exists && null_device.exists && same_file(id, null_device);
}

[[noreturn]] void refuse(const std::string& message) { throw CommandError(kExitUsage, message); }

void check_input(const NamedPath& input) {
  std::error_code error;
  if (fs::is_directory(input.path, error)) {
    refuse(describe(input, false) + " is a directory, not a file");
  }
}

/// An output must be a file in a folder that exists.
void check_output(const NamedPath& output) {
  if (output.path == "-") return;
  struct stat info {};
  if (stat(output.path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) refuse(describe(output) + " is a directory, not a file");
    return;  // an existing file (or a device, or a pipe): its folder exists
  }
  const int reason = errno;
  std::error_code error;
  // The folder as written if that is the one missing, else the folder the
  // (dangling) link points into.
  fs::path folder = fs::path(output.path).parent_path();
  if (folder.empty() || fs::is_directory(folder, error))
    folder = fs::path(resolved_output_path(output.path)).parent_path();
  if (!fs::exists(folder, error)) {
    refuse("cannot write " + describe(output) + ": the folder '" + folder.string() + "' does not exist");
  }
  if (!fs::is_directory(folder, error)) {
    refuse("cannot write " + describe(output) + ": '" + folder.string() + "' is not a directory");
  }
  if (reason != ENOENT) refuse("cannot write " + describe(output) + ": " + std::strerror(reason));
}

}  // namespace

std::string resolved_output_path(const std::string& path) {
  std::error_code error;
  fs::path p = fs::absolute(path, error);
  if (error) return fs::path(path).lexically_normal().string();
  for (int hop = 0; hop < kMaxLinkHops && fs::is_symlink(fs::symlink_status(p, error)); ++hop) {
    const fs::path target = fs::read_symlink(p, error);
    if (error) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  fs::path canonical = fs::weakly_canonical(p, error);
  return (error ? p.lexically_normal() : canonical).string();
}

mode_t new_file_mode() {
  const mode_t mask = umask(0);  // reading the umask means setting it: put it back at once
  umask(mask);
  return static_cast<mode_t>(0666) & ~mask;
}

void check_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  std::vector<std::pair<const NamedPath*, Identity>> inputs_seen;
  for (const NamedPath& input : inputs) {
    if (input.path.empty()) continue;
    check_input(input);
    inputs_seen.emplace_back(&input, identify(input.path, false));
  }
  std::vector<std::pair<const NamedPath*, Identity>> outputs_seen;
  for (const NamedPath& output : outputs) {
    if (output.path.empty()) continue;
    check_output(output);
    Identity id = identify(output.path, true);
    for (const auto& [input, input_id] : inputs_seen) {
      if (same_file(id, input_id)) {
        refuse(describe(output) + " and " + describe(*input, false) +
               " are the same file: it would be overwritten");
      }
    }
    for (const auto& [other, other_id] : outputs_seen) {
      if (same_file(id, other_id) && !is_null_device(id)) {
        refuse(describe(*other) + " and " + describe(output) +
               " are the same file: the two outputs would overwrite each other");
      }
    }
    outputs_seen.emplace_back(&output, std::move(id));
  }
}

// ---- FdBuffer

FdBuffer::FdBuffer(int fd) : fd_(fd), buffer_(kBufferBytes) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

// Unwritten bytes are dropped on purpose: a file that is not committed is not wanted.
FdBuffer::~FdBuffer() = default;

FdBuffer::int_type FdBuffer::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

std::streamsize FdBuffer::xsputn(const char* text, std::streamsize count) {
  if (error_ != 0 || count <= 0) return 0;
  const auto size = static_cast<std::size_t>(count);
  if (size > static_cast<std::size_t>(epptr() - pptr()) && !drain()) return 0;
  if (size < buffer_.size()) {
    std::memcpy(pptr(), text, size);
    pbump(static_cast<int>(size));
    return count;
  }
  return write_all(text, size) ? count : 0;  // larger than the buffer: straight through
}

int FdBuffer::sync() { return drain() ? 0 : -1; }

bool FdBuffer::drain() {
  if (error_ != 0) return false;
  const auto pending = static_cast<std::size_t>(pptr() - pbase());
  const bool ok = pending == 0 || write_all(pbase(), pending);
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return ok;
}

bool FdBuffer::write_all(const char* data, std::size_t count) {
  if (error_ != 0) return false;
  if (fd_ < 0) {
    error_ = EBADF;
    return false;
  }
  while (count > 0) {
    const ssize_t written = ::write(fd_, data, count);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      error_ = written < 0 ? errno : EIO;
      return false;
    }
    data += written;
    count -= static_cast<std::size_t>(written);
  }
  return true;
}

// ---- OutputFile

OutputFile::OutputFile(NamedPath path, Writer writer) : path_(std::move(path)), stream_(&buffer_) {
  const auto cannot_create = [this](int error) {
    throw CommandError(kExitUsage, "cannot write " + describe(path_) + ": " + std::strerror(error));
  };
  if (path_.path == "-") {
    fd_ = STDOUT_FILENO;
    final_path_ = write_path_ = "/dev/stdout";
    buffer_.attach(fd_);
    return;
  }
  struct stat info {};
  const bool exists = stat(path_.path.c_str(), &info) == 0;
  if (exists && !S_ISREG(info.st_mode)) {  // a device or a pipe: nothing to rename onto
    final_path_ = write_path_ = path_.path;
    if (writer == Writer::kStream) {
      fd_ = ::open(path_.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (fd_ < 0) cannot_create(errno);
      buffer_.attach(fd_);
    }
    return;
  }

  const fs::path destination = resolved_output_path(path_.path);
  final_path_ = destination.string();
  std::string stem = destination.stem().string();
  std::string extension = destination.extension().string();
  if (extension.size() > kMaxExtensionBytes) extension.clear();
  stem.resize(std::min(stem.size(), kMaxStemBytes));
  // The extension stays last: helper programs (matplotlib) choose the format by it.
  std::string name = ".";
  name += stem;
  name += ".XXXXXX";
  name += extension;
  std::string pattern = (destination.parent_path() / name).string();
  fd_ = mkostemps(pattern.data(), static_cast<int>(extension.size()), O_CLOEXEC);
  if (fd_ < 0) cannot_create(errno);
  temporary_ = true;
  write_path_ = pattern;
  // mkstemp makes it private (0600); the file gets the mode it has, or the usual one.
  (void)fchmod(fd_, exists ? (info.st_mode & 07777) : new_file_mode());
  buffer_.attach(fd_);
  // What a stream wrote is worth keeping even if a second Ctrl-C ends the
  // process (a helper's file is empty until the end: renaming it would
  // replace the old file with nothing).
  if (writer == Writer::kStream)
    emergency_ = register_emergency_rename(write_path_.c_str(), final_path_.c_str());
}

OutputFile::OutputFile(NamedPath path, std::optional<std::uint64_t> continue_at)
    : path_(std::move(path)), stream_(&buffer_) {
  const auto refuse = [this](const std::string& why) {
    throw CommandError(kExitUsage, concat({"cannot write ", describe(path_), ": ", why}));
  };
  struct stat info {};
  if (path_.path == "-" || (stat(path_.path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)))
    refuse("a run with checkpoints writes a regular file, which its resumed run continues");
  final_path_ = resolved_output_path(path_.path);
  write_path_ = final_path_ + ".partial";
  temporary_ = true;
  if (!continue_at) {
    fd_ = ::open(write_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, new_file_mode());
    if (fd_ < 0) refuse(concat({"'", write_path_, "': ", std::strerror(errno)}));
    buffer_.attach(fd_);
    emergency_ = register_emergency_rename(write_path_.c_str(), final_path_.c_str());
    return;
  }
  keep_ = true;
  // An ended run renamed its file onto PATH: it is continued under the partial name again.
  if (::access(write_path_.c_str(), F_OK) != 0 && ::rename(final_path_.c_str(), write_path_.c_str()) != 0)
    refuse(concat({"neither '", write_path_, "' nor '", final_path_, "' is there to continue"}));
  fd_ = ::open(write_path_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) refuse(concat({"'", write_path_, "': ", std::strerror(errno)}));
  if (fstat(fd_, &info) != 0 || static_cast<std::uint64_t>(info.st_size) < *continue_at) {
    refuse(concat({"'", write_path_, "' has ", std::to_string(info.st_size), " bytes, fewer than the ",
                   std::to_string(*continue_at),
                   " its checkpoint covers: it is not the file the checkpoint was taken with"}));
  }
  if (::ftruncate(fd_, static_cast<off_t>(*continue_at)) != 0 ||
      ::lseek(fd_, static_cast<off_t>(*continue_at), SEEK_SET) < 0)
    refuse(concat({"'", write_path_, "': ", std::strerror(errno)}));
  buffer_.attach(fd_);
  emergency_ = register_emergency_rename(write_path_.c_str(), final_path_.c_str());
}

OutputFile::~OutputFile() {
  unregister_emergency_rename(emergency_);
  if (committed_) return;
  if (fd_ >= 0 && fd_ != STDOUT_FILENO) ::close(fd_);
  if (temporary_ && !keep_) ::unlink(write_path_.c_str());
}

std::uint64_t OutputFile::sync() {
  stream_.flush();
  int error = buffer_.error();
  if (error == 0 && stream_.fail()) error = EIO;
  if (error == 0 && ::fsync(fd_) != 0) error = errno;
  const off_t length = error == 0 ? ::lseek(fd_, 0, SEEK_CUR) : -1;
  if (error == 0 && length < 0) error = errno;
  if (error != 0) fail_write(error);
  return static_cast<std::uint64_t>(length);
}

void OutputFile::commit() {
  if (committed_) return;
  committed_ = true;
  unregister_emergency_rename(std::exchange(emergency_, -1));
  stream_.flush();
  int error = buffer_.error();
  if (error == 0 && stream_.fail()) error = EIO;
  if (temporary_) {
    // On disk before it takes the name: a crash then leaves the old file or
    // the new one, never an empty one.
    if (::fsync(fd_) != 0 && error == 0) error = errno;
    if (::close(fd_) != 0 && error == 0) error = errno;
    fd_ = -1;
    if (::rename(write_path_.c_str(), final_path_.c_str()) != 0) {
      const int reason = errno;
      throw CommandError(kExitRunFailed, "cannot rename '" + write_path_ + "' onto '" + final_path_ + "' (" +
                                             describe(path_) + "): " + std::strerror(reason) +
                                             "; what was written is in '" + write_path_ + "'");
    }
  } else if (fd_ >= 0 && fd_ != STDOUT_FILENO) {
    if (::close(fd_) != 0 && error == 0) error = errno;
    fd_ = -1;
  }
  if (error != 0) fail_write(error);
}

void OutputFile::fail_write(int error) const {
  throw CommandError(kExitRunFailed, "cannot write " + describe(path_) + ": " + std::strerror(error));
}

}  // namespace ctde
