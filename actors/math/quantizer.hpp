#pragma once
/// The `Quantizer` actor (what it computes: kInfo.summary).

#include "unary_function.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Quantizer : public UnaryFunction {
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

 protected:
  void apply(std::span<const double> u, std::span<double> y) const override;
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle interval_;
  ParamHandle offset_;
};

}  // namespace ctde
