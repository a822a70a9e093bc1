#pragma once
/// The contiguous buffers of a run, owned by the director and read by actors
/// through the contexts (core/actor_context.hpp). Plain data: every port is an offset and a width.

#include <cstdint>
#include <memory>
#include <vector>

#include "ids.hpp"
#include "time.hpp"

namespace ctde {

/// Mutable per-run state of one actor (queues, counters, random generators).
/// Actors that need it derive from this and create it in make_state().
class ActorState {
 public:
  virtual ~ActorState() = default;
  ActorState() = default;
  ActorState(const ActorState&) = delete;
  ActorState& operator=(const ActorState&) = delete;
};

/// A slice of a buffer. Copyable value type.
struct Slice {
  std::uint32_t offset = 0;
  std::uint32_t width = 0;
};

/// What a discrete input holds at the current microstep (RunBuffers::present_now).
enum Presence : std::uint8_t {
  kAbsent = 0,
  kSentNow = 1,       ///< a token sent at this microstep (by a shallower actor)
  kSentBefore = 2,    ///< a token sent at the previous microstep
  kConstantValue = 3  ///< driven by a constant: its value is present at every tag
};

/// Where each actor's ports and states live. Copyable value type.
struct ActorSlots {
  std::uint32_t first_input = 0;   ///< index into RunBuffers::inputs
  std::uint32_t first_output = 0;  ///< index into RunBuffers::outputs
  Slice states;                    ///< continuous states in RunBuffers::x / dx
  Slice guards;                    ///< state-event guards in RunBuffers::crossed
};

/// Everything an actor reads or writes during a run, in flat arrays.
/// Not copyable (actors' states are owned here); movable.
struct RunBuffers {
  // ---- layout (fixed after initialization)
  std::vector<ActorSlots> actors;
  std::vector<Slice> outputs;                  ///< output ports: value slice in `signals`
  std::vector<Slice> inputs;                   ///< input ports: the driver's value slice in `signals`
                                               ///< (a zero slice when unconnected)
  std::vector<Slice> input_tokens;             ///< input ports: token slice in tokens_now/tokens_next
  std::vector<std::uint32_t> receivers_begin;  ///< per output: range in `receivers`
  std::vector<InputId> receivers;              ///< the discrete inputs each output drives
  std::vector<ActorId> input_owner;            ///< per input port: its actor

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
  double* x = nullptr;            ///< the current continuous state (solver-owned)
  std::vector<double> x_storage;  ///< the state when no solver runs
};

}  // namespace ctde
