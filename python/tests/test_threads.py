"""The GIL is released for the whole run: two threads run two models at
once, and Python code runs meanwhile."""

import threading
import time

import numpy as np

import ctde


def long_model():
    """x' = 1 over 500 s in steps of at most 1 ms: 5e5 steps, about a third of a second of work.
    40 more clocks like x make the work: x alone takes 0.08 s on erk45's own stepper, less than
    the 0.1 s after which the Ctrl-C test below interrupts the run."""
    m = ctde.Model("long", director={"stop_time": 500, "max_step": 0.001})
    m.add("Constant", "c", value=1.0)
    m.add("Integrator", "x")
    m.connect("c.out", "x.in")
    for i in range(40):
        m.add("Integrator", f"clock{i}")
        m.connect("c.out", f"clock{i}.in")
    m.record = ["x.out"]
    return m


def test_two_threads_run_two_models_at_once():
    models = {"a": long_model(), "b": long_model()}
    spans = {}
    results = {}

    def work(key):
        start = time.perf_counter()
        results[key] = models[key].run(trace=True)
        spans[key] = (start, time.perf_counter())

    threads = [threading.Thread(target=work, args=(k,)) for k in models]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results["a"].status == results["b"].status == "ok"
    # Had a run held the GIL, the other thread could not have entered its
    # own run before it ended: the two spans would not overlap.
    (a0, a1), (b0, b1) = spans["a"], spans["b"]
    overlap = min(a1, b1) - max(a0, b0)
    assert overlap > 0.5 * min(a1 - a0, b1 - b0), spans
    np.testing.assert_array_equal(results["a"]["x.out"], results["b"]["x.out"])
    assert results["a"].trace == results["b"].trace and results["a"].trace[-1]["kind"] == "run_end"
    np.testing.assert_allclose(results["a"]["x.out"][-1], 500, rtol=1e-12)


def test_python_code_runs_while_a_model_runs():
    model = long_model()
    started = threading.Event()
    span = []

    def work():
        started.set()
        start = time.perf_counter()
        model.run()
        span.extend([start, time.perf_counter()])

    thread = threading.Thread(target=work)
    thread.start()
    started.wait()
    ticks = []
    while thread.is_alive():
        ticks.append(time.perf_counter())  # needs the GIL
    thread.join()
    start, end = span
    during = [t for t in ticks if start <= t <= end]
    # The main thread went on all through the run: no gap near the run's length.
    gaps = np.diff([start] + during + [end])
    assert gaps.max() < 0.3 * (end - start), (gaps.max(), end - start)


def test_ctrl_c_interrupts_a_run_on_the_main_thread():
    import os
    import signal

    timer = threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    r = long_model().run()
    timer.join()
    assert r.status == "interrupted" and "KeyboardInterrupt" in r.message
    assert 0 < r.end_time < 500 and len(r) > 0  # it stopped part way, keeping its rows
    assert r.time[-1] <= r.end_time
