#pragma once
/// The snapshot file (docs/snapshots.md, "The file"): a run saved by
/// `ctde run --snapshot` or a checkpoint, read back by `--resume`.
///
///     "CTDESNAP"                  8 bytes: what the file is
///     format version              u32 (1)
///     header length, header       u32, then JSON text: what the snapshot is
///     body length, body           u64, then the director's bytes (RunSnapshot::body)
///     checksum                    u64: FNV-1a of every byte before it
///
/// Integers are little-endian. The header names the model, the tag, the
/// model's fingerprints and the `--set` values of the run that took it, so
/// that `ctde` can say what a snapshot is (and refuse one of another model)
/// before reading its body.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../core/model_file.hpp"
#include "../domains/ctde/run_snapshot.hpp"

namespace ctde {

/// The format version this ctde writes and reads.
inline constexpr std::uint32_t kSnapshotFormat = 1;

/// A file a checkpointed run was writing, and how much of it the
/// checkpoint covers (docs/snapshots.md, "Checkpoints"). Copyable.
struct CoveredFile {
  std::string path;         ///< the file's own path (links resolved), not its `.partial` name
  std::uint64_t bytes = 0;  ///< its length when the checkpoint was taken
};

/// A snapshot with what its file says of it. Copyable value type.
struct SnapshotFile {
  RunSnapshot snapshot;
  std::string model_name;              ///< the model's name
  ParameterOverrides sets;             ///< the `--set` values of the run that took it
  double stop_time = 0;                ///< that run's stop time (s)
  std::optional<CoveredFile> results;  ///< a checkpoint's: the results written so far
  std::optional<CoveredFile> trace;    ///< a checkpoint's: the trace written so far
};

/// The bytes of the file (what write_snapshot_file writes; Python's
/// pickled snapshots hold them).
[[nodiscard]] std::vector<std::byte> encode_snapshot(const SnapshotFile& file);

/// Reads the bytes of a snapshot file; `name` names them in messages
/// ("snapshot 'x.snap'").
/// @throws SnapshotError as read_snapshot_file.
[[nodiscard]] SnapshotFile decode_snapshot(std::span<const std::byte> bytes, const std::string& name);

/// Writes `file` to `path`, whole or not at all: to a temporary file in the
/// same folder, flushed to disk, then renamed onto `path` (a reader, or a
/// run resumed after a crash, sees the previous snapshot or this one).
/// @throws SnapshotError naming the path and the system's reason.
void write_snapshot_file(const std::string& path, const SnapshotFile& file);

/// Reads a snapshot file.
/// @throws SnapshotError naming the path and what is wrong: not a snapshot,
///         a format version this ctde does not read, truncated, a checksum
///         that does not match (corrupt), a header that does not parse.
[[nodiscard]] SnapshotFile read_snapshot_file(const std::string& path);

/// The snapshot a command resumes from (`--resume PATH`), and the resumed
/// run's parameter overrides: the file's own `--set` values, then `given`.
/// @throws CommandError (kExitUsage) when the file does not read.
[[nodiscard]] SnapshotFile read_resume_file(const std::string& path, const ParameterOverrides& given,
                                            ParameterOverrides& overrides);

}  // namespace ctde
