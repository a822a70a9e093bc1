#pragma once
/// The `Input` actor (what it computes: kInfo.summary): a model's declared
/// input (docs/model-format.md, "The model's interface"). Its output is
/// continuous and piecewise constant: `start` until the embedding program
/// (an FMU's importer, Director::set_input) gives it another value, which
/// it takes at an event of its own, at the time the run stands, so that the
/// solvers restart there as at any jump of a continuous input.

#include "../../core/actor.hpp"
#include "../../core/external_input.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Input : public Actor, public ExternalInput {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Input",
      .family = "sources",
      .summary =
          "A model's input: `start` (scalar or vector) until a value is given from outside the model; "
          "held between the values given.",
      .sample_params = R"({"start": 0})",
  };

  explicit Input(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  /// Takes the value given last.
  void fire(FireContext& context) const override;
  bool take(ActorState& state, std::span<const double> value) const override;
  void hold(ActorState& state, std::span<const double> value) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  OutputPort out_;
  ParamHandle start_;
};

}  // namespace ctde
