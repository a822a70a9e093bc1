"""What tests/cli/test_cli_sweep.cpp checks in the files ctde writes, read back
by h5py (and scipy for MAT files).

Usage: sweep_checks.py CHECK FILE... with CHECK one of the functions below.
A failed assertion exits 1 with its message; what a check prints is for the
test to read.
"""
import sys

import h5py
import numpy as np


def layout(path):
    """The sweep file of the 6-run mixed sweep: /runs/<k> with its datasets
    and attributes, /summary, the model and sweep files as root attributes."""
    f = h5py.File(path, "r")
    assert sorted(f["runs"], key=int) == [str(k) for k in range(6)], list(f["runs"])
    r = f["runs/3"]
    assert set(r) == {"time", "microstep", "h.out", "v.out", "ground.out"}, set(r)
    assert r.attrs["status"] == "ok" and r.attrs["message"] == ""
    assert r.attrs["e"] == 0.7 and 5 <= r.attrs["h0"] < 10
    assert r.attrs["steps"] > 0 and r.attrs["end_time"] == 4
    assert r["h.out"][0] == r.attrs["h0"] and r["time"][0] == 0
    assert np.isnan(r["ground.out"][0])
    s = f["summary"][()]
    assert list(s["index"]) == list(range(6)) and list(s["e"]) == [0.6, 0.6, 0.7, 0.7, 0.8, 0.8]
    assert s.dtype.names == ("index", "e", "h0", "status", "message", "steps", "events", "wall_time")
    assert s["h0"][3] == r.attrs["h0"] and s["steps"][3] == r.attrs["steps"]
    assert "bouncing_ball" in f.attrs["model"] and "ctde_sweep" in f.attrs["sweep"]
    print("layout ok")


def impacts(path):
    """Prints a line per run of the ball's sweep: e, h0 and the times of its
    impacts (the ground detector's events)."""
    f = h5py.File(path, "r")
    for k in sorted(f["runs"], key=int):
        r = f["runs"][k]
        t = r["time"][()][~np.isnan(r["ground.out"][()])]
        print(repr(r.attrs["e"]), repr(r.attrs["h0"]), *[repr(x) for x in t])


def failed_run(path):
    """Prints the runs' statuses, run 1's message, and whether run 1 ended
    before 4.3 s with rows kept."""
    f = h5py.File(path, "r")
    s = f["summary"][()]
    print(*[x.decode() for x in s["status"]])
    print(f["runs/1"].attrs["message"])
    print(f["runs/1"].attrs["end_time"] < 4.3, f["runs/1"]["time"].shape[0] > 0)


def same_results(csv_path, h5_path, mat_path):
    """The ball's run written as CSV, HDF5 and MAT holds the same values."""
    import scipy.io

    header = open(csv_path).readline().strip().split(",")
    rows = np.genfromtxt(csv_path, delimiter=",", skip_header=1)
    csv = {name: rows[:, i] for i, name in enumerate(header)}
    h = h5py.File(h5_path, "r")
    m = scipy.io.loadmat(mat_path)
    assert h.attrs["status"] == "ok" and str(m["status"][0]) == "ok"
    assert np.array_equal(csv["time"], h["time"][()]) and np.array_equal(csv["time"], m["time"][:, 0])
    assert np.array_equal(csv["microstep"], h["microstep"][()])
    assert np.array_equal(csv["microstep"], m["microstep"][:, 0])
    for name, field in (("h.out", "h_out"), ("v.out", "v_out"), ("ground.out", "ground_out")):
        c = csv[name]
        assert np.array_equal(c, h[name][()], equal_nan=True), name
        assert np.array_equal(c, m["signals"][field][0, 0][:, 0], equal_nan=True), field
    names = [str(x[0]) for x in m["signal_names"][:, 0]]
    assert names == ["h.out", "v.out", "ground.out"], names
    assert m["statistics"]["steps"][0, 0][0, 0] == h.attrs["steps"] > 0
    assert "bouncing_ball" in str(m["model"][0]) and "bouncing_ball" in h.attrs["model"]
    print(len(rows))


def distinct_arrivals(path):
    """The 6 runs of the Poisson sweep each drew more than 3 arrivals, no two
    the same."""
    f = h5py.File(path, "r")
    times = []
    for k in range(6):
        r = f["runs"][str(k)]
        times.append(tuple(r["time"][()][~np.isnan(r["p.out"][()])]))
    assert all(len(t) > 3 for t in times), [len(t) for t in times]
    assert len(set(times)) == 6, "two runs drew the same arrivals"
    print("distinct")


def statuses(path):
    """Prints each run of the summary: its index and status."""
    f = h5py.File(path, "r")
    s = f["summary"][()]
    for k, status in zip(s["index"], s["status"]):
        print(int(k), status.decode())


def interrupted(path):
    """The sweep of x' = rate (rate 1, 2, 3) that Ctrl-C ended during run 0:
    only run 0 in the file, marked interrupted part way with its rows, x = t
    up to there. Prints the summary's indices and statuses, and run 0's message."""
    f = h5py.File(path, "r")
    assert list(f["runs"]) == ["0"], list(f["runs"])
    r = f["runs/0"]
    assert r.attrs["status"] == "interrupted" and r.attrs["rate"] == 1
    assert 0 < r.attrs["end_time"] < 1e5 and r["time"].shape[0] > 1
    assert r["time"][-1] <= r.attrs["end_time"]
    np.testing.assert_allclose(r["x.out"][()], r["time"][()], rtol=1e-9, atol=1e-12)
    s = f["summary"][()]
    print(*[int(k) for k in s["index"]], *[x.decode() for x in s["status"]])
    print(r.attrs["message"])


def _same_runs(whole, kept):
    """The two sweep files hold the same runs, each with the same status and counters."""
    assert sorted(whole["runs"], key=int) == sorted(kept["runs"], key=int)
    for k in whole["runs"]:
        a, b = whole["runs"][k], kept["runs"][k]
        for name in ("status", "message", "steps", "events", "state_events", "end_time"):
            assert a.attrs[name] == b.attrs[name], (k, name)


def final_rows(whole_path, final_path):
    """Every run of the sweep with --rows final holds one row, the last row
    of the same run of the sweep without it, in every dataset. Prints the
    number of runs."""
    whole, final = h5py.File(whole_path, "r"), h5py.File(final_path, "r")
    _same_runs(whole, final)
    for k in whole["runs"]:
        a, b = whole["runs"][k], final["runs"][k]
        assert list(a) == list(b), (list(a), list(b))
        assert a["time"].shape[0] > 1
        for name in a:
            assert b[name].shape[0] == 1, (k, name, b[name].shape)
            assert np.array_equal(b[name][0], a[name][-1], equal_nan=True), (k, name)
    print(len(whole["runs"]))


def recorded(whole_path, recorded_path, names):
    """Every run of the sweep with --record NAMES holds time, microstep and
    those signals alone, in that order, with the rows and values of the same
    run of the sweep without it. Prints the number of runs."""
    whole, kept = h5py.File(whole_path, "r"), h5py.File(recorded_path, "r")
    _same_runs(whole, kept)
    names = names.split(",")
    for k in whole["runs"]:
        a, b = whole["runs"][k], kept["runs"][k]
        assert list(b) == ["time", "microstep", *names], list(b)
        assert len(set(a) - set(b)) > 0, "the sweep without --record records more"
        for name in b:
            assert np.array_equal(a[name][()], b[name][()], equal_nan=True), (k, name)
    print(len(whole["runs"]))


CHECKS = {check.__name__: check for check in (layout, impacts, failed_run, same_results, distinct_arrivals,
                                              interrupted, statuses, final_rows, recorded)}

if __name__ == "__main__":
    CHECKS[sys.argv[1]](*sys.argv[2:])
