#pragma once
// Helpers for the tests of the ODE solver wrapper (tests/ct/).

#include "domains/ct/ode_solver.hpp"

namespace ctde::test {

/// Steps `solver` until it reaches t_limit or fails; returns the last result.
inline StepResult advance(OdeSolver& solver, double t_limit) {
  StepResult result;
  do {
    result = solver.step(t_limit);
  } while (result.status == StepStatus::kOk);
  return result;
}

}  // namespace ctde::test
