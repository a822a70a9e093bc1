#pragma once
/// JacobianProgram: how a part's Jacobian ∂f/∂x is composed from its
/// actors' local Jacobians (continuous_phase_jacobian.cpp), recorded as it is
/// composed once, so that it can be composed again from new local values at
/// every evaluation of the Jacobian. Used when an actor gives some of its
/// values at each point (LocalJacobian::kAtPoint, Actor::jacobian_values: an
/// FMU's directional derivatives): the rows they reach are then exact at
/// every point, without finite differences (docs/semantics.md, "Jacobians").
///
/// The program is a list of rows in the order they were composed (each
/// output element a part's derivative reads, then each derivative); a row
/// is a sum over its terms, a term being a local value (a *slot*) times a
/// state or times an earlier row. The rows' structure is fixed when they are
/// recorded; compose() only multiplies and adds.
///
/// Copyable value type; recorded once per run, compose() allocates nothing.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "../../core/ids.hpp"
#include "../../core/local_jacobian.hpp"
#include "../ct/jacobian_pattern.hpp"

namespace ctde {

class JacobianProgram {
 public:
  /// An actor that gives values at each point, and where they go.
  struct PointActor {
    ActorId actor;
    std::uint32_t first = 0;  ///< its first slot (Entry::point 0)
    std::uint32_t count = 0;  ///< LocalJacobian::points()
    std::size_t entries = 0;  ///< its first entry in point_entries()
  };

  // Recording, in the order of composition.

  /// Actor `d`'s local entries will be given slots: those at each point in
  /// a range of `points` slots, the same range each time d is begun (once
  /// for its outputs' rows, once for its derivatives').
  void begin_actor(ActorId d, std::uint32_t points);
  /// The slot of local entry `e` of the actor begun last: its constant
  /// value, or its place among the actor's values at each point.
  std::uint32_t slot(const LocalJacobian::Entry& e);
  /// A term of the row being recorded: slot × state `state`.
  void add_state(std::uint32_t slot, std::uint32_t state);
  /// A term of the row being recorded: slot × row `from` (recorded earlier).
  void add_row(std::uint32_t slot, std::uint32_t from);
  /// Ends the row being recorded; `states` are its columns, sorted (as the
  /// composition found them). Returns its number.
  std::uint32_t end_row(std::span<const std::uint32_t> states);
  /// Row `row` is derivative `i`'s (a row of f).
  void derivative_row(std::uint32_t row, std::uint32_t i);
  /// After recording: places the derivative rows' values among `pattern`'s entries.
  void finish(const JacobianPattern& pattern);

  /// True when some actor gives values at each point (else the program is not needed).
  [[nodiscard]] bool at_point() const { return !points_.empty(); }
  [[nodiscard]] std::span<const PointActor> point_actors() const { return points_; }
  /// Where actor `a`'s values at this point are written before compose().
  [[nodiscard]] std::span<double> values_of(const PointActor& a) {
    return {slots_.data() + a.first, a.count};
  }
  /// Actor `a`'s entries given at each point, in its order (Entry::point).
  [[nodiscard]] std::span<const LocalJacobian::Entry> entries_of(const PointActor& a) const {
    return {point_entries_.data() + a.entries, a.count};
  }

  /// Composes every row from the slots and writes each derivative row's
  /// values into `values` (one per entry of the pattern given to finish()).
  void compose(double* values);

 private:
  static constexpr std::uint32_t kState = std::numeric_limits<std::uint32_t>::max();
  struct Term {
    std::uint32_t slot = 0;
    std::uint32_t from = kState;  ///< the row multiplied, or kState
    std::uint32_t state = 0;      ///< kState: the state
    std::size_t at = 0;           ///< its first place in places_
  };

  std::vector<double> slots_;
  std::vector<PointActor> points_;
  std::vector<LocalJacobian::Entry> point_entries_;
  const PointActor* current_ = nullptr;  ///< the actor begun last, when it has values at each point
  std::vector<Term> terms_;
  std::vector<std::size_t> row_terms_{0};   ///< row r's terms: [row_terms_[r], row_terms_[r + 1])
  std::vector<std::size_t> row_starts_{0};  ///< row r's values: [row_starts_[r], row_starts_[r + 1])
  std::vector<std::uint32_t> row_states_;
  std::vector<double> row_values_;
  /// Per term: the place in row_values_ of each product it adds (one for a
  /// state, one per value of the row it multiplies).
  std::vector<std::size_t> places_;
  struct Derivative {
    std::uint32_t row = 0;
    std::uint32_t i = 0;
  };
  std::vector<Derivative> derivatives_;
  std::vector<std::size_t> entries_;  ///< per value of each derivative row in order: its pattern entry
};

}  // namespace ctde
