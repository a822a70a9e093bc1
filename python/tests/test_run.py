"""Loading and running models: results as numpy and pandas, the trace, the
statistics, run failures as statuses."""

import json
import math

import numpy as np
import pytest

import ctde

G, H0 = 9.81, 10.0


def impact_times(e, count, h0=H0):
    """The bouncing ball's impacts in closed form: the first at sqrt(2 h0 / g),
    then flights of 2 e^k v1 / g."""
    t1 = math.sqrt(2 * h0 / G)
    v1 = G * t1
    times = [t1]
    for k in range(1, count):
        times.append(times[-1] + 2 * e**k * v1 / G)
    return np.array(times)


def test_the_ball_bounces_at_the_closed_form_impact_times(ball_path):
    r = ctde.load(ball_path).run()
    assert r.status == "ok" and r.message == ""
    impacts = r.time[~np.isnan(r["ground.out"])]
    expected = impact_times(0.8, len(impacts))
    assert len(impacts) == 7  # the eighth impact would be after the stop time, 10 s
    assert expected[-1] < 10 < impact_times(0.8, 8)[-1]
    np.testing.assert_allclose(impacts, expected, rtol=0, atol=1e-6)


def test_set_overrides_a_parameter_as_the_command_line_does(ball_path):
    # e = 0.6, h0 = 8: the impacts would accumulate at t1 (1 + 2e / (1 - e)) = 5.1 s, after the stop time
    r = ctde.load(ball_path, set={"e": 0.6, "h0": "2 * 4"}).run(stop_time=5)
    assert r["h.out"][0] == 8.0
    impacts = r.time[~np.isnan(r["ground.out"])]
    assert len(impacts) >= 5
    np.testing.assert_allclose(impacts, impact_times(0.6, len(impacts), h0=8.0), rtol=0, atol=1e-6)
    assert r.time[-1] == 5.0 and r.end_time == 5.0


def test_results_are_numpy_arrays_of_one_entry_per_row(ball_path):
    r = ctde.load(ball_path).run()
    n = len(r)
    assert n > 500  # output_interval 0.02 over 10 s, plus steps and events
    assert r.time.dtype == np.float64 and r.time.shape == (n,)
    assert r.microstep.dtype == np.uint32 and r.microstep.shape == (n,)
    assert r.columns == ["h.out", "v.out", "ground.out"]
    assert r.discrete_columns == ["ground.out"]
    for name in r.columns:
        assert r[name].dtype == np.float64 and r[name].shape == (n,)
    assert np.all(np.diff(r.time) >= 0)
    # The continuous signals are present on every row, the discrete one on impact rows only.
    assert not np.isnan(r["h.out"]).any()
    assert np.isnan(r["ground.out"]).sum() == n - 7


def test_the_arrays_share_the_runs_memory_read_only(ball_path):
    r = ctde.load(ball_path).run()
    h = r["h.out"]
    assert not h.flags.owndata and h.base is not None
    assert not h.flags.writeable
    with pytest.raises(ValueError):
        h[0] = 1.0
    assert r["h.out"].__array_interface__["data"][0] == h.__array_interface__["data"][0]


def test_the_arrays_outlive_the_results_object(ball_path):
    h = ctde.load(ball_path).run()["h.out"]
    assert h[0] == H0  # the capsule keeps the columns alive


def test_a_missing_column_is_a_key_error_listing_the_columns(ball_path):
    r = ctde.load(ball_path).run()
    with pytest.raises(KeyError, match="h.out, v.out, ground.out"):
        r["h.in"]
    with pytest.raises(TypeError, match="column name"):
        r[0]


def test_to_pandas_gives_the_same_columns(ball_path):
    r = ctde.load(ball_path).run()
    df = r.to_pandas()
    assert list(df.columns) == ["time", "microstep", "h.out", "v.out", "ground.out"]
    assert len(df) == len(r)
    np.testing.assert_array_equal(df["h.out"].to_numpy(), r["h.out"])
    np.testing.assert_array_equal(df["time"].to_numpy(), r.time)


def test_left_and_right_keep_one_row_per_time(ball_path):
    r = ctde.load(ball_path).run()
    left, right = r.left(), r.right()
    assert len(left) == len(right) == len(np.unique(r.time))
    assert np.all(np.diff(left.time) > 0) and np.all(np.diff(right.time) > 0)
    assert np.all(left.microstep == 0)
    # At an impact the velocity jumps: -v before, +e v after.
    t1 = impact_times(0.8, 1)[0]
    i = np.argmin(abs(left.time - t1))
    assert left["v.out"][i] == pytest.approx(-G * t1, rel=1e-6)
    assert right["v.out"][i] == pytest.approx(0.8 * G * t1, rel=1e-6)
    assert right.microstep[i] > 0


def test_width_n_signals_are_columns_per_element():
    model = {"ctde": 1, "director": {"stop_time": 1},
             "actors": [{"name": "c", "type": "Constant", "params": {"value": [1, 2, 3]}},
                        {"name": "x", "type": "Integrator", "params": {"initial": [0, 0, 0]}}],
             "connections": [["c.out", "x.in"]], "record": ["x.out"]}
    r = ctde.load(model).run()
    assert r.columns == ["x.out[0]", "x.out[1]", "x.out[2]"]
    assert r["x.out"].shape == (len(r), 3)
    np.testing.assert_allclose(r["x.out"][-1], [1, 2, 3], rtol=1e-9)
    np.testing.assert_array_equal(r["x.out"][:, 1], r["x.out[1]"])


def test_the_trace_holds_the_documented_kinds(ball_path):
    r = ctde.load(ball_path).run(trace=True)
    kinds = [line["kind"] for line in r.trace]
    assert kinds[0] == "run_start" and kinds[-1] == "run_end"
    assert kinds.count("state_event") == 7
    assert kinds.count("reset") == 7
    assert {"step_reject", "event"} <= set(kinds)
    assert r.trace[-1]["status"] == "ok"
    assert ctde.load(ball_path).run().trace is None


def test_stats_count_what_the_run_did(ball_path):
    r = ctde.load(ball_path).run()
    assert set(r.stats) == {"steps", "rejected_steps", "rhs_evals", "events", "time_events", "state_events",
                            "loop_solves", "loop_iterations"}
    assert r.stats["state_events"] == 7
    assert r.stats["steps"] > 0 and r.stats["rhs_evals"] > r.stats["steps"]


def test_a_run_failure_is_a_status_and_keeps_the_rows(ball_path):
    # With e = 0.7 the impacts accumulate at t1 (1 + 2e / (1 - e)) = 8.09 s: Zeno.
    r = ctde.load(ball_path, set={"e": 0.7}).run()
    assert r.status == "error"
    assert "Zeno" in r.message and r.actor == "ground"
    t_inf = impact_times(0.7, 1)[0] * (1 + 2 * 0.7 / 0.3)
    assert r.end_time == pytest.approx(t_inf, abs=1e-3)
    assert len(r) > 100 and r.time[-1] <= r.end_time
    impacts = r.time[~np.isnan(r["ground.out"])]
    np.testing.assert_allclose(impacts[:5], impact_times(0.7, 5), rtol=0, atol=1e-6)


def test_a_stop_actor_ends_the_run_with_status_stopped():
    model = {"ctde": 1, "director": {"stop_time": 10},
             "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 10, "offsets": [2.5]}},
                        {"name": "stop", "type": "Stop"}],
             "connections": [["clock.out", "stop.in"]]}
    r = ctde.load(model).run()
    assert r.status == "stopped" and r.end_time == 2.5


def test_progress_is_called_with_time_and_stats_and_can_stop_the_run(ball_path):
    calls = []

    def progress(t, stats):
        calls.append((t, stats["steps"]))
        return len(calls) < 3

    r = ctde.load(ball_path).run(progress=progress, progress_interval=0)
    assert len(calls) == 3
    assert [t for t, _ in calls] == sorted(t for t, _ in calls)
    assert r.status == "interrupted" and "returned False" in r.message
    assert r.end_time < 10 and len(r) > 0


def test_an_exception_in_progress_interrupts_the_run(ball_path):
    def progress(t, stats):
        raise RuntimeError("enough")

    r = ctde.load(ball_path).run(progress=progress, progress_interval=0)
    assert r.status == "interrupted" and "enough" in r.message


def test_a_model_runs_several_times_alike(ball_path):
    m = ctde.load(ball_path)
    a, b = m.run(), m.run()
    np.testing.assert_array_equal(a["h.out"], b["h.out"])


def test_an_included_model_file_is_found_in_model_path(tmp_path, monkeypatch):
    """A composite's network from another file (docs/model-format.md,
    "Including other model files"): beside the including file, else in
    model_path, else in CTDE_MODEL_PATH; x' = rate gives x(1) = rate."""
    monkeypatch.delenv("CTDE_MODEL_PATH", raising=False)
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "ramp.json").write_text(json.dumps({
        "ctde": 1, "parameters": {"rate": 1},
        "actors": [{"name": "c", "type": "Constant", "params": {"value": "rate"}},
                   {"name": "x", "type": "Integrator"}],
        "connections": [["c.out", "x.in"]], "outputs": {"y": "x.out"}}))
    study = tmp_path / "study.json"
    study.write_text(json.dumps({
        "ctde": 1, "parameters": {"b": 1.5}, "director": {"stop_time": 1},
        "actors": [{"name": "fast", "type": "Composite", "file": "ramp.json", "params": {"rate": "2 * b"}}],
        "record": ["fast.x.out"]}))
    with pytest.raises(ctde.ModelError, match=r"at /actors/0/file: cannot find the included model file 'ramp.json'"):
        ctde.load(study)
    r = ctde.load(study, model_path=lib).run()
    assert r.status == "ok"
    assert r["fast.x.out"][-1] == pytest.approx(3.0, rel=1e-12)
    r = ctde.load(study, model_path=["/nonexistent", str(lib)], set={"fast__rate": 5}).run()
    assert r["fast.x.out"][-1] == pytest.approx(5.0, rel=1e-12)
    monkeypatch.setenv("CTDE_MODEL_PATH", str(lib))
    assert ctde.load(study).run()["fast.x.out"][-1] == pytest.approx(3.0, rel=1e-12)
    with pytest.raises(TypeError, match="model_path must be a folder or a list of folders"):
        ctde.load(study, model_path=3)
