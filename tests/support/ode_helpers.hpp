#pragma once
// Helpers for the tests of the ODE solver wrapper (tests/ct/): stepping to a
// time, and the right-hand sides both integrators' tests run (closed forms in
// the comments).

#include <stdexcept>

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

/// x' = -x: x(t) = x0 e^{-t}.
inline int decay(double /*t*/, const double* x, double* dxdt, void* /*user*/) {
  dxdt[0] = -x[0];
  return 0;
}

/// x' = -x, defined for x >= 0 only (a recoverable failure, 1, below): the
/// solution from x = 1 never leaves the domain, the stages of long steps do.
inline int decay_positive(double /*t*/, const double* x, double* dxdt, void* /*user*/) {
  if (x[0] < 0) return 1;
  dxdt[0] = -x[0];
  return 0;
}

/// (x, v)' = (v, -x): from (1, 0), x = cos t and v = -sin t; the energy
/// (x² + v²) / 2 is constant, the period 2π.
inline int oscillator(double /*t*/, const double* x, double* dxdt, void* /*user*/) {
  dxdt[0] = x[1];
  dxdt[1] = -x[0];
  return 0;
}

/// The user data of failing(): the time after which it fails, and its code.
struct FailAfter {
  double t_fail;
  int code;
};

/// x' = 1 - x until t passes FailAfter::t_fail (through the user pointer),
/// then FailAfter::code.
inline int failing(double t, const double* x, double* dxdt, void* user) {
  const auto* failure = static_cast<const FailAfter*>(user);
  if (t > failure->t_fail) return failure->code;
  dxdt[0] = 1.0 - x[0];
  return 0;
}

/// x' = -x, throwing an actor's error once t passes 0.5.
inline int throwing(double t, const double* x, double* dxdt, void* /*user*/) {
  if (t > 0.5) throw std::runtime_error("derivative of actor plant.spring is NaN");
  dxdt[0] = -x[0];
  return 0;
}

}  // namespace ctde::test
