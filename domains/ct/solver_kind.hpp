#pragma once
/// The ODE methods of the solver wrapper (the table in domains/ct/ode_solver.hpp),
/// chosen by the director's `solver` option, and the linear solvers of the
/// implicit ones' Newton iterations, chosen by `linear_solver`
/// (docs/model-reference.md).

#include <optional>
#include <string>
#include <string_view>

namespace ctde {

/// kRkf45 is Fehlberg's RK4(5), the method of the second-order facade (second_order.hpp).
/// kBdf is CVODE's variable-order BDF; kAuto starts with Dormand–Prince and
/// switches to BDF when the problem turns stiff, and back (switching_backend.hpp).
enum class SolverKind { kErk45, kErk23, kRk4Fixed, kDirk, kArkImex, kRkf45, kBdf, kAuto };

/// The method's name in model files and traces ("erk45", "rk4-fixed", ...).
[[nodiscard]] const char* to_string(SolverKind solver);
/// The method of a name, or nothing.
[[nodiscard]] std::optional<SolverKind> solver_kind(std::string_view name);
/// Every solver's name, "erk45, erk23, ...", for messages.
[[nodiscard]] std::string solver_names();
/// True for the methods that solve a Newton system (and so use a linear solver).
[[nodiscard]] bool is_implicit(SolverKind solver);

/// The linear solver of the Newton iterations (linear_solver.hpp): chosen
/// from the Jacobian's structure (kAuto), or named.
enum class LinearSolverKind { kAuto, kDense, kBand, kKlu, kGmres };

[[nodiscard]] const char* to_string(LinearSolverKind kind);
[[nodiscard]] std::optional<LinearSolverKind> linear_solver_kind(std::string_view name);
/// Every linear solver's name, "auto, dense, ...", for messages.
[[nodiscard]] std::string linear_solver_names();

}  // namespace ctde
