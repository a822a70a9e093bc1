#pragma once
/// Results recording (docs/model-format.md, "Results file"): a CSV
/// with `time,microstep,` and one column per recorded signal (`actor.port`
/// for width 1, `actor.port[i]` otherwise). Numbers read back to the same
/// double; a discrete column holds its token on rows at its event tags and
/// is empty elsewhere.

#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "core/flat_model.hpp"
#include "core/time.hpp"

namespace ctde {

/// One recorded output port. Copyable value type.
struct RecordedSignal {
  std::string name;         ///< "actor.port"
  std::uint32_t actor = 0;  ///< index in the FlatModel
  std::uint32_t port = 0;   ///< output index
  std::uint32_t width = 1;
  bool discrete = false;
};

/// Resolves `record` endpoints ("h.out") against the flattened model.
/// @throws ModelError naming an unknown actor or output.
[[nodiscard]] std::vector<RecordedSignal> resolve_record(const FlatModel& model,
                                                         const std::vector<std::string>& record);

/// Writes rows. Not copyable; movable.
class Recorder {
 public:
  /// Writes to `out` (which must outlive the recorder); writes the header line.
  Recorder(std::ostream& out, std::vector<RecordedSignal> signals);
  /// Writes to file `path`. @throws std::runtime_error when it cannot be opened.
  Recorder(const std::string& path, std::vector<RecordedSignal> signals);

  [[nodiscard]] const std::vector<RecordedSignal>& signals() const { return signals_; }

  /// Starts a row: values follow in column order through value()/token()/absent().
  void row(double t, std::uint32_t microstep);
  void value(std::span<const double> values);
  void absent(std::uint32_t width);
  /// Ends the row (writes the line).
  void end_row();
  void flush();
  /// True once a write or a flush has failed (the stream's state, which
  /// stays failed): the caller ends the run and reports it.
  [[nodiscard]] bool failed() const { return out_->fail(); }

 private:
  void header();
  std::unique_ptr<std::ofstream> file_;
  std::ostream* out_;
  std::vector<RecordedSignal> signals_;
  std::string line_;
};

}  // namespace ctde
