#pragma once
/// A run saved between two tags, to be resumed (docs/snapshots.md): what
/// Director::snapshot_at() gives and Director::resume_from() takes. The
/// file around it (a versioned header, the model's fingerprints, a
/// checksum) is run/snapshot_file.hpp.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../../core/time.hpp"

namespace ctde {

/// The model a snapshot belongs to, as two fingerprints (64-bit FNV-1a):
/// `structure` of what its saved state is laid out by (each actor's path
/// and type, its ports' widths and kinds, its connections, its states and
/// guards, the time resolution), `parameters` of every actor's parameter
/// values as resolved. Copyable value type.
struct ModelFingerprint {
  std::uint64_t structure = 0;
  std::uint64_t parameters = 0;
  friend bool operator==(const ModelFingerprint&, const ModelFingerprint&) = default;
};

/// A saved run. Copyable value type.
struct RunSnapshot {
  Tag tag;                      ///< where the run stood: after the events of tag.time
  double time = 0;              ///< tag.time in seconds
  ModelFingerprint model;       ///< of the model that was run
  std::vector<std::byte> body;  ///< the director's state (StateWriter's bytes)
};

}  // namespace ctde
