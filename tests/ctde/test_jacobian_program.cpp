// JacobianProgram on its own (domains/ctde/jacobian_program.hpp): rows
// recorded as products of slots and states or earlier rows, composed again
// from new values at each point, written to the pattern's entries.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "domains/ctde/jacobian_program.hpp"

using namespace ctde;

namespace {

using Kind = LocalJacobian::Kind;

LocalJacobian::Entry constant(double value) { return {{Kind::kOutput, 0, 0}, {Kind::kState, 0, 0}, value}; }
LocalJacobian::Entry at_point(std::uint32_t point) {
  return {{Kind::kOutput, 0, 0}, {Kind::kState, 0, 0}, 0.0, point};
}

/// Records, over 3 states: an output row o = 2 x0 + p0 x1 (actor 0, p0 at
/// each point), then derivative 0 = 3 o + p1 x2 and derivative 2 = -o
/// (actor 1, p1 at each point), derivative 1 = 4 x1 (a constant row).
struct Recorded {
  JacobianProgram program;
  JacobianPattern pattern;

  Recorded() {
    constexpr double kAt = JacobianPattern::kAtPoint;
    program.begin_actor(ActorId::at(0), 1);
    program.add_state(program.slot(constant(2)), 0);
    program.add_state(program.slot(at_point(0)), 1);
    const std::uint32_t o = program.end_row(std::vector<std::uint32_t>{0, 1});
    program.begin_actor(ActorId::at(1), 1);
    program.add_row(program.slot(constant(3)), o);
    program.add_state(program.slot(at_point(0)), 2);
    program.derivative_row(program.end_row(std::vector<std::uint32_t>{0, 1, 2}), 0);
    program.add_row(program.slot(constant(-1)), o);
    program.derivative_row(program.end_row(std::vector<std::uint32_t>{0, 1}), 2);
    program.begin_actor(ActorId::at(2), 0);
    program.add_state(program.slot(constant(4)), 1);
    program.derivative_row(program.end_row(std::vector<std::uint32_t>{1}), 1);
    pattern =
        JacobianPattern(3, {{0, 0, kAt}, {0, 1, kAt}, {0, 2, kAt}, {2, 0, kAt}, {2, 1, kAt}, {1, 1, 4.0}});
    program.finish(pattern);
  }

  /// J (row-major 3 x 3) composed with p0, p1 at this point.
  std::vector<double> at(double p0, double p1) {
    REQUIRE(program.point_actors().size() == 2);
    program.values_of(program.point_actors()[0])[0] = p0;
    program.values_of(program.point_actors()[1])[0] = p1;
    std::vector<double> values(pattern.values().begin(), pattern.values().end());
    program.compose(values.data());
    std::vector<double> j(9, 0.0);
    for (std::uint32_t c = 0; c < 3; ++c) {
      for (std::size_t k = pattern.column_starts()[c]; k < pattern.column_starts()[c + 1]; ++k)
        j[pattern.row_indices()[k] * 3 + c] = values[k];
    }
    return j;
  }
};

}  // namespace

TEST_CASE("a JacobianProgram composes its rows again from the values at each point") {
  Recorded r;
  CHECK(r.program.at_point());
  CHECK(r.pattern.values_at_point());
  CHECK(r.pattern.all_known());
  for (const auto& [p0, p1] : std::vector<std::pair<double, double>>{{5, 7}, {-0.5, 0}, {1e-3, 1e6}}) {
    CAPTURE(p0);
    CAPTURE(p1);
    const std::vector<double> j = r.at(p0, p1);
    // o = [2, p0, 0]; x0' = 3 o + p1 x2; x1' = 4 x1; x2' = -o.
    const std::vector<double> expected{6, 3 * p0, p1, 0, 4, 0, -2, -p0, 0};
    for (std::size_t k = 0; k < 9; ++k) CHECK(j[k] == expected[k]);
  }
}

TEST_CASE("a JacobianProgram gives each actor its entries at each point, once, in the order declared") {
  JacobianProgram program;
  const LocalJacobian::Entry second{{Kind::kDerivative, 0, 0}, {Kind::kInput, 1, 0}, 0.0, 1};
  const LocalJacobian::Entry first{{Kind::kOutput, 0, 0}, {Kind::kState, 0, 0}, 0.0, 0};
  // Begun twice (its outputs' rows, then its derivatives'): one range of slots.
  program.begin_actor(ActorId::at(4), 2);
  (void)program.slot(first);
  program.begin_actor(ActorId::at(4), 2);
  (void)program.slot(second);
  REQUIRE(program.point_actors().size() == 1);
  const auto entries = program.entries_of(program.point_actors()[0]);
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].row.kind == Kind::kOutput);
  CHECK(entries[1].row.kind == Kind::kDerivative);
  CHECK(entries[1].column.port == 1);
}

TEST_CASE("a pattern with values at each point needs the function that gives them") {
  const JacobianPattern pattern(
      2, {{0, 1, JacobianPattern::kAtPoint}, {1, 0, std::numeric_limits<double>::quiet_NaN()}});
  CHECK(pattern.values_at_point());
  CHECK(pattern.row_known(0));
  CHECK_FALSE(pattern.row_known(1));
  // An unknown row is unknown, whatever a value at each point adds to it.
  const JacobianPattern mixed(
      1, {{0, 0, JacobianPattern::kAtPoint}, {0, 0, std::numeric_limits<double>::quiet_NaN()}});
  CHECK_FALSE(mixed.values_at_point());
  CHECK_FALSE(mixed.row_known(0));
}
