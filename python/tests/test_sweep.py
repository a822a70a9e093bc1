"""ctde.sweep(): the same runs as `ctde sweep`, in-process and on a Dask
LocalCluster (two worker processes on 127.0.0.1): the HDF5 files compared
dataset by dataset with the command's (tests/sweep/h5_compare.py, wall
times left out), the returned runs against the file, a failing run kept;
sweeps from a warm start against runs resumed one by one (ctde.resume)."""

import importlib.util
import json
import math
import os
import subprocess

import distributed  # not importorskip'ed: the test command installs it (scripts/setup.sh)
import h5py
import numpy as np
import pytest

import ctde
from conftest import SOURCE_DIR

# Debian's distributed on its tornado: a deprecation inside the LocalCluster, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")

# The command's comparison of two sweep files, imported from its script.
_spec = importlib.util.spec_from_file_location("h5_compare", SOURCE_DIR / "tests" / "sweep" / "h5_compare.py")
h5_compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(h5_compare)

MIXED = {"ctde_sweep": 1, "grid": {"e": [0.6, 0.7, 0.8]}, "random": {"h0": {"uniform": [5, 10]}},
         "samples": 2, "seed": 3, "stop_time": 4}
# e = 0.5 from h0 = 10: the impacts accumulate at 3 t1 = 4.28 s (Zeno), before the stop time.
ZENO = {"ctde_sweep": 1, "grid": {"e": [0.8, 0.5, 0.7]}, "stop_time": 6}
POISSON_MODEL = {"ctde": 1, "name": "arrivals", "parameters": {"m": 0.5}, "director": {"stop_time": 10},
                 "actors": [{"name": "p", "type": "PoissonClock", "params": {"mean_interval": "m", "seed": 1}}],
                 "record": ["p.out"]}
POISSON = {"ctde_sweep": 1, "grid": {"m": [0.5, 1]}, "samples": 3, "seed": 5}
# The ball from a warm start at 2.13 s (after its first impact, between two output rows).
WARM = dict(MIXED, stop_time=6, warm_start={"until": 2.13})


def write_json(path, value):
    path.write_text(json.dumps(value))
    return str(path)


def cli_sweep(cli, model, spec, out, expected_status=0, options=()):
    r = subprocess.run([cli, "sweep", str(model), str(spec), "-o", str(out), "--jobs", "1", "--quiet", *options],
                       capture_output=True, text=True, check=False)
    assert r.returncode == expected_status, r.stderr
    return str(out)


def assert_same_files(a, b):
    with h5py.File(a, "r") as x, h5py.File(b, "r") as y:
        difference = h5_compare.compare(x, y)
    assert difference is None, difference


def assert_runs_match_file(runs, path):
    """Each returned run holds what the file holds for it: values, status,
    message, counters, rows and every recorded signal, bit for bit."""
    with h5py.File(path, "r") as f:
        assert [r.index for r in runs] == list(range(len(f["runs"])))
        for r in runs:
            group = f["runs"][str(r.index)]
            assert r.status == group.attrs["status"]
            assert r.message == group.attrs["message"]
            for name, value in r.parameters.items():
                assert value == group.attrs[name], name
            for name in ("steps", "rejected_steps", "rhs_evals", "events", "time_events", "state_events",
                         "loop_solves", "loop_iterations"):
                assert r.stats[name] == group.attrs[name], name
            assert r.end_time == group.attrs["end_time"]
            assert np.array_equal(r.time, group["time"][()])
            assert np.array_equal(r.microstep, group["microstep"][()])
            assert sorted(r.columns) == sorted(set(group) - {"time", "microstep"})
            for name in r.columns:
                assert np.array_equal(r[name], group[name][()], equal_nan=True), name


@pytest.fixture
def files(tmp_path):
    return {
        "mixed": write_json(tmp_path / "mixed.json", MIXED),
        "zeno": write_json(tmp_path / "zeno.json", ZENO),
        "poisson_model": write_json(tmp_path / "poisson.json", POISSON_MODEL),
        "poisson": write_json(tmp_path / "poisson_sweep.json", POISSON),
        "warm": write_json(tmp_path / "warm.json", WARM),
    }


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None)
    with cluster, distributed.Client(cluster) as c:
        yield c


def test_run_k_has_the_values_and_seeds_the_command_gives_it(ball_path, files, tmp_path, cli):
    spec = ctde.load_sweep(files["mixed"])
    assert spec.run_count == 6 and spec.names() == ["e", "h0"]
    out = cli_sweep(cli, ball_path, files["mixed"], tmp_path / "cli.h5")
    with h5py.File(out, "r") as f:
        for k in range(6):
            assert spec.values(k) == [("e", f["runs"][str(k)].attrs["e"]), ("h0", f["runs"][str(k)].attrs["h0"])]
    assert [v for _, v in spec.values(2)][0] == 0.7  # grid point 1, sample 0
    seeds = {spec.actor_seed(k, 0) for k in range(6)} | {spec.actor_seed(0, 1)}
    assert len(seeds) == 7 and all(s == math.floor(s) and 0 <= s < 2**53 for s in seeds)
    with pytest.raises(IndexError, match="run 6 of a sweep of 6 runs"):
        spec.values(6)


def test_in_process_gives_the_commands_file_and_runs(ball_path, files, tmp_path, cli):
    expected = cli_sweep(cli, ball_path, files["mixed"], tmp_path / "cli.h5")
    out = str(tmp_path / "local.h5")
    summary = ctde.sweep(str(ball_path), files["mixed"], output=out)
    assert [s["index"] for s in summary] == list(range(6))
    assert all(s["status"] == "ok" for s in summary)
    assert_same_files(expected, out)
    runs = ctde.sweep(str(ball_path), MIXED)  # the sweep as a dict: the same runs
    assert_runs_match_file(runs, expected)
    # the ball starts at rest from h0
    assert all(r["h.out"][0] == r.parameters["h0"] and r["v.out"][0] == 0 for r in runs)
    assert runs[3].to_pandas().shape == (len(runs[3]), 5)
    assert runs[3].discrete_columns == ["ground.out"]


def test_random_actors_get_the_commands_seeds(files, tmp_path, cli):
    expected = cli_sweep(cli, files["poisson_model"], files["poisson"], tmp_path / "cli.h5")
    runs = ctde.sweep(POISSON_MODEL, files["poisson"])
    assert_runs_match_file(runs, expected)
    arrivals = {tuple(r.time[~np.isnan(r["p.out"])]) for r in runs}
    assert len(arrivals) == 6, "two runs drew the same arrivals"


def test_a_failing_run_is_kept_with_its_status_in_process(ball_path, files, tmp_path, cli):
    expected = cli_sweep(cli, ball_path, files["zeno"], tmp_path / "cli.h5", expected_status=3)
    runs = ctde.sweep(ball_path, files["zeno"])
    assert [r.status for r in runs] == ["ok", "error", "ok"]
    assert "Zeno" in runs[1].message and runs[1].end_time < 4.3 and len(runs[1]) > 0
    assert_runs_match_file(runs, expected)


def test_on_a_dask_cluster_the_file_and_runs_are_the_commands(client, ball_path, files, tmp_path, cli):
    # The workers are other processes: they import ctde through the PYTHONPATH they inherited.
    where = client.run(lambda: __import__("ctde").__file__)
    assert len(where) == 2 and set(where.values()) == {ctde.__file__}
    assert len({pid for pid in client.run(os.getpid).values()} - {os.getpid()}) == 2

    expected = cli_sweep(cli, ball_path, files["mixed"], tmp_path / "cli.h5")
    out = str(tmp_path / "dask.h5")
    summary = ctde.sweep(str(ball_path), files["mixed"], client=client, output=out, batch_size=1)
    assert [s["status"] for s in summary] == ["ok"] * 6
    assert_same_files(expected, out)
    runs = ctde.sweep(str(ball_path), files["mixed"], client=client)
    assert_runs_match_file(runs, expected)

    zeno = cli_sweep(cli, ball_path, files["zeno"], tmp_path / "zeno.h5", expected_status=3)
    runs = ctde.sweep(str(ball_path), files["zeno"], client=client, batch_size=2)
    assert [r.status for r in runs] == ["ok", "error", "ok"] and "Zeno" in runs[1].message
    assert_runs_match_file(runs, zeno)
    out = str(tmp_path / "dask_zeno.h5")
    summary = ctde.sweep(str(ball_path), files["zeno"], client=client, output=out)
    assert [s["status"] for s in summary] == ["ok", "error", "ok"]
    assert_same_files(zeno, out)

    poisson = cli_sweep(cli, files["poisson_model"], files["poisson"], tmp_path / "poisson.h5")
    assert_runs_match_file(ctde.sweep(files["poisson_model"], files["poisson"], client=client), poisson)


def test_rows_and_record_keep_what_the_commands_options_keep(client, ball_path, files, tmp_path, cli):
    whole = cli_sweep(cli, ball_path, files["mixed"], tmp_path / "whole.h5")
    final = cli_sweep(cli, ball_path, files["mixed"], tmp_path / "final.h5",
                      options=["--rows", "final", "--record", "v.out,h.out"])
    runs = ctde.sweep(ball_path, files["mixed"], rows="final", record=["v.out", "h.out"])
    assert_runs_match_file(runs, final)
    assert_runs_match_file(ctde.sweep(ball_path, files["mixed"], client=client, rows="final",
                                      record="v.out,h.out"), final)
    with h5py.File(whole, "r") as f:
        for r in runs:  # one row: the last of the whole run, the two signals named, in their order
            group = f["runs"][str(r.index)]
            assert len(r) == 1 and list(r.columns) == ["v.out", "h.out"]
            assert r.time[0] == group["time"][-1] and r.microstep[0] == group["microstep"][-1]
            assert r["v.out"][0] == group["v.out"][-1] and r["h.out"][0] == group["h.out"][-1]
    with pytest.raises(ctde.ModelError, match="there is no actor 'nope'"):
        ctde.sweep(ball_path, files["mixed"], record=["nope.out"])
    with pytest.raises(ctde.ModelError, match="expects all, output, events or final"):
        ctde.sweep(ball_path, files["mixed"], rows="some")
    with pytest.raises(ctde.ModelError, match=r"record=\[\]: expects actor.port names"):
        ctde.sweep(ball_path, files["mixed"], record=[])
    with pytest.raises(TypeError, match=r"sweep\(\): record must be a list of signal names or None, not 3"):
        ctde.sweep(ball_path, files["mixed"], record=3)
    with pytest.raises(TypeError, match=r"sweep\(\): rows must be a text \(all, output, events, final\), not int"):
        ctde.sweep(ball_path, files["mixed"], rows=1)


def test_a_run_is_pickled_whole(ball_path, files):
    import pickle

    run = ctde.sweep(ball_path, files["zeno"])[1]
    back = pickle.loads(pickle.dumps(run))
    assert (back.index, back.status, back.message, back.parameters) == (1, "error", run.message, {"e": 0.5})
    assert np.array_equal(back["ground.out"], run["ground.out"], equal_nan=True)
    assert not back.time.flags.writeable


def test_mistakes_are_refused_before_any_run(ball_path, files, tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "never.h5"
    with pytest.raises(ctde.ModelError, match="has no parameter 'mass'") as error:
        ctde.sweep(ball_path, {"ctde_sweep": 1, "grid": {"mass": [1, 2]}}, output=out)
    assert error.value.location == "<dict> at /grid/mass"
    with pytest.raises(ctde.ModelError) as error:
        ctde.sweep(ball_path, {"ctde_sweep": 1, "grid": {"e": []}})
    assert error.value.location == "<dict> at /grid/e"
    with pytest.raises(ctde.ModelError, match="cannot read the sweep file"):
        ctde.sweep(ball_path, str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="HDF5 file"):
        ctde.sweep(ball_path, files["mixed"], output=folder / "x.csv")
    with pytest.raises(OSError, match="the folder .* does not exist"):
        ctde.sweep(ball_path, files["mixed"], output=folder / "no" / "such" / "x.h5")
    (folder / "a_folder.h5").mkdir()
    with pytest.raises(OSError, match="a_folder.h5.* is a directory"):
        ctde.sweep(ball_path, files["mixed"], output=folder / "a_folder.h5")
    assert os.listdir(folder) == ["a_folder.h5"]
    with pytest.raises(TypeError, match="spec must be a path"):
        ctde.sweep(ball_path, 3)
    with pytest.raises(TypeError, match="client must be"):
        ctde.sweep(ball_path, files["mixed"], client="localhost:8786")
    with pytest.raises(ValueError, match="batch_size"):
        ctde.sweep(ball_path, files["mixed"], batch_size=0)


# x' = rate over 3e4 s in steps of at most 1 ms: 3e7 steps, tens of seconds of work, which the
# tests below end with Ctrl-C once the run is under way. The clock's events cut the continuous
# phase every 100 s, below the solver's max_steps per phase.
LONG = {"ctde": 1, "name": "long", "parameters": {"rate": 1}, "director": {"stop_time": 3e4, "max_step": 0.001},
        "actors": [{"name": "c", "type": "Constant", "params": {"value": "rate"}},
                   {"name": "x", "type": "Integrator"},
                   {"name": "tick", "type": "DiscreteClock", "params": {"period": 100}}],
        "connections": [["c.out", "x.in"]], "record": ["x.out"]}


@pytest.fixture
def running(monkeypatch):
    """A flag that is True exactly while ctde.sweep is inside a run: set and
    cleared around _ctde.run_one with the GIL held (with no forced switch,
    one_thread_at_a_time, no other thread sees it set before the run has
    released the GIL or cleared after the run)."""
    import threading

    flag = threading.Event()
    run_one = ctde._sweep._ctde.run_one

    def flagged(model, k):
        flag.set()
        try:
            return run_one(model, k)
        finally:
            flag.clear()

    monkeypatch.setattr(ctde._sweep._ctde, "run_one", flagged)
    return flag


def test_python_code_runs_while_an_in_process_sweep_runs(one_thread_at_a_time, running):
    import signal
    import threading
    import time

    # Another thread counts its turns while the run goes on, and presses Ctrl-C after 3.
    # Had the run held the GIL, that thread could not have turned until the run ended "ok".
    turns = []
    done = threading.Event()

    def count():
        while len(turns) < 3 and not done.is_set():
            if running.wait(0.01) and running.is_set():  # still: this thread holds the GIL, the run goes on
                turns.append(1)
            time.sleep(0.001)  # lets the run take the GIL for its Ctrl-C check
        if len(turns) == 3:
            os.kill(os.getpid(), signal.SIGINT)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        runs = ctde.sweep(LONG, {"ctde_sweep": 1, "grid": {"rate": [2, 3]}})
    finally:
        done.set()
        counter.join()
    assert [r.status for r in runs] == ["interrupted"]
    assert runs[0].message.startswith("interrupted: KeyboardInterrupt")
    assert 0 < runs[0].end_time < 3e4
    np.testing.assert_allclose(runs[0]["x.out"][-1], 2 * runs[0].time[-1], rtol=1e-12)


def test_ctrl_c_stops_an_in_process_sweep_at_its_next_step(one_thread_at_a_time, running):
    import signal
    import threading

    # Ctrl-C once the first run is under way (never between runs or in the set-up, which it
    # would end with KeyboardInterrupt).
    press = threading.Thread(target=lambda: running.wait() and os.kill(os.getpid(), signal.SIGINT))
    press.start()
    runs = ctde.sweep(LONG, {"ctde_sweep": 1, "grid": {"rate": [1, 2, 3]}})
    press.join()
    # The first run stopped part way, keeping its rows; no other run started.
    assert [r.status for r in runs] == ["interrupted"]
    assert runs[0].message.startswith("interrupted: KeyboardInterrupt")
    assert 0 < runs[0].end_time < 3e4 and len(runs[0]["x.out"]) > 0


def bits(values):
    """The bytes of an array: equal when the values are the same bit for bit (NaN included)."""
    return np.ascontiguousarray(values).tobytes()


def assert_same_rows(a, b):
    """Results/SweepRun `a` and `b` hold the same rows, bit for bit."""
    assert bits(a.time) == bits(b.time)
    assert bits(a.microstep) == bits(b.microstep)
    assert sorted(a.columns) == sorted(b.columns)
    for name in a.columns:
        assert bits(a[name]) == bits(b[name]), name


def test_a_warm_started_run_is_the_run_resumed_alone_with_its_values(ball_path):
    until = WARM["warm_start"]["until"]
    runs = ctde.sweep(ball_path, WARM)
    # The model with its own values, saved at T by a run that goes on; each run's values set on resuming.
    whole_run = ctde.load(ball_path).start(stop_time=WARM["stop_time"])
    assert whole_run.advance_to(until)
    snapshot = whole_run.snapshot()
    assert whole_run.run().status == "ok"
    assert len(runs) == 6 and len({r.parameters["e"] for r in runs}) == 3
    for r in runs:
        assert r.status == "ok" and r.warm_start_until == until
        assert len(r) > 0 and np.all(r.time > until)  # the rows after T, as ctde.resume() gives them
        alone = ctde.resume(snapshot, set=r.parameters).run()
        assert_same_rows(r, alone)
        assert (r.status, r.message, r.end_time, r.stats) == (alone.status, alone.message, alone.end_time,
                                                               alone.stats)
    # e applies from T on (at the next impact); h0, the start height, is not read again.
    assert len({bits(r["h.out"]) for r in runs}) == 3


def test_a_warm_started_sweep_gives_the_commands_file_in_process_and_on_dask(client, ball_path, files, tmp_path,
                                                                              cli):
    expected = cli_sweep(cli, ball_path, files["warm"], tmp_path / "cli.h5")
    with h5py.File(expected, "r") as f:
        assert all(f["runs"][k].attrs["warm_start_until"] == 2.13 for k in f["runs"])
    assert ctde.load_sweep(files["warm"]).warm_start_until == 2.13
    assert ctde.load_sweep(files["mixed"]).warm_start_until is None
    out = str(tmp_path / "local.h5")
    ctde.sweep(str(ball_path), files["warm"], output=out)
    assert_same_files(expected, out)
    out = str(tmp_path / "dask.h5")
    summary = ctde.sweep(str(ball_path), files["warm"], client=client, output=out, batch_size=1)
    assert [s["status"] for s in summary] == ["ok"] * 6
    assert_same_files(expected, out)
    runs = ctde.sweep(str(ball_path), WARM, client=client, batch_size=2)
    assert_runs_match_file(runs, expected)
    assert all(r.warm_start_until == 2.13 for r in runs)
    import pickle
    assert pickle.loads(pickle.dumps(runs[1])).warm_start_until == 2.13
    assert ctde.sweep(ball_path, files["mixed"])[0].warm_start_until is None


def test_a_warm_start_that_cannot_be_made_is_refused_before_any_run(ball_path, tmp_path):
    out = tmp_path / "never.h5"
    with pytest.raises(ctde.ModelError, match="not inside the run, from 0 to 6 s") as error:
        ctde.sweep(ball_path, dict(WARM, warm_start={"until": 6}), output=out)
    assert error.value.location == "<dict> at /warm_start/until"
    with pytest.raises(ctde.ModelError, match="unknown key 'at'"):
        ctde.sweep(ball_path, dict(WARM, warm_start={"at": 1}))
    # A swept parameter that moves the stop time: every run must resume the warm-up's plans.
    model = json.loads((SOURCE_DIR / "examples" / "models" / "bouncing_ball.json").read_text())
    model["parameters"]["tend"] = 6
    model["director"]["stop_time"] = "tend"
    with pytest.raises(ctde.ModelError, match="cannot sweep the start or stop time") as error:
        ctde.sweep(model, {"ctde_sweep": 1, "grid": {"tend": [6, 5]}, "warm_start": {"until": 2}}, output=out)
    assert error.value.location == "<dict> at /grid/tend/1"
    # Python actors keep their state in Python: a sweep (warm or not) cannot load them from its text.
    python_actor = dict(model, actors=model["actors"] + [{"name": "p", "type": "Python"}])
    with pytest.raises(ctde.ModelError, match="written in Python"):
        ctde.sweep(python_actor, {"ctde_sweep": 1, "grid": {"e": [0.5]}, "warm_start": {"until": 2}})
    assert not out.exists()
