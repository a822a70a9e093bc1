#pragma once
/// The `Quantizer` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Quantizer : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Quantizer",
      .family = "math",
      .summary =
          "y = offset + interval * round((u - offset) / interval), element by element (halfway: away from "
          "zero).",
      .sample_params = R"({"interval": 2})",
  };

  explicit Quantizer(std::string name);
  void evaluate(EvalContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  InputPort in_;
  OutputPort out_;
  ParamHandle interval_;
  ParamHandle offset_;
};

}  // namespace ctde
