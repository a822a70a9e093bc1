#pragma once
/// The `TimeTable` actor (what it computes: kInfo.summary). Breakpoints are
/// input time events; a time given twice is a jump. The output width is the
/// number of value columns.
///
/// Before the first point the output holds the first value, after the last
/// point the last value. Each breakpoint's time event advances the current
/// segment, so at a breakpoint's time the output shows the value before it
/// until its event has fired. A jump (a time given twice) is two time events
/// at the same tick, the second at the next microstep: before the first the
/// output is the left value, after the second the right value. Breakpoints
/// before the start are passed at once; a breakpoint at the start is a time
/// event at the start.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class TimeTable : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "TimeTable",
      .family = "sources",
      .summary =
          "A signal given by points [t, v0, v1, ...] (inline, or a CSV file of the same columns), "
          "interpolated \"linear\" or \"hold\".",
      .sample_params = R"({"points": [[0, 0], [0.5, 1], [1, 0]]})",
  };

  explicit TimeTable(std::string name);

  /// The table's points, one row per point: [t, v...] (after configure()).
  [[nodiscard]] const Matrix& table() const { return table_; }

  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  /// Asks for the time event of point `row`, if there is one within the run.
  void request(FireContext& context, std::size_t row) const;

  OutputPort out_;
  ParamHandle points_;
  ParamHandle file_;
  ParamHandle interpolation_;
  Matrix table_;
  bool hold_ = false;
};

}  // namespace ctde
