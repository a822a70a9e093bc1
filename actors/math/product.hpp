#pragma once
/// The `Product` actor (what it computes: kInfo.summary). All inputs have the
/// same width.

#include "../base/fan_in.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Product : public FanIn {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Product",
      .family = "math",
      .summary =
          "y = product of in_i (for '*') or 1/in_i (for '/'), element by element, one input per character of "
          "`ops` (\"**/\").",
      .sample_params = R"({"ops": "*/"})",
  };

  explicit Product(std::string name);
  void evaluate(EvalContext& context) const override;
};

}  // namespace ctde
