"""Runs driven in pieces and snapshots (docs/python.md, "Snapshots"): a run
resumed from a snapshot — here, after pickling, in another process, from a
file the command reads — continues the run that took it exactly."""

import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import ctde
from conftest import MODELS

TANK = MODELS / "tank_queue.json"


def after(results, t):
    """The rows of `results` after time t: time, microstep and every column."""
    keep = results.time > t
    return [results.time[keep], results.microstep[keep]] + [results[name][keep] for name in results.columns]


def same(a, b):
    return len(a) == len(b) and all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a, b))


def trace_after(results, t):
    return [line for line in results.trace
            if line["kind"] == "run_end" or line.get("t", line.get("t0", -1.0)) > t]


def test_a_resumed_run_continues_the_run_that_took_the_snapshot():
    sim = ctde.load(TANK).start(trace=True)
    assert sim.time == 0.0
    assert sim.advance_to(12.5)
    assert sim.time == 12.5
    snap = sim.snapshot()
    assert snap.time == 12.5
    whole = sim.run()
    rest = ctde.resume(snap, trace=True).run()
    assert whole.status == rest.status == "ok"
    assert same(after(whole, 12.5), after(rest, 0.0))
    assert rest.time.min() > 12.5
    assert trace_after(rest, 12.5) == trace_after(whole, 12.5)
    assert rest.stats == whole.stats


def test_a_pickled_snapshot_resumes_alike_in_another_process(tmp_path):
    sim = ctde.load(TANK).start()
    sim.advance_to(20)
    snap = pickle.loads(pickle.dumps(sim.snapshot()))
    whole = sim.run()
    here = ctde.resume(snap).run()
    assert same(after(here, 0.0), after(whole, 20.0))
    (tmp_path / "snap.pickle").write_bytes(pickle.dumps(snap))
    script = (
        "import pickle, sys, numpy as np, ctde\n"
        "snap = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "r = ctde.resume(snap).run()\n"
        "np.save(sys.argv[2], np.vstack([r.time] + [r[c] for c in r.columns]))\n")
    out = tmp_path / "rest.npy"
    subprocess.run([sys.executable, "-c", script, str(tmp_path / "snap.pickle"), str(out)], check=True,
                   env=dict(os.environ))
    there = np.load(out)
    expected = np.vstack([whole.time[whole.time > 20.0]] + [whole[c][whole.time > 20.0] for c in whole.columns])
    assert np.array_equal(there, expected, equal_nan=True)


def test_the_command_resumes_a_snapshot_python_saved(tmp_path, cli):
    sim = ctde.load(TANK).start()
    sim.advance_to(8)
    path = tmp_path / "tank.snap"
    sim.snapshot().save(path)
    whole = sim.run()
    csv = tmp_path / "rest.csv"
    subprocess.run([cli, "run", str(TANK), "--quiet", "--resume", str(path), "-o", str(csv)], check=True)
    rows = np.genfromtxt(csv, delimiter=",", skip_header=1)
    assert np.array_equal(rows[:, 0], whole.time[whole.time > 8.0])


def test_set_on_resuming_changes_the_run_from_the_snapshot_on():
    sim = ctde.load(TANK, set={"service": 3}).start()
    sim.advance_to(10)
    snap = sim.snapshot()
    whole = sim.run()
    again = ctde.resume(snap).run()  # the snapshot's own set={"service": 3} again
    assert same(after(again, 0.0), after(whole, 10.0))
    other = ctde.resume(snap, set={"service": 6}).run()
    assert not same(after(other, 0.0), after(whole, 10.0))


def test_a_snapshot_of_a_model_that_changed_is_refused(tmp_path):
    model = tmp_path / "tank.json"
    model.write_text(TANK.read_text())
    sim = ctde.load(model).start()
    sim.advance_to(5)
    snap = sim.snapshot()
    model.write_text(TANK.read_text().replace('"service": 4', '"service": 5'))
    with pytest.raises(ctde.SnapshotError, match="has other parameter values than in the run that took it"):
        ctde.resume(snap)


def test_python_actors_refuse_a_snapshot_with_the_reason():
    class Counter(ctde.Actor):
        outputs = {"count": 1}

        def initialize(self, ctx):
            self.n = 0
            ctx.fire_at(0.0)

        def fire(self, ctx):
            self.n += 1
            ctx.send("count", self.n)
            ctx.fire_at(ctx.time + 1.0)

    m = ctde.Model("counting", director={"stop_time": 5})
    m.add(Counter(), "c")
    sim = m.start()
    assert sim.advance_to(2)
    with pytest.raises(ctde.SnapshotError,
                       match="a Python actor keeps its state in its Python object, which a snapshot cannot hold"):
        sim.snapshot()
    assert sim.run().status == "ok"  # the run goes on


def test_arguments_are_checked():
    sim = ctde.load(TANK).start()
    sim.advance_to(3)
    with pytest.raises(ValueError, match="advance_to"):
        sim.advance_to(1)
    with pytest.raises(TypeError, match="resume\\(\\): snapshot must be a ctde.Snapshot"):
        ctde.resume(b"CTDESNAP")
    with pytest.raises(TypeError, match="advance_to\\(\\): time must be a number"):
        sim.advance_to("5")
    sim.run()
    with pytest.raises(RuntimeError, match="the run is over"):
        sim.run()
