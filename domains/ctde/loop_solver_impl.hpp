#pragma once
/// (Private: not installed.) An algebraic loop solved at every evaluation
/// of the outputs (docs/semantics.md, "Algebraic loops"): the unknowns are
/// the continuous outputs of its tear actors (FlatModel::AlgebraicLoop);
/// the residual of a guess g is what the tears compute from it, less g.
/// Each solve starts from the previous solution. Two ways, one result
/// within the tolerance (tests/ctde/test_algebraic_loops.cpp):
/// - a few Newton iterations with a Jacobian kept from earlier solves
///   (central differences over the unknowns, LU-factored here): the fast
///   path (core/fast_paths.hpp), which allocates nothing. A linear loop
///   (its Jacobian a constant of the run) is one evaluation and one Newton
///   step, which lands on the solution; the outputs that move with the
///   unknowns are moved along their constant slopes, not evaluated again;
/// - when that does not converge briskly (or the fast paths are off):
///   Newton's method with a line search on SUNDIALS KINSOL, its Jacobian by
///   KINSOL's difference quotients, and then a new kept Jacobian.

#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "../../core/actor.hpp"
#include "../../core/ids.hpp"
#include "../../core/run_buffers.hpp"
#include "../../core/state_stream.hpp"
#include "rhs_program.hpp"

namespace ctde {

/// One loop's Newton solver. Not copyable, not movable (the SUNDIALS objects
/// it owns, made at its first solve, refer to it).
class LoopSolver {
 public:
  /// Evaluates one actor of the loop (its evaluate(), at the current time):
  /// for the actors without a built-in kernel (RhsProgram).
  struct Evaluator {
    void* context = nullptr;
    void (*evaluate)(void* context, ActorId actor) = nullptr;
  };
  /// How a solve ended.
  struct Result {
    bool converged = false;
    bool singular = false;       ///< the loop's Jacobian was singular
    long iterations = 0;         ///< Newton iterations of this solve
    double residual_norm = 0.0;  ///< the largest |F(g) - g| left, at the end
    std::string reason;          ///< what failed, in words
  };

  /// `members`: the loop's actors in iterate order, the last
  /// `tear_end.size()` its tears; `unknowns`: the tears' continuous output
  /// elements in b.signals, tear after tear, tear k's ending at tear_end[k];
  /// `actors`: the run's actors by depth, laid out in `b`.
  LoopSolver(std::vector<ActorId> members, std::vector<SignalIndex> unknowns,
             std::vector<std::uint32_t> tear_end, std::span<const Actor* const> actors, RunBuffers& b);
  ~LoopSolver();
  LoopSolver(const LoopSolver&) = delete;
  LoopSolver& operator=(const LoopSolver&) = delete;
  LoopSolver(LoopSolver&&) = delete;
  LoopSolver& operator=(LoopSolver&&) = delete;

  /// Solves the loop at the current inputs and states, leaving every
  /// output of its actors at the solution. An actor's exception is rethrown.
  /// `rtol`, `atol`: the run's tolerances; the loop is solved to 10^-6 of them.
  Result solve(Evaluator evaluator, double rtol, double atol);

  [[nodiscard]] std::span<const ActorId> members() const { return members_; }
  [[nodiscard]] std::size_t unknowns() const { return unknowns_.size(); }

  /// What a linear loop's actors declare (ContinuousPhase::loop_jacobian).
  struct Linear {
    std::vector<double> jacobian;  ///< of F(g) - g over g, column-major n x n; empty: not linear
    /// The other actors' continuous output elements that move with g, and
    /// their slopes: d outputs[i] / d g[j] at slopes[i n + j].
    std::vector<SignalIndex> outputs;
    std::vector<double> slopes;
  };
  /// A linear loop: its residual's Jacobian, a constant of the run, kept
  /// for good (never renewed); a Newton step from it lands on the solution.
  void set_linear(Linear linear);

  /// The kept Jacobian, for a snapshot: a resumed run solves as the run
  /// that took it would have (docs/snapshots.md).
  void save(StateWriter& out) const;
  /// @throws SnapshotError when the saved Jacobian is of another size.
  void restore(StateReader& in);

  /// F(g) - g for the guess g: writes g into the tears' outputs, evaluates
  /// the loop once with the current evaluator, and leaves g in them.
  /// Returns 0, 1 when a value is not finite (KINSOL backs off), or -1 when
  /// an actor threw (kept, rethrown by solve()).
  int residual(const double* g, double* r) noexcept;

 private:
  /// The fast path: from guess_ (the last solution), Newton's iterations
  /// with the kept Jacobian. True when converged (the signals at guess_).
  bool quick(Result& result);
  /// The fast path of a linear loop: the residual at guess_, one step, the
  /// signals moved to the step's end. False when the residual is not finite.
  bool linear(Result& result);
  /// KINSOL from `start`, then a new kept Jacobian at its solution.
  void with_kinsol(const std::vector<double>& start, Result& result);
  /// The residual at g, into r; an actor's exception rethrown. Returns
  /// its largest element in units of the tolerance (infinity when not finite).
  double scaled_residual(const double* g, double* r);
  /// The Jacobian of the residual at guess_ by central differences (or the
  /// constant one), LU-factored into jacobian_ and pivots_. False when it is singular.
  bool renew_jacobian();
  /// Factors jacobian_ in place. False when it is singular.
  bool factor();
  /// Solves jacobian_ step = -r in place (r becomes the step).
  void solve_kept(double* r) const;
  void set_up();
  void free_sundials() noexcept;

  std::vector<ActorId> members_;
  RunBuffers* b_;
  /// One evaluation of the loop as output programs (kernels where the
  /// actors have them, no virtual call). With one tear (most loops), one
  /// program of all its actors; with more, the actors before the tears,
  /// then each tear alone in tears_ (the guess put back in its outputs
  /// before the next).
  RhsProgram program_;
  std::vector<RhsProgram> tears_;
  std::vector<SignalIndex> unknowns_;    ///< the tears' continuous output elements, tear after tear
  std::vector<std::uint32_t> tear_end_;  ///< per tear: where its elements end in unknowns_
  std::vector<double> guess_;            ///< the current iterate
  std::vector<double> start_;            ///< the solve's first guess
  std::vector<double> r_;                ///< a residual, then a step
  std::vector<double> tolerance_;        ///< per unknown: the residual's tolerance in this solve
  std::vector<double> jacobian_;         ///< the kept Jacobian's LU factors (column-major, n x n)
  std::vector<std::size_t> pivots_;
  std::vector<double> plus_;  ///< central differences' residuals
  std::vector<double> minus_;
  std::vector<SignalIndex> moved_;  ///< a linear loop's Linear::outputs
  std::vector<double> slopes_;      ///< and their slopes
  bool kept_ = false;               ///< jacobian_ holds a factored Jacobian
  bool constant_ = false;           ///< it is the constant Jacobian of a linear loop
  bool fast_ = false;               ///< the fast path is on (core/fast_paths.hpp)
  Evaluator evaluator_;
  std::exception_ptr failure_;  ///< an actor's exception inside KINSOL's call

  // SUNDIALS objects (opaque here: the header does not include SUNDIALS).
  void* context_ = nullptr;
  void* kinsol_ = nullptr;
  void* u_ = nullptr;
  void* u_scale_ = nullptr;
  void* f_scale_ = nullptr;
  void* matrix_ = nullptr;
  void* linear_solver_ = nullptr;
};

}  // namespace ctde
