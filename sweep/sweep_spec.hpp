#pragma once
/// A sweep file (docs/sweep.md): the grid of parameter values, the random
/// draws, the number of samples, the seed, the stop time and the warm start;
/// and the values
/// and random-actor seeds of run k, which depend on (seed, k) only, so that
/// results do not depend on how many workers or ranks ran them.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ctde::sweep {

/// A random draw of a parameter. Copyable value type.
struct RandomParameter {
  enum class Law { kUniform, kNormal };
  std::string name;
  Law law = Law::kUniform;
  double a = 0;  ///< uniform: low; normal: mean
  double b = 1;  ///< uniform: high; normal: standard deviation
};

/// A parsed and checked sweep file. Copyable value type.
struct SweepSpec {
  std::vector<std::pair<std::string, std::vector<double>>> grid;  ///< in file order
  std::vector<RandomParameter> random;                            ///< in file order
  std::uint64_t samples = 1;
  std::uint64_t seed = 0;
  std::optional<double> stop_time;
  /// `"warm_start": {"until": T}`: T (s), where every run branches from the
  /// warm-up, the run of the values not swept (docs/sweep.md, "Warm start").
  std::optional<double> warm_start_until;
  std::string text;  ///< the file as read

  /// Runs: samples x the grid's points.
  [[nodiscard]] std::uint64_t run_count() const;
  /// Every swept parameter's name: the grid's, then the random ones.
  [[nodiscard]] std::vector<std::string> names() const;
  /// Run k's values, in names() order. Run k is grid point k / samples
  /// (the last grid parameter varying fastest) and sample k % samples.
  /// @pre k < run_count().
  [[nodiscard]] std::vector<std::pair<std::string, double>> values(std::uint64_t k) const;
};

/// Parses sweep text; `file` names it in messages.
/// @throws ModelError naming the file and the JSON location.
[[nodiscard]] SweepSpec parse_sweep(const std::string& text, const std::string& file);
/// Reads and parses the sweep file `path`. @throws ModelError.
[[nodiscard]] SweepSpec load_sweep_file(const std::string& path);

/// The `stream`-th 64-bit value of run k of a sweep seeded `seed`: a hash of
/// (seed, k, stream) (SplitMix64 rounds), the same on every machine.
[[nodiscard]] std::uint64_t draw_bits(std::uint64_t seed, std::uint64_t k, std::uint64_t stream);

/// The seed given to random actor number `actor` (depth-first order of the
/// model's actors with a `seed` parameter) in run k: 53 bits of draw_bits
/// on a stream of its own, a whole number a double holds exactly.
[[nodiscard]] double actor_seed(std::uint64_t seed, std::uint64_t k, std::uint64_t actor);

}  // namespace ctde::sweep
