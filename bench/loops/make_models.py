#!/usr/bin/env python3
"""The algebraic-loop benchmark's models (run_loop_bench.sh): N copies of a
mass-spring-damper under PI control whose actuator is a loop y = u - 0.5 y
(a Sum and a Gain in a ring), and the same model with the loop removed by
hand (the actuator a Gain 1 / 1.5).
Usage: make_models.py [--stop-time SECONDS] DIR N...   (stop time 200 s by default)"""
import json
import sys


def plant(i, looped):
    p = f"c{i}_"
    actors = [
        {"name": p + "r", "type": "Sine", "params": {"frequency": 0.3 + 0.001 * i}},
        {"name": p + "e", "type": "Sum", "params": {"signs": "+-"}},
        {"name": p + "pi", "type": "PID", "params": {"kp": 2, "ki": 1}},
        {"name": p + "f", "type": "Sum", "params": {"signs": "+--"}},
        {"name": p + "c", "type": "Gain", "params": {"k": 0.4}},
        {"name": p + "k", "type": "Gain", "params": {"k": 4}},
        {"name": p + "v", "type": "Integrator"},
        {"name": p + "x", "type": "Integrator"},
    ]
    wires = [[p + "r.out", p + "e.in0"], [p + "x.out", p + "e.in1"], [p + "e.out", p + "pi.in"],
             [p + "c.out", p + "f.in1"], [p + "k.out", p + "f.in2"], [p + "v.out", p + "c.in"],
             [p + "x.out", p + "k.in"], [p + "f.out", p + "v.in"], [p + "v.out", p + "x.in"],
             [p + "act.out", p + "f.in0"]]
    if looped:
        actors += [{"name": p + "act", "type": "Sum", "params": {"signs": "+-"}},
                   {"name": p + "fb", "type": "Gain", "params": {"k": 0.5}}]
        wires += [[p + "pi.out", p + "act.in0"], [p + "act.out", p + "fb.in"], [p + "fb.out", p + "act.in1"]]
    else:
        actors += [{"name": p + "act", "type": "Gain", "params": {"k": 1 / 1.5}}]
        wires += [[p + "pi.out", p + "act.in"]]
    return actors, wires


def write(folder, n, looped, stop_time):
    actors, wires = [], []
    for i in range(n):
        a, w = plant(i, looped)
        actors += a
        wires += w
    name = f"msd_{'loop' if looped else 'by_hand'}_{n}"
    model = {"ctde": 1, "name": name,
             "director": {"stop_time": stop_time, "rtol": 1e-8},
             "actors": actors, "connections": wires, "record": ["c0_x.out"]}
    with open(f"{folder}/{name}.json", "w") as f:
        json.dump(model, f)


args = sys.argv[1:]
stop = 200.0
if args[:1] == ["--stop-time"]:
    stop = float(args[1])
    args = args[2:]
for n in (int(a) for a in args[1:]):
    write(args[0], n, True, stop)
    write(args[0], n, False, stop)
