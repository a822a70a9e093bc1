#pragma once
/// The `Sampler` actor (what it computes: kInfo.summary).

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Sampler : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Sampler",
      .family = "converters",
      .summary =
          "A continuous-to-discrete converter: at each event on `trigger`, an event carrying the value of "
          "`in` at that tag.",
  };

  explicit Sampler(std::string name);
  [[nodiscard]] int infer_output_width(std::size_t output, std::span<const int> input_widths) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

  void fire(FireContext& context) const override;

 private:
  InputPort trigger_;
};

}  // namespace ctde
