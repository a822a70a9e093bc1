#pragma once
/// The `CurrentTime` actor (what it computes: kInfo.summary).

#include "tag_reader.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class CurrentTime : public TagReader {
 public:
  static constexpr ActorInfo kInfo{
      .type = "CurrentTime",
      .family = "discrete",
      .summary = "At each token on `trigger`, an event carrying the model time t in seconds.",
  };

  explicit CurrentTime(std::string name);

 protected:
  [[nodiscard]] double read(const FireContext& context) const override;
};

}  // namespace ctde
