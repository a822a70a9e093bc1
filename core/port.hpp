#pragma once
/// Ports: typed, sized endpoints of actors, and the time modes they resolve to.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ctde {

/// What kind of signal a port carries, as declared.
enum class PortKind : std::uint8_t {
  kContinuous,   ///< a piecewise-smooth function of time
  kDiscrete,     ///< a sequence of events carrying tokens
  kPolymorphic,  ///< takes the owning actor's resolved time mode
  kConstant,     ///< a constant value: connects to either side
};

/// The time mode of an actor (or of a resolved port).
enum class TimeMode : std::uint8_t {
  kUnresolved,  ///< polymorphic, before resolution
  kContinuous,
  kDiscrete,
  kConstant,  ///< only constant outputs (Constant)
  kHybrid,    ///< fixed ports of both kinds (converters, detectors)
};

enum class PortDirection : std::uint8_t { kInput, kOutput };

/// Width 0 means "inferred from the connections".
inline constexpr int kInferredWidth = 0;

/// A declared port. Copyable value type.
struct PortSpec {
  std::string name;
  PortDirection direction = PortDirection::kInput;
  PortKind kind = PortKind::kPolymorphic;
  int width = kInferredWidth;  ///< fixed width, or kInferredWidth
  bool optional = false;       ///< an input that may stay unconnected
};

/// Typed handles returned by the declarations (index into the actor's inputs
/// or outputs). Copyable value types. Actors keep the handles their
/// declarations return (or Actor::input_port(i) for numbered ports) and name
/// ports by them in every context call; the constructor from an index is
/// explicit, so a bare number (`input({0})`) is not taken for a port.
struct InputPort {
  constexpr InputPort() = default;
  constexpr explicit InputPort(std::size_t i) : index(i) {}
  std::size_t index = 0;
};
struct OutputPort {
  constexpr OutputPort() = default;
  constexpr explicit OutputPort(std::size_t o) : index(o) {}
  std::size_t index = 0;
};

[[nodiscard]] std::string_view to_string(PortKind kind);
[[nodiscard]] std::string_view to_string(TimeMode mode);

}  // namespace ctde
