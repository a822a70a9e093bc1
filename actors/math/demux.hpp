#pragma once
/// The `Demux` actor (what it computes: kInfo.summary).

#include <cstddef>
#include <vector>

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Demux : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Demux",
      .family = "math",
      .summary =
          "Splits the input vector into out0, out1, ..., out{N-1}, one after the other: of the given "
          "`widths` (N of them), or `outputs` (N) of equal width.",
      .sample_params = R"({"outputs": 1})",
  };

  explicit Demux(std::string name);
  void evaluate(EvalContext& context) const override;
  [[nodiscard]] int infer_output_width(std::size_t output, std::span<const int> input_widths) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  InputPort in_;
  ParamHandle outputs_;
  ParamHandle widths_;
  std::size_t count_ = 0;
};

}  // namespace ctde
