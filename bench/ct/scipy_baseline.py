#!/usr/bin/python3
"""SciPy baseline for the CT phase: the two models of handwritten_arkode.cpp.

    statespace  x' = A x + B u, n = 8: chain wall-m1-m2-m3-m4, unit masses, springs
                k = 1 and dampers c = 0.1 between neighbours, u = 1 pushing m4.
    chain1000   1000 unit masses between two walls, springs k = 1 and dampers
                c = 0.1 between neighbours, mass 1 driven by the force sin(t).

scipy.integrate.solve_ivp, method 'RK45' (Dormand-Prince 5(4), like erk45),
rtol 1e-6, atol 1e-9, t in [0, 100], x(0) = 0, no dense output, no t_eval.
Prints the same keys as handwritten_arkode, one line per model:
    model=... n=... wall_s=... steps=... rhs_evals=... checksum=... repeats=...
wall_s is the best of `repeats` runs; checksum is the sum of the final state
(compare with ref_checksum printed by handwritten_arkode).

Run with Debian's python3-scipy:  /usr/bin/python3 bench/ct/scipy_baseline.py [model] [repeats]
"""

import sys
import time

import numpy as np
import scipy
from scipy.integrate import solve_ivp

T_END = 100.0
RTOL = 1e-6
ATOL = 1e-9
SPRING = 1.0
DAMPER = 0.1


def statespace_model():
    masses = 4
    n = 2 * masses
    a = np.zeros((n, n))
    for i in range(masses):
        v = masses + i
        a[i, v] = 1.0  # p_i' = v_i
        links = 2 if i + 1 < masses else 1  # the left link is to a neighbour or the wall
        a[v, i] = -SPRING * links
        a[v, v] = -DAMPER * links
        if i > 0:
            a[v, i - 1] = SPRING
            a[v, v - 1] = DAMPER
        if i + 1 < masses:
            a[v, i + 1] = SPRING
            a[v, v + 1] = DAMPER
    b = np.zeros(n)
    b[n - 1] = 1.0
    u = 1.0
    bu = b * u

    def rhs(_t, x):
        return a @ x + bu

    return n, rhs


def chain_model(masses=1000):
    n = 2 * masses

    def rhs(t, x):
        p = x[:masses]
        v = x[masses:]
        # walls at both ends: neighbours of the end masses are fixed at 0
        p_pad = np.concatenate(([0.0], p, [0.0]))
        v_pad = np.concatenate(([0.0], v, [0.0]))
        dv = SPRING * (p_pad[:-2] - 2.0 * p + p_pad[2:]) + DAMPER * (v_pad[:-2] - 2.0 * v + v_pad[2:])
        dv[0] += np.sin(t)
        return np.concatenate((v, dv))

    return n, rhs


def bench(name, model, repeats):
    n, rhs = model()
    best = None
    for _ in range(repeats):
        start = time.perf_counter()
        sol = solve_ivp(rhs, (0.0, T_END), np.zeros(n), method="RK45", rtol=RTOL, atol=ATOL)
        wall = time.perf_counter() - start
        if not sol.success:
            sys.exit(f"error: {name}: {sol.message}")
        if best is None or wall < best[0]:
            best = (wall, sol)
    wall, sol = best
    steps = len(sol.t) - 1  # accepted steps
    print(f"model={name} n={n} wall_s={wall:.6f} steps={steps} rhs_evals={sol.nfev} "
          f"checksum={np.sum(sol.y[:, -1]):.12g} repeats={repeats} scipy={scipy.__version__}",
          flush=True)


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if which not in ("all", "statespace", "chain1000"):
        sys.exit(f"usage: {sys.argv[0]} [statespace|chain1000|all] [repeats]")
    if which in ("all", "statespace"):
        bench("statespace", statespace_model, repeats or 5)
    if which in ("all", "chain1000"):
        bench("chain1000", chain_model, repeats or 3)


if __name__ == "__main__":
    main()
