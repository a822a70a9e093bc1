#pragma once
/// The `FirstOrderHold` actor (what it computes: kInfo.summary): the hold of
/// order 1 (Hold, hold.hpp: the formula, and what it does with fewer than
/// two tokens).

#include "hold.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class FirstOrderHold : public Hold {
 public:
  static constexpr ActorInfo kInfo{
      .type = "FirstOrderHold",
      .family = "converters",
      .summary =
          "A discrete-to-continuous converter: the output extrapolates linearly from the last two tokens "
          "received (`initial` before the first).",
  };

  explicit FirstOrderHold(std::string name);
};

}  // namespace ctde
