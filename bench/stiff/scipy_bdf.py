#!/usr/bin/python3
"""SciPy baseline for the stiff benchmark (issue 30): the models of cvode_klu_floor.cpp.

    heat N      x_i' = c (x_{i-1} - 2 x_i + x_{i+1}), i = 0..N-1, c = (N+1)^2, walls
                at 0; x(0) = 1 for N/4 <= i < 3N/4, else 0; t in [0, 1], rtol 1e-6,
                atol 1e-9. The exact Jacobian given as a scipy.sparse matrix (CSC,
                tridiagonal), or with --dense as a dense numpy array.
    robertson   Robertson's chemical kinetics, y(0) = (1, 0, 0), values at t = 0.4,
                4e5 and 4e10 (t_eval); rtol 1e-8, atol (1e-16, 1e-21, 1e-12) and the
                reference values as cvode_klu_floor.cpp (which says why); the analytic
                Jacobian.

scipy.integrate.solve_ivp, method 'BDF' (variable order 1-5, as CVODE's), no dense
output. Prints the keys of cvode_klu_floor, one line per run:
    model=... n=... wall_s=... steps=... rhs_evals=... jac_evals=... lin_setups=...
    checksum=... repeats=...
robertson adds y_T=y1,y2,y3 and relerr_T=e1,e2,e3 per output time T, and max_relerr.
wall_s is the best of `repeats` runs; checksum is the sum of the final state;
lin_setups is scipy's count of LU decompositions. Robertson's steps come from one
more, untimed, run with dense_output (t_eval hides them; the steps are the same).

Run with Debian's python3-scipy:
    /usr/bin/python3 bench/stiff/scipy_bdf.py heat N [repeats] [--dense]
    /usr/bin/python3 bench/stiff/scipy_bdf.py robertson [repeats]
"""

import sys
import time

import numpy as np
import scipy
import scipy.sparse
from scipy.integrate import solve_ivp

HEAT_RTOL = 1e-6
HEAT_ATOL = 1e-9
DENSE_MAX_N = 20000  # a dense Jacobian of 20000 states is 3.2 GB

ROBERTSON_TIMES = (0.4, 4e5, 4e10)
ROBERTSON_TIME_NAMES = ("0.4", "4e5", "4e10")
ROBERTSON_RTOL = 1e-8
ROBERTSON_ATOL = (1e-16, 1e-21, 1e-12)
# cvode_klu_floor.cpp's kRobertsonReference (how they were computed is said there).
ROBERTSON_REFERENCE = (
    (9.8517211386099057e-01, 3.3863953789749069e-05, 1.4794022185220397e-02),
    (4.9382745209800589e-03, 1.9849940879544517e-08, 9.9506170562909002e-01),
    (5.2083451767988950e-08, 2.0833381779253179e-13, 9.9999994791635582e-01),
)


def heat_model(n, dense):
    c = float(n + 1) ** 2

    def rhs(_t, x):
        d = -2.0 * x
        d[1:] += x[:-1]
        d[:-1] += x[1:]
        d *= c
        return d

    jac = scipy.sparse.diags([np.full(n - 1, c), np.full(n, -2.0 * c), np.full(n - 1, c)],
                             [-1, 0, 1], format="csc")
    if dense:
        jac = jac.toarray()
    x0 = np.zeros(n)
    x0[(n + 3) // 4:(3 * n + 3) // 4] = 1.0  # i with N/4 <= i < 3N/4 (real division)
    return rhs, jac, x0


def robertson_rhs(_t, y):
    decay = 0.04 * y[0]
    back = 1e4 * y[1] * y[2]
    fast = 3e7 * y[1] * y[1]
    return np.array([-decay + back, decay - back - fast, fast])


def robertson_jac(_t, y):
    return np.array([
        [-0.04, 1e4 * y[2], 1e4 * y[1]],
        [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
        [0.0, 6e7 * y[1], 0.0],
    ])


def best_run(repeats, solve):
    best = None
    for _ in range(repeats):
        start = time.perf_counter()
        sol = solve()
        wall = time.perf_counter() - start
        if not sol.success:
            sys.exit(f"error: {sol.message}")
        if best is None or wall < best[0]:
            best = (wall, sol)
    return best


def counts(name, n, wall, steps, sol, checksum):
    return (f"model={name} n={n} wall_s={wall:.6f} steps={steps} rhs_evals={sol.nfev} "
            f"jac_evals={sol.njev} lin_setups={sol.nlu} checksum={checksum:.12g}")


def bench_heat(n, repeats, dense):
    rhs, jac, x0 = heat_model(n, dense)
    wall, sol = best_run(repeats, lambda: solve_ivp(rhs, (0.0, 1.0), x0, method="BDF", jac=jac,
                                                    rtol=HEAT_RTOL, atol=HEAT_ATOL))
    jacobian = "dense" if dense else "sparse"
    print(counts("heat", n, wall, len(sol.t) - 1, sol, np.sum(sol.y[:, -1])) +
          f" jacobian={jacobian} repeats={repeats} scipy={scipy.__version__}", flush=True)


def bench_robertson(repeats):
    def solve(**extra):
        return solve_ivp(robertson_rhs, (0.0, ROBERTSON_TIMES[-1]), [1.0, 0.0, 0.0], method="BDF",
                         jac=robertson_jac, rtol=ROBERTSON_RTOL, atol=ROBERTSON_ATOL, **extra)

    wall, sol = best_run(repeats, lambda: solve(t_eval=ROBERTSON_TIMES))
    steps = len(solve(dense_output=True).sol.ts) - 1
    line = counts("robertson", 3, wall, steps, sol, np.sum(sol.y[:, -1]))
    max_error = 0.0
    for k, name in enumerate(ROBERTSON_TIME_NAMES):
        y = sol.y[:, k]
        ref = np.array(ROBERTSON_REFERENCE[k])
        error = np.abs(y - ref) / np.abs(ref)
        max_error = max(max_error, float(np.max(error)))
        line += (f" y_{name}={y[0]:.17g},{y[1]:.17g},{y[2]:.17g}"
                 f" relerr_{name}={error[0]:.2e},{error[1]:.2e},{error[2]:.2e}")
    atol = ",".join(f"{a:g}" for a in ROBERTSON_ATOL)
    print(line + f" max_relerr={max_error:.2e} rtol={ROBERTSON_RTOL:g} atol={atol} "
          f"repeats={repeats} scipy={scipy.__version__}", flush=True)


def usage():
    sys.exit(f"usage: {sys.argv[0]} heat N [repeats] [--dense] | {sys.argv[0]} robertson [repeats]")


def main():
    args = [a for a in sys.argv[1:] if a != "--dense"]
    dense = len(args) < len(sys.argv) - 1
    try:
        if len(args) in (2, 3) and args[0] == "heat":
            n = int(args[1])
            repeats = int(args[2]) if len(args) == 3 else 3
            if n < 2 or repeats < 1 or (dense and n > DENSE_MAX_N):
                usage()
            bench_heat(n, repeats, dense)
        elif len(args) in (1, 2) and args[0] == "robertson" and not dense:
            repeats = int(args[1]) if len(args) == 2 else 5
            if repeats < 1:
                usage()
            bench_robertson(repeats)
        else:
            usage()
    except ValueError:
        usage()


if __name__ == "__main__":
    main()
