#!/usr/bin/python3
"""Writes the ctde model files of the stiff benchmark (issue 30) to a folder.

The files are generated, not committed (the large ones are tens of MB). The
models are those of cvode_klu_floor.cpp and scipy_bdf.py, plus a stiff hybrid one:

    heat_network_N.json     the 1-D heat equation x_i' = c (x_{i-1} - 2 x_i + x_{i+1}),
                            c = (N+1)^2, walls at 0, x(0) = 1 for N/4 <= i < 3N/4, as an
                            actor network of 4 N actors: per cell an Integrator x<i>, a
                            Gain twice<i> (2 x_i), a Sum sum<i> ("+-+": x_{i-1} - 2 x_i +
                            x_{i+1}; the wall cells "-+" and "+-") and a Gain c<i> (k = c)
                            into x<i>.in. t in [0, 1], rtol 1e-6, atol 1e-9; records the
                            cells N/4, N/2 and N-1 (at every step: no output_interval).
    heat_statespace_N.json  the same system as one StateSpace ss: A the tridiagonal
                            N x N matrix written out in full (zeros included), B a zero
                            column fed by a Constant 0 (the input is required), C the row
                            selecting cell N/2, `initial` x(0). Records ss.out.
    dense_statespace_N.json a stiff system with a dense Jacobian, as one StateSpace ss:
                            A = D + R, R uniform in [-0.5, 0.5] (seed 1), D diagonal from
                            -(N/2 + 1) to -(N/2 + 1e4) (eigenvalues over four decades), B
                            ones fed by a Constant 1, C a row of ones, x(0) = 1; t in
                            [0, 10], rtol 1e-6, atol 1e-9. Every entry of A is nonzero:
                            `linear_solver` auto factors it dense. Records ss.out.
    robertson.json          Robertson's chemical kinetics as a ModalModel of one mode
                            (states y1, y2, y3; output y = [y1, y2, y3]) to t = 4e10, with a
                            Sampler taking y at t = 0.4 and 4e5 (a DiscreteClock's two time
                            events) for the values against the reference values in
                            cvode_klu_floor.cpp; rtol 1e-8, atol (1e-16, 1e-21, 1e-12) as
                            there; time_resolution 1e-5 s (see below).
    thermal_rooms_N.json    a stiff hybrid thermal network: N rooms in a row, room i a
                            ModalModel room<i> (a thermostat with hysteresis, as
                            examples/models/thermostat.json) holding its temperature T:
                              C_i T' = k_wall (T_{i-1} - 2 T + T_{i+1}) + k_out (T_out - T) + P
                            with P = 0 in mode OFF and P_i in ON; OFF -> ON when T <= T_low,
                            ON -> OFF when T >= T_high. The end rooms have one party wall
                            (T_{-1} = T_0, T_N = T_{N-1}: no party wall to the outside).
                            Inputs Tl, Tr are the neighbours' T. The strong coupling
                            (k_wall / C ~ 0.025 /s against k_out / C ~ 5e-5 /s) spreads the
                            eigenvalues over 3.3 decades (printed in each file's
                            description); C_i, P_i, T_i(0) (inside the band) and the initial
                            modes vary from room to room so the thermostats do not switch in
                            step. A 0.2 K band: at N = 100 about 450 switchings in the day
                            (a scipy BDF simulation of the same equations). The coupling
                            makes the rooms act together: a stronger one, or a wider band,
                            settles into a fixed set of heaters on and few events. One day
                            (86400 s), rtol 1e-6, atol 1e-6 (K), time_resolution 1e-9 s;
                            records rooms 0 and N/2 (T and heating).

time_resolution: a tick no finer than the spacing of doubles at stop_time (ulp(86400 s)
= 1.5e-11 s, ulp(4e10 s) = 7.6e-6 s). At the default 1e-12 s the thermal model's runs end
in a false Zeno error near t = 2e4 s (erk45, dirk and bdf alike): adjacent ticks there
are the same double, a located crossing's state is one ulp short of its guard, and the
search finds it again and again. (4e10 s at 1e-12 s is also past the 2^63-tick horizon.)

Every model's director `solver` is --solver (default "bdf"). Usage:
    /usr/bin/python3 bench/stiff/make_models.py OUT_DIR [--solver bdf]
        [--heat 1000,10000,100000] [--statespace 1000] [--dense 300] [--rooms 100]
        [--no-robertson]
(an empty list, e.g. --statespace "", writes none of that model). Prints each file
written, with its number of actors and states.
"""

import argparse
import json
import math
import os
import random
import sys

import numpy as np
from scipy.linalg import eigh_tridiagonal

GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def spread(i):
    """A number in [0, 1) that differs from room to room without a pattern (i * golden ratio, mod 1)."""
    return (i * GOLDEN) % 1.0


def write_model(path, model):
    """Writes `model` as JSON with one actor, connection or matrix row per line."""
    def dump(value):
        return json.dumps(value, separators=(", ", ": "))

    lines = ["{"]
    items = list(model.items())
    for k, (key, value) in enumerate(items):
        comma = "," if k + 1 < len(items) else ""
        if key in ("actors", "connections") and value:
            lines.append(f'  "{key}": [')
            lines.extend("    " + dump(v) + ("," if j + 1 < len(value) else "") for j, v in enumerate(value))
            lines.append("  ]" + comma)
        else:
            lines.append(f'  "{key}": {dump(value)}{comma}')
    lines.append("}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def heat_initial(n):
    return [1.0 if n <= 4 * i < 3 * n else 0.0 for i in range(n)]  # N/4 <= i < 3N/4


def heat_network(n, solver):
    c = float(n + 1) ** 2
    x0 = heat_initial(n)
    actors = []
    connections = []
    for i in range(n):
        actors.append({"name": f"x{i}", "type": "Integrator", "params": {"initial": x0[i]}})
        actors.append({"name": f"twice{i}", "type": "Gain", "params": {"k": 2}})
        inputs = []  # the Sum's inputs in order, with their signs
        if i > 0:
            inputs.append(("+", f"x{i - 1}.out"))
        inputs.append(("-", f"twice{i}.out"))
        if i + 1 < n:
            inputs.append(("+", f"x{i + 1}.out"))
        signs = "".join(s for s, _ in inputs)
        actors.append({"name": f"sum{i}", "type": "Sum", "params": {"signs": signs}})
        actors.append({"name": f"c{i}", "type": "Gain", "params": {"k": c}})
        connections.append([f"x{i}.out", f"twice{i}.in"])
        connections.extend([source, f"sum{i}.in{k}"] for k, (_, source) in enumerate(inputs))
        connections.append([f"sum{i}.out", f"c{i}.in"])
        connections.append([f"c{i}.out", f"x{i}.in"])
    record = [f"x{i}.out" for i in sorted({n // 4, n // 2, n - 1})]
    return {
        "ctde": 1,
        "name": f"heat_network_{n}",
        "description": (f"1-D heat equation, {n} cells, x_i' = c (x_(i-1) - 2 x_i + x_(i+1)), "
                        f"c = (N+1)^2 = {c:g}, walls at 0, x(0) = 1 on the middle half; per cell an "
                        "Integrator, Sum and two Gains (bench/stiff/make_models.py)."),
        "director": {"stop_time": 1, "rtol": 1e-6, "atol": 1e-9, "solver": solver},
        "actors": actors,
        "connections": connections,
        "record": record,
    }, n


def heat_statespace(n, solver):
    c = float(n + 1) ** 2
    a = [[0] * n for _ in range(n)]
    for i in range(n):
        a[i][i] = -2.0 * c
        if i > 0:
            a[i][i - 1] = c
        if i + 1 < n:
            a[i][i + 1] = c
    row = [0] * n
    row[n // 2] = 1
    return {
        "ctde": 1,
        "name": f"heat_statespace_{n}",
        "description": (f"1-D heat equation, {n} cells (as heat_network_{n}.json) as one StateSpace with the "
                        f"tridiagonal A written out in full; the output is cell {n // 2} "
                        "(bench/stiff/make_models.py)."),
        "director": {"stop_time": 1, "rtol": 1e-6, "atol": 1e-9, "solver": solver},
        "actors": [
            {"name": "zero", "type": "Constant", "params": {"value": 0}},
            {"name": "ss", "type": "StateSpace",
             "params": {"A": a, "B": [[0]] * n, "C": [row], "D": 0, "initial": heat_initial(n)}},
        ],
        "connections": [["zero.out", "ss.in"]],
        "record": ["ss.out"],
    }, n


def dense_statespace(n, solver):
    rng = random.Random(1)
    a = [[rng.uniform(-0.5, 0.5) for _ in range(n)] for _ in range(n)]
    for i in range(n):
        a[i][i] -= n / 2 + 1 + 1e4 * i / n
    return {
        "ctde": 1,
        "name": f"dense_statespace_{n}",
        "description": (f"A stiff linear system of {n} states with a dense Jacobian: A = D + R, R uniform in "
                        "[-0.5, 0.5], D diagonal over four decades (bench/stiff/make_models.py)."),
        "director": {"stop_time": 10, "rtol": 1e-6, "atol": 1e-9, "solver": solver},
        "actors": [
            {"name": "one", "type": "Constant", "params": {"value": 1}},
            {"name": "ss", "type": "StateSpace",
             "params": {"A": a, "B": [[1]] * n, "C": [[1] * n], "D": 0, "initial": [1.0] * n}},
        ],
        "connections": [["one.out", "ss.in"]],
        "record": ["ss.out"],
    }, n


def robertson(solver):
    return {
        "ctde": 1,
        "name": "robertson",
        "description": ("Robertson's chemical kinetics (3 species, stiff), y(0) = (1, 0, 0), to t = 4e10; "
                        "the sampler takes y at 0.4 and 4e5. Reference values: "
                        "bench/stiff/cvode_klu_floor.cpp (bench/stiff/make_models.py)."),
        "director": {"stop_time": 4e10, "time_resolution": 1e-5, "rtol": 1e-8, "atol": [1e-16, 1e-21, 1e-12],
                     "solver": solver},
        "actors": [
            {"name": "rober", "type": "ModalModel", "params": {
                "outputs": {"y": ["y1", "y2", "y3"]},
                "states": {"y1": 1, "y2": 0, "y3": 0},
                "modes": {"REACT": {"der": {
                    "y1": "-0.04 * y1 + 1e4 * y2 * y3",
                    "y2": "0.04 * y1 - 1e4 * y2 * y3 - 3e7 * y2 * y2",
                    "y3": "3e7 * y2 * y2",
                }}},
                "initial": "REACT",
            }},
            {"name": "marks", "type": "DiscreteClock",
             "params": {"period": "inf", "offsets": [0.4, 4e5], "values": [1, 2]}},
            {"name": "sample", "type": "Sampler"},
        ],
        "connections": [["rober.y", "sample.in"], ["marks.out", "sample.trigger"]],
        "record": ["rober.y", "sample.out"],
    }, 3


THERMAL = {  # SI units: J/K, W/K, W, degrees C, s
    "C": 2e6, "k_wall": 5e4, "k_out": 100.0, "P_heat": 4000.0,
    "T_out": 5.0, "T_low": 19.9, "T_high": 20.1,
}


def thermal_eigenvalue_decades(capacities):
    """log10 of |largest| / |smallest| eigenvalue of the rooms' linear dynamics (heaters off)."""
    n = len(capacities)
    k_wall, k_out = THERMAL["k_wall"], THERMAL["k_out"]
    walls = np.full(n, 2.0 * k_wall)
    walls[0] = walls[-1] = k_wall  # the end rooms have one party wall
    if n == 1:
        walls[0] = 0.0
    # C^-1 K is similar to the symmetric C^-1/2 K C^-1/2
    scale = 1.0 / np.sqrt(np.array(capacities))
    diagonal = (walls + k_out) * scale * scale
    off = -k_wall * scale[:-1] * scale[1:]
    values = eigh_tridiagonal(diagonal, off, eigvals_only=True)
    return math.log10(values.max() / values.min())


def thermal_rooms(n, solver):
    p = THERMAL
    actors = []
    connections = []
    capacities = []
    for i in range(n):
        s = spread(i)
        capacity = p["C"] * (0.75 + 0.5 * s)
        power = p["P_heat"] * (0.75 + 0.5 * spread(i + 7))
        capacities.append(capacity)
        walls = []
        inputs = {}
        if i > 0:
            inputs["Tl"] = 1
            walls.append("Tl - T")
            connections.append([f"room{i - 1}.T", f"room{i}.Tl"])
        if i + 1 < n:
            inputs["Tr"] = 1
            walls.append("Tr - T")
            connections.append([f"room{i + 1}.T", f"room{i}.Tr"])
        wall_flow = f"k_wall * ({' + '.join(walls)}) + " if walls else ""
        loss = f"{wall_flow}k_out * (T_out - T)"
        params = {}
        if inputs:
            params["inputs"] = inputs
        params.update({
            "outputs": {"T": "T"},
            "parameters": {"C": capacity, "P": power},
            "states": {"T": p["T_low"] + (p["T_high"] - p["T_low"]) * (0.1 + 0.8 * s)},  # inside the band
            "modes": {
                "OFF": {"der": {"T": f"({loss}) / C"}, "outputs": {"heating": 0}},
                "ON": {"der": {"T": f"({loss} + P) / C"}, "outputs": {"heating": 1}},
            },
            "initial": "ON" if spread(i + 3) < 0.5 else "OFF",
            "transitions": [
                {"path": ["OFF", "ON"], "guard": "T <= T_low"},
                {"path": ["ON", "OFF"], "guard": "T >= T_high"},
            ],
        })
        actors.append({"name": f"room{i}", "type": "ModalModel", "params": params})
    decades = thermal_eigenvalue_decades(capacities)
    record = []
    for i in sorted({0, n // 2}):
        record += [f"room{i}.T", f"room{i}.heating"]
    return {
        "ctde": 1,
        "name": f"thermal_rooms_{n}",
        "description": (f"{n} rooms in a row, each a thermostat chart (ModalModel) holding its temperature: "
                        "C_i T' = k_wall (T_(i-1) - 2 T + T_(i+1)) + k_out (T_out - T) + P, P = P_i when ON; "
                        "OFF -> ON at T <= T_low, ON -> OFF at T >= T_high; end rooms have one party wall. "
                        f"Eigenvalues (heaters off) spread over {decades:.1f} decades "
                        "(bench/stiff/make_models.py)."),
        "parameters": {k: v for k, v in p.items() if k not in ("C", "P_heat")},
        "director": {"stop_time": 86400, "time_resolution": 1e-9, "rtol": 1e-6, "atol": 1e-6,
                     "solver": solver},
        "actors": actors,
        "connections": connections,
        "record": record,
    }, n


def sizes(text):
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}")
    if any(v < 2 for v in values):
        raise argparse.ArgumentTypeError(f"sizes must be at least 2: {text!r}")
    return values


def main():
    parser = argparse.ArgumentParser(description="Writes the stiff benchmark's ctde model files.")
    parser.add_argument("out_dir")
    parser.add_argument("--solver", default="bdf", help='the director\'s solver (default "bdf")')
    parser.add_argument("--heat", type=sizes, default=[1000, 10000, 100000], help="heat_network sizes")
    parser.add_argument("--statespace", type=sizes, default=[1000], help="heat_statespace sizes")
    parser.add_argument("--dense", type=sizes, default=[300], help="dense_statespace sizes")
    parser.add_argument("--rooms", type=sizes, default=[100], help="thermal_rooms sizes")
    parser.add_argument("--no-robertson", action="store_true")
    args = parser.parse_args()
    if any(n > 5000 for n in args.statespace + args.dense):
        sys.exit("error: a StateSpace of more than 5000 states is written out as a dense matrix: too large")
    os.makedirs(args.out_dir, exist_ok=True)

    jobs = [(f"heat_network_{n}.json", heat_network, n) for n in args.heat]
    jobs += [(f"heat_statespace_{n}.json", heat_statespace, n) for n in args.statespace]
    jobs += [(f"dense_statespace_{n}.json", dense_statespace, n) for n in args.dense]
    if not args.no_robertson:
        jobs.append(("robertson.json", robertson, None))
    jobs += [(f"thermal_rooms_{n}.json", thermal_rooms, n) for n in args.rooms]
    for name, make, n in jobs:
        model, states = make(args.solver) if n is None else make(n, args.solver)
        path = os.path.join(args.out_dir, name)
        write_model(path, model)
        print(f"{path}: {len(model['actors'])} actors, {states} states, "
              f"{os.path.getsize(path) / 1e6:.1f} MB", flush=True)


if __name__ == "__main__":
    main()
