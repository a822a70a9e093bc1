#pragma once
/// The integral of a sampled signal, shared by `DiscreteIntegrator` and
/// `DiscretePID`: between two tokens, at t[k-1] and t[k], the input is
/// taken as u[k-1] (forward Euler: the token held), u[k] (backward Euler)
/// or their mean (trapezoidal), so that
///   y[k] = y[k-1] + gain h[k] ((1 - theta) u[k-1] + theta u[k]),
/// h[k] = t[k] - t[k-1] the time between the tokens (a DiscreteClock of
/// period T: T), theta 0, 1 or 1/2. Forward Euler needs no u[k]: it has no
/// direct feedthrough, and its value at any time (at_time) is the integral
/// of the held token, which is what a discrete loop through it reads.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../../core/state_stream.hpp"

namespace ctde {

/// theta of an integration method's name ("forward_euler", "backward_euler",
/// "trapezoidal"), or none for another name.
[[nodiscard]] inline std::optional<double> integration_theta(std::string_view method) {
  if (method == "forward_euler") return 0.0;
  if (method == "backward_euler") return 1.0;
  if (method == "trapezoidal") return 0.5;
  return std::nullopt;
}

/// What is wrong with `method` as a `method` parameter (for a name that
/// integration_theta does not know).
[[nodiscard]] inline std::string integration_method_problem(std::string_view method) {
  std::string out = R"(must be "forward_euler", "backward_euler" or "trapezoidal", got ")";
  out += method;
  out += '"';
  return out;
}

/// The running integral of one actor (a value type in its ActorState),
/// element by element over the input's width.
struct SampledIntegral {
  std::vector<double> y;     ///< the integral at `at` (empty before it is started)
  std::vector<double> held;  ///< the last token taken
  double at = 0.0;           ///< the time y is at
  double last = 0.0;         ///< the time of the last token taken
  bool has_token = false;    ///< a token was taken

  /// Starts it at `initial` (one value or one per element) for `width` elements.
  void start(std::span<const double> initial, std::size_t width) {
    y.resize(width);
    held.assign(width, 0.0);
    for (std::size_t i = 0; i < width; ++i) y[i] = initial.size() == 1 ? initial[0] : initial[i];
  }

  /// Moves y to time `t` with the held token's part, (1 - theta) of it.
  void advance(double t, double gain, double theta) {
    if (has_token) {
      const double factor = gain * (t - at) * (1.0 - theta);
      for (std::size_t i = 0; i < y.size(); ++i) y[i] += factor * held[i];
    }
    at = t;
  }

  /// Takes the token `u` at time `t` (after advance(t)): adds its own part,
  /// theta of it over the time since the last token, and holds it.
  void take(double t, std::span<const double> u, double gain, double theta) {
    if (has_token) {
      const double factor = gain * (t - last) * theta;
      for (std::size_t i = 0; i < y.size(); ++i) y[i] += factor * u[i];
    }
    held.assign(u.begin(), u.end());
    last = t;
    at = t;
    has_token = true;
  }

  void save(StateWriter& out) const {
    out.values(y);
    out.values(held);
    out.f64(at);
    out.f64(last);
    out.boolean(has_token);
  }
  void restore(StateReader& in) {
    y = in.values<double>();
    held = in.values<double>();
    at = in.f64();
    last = in.f64();
    has_token = in.boolean();
  }
};

}  // namespace ctde
