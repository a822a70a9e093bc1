#pragma once
/// The shared base of the actors with the numbered inputs in0..in{N-1} and
/// one output `out`, N given by a parameter: the number `inputs` (default
/// 2) for `Mux` and `MinMax` (polymorphic) and `Merge` (discrete), or one
/// input per character of a string of two operators for `Sum` (`signs`,
/// '+' and '-') and `Product` (`ops`, '*' and '/').

#include <string>
#include <string_view>

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class FanIn : public Actor {
 protected:
  /// Declares `out` and the parameter `inputs`, of the kind `mode` gives
  /// its ports: polymorphic for kUnresolved, discrete for kDiscrete.
  /// Precondition: `mode` is kUnresolved or kDiscrete.
  FanIn(std::string name, const ActorInfo& info, TimeMode mode);
  /// A polymorphic actor with one input per character of the string
  /// parameter named `parameter` (default `default_operators`), each one of the
  /// two characters of `alphabet`. Declares `out` and the parameter.
  FanIn(std::string name, const ActorInfo& info, std::string_view parameter, std::string_view alphabet,
        const char* default_operators);

  /// Declares the inputs. An actor that checks more calls it.
  /// @throws ModelError naming the parameter: `inputs` not a whole number
  ///         from 1 to 1000, or the operators empty or not of the alphabet.
  void configure(const ParameterScope& scope) override;

  /// The operators, one per input (the second form; after configure()).
  [[nodiscard]] const std::string& operators() const { return text(count_); }

  OutputPort out_;

 private:
  ParamHandle count_;          ///< `inputs`, or the operators
  std::string_view alphabet_;  ///< the operators' two characters; empty: `inputs`
};

}  // namespace ctde
