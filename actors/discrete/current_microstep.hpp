#pragma once
/// The `CurrentMicrostep` actor (what it computes: kInfo.summary).

#include "tag_reader.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class CurrentMicrostep : public TagReader {
 public:
  static constexpr ActorInfo kInfo{
      .type = "CurrentMicrostep",
      .family = "discrete",
      .summary = "At each token on `trigger`, an event carrying the microstep n of its tag (t, n).",
  };

  explicit CurrentMicrostep(std::string name);

 protected:
  [[nodiscard]] double read(const FireContext& context) const override;
};

}  // namespace ctde
