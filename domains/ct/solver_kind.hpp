#pragma once
/// The ODE methods of the solver wrapper (the table in domains/ct/ode_solver.hpp),
/// chosen by the director's `solver` option (docs/model-reference.md).

namespace ctde {

/// kRkf45 is Fehlberg's RK4(5), the method of the second-order facade (second_order.hpp).
enum class SolverKind { kErk45, kErk23, kRk4Fixed, kDirk, kArkImex, kRkf45 };

/// The method's name in model files and traces ("erk45", "rk4-fixed", ...).
[[nodiscard]] const char* to_string(SolverKind solver);

}  // namespace ctde
