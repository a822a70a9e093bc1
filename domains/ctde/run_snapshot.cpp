// Snapshots of a run (docs/snapshots.md): the director's state after the
// events of a tag, written in one order and read back in the same one; the
// model's fingerprints; resuming instead of starting.
#include <bit>
#include <cstring>
#include <stdexcept>

#include "core/error.hpp"
#include "core/fnv1a.hpp"
#include "core/format.hpp"
#include "domains/ctde/director_impl.hpp"

namespace ctde {
namespace {

/// The body's layout version: a body of another version is refused.
constexpr std::uint32_t kBodyVersion = 3;

/// The fingerprint of one actor's parameter values as resolved.
std::uint64_t parameters_hash(const Actor& actor) {
  Fnv1a h;
  for (const ParamSlot& p : actor.parameters()) {
    h.text(p.name.str());
    const ResolvedParam& r = p.resolved;
    h.value(r.kind());
    h.value(r.is_unset());
    if (r.is_unset()) continue;
    switch (r.kind()) {
      case ParamKind::kScalar:
      case ParamKind::kVector:
      case ParamKind::kMatrix:
        h.value(r.rows());
        for (const double v : r.values()) h.value(std::bit_cast<std::uint64_t>(v));
        break;
      case ParamKind::kString:
      case ParamKind::kFile:
      case ParamKind::kStructure:  // its JSON text
        h.text(r.text());
        break;
    }
  }
  return h.get();
}

}  // namespace

void Director::Impl::snapshot_at(double time, SnapshotWriter write) {
  const std::optional<Tick> at = resolution_.whole_ticks(time);
  if (!at || *at < start_ || *at >= stop_) {
    throw ModelError("the snapshot time " + format_double(time) +
                     " s must be a whole number of ticks from the start time to before the stop time (" +
                     format_double(resolution_.to_seconds(start_)) + " to " +
                     format_double(resolution_.to_seconds(stop_)) + " s)");
  }
  snapshot_ = SnapshotRequest{*at, std::move(write), false};
}

ModelFingerprint Director::Impl::fingerprint() const {
  Fnv1a structure;
  Fnv1a parameters;
  structure.value(resolution_.seconds_per_tick());
  structure.value(layout_.actors.size());
  for (ActorId d{0}; d.index() < layout_.actors.size(); ++d) {
    const FlatActor& a = flat(d);
    structure.text(a.path);
    structure.text(a.actor->type());
    structure.value(a.mode);
    for (const std::span<PortKind> kinds : {a.input_kinds, a.output_kinds}) {
      structure.value(kinds.size());
      for (const PortKind k : kinds) structure.value(k);
    }
    for (const std::span<int> widths : {a.input_widths, a.output_widths}) {
      for (const int w : widths) structure.value(w);
    }
    for (const std::optional<PortRef>& driver : a.drivers) {
      structure.value(driver.has_value());
      if (!driver) continue;
      structure.text(model_.actors[driver->actor.index()].path);
      structure.value(driver->port);
    }
    structure.value(b_.actors[d.index()].states.width);
    structure.value(b_.actors[d.index()].guards.width);
    parameters.value(parameters_hash(*a.actor));
  }
  return {structure.get(), parameters.get()};
}

void Director::Impl::resume_from(RunSnapshot snapshot, bool parameters_may_differ) {
  if (snapshot.model.structure != fingerprint().structure) {
    throw SnapshotError(
        "the snapshot was taken of another model: its actors, ports, connections, states or time resolution "
        "differ from this one's");
  }
  if (snapshot.tag.time >= stop_) {
    throw SnapshotError("the snapshot was taken at " + format_double(snapshot.time) +
                        " s, not before this run's stop time (" +
                        format_double(resolution_.to_seconds(stop_)) + " s): there is nothing left to run");
  }
  resume_ = Resume{std::move(snapshot), parameters_may_differ, {}};
  restore_run();
}

void Director::Impl::set_checkpoints(std::function<bool()> due, SnapshotWriter write) {
  checkpoint_ = Checkpoints{std::move(due), std::move(write)};
  continuous_.ask_checkpoints_at_steps(&checkpoint_->due);
}

void Director::Impl::take_checkpoint() {
  continuous_.take_for_checkpoint();
  StateWriter out;
  try {
    save_run(out);
  } catch (const SnapshotError& e) {
    throw Failure{std::string("the checkpoint could not be taken: ") + e.what(), ""};
  }
  const RunSnapshot snapshot = here(out);
  try {
    checkpoint_->write(snapshot);
  } catch (const std::exception& e) {
    throw Failure{std::string("the checkpoint could not be written: ") + e.what(), ""};
  }
}

RunSnapshot Director::Impl::snapshot() {
  if (!started_ || ended_ || now_.time != pause_)
    throw std::logic_error("Director::snapshot: the run is not paused (advance_to() pauses it)");
  continuous_.settle_ahead();
  return saved();
}

RunSnapshot Director::Impl::saved() {
  continuous_.restart_for_snapshot();
  StateWriter out;
  save_run(out);
  if (trace_ != nullptr) trace_->snapshot(now_, false);
  return here(out);
}

RunSnapshot Director::Impl::here(const StateWriter& out) const {
  RunSnapshot snapshot;
  snapshot.tag = now_;
  snapshot.time = resolution_.to_seconds(now_.time);
  snapshot.model = fingerprint();
  snapshot.body = out.bytes();
  return snapshot;
}

void Director::Impl::take_snapshot() {
  snapshot_->taken = true;
  std::optional<RunSnapshot> snapshot;
  try {
    snapshot = saved();
  } catch (const SnapshotError& e) {
    throw Failure{std::string("the snapshot could not be taken: ") + e.what(), ""};
  }
  try {
    snapshot_->write(*snapshot);
  } catch (const std::exception& e) {
    throw Failure{std::string("the snapshot could not be written: ") + e.what(), ""};
  }
}

void Director::Impl::save_run(StateWriter& out) const {
  out.u32(kBodyVersion);
  out.u64(layout_.actors.size());
  std::vector<std::uint64_t> parameters(layout_.actors.size());
  for (std::size_t d = 0; d < parameters.size(); ++d) parameters[d] = parameters_hash(*layout_.actors[d]);
  out.values(parameters);
  out.i64(now_.time);
  out.u32(now_.microstep);
  out.i64(stop_);
  out.u64(stats_.events);
  out.u64(stats_.time_events);
  out.u64(stats_.state_events);
  out.u64(stats_.loop_solves);
  out.u64(stats_.loop_iterations);
  out.values(b_.signals);
  out.values(b_.tokens_now);
  out.values(b_.tokens_next);
  out.values(b_.present_now);
  out.values(b_.present_next);
  out.values(b_.crossed);
  out.values(b_.x_storage);
  for (std::size_t d = 0; d < layout_.actors.size(); ++d) {
    const ActorState* state = b_.states[d].get();
    out.boolean(state != nullptr);
    if (state == nullptr) continue;
    try {
      out.block([&] { state->save(out); });
    } catch (const std::exception& e) {
      throw SnapshotError(layout_.actors[d]->describe() + ": " + e.what());
    }
  }
  scheduler_.save(out);
  for (const auto& loop : loops_) loop->save(out);
  out.f64(rows_.interval_until());
  out.block([&] { continuous_.save(out); });
}

void Director::Impl::restore_run() {
  const RunSnapshot& snapshot = resume_->snapshot;
  StateReader in(snapshot.body, "the snapshot");
  if (const std::uint32_t version = in.u32(); version != kBodyVersion) {
    in.fail("its body is of version " + std::to_string(version) + "; this ctde reads version " +
            std::to_string(kBodyVersion));
  }
  if (in.u64() != layout_.actors.size()) in.fail("it has another number of actors (another model)");
  const std::vector<std::uint64_t> parameters = in.values<std::uint64_t>();
  for (std::size_t d = 0; d < parameters.size() && !resume_->parameters_may_differ; ++d) {
    if (parameters[d] != parameters_hash(*layout_.actors[d])) {
      in.fail(layout_.actors[d]->describe() +
              " has other parameter values than in the run that took it (to change parameters on "
              "resuming, set them with --set)");
    }
  }
  now_.time = in.i64();
  now_.microstep = in.u32();
  if (now_.time != snapshot.tag.time) in.fail("its body and its header disagree on its time (corrupt)");
  // The actors planned their events up to the stop time of the run that
  // took the snapshot (a clock's last tick, a delay's last release): a run
  // resumed from it may stop there or before, not later.
  if (const Tick stop = in.i64(); stop_ > stop) {
    in.fail("it was taken in a run that stops at " + format_double(resolution_.to_seconds(stop)) +
            " s, and its actors planned their events up to that time: a run resumed from it may stop then or "
            "before, not at " +
            format_double(resolution_.to_seconds(stop_)) + " s");
  }
  stats_.events = in.u64();
  stats_.time_events = in.u64();
  stats_.state_events = in.u64();
  stats_.loop_solves = in.u64();
  stats_.loop_iterations = in.u64();
  in.values_into(std::span<double>(b_.signals));
  in.values_into(std::span<double>(b_.tokens_now));
  in.values_into(std::span<double>(b_.tokens_next));
  in.values_into(std::span<std::uint8_t>(b_.present_now));
  in.values_into(std::span<std::uint8_t>(b_.present_next));
  in.values_into(std::span<std::uint8_t>(b_.crossed));
  in.values_into(std::span<double>(b_.x_storage));
  for (ActorId d{0}; d.index() < layout_.actors.size(); ++d) {
    const Actor& actor = *layout_.actors[d.index()];
    try {
      b_.states[d.index()] = actor.make_state();
    } catch (const std::exception& e) {
      in.fail(actor.describe() + ": " + e.what());
    }
    std::unique_ptr<ActorState>& state = b_.states[d.index()];
    if (in.boolean() != (state != nullptr))
      in.fail(actor.describe() + " has a run state in one of the two models only");
    if (state == nullptr) continue;
    in.block(actor.describe(), [&](StateReader& mine) {
      try {
        state->restore(mine);
      } catch (const SnapshotError&) {
        throw;
      } catch (const std::exception& e) {
        mine.fail(e.what());
      }
    });
  }
  scheduler_.restore(in);
  for (const auto& loop : loops_) loop->restore(in);
  rows_.set_interval_until(in.f64());
  const std::uint64_t length = in.u64();  // the continuous phase's block, read once the solvers start
  const std::span<const std::byte> rest = std::span<const std::byte>(snapshot.body).last(in.remaining());
  if (length != rest.size()) in.fail("its last part has the wrong length (truncated or corrupt)");
  resume_->continuous.assign(rest.begin(), rest.end());
  initialized_ = true;
}

void Director::Impl::resume() {
  if (trace_ != nullptr) trace_->snapshot(now_, true);
  start_solver(resolution_.to_seconds(now_.time));
  StateReader in(resume_->continuous, "the snapshot's continuous part");
  continuous_.restore(in);
  in.expect_end();
}

}  // namespace ctde
