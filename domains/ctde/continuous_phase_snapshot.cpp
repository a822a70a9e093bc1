// The continuous phase's part of a snapshot (docs/snapshots.md): each part
// restarts at the snapshot's tag with the step it had planned, in the run
// that takes the snapshot and in the run resumed from it alike, so the two
// take the same steps from there (a checkpoint's part whose solver saves
// its exact state goes on from it instead, in both); the guards' sides and
// recent events; the counters so far.
#include <algorithm>
#include <stdexcept>

#include "domains/ctde/continuous_part_impl.hpp"
#include "domains/ctde/continuous_phase_impl.hpp"

namespace ctde {

void ContinuousPhase::restart_for_snapshot() {
  const double t = run_.resolution_.to_seconds(run_.now_.time);
  for (Part& p : parts_.all) {
    // After the events at now_ and before the continuous phase goes on,
    // every part stands at now_ (the phase that reached it stopped there:
    // a snapshot's time is one of its stop times) with nothing pending, and
    // only a joined run's whole part is touched (it always is).
    if (p.pending || (p.touched && parts_.split) || p.behind || (p.solver && p.solver->current_time() != t)) {
      throw std::logic_error("ContinuousPhase::restart_for_snapshot: part " + std::to_string(p.id.value()) +
                             " is not at the snapshot's time " + std::to_string(t) + " (pending " +
                             std::to_string(p.pending.has_value()) + ", touched " +
                             std::to_string(p.touched) + ", behind " + std::to_string(p.behind) +
                             ", solver at " + std::to_string(p.solver ? p.solver->current_time() : p.time) +
                             ")");
    }
    if (!p.solver) continue;
    p.snapshot_exact = false;
    p.snapshot_step = p.solver->planned_step();
    p.solver->reset(t, part_state(p), p.snapshot_step);
    update_frontier(p);
  }
}

bool ContinuousPhase::checkpoint_place() const {
  const Tick now = run_.now_.time;
  const double t = run_.resolution_.to_seconds(now);
  return std::all_of(parts_.all.begin(), parts_.all.end(), [&](const Part& p) {
    if (!p.solver) return true;
    if (p.pending || p.behind) return false;
    if (p.solver->saves_exactly()) return run_.resolution_.to_ticks(p.solver->current_time()) >= now;
    return p.restarted_at == t && p.solver->current_time() == t;
  });
}

void ContinuousPhase::take_for_checkpoint() {
  for (Part& p : parts_.all) {
    if (!p.solver) continue;
    // One that saves itself exactly goes on from that state; any other
    // restarted here, and restarts again the same way.
    p.snapshot_exact = p.solver->saves_exactly();
    if (!p.snapshot_exact) p.snapshot_step = p.solver->last_reset_step();
  }
}

void ContinuousPhase::save(StateWriter& out) const {
  out.u64(parts_.all.size());
  for (const Part& p : parts_.all) {
    out.boolean(p.snapshot_exact);
    if (p.snapshot_exact) {
      p.solver->save_exact(out);
    } else {
      out.f64(p.snapshot_step);
    }
    out.f64(p.time);
    out.f64(p.step_start);
    out.f64(p.planned);
    out.boolean(p.current);
    out.values(p.slopes);
    p.locator.save(out);
    if (p.solver) p.solver->save_method(out);
  }
  RunStatistics counted;
  add_statistics(counted);
  out.u64(counted.steps);
  out.u64(counted.rejected_steps);
  out.u64(counted.rhs_evals);
  out.boolean(guards_.current);
}

void ContinuousPhase::restore(StateReader& in) {
  if (in.u64() != parts_.all.size())
    in.fail("its continuous states fall into another number of independent parts (another model)");
  const double t = run_.resolution_.to_seconds(run_.now_.time);
  for (Part& p : parts_.all) {
    p.snapshot_exact = in.boolean();
    if (p.snapshot_exact && !p.solver) in.fail("a part without states has a solver's state (another model)");
    if (p.snapshot_exact) {
      p.solver->restore_exact(in);
    } else {
      p.snapshot_step = in.f64();
    }
    p.time = in.f64();
    p.step_start = in.f64();
    p.planned = in.f64();
    p.current = in.boolean();
    in.values_into(std::span<double>(p.slopes));
    p.locator.restore(in);
    if (p.solver) {
      const double* x = part_state(p);
      p.solver->restore_method(in, t, x);
      if (!p.snapshot_exact) p.solver->reset(t, x, p.snapshot_step);
    }
    update_frontier(p);
  }
  // The counters go on from the snapshot's: what the solvers counted on
  // starting here is not counted twice.
  RunStatistics here;
  add_statistics(here);
  carried_.steps = static_cast<std::int64_t>(in.u64()) - static_cast<std::int64_t>(here.steps);
  carried_.rejected_steps =
      static_cast<std::int64_t>(in.u64()) - static_cast<std::int64_t>(here.rejected_steps);
  carried_.rhs_evals = static_cast<std::int64_t>(in.u64()) - static_cast<std::int64_t>(here.rhs_evals);
  guards_.current = in.boolean();
}

}  // namespace ctde
