#pragma once
/// A signal given by points [t, v0, v1, ...] (inline, or a CSV file of the
/// same columns), interpolated "linear" or "hold". Breakpoints are input time
/// events; a time given twice is a jump. The output width is the number of
/// value columns.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class TimeTable : public Actor {
 public:
  explicit TimeTable(std::string name);

  /// The table's points, one row per point: [t, v...] (after configure()).
  [[nodiscard]] const Matrix& table() const { return table_; }

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  OutputPort out_;
  ParamHandle points_;
  ParamHandle file_;
  ParamHandle interpolation_;
  Matrix table_;
};

}  // namespace ctde
