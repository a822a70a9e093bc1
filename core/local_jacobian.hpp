#pragma once
/// What an actor says of its own Jacobian: which elements of its continuous
/// outputs and of its derivatives depend on which elements of its inputs and
/// of its states, and, where it knows it, the constant value of each such
/// partial derivative (docs/semantics.md, "Jacobians").
///
/// The director composes these local pieces along the model's connections
/// into the structure of ∂f/∂x of the whole right-hand side
/// (domains/ctde/jacobian_assembly.hpp): which derivative reads which state,
/// through any chain of feedthrough actors. An entry without a value
/// (kUnknown) is structure only: its part of the Jacobian is computed by
/// finite differences over column groups; entries with values give exact
/// Jacobian rows. A value is declared only where it is a constant of the run
/// (a linear actor: Gain, Sum, Integrator, StateSpace, TransferFunction):
/// the director computes those rows once. An entry declared kAtPoint has a
/// value the actor gives at each point where the Jacobian is evaluated
/// (Actor::jacobian_values: an FMU's directional derivatives); the rows it
/// reaches are composed again at each evaluation, without finite differences.
///
/// Actor::local_jacobian's default declares everything (every output
/// element on every element of each input that feeds it through, and on
/// every state; every derivative on every input element and every state),
/// which is always correct and only costs finite differences.
///
/// Copyable value type; filled once per run, off the hot path.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace ctde {

class LocalJacobian {
 public:
  /// A partial derivative whose value the actor does not declare.
  static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  /// A partial derivative whose value the actor gives at each point
  /// (Actor::jacobian_values), in the order such entries were declared.
  static constexpr double kAtPoint = std::numeric_limits<double>::infinity();
  /// Entry::point of an entry not declared kAtPoint.
  static constexpr std::uint32_t kNotAtPoint = std::numeric_limits<std::uint32_t>::max();

  /// What a row or a column of the local Jacobian is.
  enum class Kind : std::uint8_t {
    kOutput,      ///< an element of an output port (rows)
    kDerivative,  ///< the derivative of one of the actor's states (rows)
    kInput,       ///< an element of an input port (columns)
    kState,       ///< one of the actor's states (columns)
  };
  /// A row or a column: `port` is unused for kDerivative and kState.
  struct Element {
    Kind kind = Kind::kState;
    std::uint32_t port = 0;
    std::uint32_t index = 0;
  };
  /// d(row) / d(column) = value (kUnknown: structure only). An entry
  /// declared kAtPoint has value 0 here and `point` its place among the
  /// values Actor::jacobian_values gives (kNotAtPoint for the others).
  struct Entry {
    Element row;
    Element column;
    double value = kUnknown;
    std::uint32_t point = kNotAtPoint;
  };

  LocalJacobian(std::vector<std::uint32_t> input_widths, std::vector<std::uint32_t> output_widths,
                std::uint32_t states)
      : inputs_(std::move(input_widths)), outputs_(std::move(output_widths)), states_(states) {}

  [[nodiscard]] std::uint32_t input_width(std::size_t port) const { return inputs_[port]; }
  [[nodiscard]] std::uint32_t output_width(std::size_t port) const { return outputs_[port]; }
  [[nodiscard]] std::size_t inputs() const { return inputs_.size(); }
  [[nodiscard]] std::size_t outputs() const { return outputs_.size(); }
  [[nodiscard]] std::uint32_t states() const { return states_; }

  /// d out[o][i] / d in[k][j].
  void output_input(std::size_t o, std::uint32_t i, std::size_t k, std::uint32_t j, double value = kUnknown) {
    add({Kind::kOutput, port(o), i}, {Kind::kInput, port(k), j}, value);
  }
  /// d out[o][i] / d x[s] (the actor's own state s).
  void output_state(std::size_t o, std::uint32_t i, std::uint32_t s, double value = kUnknown) {
    add({Kind::kOutput, port(o), i}, {Kind::kState, 0, s}, value);
  }
  /// d x'[s] / d in[k][j].
  void derivative_input(std::uint32_t s, std::size_t k, std::uint32_t j, double value = kUnknown) {
    add({Kind::kDerivative, 0, s}, {Kind::kInput, port(k), j}, value);
  }
  /// d x'[s] / d x[r].
  void derivative_state(std::uint32_t s, std::uint32_t r, double value = kUnknown) {
    add({Kind::kDerivative, 0, s}, {Kind::kState, 0, r}, value);
  }

  /// Output o on every element of input k, values unknown.
  void output_on_all_of_input(std::size_t o, std::size_t k) {
    for (std::uint32_t i = 0; i < outputs_[o]; ++i) {
      for (std::uint32_t j = 0; j < inputs_[k]; ++j) output_input(o, i, k, j);
    }
  }
  /// Output o on every state, values unknown.
  void output_on_all_states(std::size_t o) {
    for (std::uint32_t i = 0; i < outputs_[o]; ++i) {
      for (std::uint32_t s = 0; s < states_; ++s) output_state(o, i, s);
    }
  }
  /// Every derivative on every element of input k and on every state, values unknown.
  void derivatives_on_all(std::size_t k) {
    for (std::uint32_t s = 0; s < states_; ++s) {
      for (std::uint32_t j = 0; j < inputs_[k]; ++j) derivative_input(s, k, j);
    }
  }
  void derivatives_on_all_states() {
    for (std::uint32_t s = 0; s < states_; ++s) {
      for (std::uint32_t r = 0; r < states_; ++r) derivative_state(s, r);
    }
  }

  [[nodiscard]] std::span<const Entry> entries() const { return entries_; }
  /// The number of entries declared kAtPoint.
  [[nodiscard]] std::uint32_t points() const { return points_; }

 private:
  static std::uint32_t port(std::size_t p) { return static_cast<std::uint32_t>(p); }
  void add(Element row, Element column, double value) {
    if (value == kAtPoint) {
      entries_.push_back({row, column, 0.0, points_++});
    } else {
      entries_.push_back({row, column, value, kNotAtPoint});
    }
  }

  std::vector<std::uint32_t> inputs_;
  std::vector<std::uint32_t> outputs_;
  std::uint32_t states_ = 0;
  std::vector<Entry> entries_;
  std::uint32_t points_ = 0;
};

}  // namespace ctde
