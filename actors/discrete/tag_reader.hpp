#pragma once
/// The shared base of `CurrentTime` and `CurrentMicrostep`: at each token on
/// the input `trigger`, an event on `out` (width 1) carrying one number read
/// from the tag being served.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class TagReader : public Actor {
 public:
  void fire(FireContext& context) const final;

 protected:
  TagReader(std::string name, const ActorInfo& info);
  /// The number sent for the tag `context.tag()`.
  [[nodiscard]] virtual double read(const FireContext& context) const = 0;

 private:
  InputPort trigger_;
  OutputPort out_;
};

}  // namespace ctde
