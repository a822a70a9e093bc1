#include "domains/ct/solver_kind.hpp"

namespace ctde {

const char* to_string(SolverKind solver) {
  switch (solver) {
    case SolverKind::kErk45:
      return "erk45";
    case SolverKind::kErk23:
      return "erk23";
    case SolverKind::kRk4Fixed:
      return "rk4-fixed";
    case SolverKind::kDirk:
      return "dirk";
    case SolverKind::kArkImex:
      return "ark-imex";
    case SolverKind::kRkf45:
      return "rkf45";
  }
  return "?";
}

}  // namespace ctde
