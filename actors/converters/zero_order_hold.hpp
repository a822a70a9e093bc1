#pragma once
/// The `ZeroOrderHold` actor (what it computes: kInfo.summary): the hold of
/// order 0 (Hold, hold.hpp).

#include "hold.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class ZeroOrderHold : public Hold {
 public:
  static constexpr ActorInfo kInfo{
      .type = "ZeroOrderHold",
      .family = "converters",
      .summary =
          "A discrete-to-continuous converter: the output holds the last token received (`initial` before "
          "the first; scalar or of the input's width).",
  };

  explicit ZeroOrderHold(std::string name);
};

}  // namespace ctde
