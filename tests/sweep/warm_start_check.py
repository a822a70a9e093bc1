"""Checks a warm-started sweep file against runs resumed one by one.

Usage: warm_start_check.py CTDE MODEL STOP_TIME SNAPSHOT SWEEP.h5

SNAPSHOT was taken at T by `ctde run MODEL --stop-time STOP_TIME
--snapshot-at T --snapshot SNAPSHOT` (the model with its own values). For
every run of SWEEP.h5 this resumes `ctde run MODEL --resume SNAPSHOT
--stop-time STOP_TIME --set NAME=VALUE...` with the run's swept values
(read from its attributes) and checks that the run's attribute
`warm_start_until` is T, that its rows (all after T) are the resumed run's
rows, bit for bit, and that its status, message, end time and counters are
the resumed run's. Exit 0 with "same", else 1 with the first difference.
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

COUNTERS = ("steps", "rejected_steps", "rhs_evals", "events", "time_events", "state_events", "loop_solves",
            "loop_iterations", "end_time",
            "status", "message")
OWN = set(COUNTERS) | {"wall_time", "warm_start_until"}


def rows(group):
    """Every dataset of `group` (a run)."""
    return {name: group[name][()] for name in group}


def same_rows(a, b):
    if sorted(a) != sorted(b):
        return f"datasets {sorted(a)} != {sorted(b)}"
    for name in a:
        x, y = np.asarray(a[name]), np.asarray(b[name])
        if x.shape != y.shape:
            return f"{name}: {x.shape[0] if x.ndim else 0} rows != {y.shape[0] if y.ndim else 0}"
        # bit for bit: the same bytes (NaN where a discrete signal is absent included)
        if x.tobytes() != y.tobytes():
            return f"{name} differs"
    return None


def check(ctde, model, stop_time, snapshot, sweep_path):
    with h5py.File(sweep_path, "r") as sweep:
        for k in sorted(sweep["runs"], key=int):
            run = sweep["runs"][k]
            if "warm_start_until" not in run.attrs:
                return f"run {k}: no attribute warm_start_until"
            until = float(run.attrs["warm_start_until"])
            swept = [(name, float(run.attrs[name])) for name in run.attrs if name not in OWN]
            with tempfile.TemporaryDirectory() as folder:
                alone_path = os.path.join(folder, "alone.h5")
                command = [ctde, "run", model, "--resume", snapshot, "--stop-time", stop_time, "-o", alone_path,
                           "--quiet"]
                for name, value in swept:
                    command += ["--set", f"{name}={value!r}"]
                done = subprocess.run(command, capture_output=True, text=True, check=False)
                if done.returncode not in (0, 3):
                    return f"run {k}: {' '.join(command)} exited {done.returncode}: {done.stderr}"
                with h5py.File(alone_path, "r") as alone_file:
                    alone = alone_file["/"]
                    if not np.all(run["time"][()] > until):
                        return f"run {k}: rows at or before T = {until}"
                    difference = same_rows(rows(run), rows(alone))
                    if difference:
                        return f"run {k}: {difference}"
                    for name in COUNTERS:
                        if run.attrs[name] != alone.attrs[name]:
                            return f"run {k}: {name} {run.attrs[name]!r} != {alone.attrs[name]!r} resumed alone"
    return None


def main():
    difference = check(*sys.argv[1:6])
    if difference:
        print(difference)
        return 1
    print("same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
