#pragma once
/// A mode chart compiled for a run: expressions as terms over one frame of
/// variables, predicates as trees of compiled comparisons (the guard
/// functions), and the run-time evaluator that owns the muparser programs.
///
/// The frame holds every variable an expression may read: `t`, the input
/// elements, the continuous states and the event variables, in that order.
/// Parameters (the model's and the chart's own) are constants, folded in.
/// A term is a constant, one frame variable, or a muparser program bound to
/// the frame; evaluating one allocates nothing.
///
/// A predicate's guard function is continuous where its parts are, and is
/// >= 0 exactly where the predicate holds, up to the strictness of its
/// comparisons: `a <= b` and `a < b` give b - a, `a >= b` and `a > b` give
/// a - b, `&&` the minimum of its operands, `||` the maximum, `!` the
/// negation. So `x >= 0.1 && v > 0` is min(x - 0.1, v).

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../../core/expression_engine.hpp"
#include "../../core/time.hpp"
#include "predicate.hpp"

namespace ctde {

/// A compiled expression. Copyable value type.
struct Term {
  enum class Kind : std::uint8_t { kConstant, kVariable, kProgram };
  Kind kind = Kind::kConstant;
  double value = 0.0;       ///< kConstant
  std::uint32_t index = 0;  ///< kVariable: frame index; kProgram: program index
};

/// A compiled predicate: the parse tree with compiled sides. Copyable value type.
struct CompiledPredicate {
  struct Node {
    PredicateNode::Kind kind = PredicateNode::Kind::kCompare;
    Comparison comparison = Comparison::kLess;
    Term lhs;
    Term rhs;
    std::uint32_t left = 0;
    std::uint32_t right = 0;
  };
  std::string text;         ///< as written
  std::vector<Node> nodes;  ///< operands before their node; the root last
};

/// A predicate on the time alone: every comparison sets `t` against a
/// constant (an expression of parameters, folded at compilation), as
/// `t >= 0.5`, `t > T_on`, `2 * T_on >= t`, `t >= 0.5 && t < 2` or
/// `!(t < 1) || t <= 0.1`. Such a guard is a time event, not a state event:
/// its value at every tick is known in advance, so the chart can ask to be
/// fired at the first tick where it holds rather than have it searched.
///
/// It is decided in ticks, not on the double t: a constant c stands for its
/// nearest tick K (TimeResolution::to_ticks), and
///
/// | comparison            | holds at tick k when |
/// |-----------------------|----------------------|
/// | `t >= c`, `c <= t`    | k >= K               |
/// | `t > c`,  `c < t`     | k >= K + 1           |
/// | `t <= c`, `c >= t`    | k <  K + 1           |
/// | `t < c`,  `c > t`     | k <  K               |
///
/// so a strict comparison is the first tick after c's, and the truth never
/// depends on the roundoff of ticks × resolution. Anything else (a side that
/// computes with t, as `t - 1 >= 0`; a comparison that reads a state or an
/// input, even joined to a time comparison) is not recognised: the guard
/// stays a located state event.
///
/// Made at configuration (recognise()), copied into each run and fixed to
/// its resolution there (resolve(), which allocates nothing); holds() and
/// first_from() allocate nothing. Copyable value type.
class TimePredicate {
 public:
  /// The predicate as a function of time, or nothing when it is not one
  /// (see the class comment). `time_index` is t's frame index.
  [[nodiscard]] static std::optional<TimePredicate> recognise(const CompiledPredicate& predicate,
                                                              std::uint32_t time_index);

  /// Fixes the thresholds to ticks of `resolution`, for a run over
  /// [first, last]: a threshold outside it is clamped just outside (all the
  /// ticks before the run, and all those after it, are alike).
  void resolve(const TimeResolution& resolution, Tick first, Tick last);

  /// Whether the predicate holds at `tick` (after resolve()).
  [[nodiscard]] bool holds(Tick tick) const;

  /// The first tick at or after `from` and at most the run's last tick where
  /// the predicate holds, or kNever (after resolve()).
  [[nodiscard]] Tick first_from(Tick from) const;

 private:
  struct Node {
    PredicateNode::Kind kind = PredicateNode::Kind::kCompare;
    std::uint32_t left = 0;
    std::uint32_t right = 0;
    double threshold = 0.0;     ///< kCompare: c, in seconds
    bool strict_after = false;  ///< kCompare: the first tick on the late side is K + 1, not K
    bool late = false;          ///< kCompare: holds on the late side (t >= c, t > c)
    Tick switch_tick = 0;       ///< kCompare, after resolve(): the first tick on the late side
  };
  [[nodiscard]] bool holds_at(std::uint32_t node, Tick tick) const;

  std::vector<Node> nodes_;     ///< as the compiled predicate's: operands first, the root last
  std::vector<Tick> switches_;  ///< after resolve(): every node's switch tick, ascending
  Tick last_ = 0;               ///< after resolve(): the run's last tick
};

/// What a name stands for, as a bit set: what an expression may read.
enum class SymbolKind : std::uint8_t {
  kParameter = 1,  ///< a model or chart parameter (a constant)
  kTime = 2,       ///< t
  kInput = 4,      ///< an input element
  kState = 8,      ///< a continuous state
  kEvent = 16,     ///< an event variable
};
/// Every kind: what the chart's run-time expressions may read.
inline constexpr std::uint8_t kAnySymbol = 31;

/// A muparser program of a compiled chart: its text and the names it reads.
/// Copyable value type.
struct ChartProgram {
  std::string text;
  std::vector<std::pair<std::string, std::uint32_t>> variables;  ///< name → frame index
  std::vector<std::pair<std::string, double>> constants;         ///< name → value
};

/// Turns chart expressions into terms (at configuration; allocates freely).
/// Not copyable (owns a checking parser); movable.
class ExpressionCompiler {
 public:
  ExpressionCompiler();
  ~ExpressionCompiler();
  ExpressionCompiler(ExpressionCompiler&&) noexcept;
  ExpressionCompiler& operator=(ExpressionCompiler&&) noexcept;
  ExpressionCompiler(const ExpressionCompiler&) = delete;
  ExpressionCompiler& operator=(const ExpressionCompiler&) = delete;

  /// Defines (or redefines: a chart's own names shadow the model's) a constant.
  void define_constant(const std::string& name, double value);
  /// Marks `name` as a model parameter that is not a number (named in messages).
  void define_unusable(const std::string& name, const std::string& why);
  /// Adds a frame variable; returns its index (0, 1, ... in order of definition).
  std::uint32_t define_variable(const std::string& name, SymbolKind kind);
  /// The value of the constant `name` (NaN when it is not a constant).
  [[nodiscard]] double constant_value(const std::string& name) const;
  /// The kind of `name`, or 0 when it is not defined.
  [[nodiscard]] std::uint8_t kind_of(const std::string& name) const;
  /// A readable list of what `allowed` names ("states, inputs, ...").
  [[nodiscard]] static std::string describe_kinds(std::uint8_t allowed);

  /// Compiles `text`, which may read only names whose kind is in `allowed`.
  /// `used` (optional) receives the names it reads.
  /// @throws ModelError "`what`: ..." for bad syntax, an assignment, an
  ///         unknown or unusable name, or a constant that is not finite.
  [[nodiscard]] Term compile(const std::string& text, std::uint8_t allowed, const std::string& what,
                             std::vector<std::string>* used = nullptr);
  /// Compiles a predicate's sides (messages name the side's column).
  /// @throws ModelError as compile().
  [[nodiscard]] CompiledPredicate compile(const Predicate& predicate, std::uint8_t allowed,
                                          const std::string& what, std::vector<std::string>* used = nullptr);

  /// The programs referred to by kProgram terms, by index.
  [[nodiscard]] const std::vector<ChartProgram>& programs() const { return programs_; }
  /// The frame's names, by index.
  [[nodiscard]] const std::vector<std::string>& variables() const { return variable_names_; }

 private:
  struct Checker;
  struct Symbol {
    std::uint8_t kind = 0;
    std::uint32_t index = 0;  ///< frame index (variables)
    double value = 0.0;       ///< constants
    std::string unusable;     ///< why a model parameter cannot be used, or empty
  };
  [[nodiscard]] const Symbol* find(const std::string& name) const;
  Symbol& slot(const std::string& name);

  std::vector<std::pair<std::string, Symbol>> symbols_;
  std::vector<std::string> variable_names_;
  std::vector<ChartProgram> programs_;
  std::unique_ptr<Checker> checker_;
};

/// The run-time side: the frame and the muparser programs bound to it.
/// Not copyable, not movable (the programs point into the frame).
class ChartEvaluator {
 public:
  /// @param frame_size the number of frame variables
  /// @param programs compiled by ExpressionCompiler (checked: cannot fail)
  ChartEvaluator(std::size_t frame_size, const std::vector<ChartProgram>& programs);
  ~ChartEvaluator();
  ChartEvaluator(const ChartEvaluator&) = delete;
  ChartEvaluator& operator=(const ChartEvaluator&) = delete;
  ChartEvaluator(ChartEvaluator&&) = delete;
  ChartEvaluator& operator=(ChartEvaluator&&) = delete;

  /// The frame: write the variables, then evaluate.
  [[nodiscard]] std::span<double> frame() { return frame_; }
  [[nodiscard]] std::span<const double> frame() const { return frame_; }

  /// The value of `term` over the frame. No allocation.
  [[nodiscard]] double value(const Term& term) const;
  /// The guard function of `predicate` over the frame (see the file comment). No allocation.
  [[nodiscard]] double guard(const CompiledPredicate& predicate) const;
  /// Whether `predicate` holds over the frame, with exact comparisons. No allocation.
  [[nodiscard]] bool holds(const CompiledPredicate& predicate) const;

 private:
  [[nodiscard]] double guard_at(const CompiledPredicate& predicate, std::uint32_t node) const;
  [[nodiscard]] bool holds_at(const CompiledPredicate& predicate, std::uint32_t node) const;

  std::vector<double> frame_;
  std::vector<CompiledExpression> programs_;
};

}  // namespace ctde
