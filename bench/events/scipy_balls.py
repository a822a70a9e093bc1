#!/usr/bin/python3
"""SciPy baseline for the state-event benchmark (issue 5): the balls of
handwritten_ball.cpp and ball_bench.cpp.

    ball1     one ball, h(0) = 10 m, v(0) = 0, g = 9.81 m/s^2, e = 1, until just
              after impact 1000 (stop at 2000 t1, the apex after it); ball1@N:
              until just after impact N
    balls100  100 independent balls in one ODE system, h_i(0) = 1 + 0.0999 i m,
              t in [0, 20] s (1035 impacts; see handwritten_ball.cpp for the heights)

scipy.integrate.solve_ivp, method 'RK45' (Dormand-Prince 5(4), like erk45), one
terminal event function per ball, g_i = h_i, direction -1 (falling). After each
impact: v_i <- -e v_i at the event state (sol.y_events), solve_ivp again from the
event time. The state at the event is left as it is (as ctde does); h_i(te) is
within a few ulps of 0 there (scipy locates events with brentq to 4 eps).
y = (h_0..h_{n-1}, v_0..v_{n-1}), numpy RHS, no dense output, no t_eval.

Prints the same keys as handwritten_ball, one line per model and tolerance pair:
    model=... n=... rtol=... atol=... wall_s=... impacts=... expected=...
    max_abs_err=... max_rel_err=... worst_ball=... worst_impact=... steps=...
    rhs_evals=... restarts=... repeats=...
wall_s is the best of `repeats` runs; the errors compare the k-th impact of ball i
with t_ik = (2k - 1) sqrt(2 h_i(0) / g); steps are accepted steps.

Run with Debian's python3-scipy:
    /usr/bin/python3 bench/events/scipy_balls.py [ball1|ball1@N|balls100|all] [repeats] [rtol atol]
(no tolerances: rtol 1e-10 atol 1e-12, then rtol 1e-6 atol 1e-9)
"""

import math
import sys
import time

import numpy as np
import scipy
from scipy.integrate import solve_ivp

GRAVITY = 9.81
RESTITUTION = 1.0


def ball1(impacts=1000):
    """One ball until the apex after impact `impacts`, at 2 impacts t1."""
    h0 = 10.0
    name = "ball1" if impacts == 1000 else f"ball1@{impacts}"
    return name, [h0], 2.0 * impacts * math.sqrt(2.0 * h0 / GRAVITY)


def ball1_impacts(which):
    """1000 for "ball1" and "all", N for "ball1@N", 0 otherwise."""
    if which in ("ball1", "all"):
        return 1000
    if which.startswith("ball1@") and which[6:].isdigit():
        return max(1, int(which[6:]))
    return 0


def balls100():
    return "balls100", [1.0 + 0.0999 * i for i in range(100)], 20.0


def impact_time(h0, k):
    """Impact k (from 1) of a ball dropped from rest at h0, e = 1."""
    return (2 * k - 1) * math.sqrt(2.0 * h0 / GRAVITY)


def expected_impacts(heights, stop_time):
    total = 0
    for h0 in heights:
        k = 1
        while impact_time(h0, k) < stop_time:
            total += 1
            k += 1
    return total


def make_events(n):
    def event(i):
        def g(_t, y):
            return y[i]

        g.terminal = True
        g.direction = -1
        return g

    return [event(i) for i in range(n)]


def simulate(heights, stop_time, rtol, atol):
    n = len(heights)
    acceleration = np.full(n, -GRAVITY)

    def rhs(_t, y):
        return np.concatenate((y[n:], acceleration))

    events = make_events(n)
    y = np.concatenate((np.array(heights, dtype=float), np.zeros(n)))
    t = 0.0
    impacts = []  # (ball, t)
    steps = 0
    rhs_evals = 0
    restarts = 0
    while t < stop_time:
        sol = solve_ivp(rhs, (t, stop_time), y, method="RK45", rtol=rtol, atol=atol, events=events)
        if sol.status < 0:
            sys.exit(f"error: {sol.message}")
        steps += len(sol.t) - 1
        rhs_evals += sol.nfev
        if sol.status == 0:  # reached the stop time
            break
        # a terminal event: the earliest one ends the integration (others in the
        # same step after it are not reported; they are found again after the restart)
        hit = [i for i in range(n) if sol.t_events[i].size > 0]
        te = min(sol.t_events[i][-1] for i in hit)
        hit = [i for i in hit if sol.t_events[i][-1] == te]
        y = np.array(sol.y_events[hit[0]][-1], dtype=float)
        for i in hit:
            impacts.append((i, te))
            y[n + i] = -RESTITUTION * y[n + i]
        t = te
        restarts += 1
    return impacts, steps, rhs_evals, restarts


def impact_errors(heights, impacts):
    count = [0] * len(heights)
    worst = (0.0, 0.0, -1, 0)  # abs, rel, ball, impact
    max_rel = 0.0
    for ball, t in impacts:
        count[ball] += 1
        exact = impact_time(heights[ball], count[ball])
        error = abs(t - exact)
        if error > worst[0]:
            worst = (error, error / exact, ball, count[ball])
        max_rel = max(max_rel, error / exact)
    return worst[0], max_rel, worst[2], worst[3]


def bench(model, rtol, atol, repeats):
    name, heights, stop_time = model
    best = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = simulate(heights, stop_time, rtol, atol)
        wall = time.perf_counter() - start
        if best is None or wall < best[0]:
            best = (wall, result)
    wall, (impacts, steps, rhs_evals, restarts) = best
    max_abs, max_rel, worst_ball, worst_impact = impact_errors(heights, impacts)
    print(f"model={name} n={len(heights)} rtol={rtol:g} atol={atol:g} wall_s={wall:.6f} "
          f"impacts={len(impacts)} expected={expected_impacts(heights, stop_time)} "
          f"max_abs_err={max_abs:.3e} max_rel_err={max_rel:.3e} worst_ball={worst_ball} "
          f"worst_impact={worst_impact} steps={steps} rhs_evals={rhs_evals} restarts={restarts} "
          f"repeats={repeats} scipy={scipy.__version__}", flush=True)


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    if (which not in ("all", "balls100") and ball1_impacts(which) == 0) or len(sys.argv) == 4 or len(sys.argv) > 5:
        sys.exit(f"usage: {sys.argv[0]} [ball1|ball1@N|balls100|all] [repeats] [rtol atol]")
    tolerances = [(1e-10, 1e-12), (1e-6, 1e-9)]
    if len(sys.argv) == 5:
        tolerances = [(float(sys.argv[3]), float(sys.argv[4]))]
    for rtol, atol in tolerances:
        if ball1_impacts(which) > 0:
            bench(ball1(ball1_impacts(which)), rtol, atol, repeats)
        if which in ("all", "balls100"):
            bench(balls100(), rtol, atol, repeats)


if __name__ == "__main__":
    main()
