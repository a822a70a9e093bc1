#pragma once
/// The validated, flattened model that the director runs.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "actor.hpp"
#include "ids.hpp"
#include "port.hpp"

namespace ctde {

/// An output or input of a leaf actor in the flattened model. Copyable value type.
struct PortRef {
  FlatIndex actor;         ///< its actor, in FlatModel::actors
  std::uint32_t port = 0;  ///< index into that actor's inputs or outputs

  friend bool operator==(const PortRef&, const PortRef&) = default;
};

/// Per output of one actor, the inputs it drives: rows of FlatModel's
/// compressed receiver arrays, in the order the connections were bound.
/// Copyable view (valid while the FlatModel that made it lives).
class ReceiverLists {
 public:
  ReceiverLists() = default;
  /// `begin`: outputs + 1 offsets into `data`, row o from begin[o] to begin[o + 1].
  ReceiverLists(const std::uint32_t* begin, std::size_t outputs, const PortRef* data)
      : begin_(begin), outputs_(outputs), data_(data) {}

  /// The number of outputs.
  [[nodiscard]] std::size_t size() const { return outputs_; }
  [[nodiscard]] bool empty() const { return outputs_ == 0; }
  /// The inputs output `o` drives. Precondition: o < size().
  [[nodiscard]] std::span<const PortRef> operator[](std::size_t o) const {
    return {data_ + begin_[o], data_ + begin_[o + 1]};
  }

 private:
  const std::uint32_t* begin_ = nullptr;
  std::size_t outputs_ = 0;
  const PortRef* data_ = nullptr;
};

/// A leaf actor with everything validation resolved. Copyable view: it
/// refers to the actor (the Model owns it) and its per-port values are
/// spans of the FlatModel's port arrays (FlatPortArrays), one run of each
/// array per actor, so that a million actors take no block of their own.
struct FlatActor {
  Actor* actor = nullptr;
  std::string path;
  TimeMode mode = TimeMode::kUnresolved;  ///< resolved: never kUnresolved
  std::span<PortKind> input_kinds;        ///< resolved: continuous, discrete or constant
  std::span<PortKind> output_kinds;
  std::span<int> input_widths;
  std::span<int> output_widths;
  std::span<std::optional<PortRef>> drivers;  ///< per input: the output driving it
  /// Per input: where its connection was written (the Connection's location,
  /// which shares its table with the Model's: 16 bytes, no text).
  std::span<SourceLocation> driver_locations;
  ReceiverLists receivers;  ///< per output: the inputs it drives
  ActorId depth;            ///< its position in the topological order of all zero-delay edges
};

/// What FlatActor's spans view: every actor's ports, one array per value,
/// actor after actor in FlatModel::actors' order (compressed rows).
/// Copyable value type.
struct FlatPortArrays {
  std::vector<PortKind> input_kinds;
  std::vector<int> input_widths;
  std::vector<std::optional<PortRef>> drivers;
  std::vector<SourceLocation> driver_locations;
  std::vector<PortKind> output_kinds;
  std::vector<int> output_widths;
  std::vector<std::uint32_t> receivers_begin;  ///< per output (and one past the last): its row in `receivers`
  std::vector<PortRef> receivers;
};

/// A loop of direct-feedthrough continuous actors, solved at every
/// evaluation of the outputs (docs/semantics.md, "Algebraic loops"): the
/// outputs of its tear actors are the unknowns; one iterate evaluates the
/// other actors in order with the tears' outputs guessed, then the tears.
/// Copyable value type.
struct AlgebraicLoop {
  /// Every actor of the loop, in the order of one iterate: the others in a
  /// topological order of the loop without the tears' outputs, then the tears.
  std::vector<FlatIndex> order;
  std::uint32_t tears = 0;  ///< the last `tears` actors of `order` are the tears
  std::string cycle;        ///< a cycle through the loop, "a -> b -> a"
  FlatIndex first;          ///< the cycle's first actor (where an error is located)

  /// The tear actors: the end of `order`.
  [[nodiscard]] std::span<const FlatIndex> tear_actors() const {
    return std::span<const FlatIndex>(order).subspan(order.size() - tears);
  }
};

/// A token on input `input` of actor `actor` enters a discrete loop that
/// `breaker` breaks (Actor::samples_its_loop()): it samples the loop, the
/// breaker sending its output before the loop's actors fire. Copyable.
struct LoopWake {
  FlatIndex actor;
  std::uint32_t input = 0;
  FlatIndex breaker;
};

/// The flattened, validated model. Indices are stable for one validation.
/// Copyable value type (refers to actors owned by the Model, which must
/// outlive it): its actors' spans view its own port arrays, which a move
/// keeps in place and a copy views anew in the copy's arrays.
struct FlatModel {
  FlatModel() = default;
  ~FlatModel() = default;
  FlatModel(FlatModel&&) noexcept = default;
  FlatModel& operator=(FlatModel&&) noexcept = default;
  FlatModel(const FlatModel& other);
  FlatModel& operator=(const FlatModel& other);

  std::vector<FlatActor> actors;  ///< in definition order (depth-first through composites)
  /// Continuous actors in evaluation order (topological order of direct feedthrough).
  std::vector<FlatIndex> continuous_schedule;
  /// Discrete actors in firing-depth order.
  std::vector<FlatIndex> discrete_schedule;
  /// The algebraic loops, each in continuous_schedule as its `order`.
  std::vector<AlgebraicLoop> algebraic_loops;
  /// The actors that break a discrete loop by sampling it, and the inputs
  /// through which tokens enter their loops (docs/semantics.md, "Discrete
  /// loops through a delay").
  std::vector<FlatIndex> loop_breakers;
  std::vector<LoopWake> loop_wakes;
  /// The arrays the actors' port spans view (written by validation).
  FlatPortArrays ports;

  /// The index of the actor with full path `path`, if any.
  [[nodiscard]] std::optional<FlatIndex> find(const std::string& path) const;
  /// The actor at `index`. Precondition: index < actors.size().
  [[nodiscard]] const FlatActor& operator[](FlatIndex index) const { return actors[index.index()]; }
};

}  // namespace ctde
