#include "run/snapshot_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/fnv1a.hpp"
#include "core/format.hpp"
#include "core/state_stream.hpp"
#include "run/command_error.hpp"
#include "run/output_file.hpp"

namespace ctde {
namespace {

constexpr std::string_view kMagic = "CTDESNAP";

/// The checksum of the bytes before it.
std::uint64_t checksum_of(std::span<const std::byte> bytes) {
  Fnv1a h;
  h.bytes(bytes);
  return h.get();
}

std::string hex(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = kDigits[v & 15];
  return s;
}

std::uint64_t from_hex(const std::string& s) {
  std::size_t used = 0;
  const unsigned long long v = std::stoull(s, &used, 16);
  if (used != s.size() || s.size() != 16) throw std::invalid_argument("not 16 hex digits");
  return v;
}

template <class T>
void put(std::vector<std::byte>& out, T v) {
  const auto* p = reinterpret_cast<const std::byte*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

[[noreturn]] void fail(const std::string& name, const std::string& message) {
  throw SnapshotError(name + ": " + message);
}

std::string file_name(const std::string& path) { return concat({"snapshot '", path, "'"}); }

}  // namespace

std::vector<std::byte> encode_snapshot(const SnapshotFile& file) {
  const RunSnapshot& s = file.snapshot;
  nlohmann::ordered_json header;
  header["format"] = "ctde snapshot";
  header["version"] = kSnapshotFormat;
  header["model"] = file.model_name;
  header["time"] = s.time;
  header["tick"] = s.tag.time;
  header["microstep"] = s.tag.microstep;
  header["stop_time"] = file.stop_time;
  header["structure"] = hex(s.model.structure);
  header["parameters"] = hex(s.model.parameters);
  nlohmann::ordered_json sets = nlohmann::ordered_json::array();
  for (const auto& [name, value] : file.sets) sets.push_back({name, value});
  header["sets"] = sets;
  for (const auto& [key, covered] : {std::pair{"results", &file.results}, std::pair{"trace", &file.trace}}) {
    if (*covered) header[key] = {{"path", (*covered)->path}, {"bytes", (*covered)->bytes}};
  }
  const std::string text = header.dump();

  std::vector<std::byte> bytes;
  bytes.reserve(kMagic.size() + text.size() + s.body.size() + 32);
  for (const char c : kMagic) bytes.push_back(static_cast<std::byte>(c));
  put(bytes, kSnapshotFormat);
  put(bytes, static_cast<std::uint32_t>(text.size()));
  for (const char c : text) bytes.push_back(static_cast<std::byte>(c));
  put(bytes, static_cast<std::uint64_t>(s.body.size()));
  bytes.insert(bytes.end(), s.body.begin(), s.body.end());
  put(bytes, checksum_of(bytes));
  return bytes;
}

void write_snapshot_file(const std::string& path, const SnapshotFile& file) {
  const std::vector<std::byte> bytes = encode_snapshot(file);
  const std::filesystem::path target(path);
  std::string temporary =
      (target.parent_path() / concat({".", target.filename().string(), ".XXXXXX"})).string();
  const int fd = mkstemp(temporary.data());
  if (fd < 0) fail(file_name(path), std::string("cannot be written: ") + std::strerror(errno));
  (void)fchmod(fd, new_file_mode());  // mkstemp makes it private (0600)
  std::size_t done = 0;
  int error = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = errno != 0 ? errno : EIO;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && std::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    std::remove(temporary.c_str());
    fail(file_name(path), std::string("cannot be written: ") + std::strerror(error));
  }
}

SnapshotFile read_snapshot_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(file_name(path), std::string("cannot be read: ") + std::strerror(errno));
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail(file_name(path), "cannot be read");
  return decode_snapshot({reinterpret_cast<const std::byte*>(chars.data()), chars.size()}, file_name(path));
}

SnapshotFile decode_snapshot(std::span<const std::byte> bytes, const std::string& name) {
  if (bytes.size() < kMagic.size() || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    fail(name, "not a ctde snapshot (it does not begin with " + std::string(kMagic) + ")");
  StateReader reader(bytes.subspan(kMagic.size()), name);
  SnapshotFile file;
  try {
    const std::uint32_t version = reader.u32();
    if (version != kSnapshotFormat) {
      fail(name, "of format version " + std::to_string(version) + "; this ctde reads version " +
                     std::to_string(kSnapshotFormat) +
                     (version > kSnapshotFormat ? " (written by a newer ctde)" : ""));
    }
    if (bytes.size() < kMagic.size() + sizeof(std::uint64_t)) reader.fail("truncated");
    const std::span<const std::byte> summed = bytes.first(bytes.size() - sizeof(std::uint64_t));
    std::uint64_t checksum = 0;
    std::memcpy(&checksum, bytes.data() + summed.size(), sizeof checksum);
    const std::uint32_t header_length = reader.u32();
    std::string text(header_length, '\0');
    if (header_length > reader.remaining()) reader.fail("truncated (in its header)");
    for (char& c : text) c = static_cast<char>(reader.u8());
    const std::uint64_t body_length = reader.u64();
    if (body_length + sizeof(std::uint64_t) != reader.remaining())
      reader.fail(body_length + sizeof(std::uint64_t) > reader.remaining() ? "truncated"
                                                                           : "has bytes after its end");
    if (checksum_of(summed) != checksum) reader.fail("corrupt: its checksum does not match its contents");
    const std::span<const std::byte> body =
        bytes.subspan(bytes.size() - sizeof(std::uint64_t) - body_length, body_length);
    file.snapshot.body.assign(body.begin(), body.end());

    const nlohmann::json header = nlohmann::json::parse(text);
    file.model_name = header.at("model").get<std::string>();
    file.snapshot.time = header.at("time").get<double>();
    file.snapshot.tag.time = header.at("tick").get<Tick>();
    file.snapshot.tag.microstep = header.at("microstep").get<std::uint32_t>();
    file.stop_time = header.at("stop_time").get<double>();
    file.snapshot.model.structure = from_hex(header.at("structure").get<std::string>());
    file.snapshot.model.parameters = from_hex(header.at("parameters").get<std::string>());
    for (const auto& set : header.at("sets"))
      file.sets.emplace_back(set.at(0).get<std::string>(), set.at(1).get<std::string>());
    for (const auto& [key, covered] :
         {std::pair{"results", &file.results}, std::pair{"trace", &file.trace}}) {
      if (!header.contains(key)) continue;
      *covered = CoveredFile{header[key].at("path").get<std::string>(),
                             header[key].at("bytes").get<std::uint64_t>()};
    }
  } catch (const SnapshotError&) {
    throw;
  } catch (const std::exception& e) {
    fail(name, std::string("its header does not read: ") + e.what());
  }
  return file;
}

SnapshotFile read_resume_file(const std::string& path, const ParameterOverrides& given,
                              ParameterOverrides& overrides) {
  SnapshotFile file;
  try {
    file = read_snapshot_file(path);
  } catch (const SnapshotError& e) {
    throw CommandError(kExitUsage, e.what());
  }
  overrides = file.sets;
  overrides.insert(overrides.end(), given.begin(), given.end());
  return file;
}

}  // namespace ctde
