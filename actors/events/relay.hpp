#pragma once
/// The `Relay` actor (what it computes: kInfo.summary): a switch with
/// hysteresis whose switching instants are located state events.
///
/// Two guards: `in - on_threshold` (rising: switch on) and
/// `in - off_threshold` (falling: switch off). Between them the output
/// keeps its value (the run state, changed only when the actor fires). At
/// the start the input decides it (initialize()); `initial` only between
/// the thresholds.

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Relay : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Relay",
      .family = "events",
      .summary =
          "A relay with hysteresis: `on_value` from when the input rises to `on_threshold`, `off_value` from "
          "when it falls to `off_threshold` (off_threshold <= on_threshold); the switchings are located "
          "state events.",
      .sample_params = R"({"on_threshold": 0.5, "off_threshold": -0.5, "on_value": 2, "off_value": -2})",
  };

  explicit Relay(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  /// At the start the relay decides from its input: above `on_threshold` on,
  /// below `off_threshold` off, between them (or on a threshold) `initial`.
  void initialize(FireContext& context) const override;
  [[nodiscard]] bool initializes_from_inputs() const override { return true; }
  void evaluate(EvalContext& context) const override;
  void fire(FireContext& context) const override;
  [[nodiscard]] std::size_t guard_count() const override { return 2; }
  [[nodiscard]] Crossing guard_direction(std::size_t i) const override;
  [[nodiscard]] std::string guard_name(std::size_t i) const override;
  void guards(const ReadContext& context, std::span<double> g) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle on_threshold_;
  ParamHandle off_threshold_;
  ParamHandle on_value_;
  ParamHandle off_value_;
  ParamHandle initial_;
};

}  // namespace ctde
