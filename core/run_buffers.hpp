#pragma once
/// The contiguous buffers of a run, owned by the director and read by actors
/// through the contexts (core/actor_context.hpp). Plain data: every port is an offset and a width.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "ids.hpp"
#include "state_stream.hpp"
#include "time.hpp"

namespace ctde {

/// Mutable per-run state of one actor (queues, counters, random generators).
/// Actors that need it derive from this and create it in make_state().
/// A snapshot (docs/snapshots.md) holds it through save() and restore(),
/// which every built-in state defines: a run resumed from a snapshot must
/// continue exactly as the run that took it (tests/ctde/test_snapshots.cpp
/// checks it for every registered type). A state that does not define them
/// (a plug-in's written before snapshots) refuses to be saved, so a
/// snapshot of its run fails with a clear message instead of losing it.
class ActorState {
 public:
  virtual ~ActorState() = default;
  ActorState() = default;
  ActorState(const ActorState&) = delete;
  ActorState& operator=(const ActorState&) = delete;

  /// Writes everything the run needs of this state to continue from here:
  /// what later firings, evaluations or derivatives read (queues, counters,
  /// histories, a generator's position), not caches that are rebuilt before
  /// they are read. Called between two tags, never on the RHS path.
  /// @throws SnapshotError when the state cannot be saved (an FMU that
  ///         cannot get its state), naming why.
  virtual void save(StateWriter& out) const;
  /// Reads what save() wrote into a state just made by make_state() for the
  /// same actor with the same parameters, in place of initialize()'s.
  /// @throws SnapshotError (through the reader) when the bytes do not fit.
  virtual void restore(StateReader& in);
};

/// Consecutive elements of one buffer: `offset` is the first, of kind Index
/// (SignalSlice: of RunBuffers::signals, StateSlice: of x, GuardSlice: of
/// crossed and the guard set, TokenSlice: of tokens_now and tokens_next).
/// Copyable value type.
template <class Index>
struct Slice {
  Index offset;
  std::uint32_t width = 0;

  /// Element `i` of the slice. Precondition: i < width.
  [[nodiscard]] Index at(std::uint32_t i) const { return Index{offset.value() + i}; }
  /// One past the last element, as an index.
  [[nodiscard]] std::size_t past_end() const { return offset.index() + width; }
  /// The slice's values in `buffer`, the buffer of its kind.
  template <class T>
  [[nodiscard]] std::span<T> in(T* buffer) const {
    return {buffer + offset.index(), width};
  }
};
using SignalSlice = Slice<SignalIndex>;
using StateSlice = Slice<StateIndex>;
using GuardSlice = Slice<GuardId>;
using TokenSlice = Slice<TokenIndex>;

/// What a discrete input holds at the current microstep (RunBuffers::present_now).
enum Presence : std::uint8_t {
  kAbsent = 0,
  kSentNow = 1,       ///< a token sent at this microstep (by a shallower actor)
  kSentBefore = 2,    ///< a token sent at the previous microstep
  kConstantValue = 3  ///< driven by a constant: its value is present at every tag
};

/// What an actor that breaks a discrete loop by sampling it is told
/// (RunBuffers::sampling; docs/semantics.md, "Discrete loops through a delay").
enum LoopSampling : std::uint8_t {
  kBreaksLoop = 1,  ///< it breaks a loop: it sends when the loop is sampled, not at its input's tokens
  kLoopSample = 2   ///< its current firing samples the loop
};

/// Where each actor's ports and states live. Copyable value type.
struct ActorSlots {
  InputId first_input;    ///< its first input port (RunBuffers::inputs)
  OutputId first_output;  ///< its first output port (RunBuffers::outputs)
  StateSlice states;      ///< continuous states in RunBuffers::x / dx
  GuardSlice guards;      ///< state-event guards in RunBuffers::crossed

  /// Its input port `i` (an index among its own inputs).
  [[nodiscard]] InputId input(std::size_t i) const {
    return InputId{first_input.value() + static_cast<std::uint32_t>(i)};
  }
  /// Its output port `o` (an index among its own outputs).
  [[nodiscard]] OutputId output(std::size_t o) const {
    return OutputId{first_output.value() + static_cast<std::uint32_t>(o)};
  }
};

/// Everything an actor reads or writes during a run, in flat arrays.
/// Not copyable (actors' states are owned here); movable.
struct RunBuffers {
  // ---- layout (fixed after initialization)
  std::vector<ActorSlots> actors;
  std::vector<SignalSlice> outputs;      ///< output ports (by OutputId): value slice in `signals`
  std::vector<SignalSlice> inputs;       ///< input ports (by InputId): the driver's value slice in
                                         ///< `signals` (a zero slice when unconnected)
  std::vector<TokenSlice> input_tokens;  ///< input ports: token slice in tokens_now/tokens_next
  std::vector<ReceiverIndex>
      receivers_begin;  ///< per output, and one past the last: where its range in `receivers` begins
  std::vector<InputId> receivers;    ///< the discrete inputs each output drives
  std::vector<ActorId> input_owner;  ///< per input port: its actor
  /// Per input port: 1 when unconnected (it reads the zero slice), 2 when
  /// resolved discrete, 0 otherwise (ReadContext::connected(), discrete()).
  std::vector<std::uint8_t> input_flags;
  /// The algebraic loops (docs/semantics.md, "Algebraic loops"): loop k's
  /// actors in the order of one iterate are loop_members[k]; its first
  /// actor, its head, stands for the whole loop in the evaluation lists (an
  /// output program calls it, and the director solves the loop). Per actor:
  /// its loop's k + 1, or 0 (empty when the model has no loop).
  std::vector<std::vector<ActorId>> loop_members;
  std::vector<std::uint32_t> loop_of;
  /// Discrete loops through a delay (core/loop_sampling.hpp): per input
  /// port, and one past the last, where its range in `wakes` begins: the
  /// actors that break the loop a token on it enters. Empty when no actor
  /// breaks a loop so.
  std::vector<std::uint32_t> wakes_begin;
  std::vector<ActorId> wakes;
  std::vector<std::uint8_t> sampling;  ///< per actor: LoopSampling flags (empty: none)

  /// The members of the loop whose head is `a`, or none when `a` heads no loop.
  [[nodiscard]] std::span<const ActorId> loop_headed_by(ActorId a) const {
    if (loop_of.empty() || loop_of[a.index()] == 0) return {};
    const std::vector<ActorId>& members = loop_members[loop_of[a.index()] - 1];
    if (members.front() != a) return {};
    return members;
  }

  // ---- values
  std::vector<double> signals;            ///< every output's current value (continuous) or last token
  std::vector<double> tokens_now;         ///< tokens delivered at the current microstep
  std::vector<double> tokens_next;        ///< tokens for the next microstep
  std::vector<std::uint8_t> present_now;  ///< per input port: a Presence at the current microstep
  std::vector<std::uint8_t>
      present_next;  ///< per input port: kSentBefore at the next one (or kConstantValue)
  std::vector<std::unique_ptr<ActorState>> states;  ///< per actor, or null
  std::vector<double> scratch;                      ///< as wide as the widest port: for building tokens
  /// Per guard: how it crossed at the current firing (a Crossing value), or 0.
  std::vector<std::uint8_t> crossed;

  // ---- continuous state
  /// The continuous states the actors read now: x_storage, or, for a while,
  /// a solver's trial state, a packed part's states in the run's layout or
  /// the state at a row inside a step (the director points it there and
  /// back: StatesView, domains/ctde). Read only: states are written in x_storage.
  const double* x = nullptr;
  /// The run's continuous states, in the run's order: what initialize() and
  /// a reset at an event write (mutable_states), and what the solvers load
  /// their state into after a step.
  std::vector<double> x_storage;
};

}  // namespace ctde
