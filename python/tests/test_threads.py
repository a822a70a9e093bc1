"""The GIL is released for the whole run: two threads run two models at
once, and Python code runs meanwhile.

No verdict here rests on wall-clock time. Python takes the GIL from a thread
that holds it only after the switch interval; the tests set that to an hour
(conftest's `one_thread_at_a_time`), so a thread runs Python code only while the
others release the GIL on their own. A run that held the GIL would then let
no other thread in until it ended. Each run here goes on until it has seen
the other thread's progress (its progress callback returns False then), and
its stop time is out of reach of any wait for the scheduler: the tests pass
however busy the machine is, and fail (their runs end "ok") when a run
holds the GIL."""

import os
import signal
import threading
import time

import numpy as np

import ctde


def endless_model():
    """x' = 1 over 3e4 s in steps of at most 1 ms: 3e7 steps, tens of seconds of work, which
    the tests' progress callbacks end as soon as they have seen what they wait for. The clock's
    events cut the continuous phase every 100 s, below the solver's max_steps per phase."""
    m = ctde.Model("endless", director={"stop_time": 3e4, "max_step": 0.001})
    m.add("Constant", "c", value=1.0)
    m.add("Integrator", "x")
    m.add("DiscreteClock", "tick", period=100.0)
    m.connect("c.out", "x.in")
    m.record = ["x.out"]
    return m


def test_two_threads_run_two_models_at_once(one_thread_at_a_time):
    models = {"a": endless_model(), "b": endless_model()}
    calls = {"a": 0, "b": 0}  # each run's progress calls so far
    results = {}

    def progress_of(key, other):
        seen = []  # the other run's calls at this run's first call

        def progress(t, stats):
            calls[key] += 1
            if not seen:
                seen.append(calls[other])
            return calls[other] == seen[0]  # False (stop) once the other run went on meanwhile

        return progress

    def work(key, other):
        results[key] = models[key].run(progress=progress_of(key, other), progress_interval=0.01)

    threads = [threading.Thread(target=work, args=pair) for pair in (("a", "b"), ("b", "a"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Had a run held the GIL, the other thread could not have entered its own run
    # before it ended: the first would have run to its stop time ("ok").
    for r in results.values():
        assert (r.status, r.message) == ("interrupted", "the progress callback returned False")
        assert 0 < r.end_time < 3e4
        np.testing.assert_allclose(r["x.out"][-1], r.time[-1], rtol=1e-12)
    # The two runs did not disturb each other: the same rows as far as both went.
    n = min(len(results["a"]), len(results["b"]))
    np.testing.assert_array_equal(results["a"]["x.out"][:n], results["b"]["x.out"][:n])
    np.testing.assert_array_equal(results["a"].time[:n], results["b"].time[:n])


def test_python_code_runs_while_a_model_runs(one_thread_at_a_time):
    ticks = [0]  # the main thread's loop turns while the run goes on
    at_start = []

    def progress(t, stats):
        if not at_start:
            at_start.append(ticks[0])
        return ticks[0] < at_start[0] + 3  # False (stop) once the main thread has turned 3 times

    result = []
    thread = threading.Thread(target=lambda: result.append(endless_model().run(progress=progress,
                                                                               progress_interval=0.01)))
    thread.start()
    while thread.is_alive():
        ticks[0] += 1  # needs the GIL
        time.sleep(0.001)  # lets the run's progress call take it
    thread.join()
    # Had the run held the GIL, the main thread could not have turned until it
    # ended at its stop time ("ok").
    r = result[0]
    assert (r.status, r.message) == ("interrupted", "the progress callback returned False")
    assert 0 < r.end_time < 3e4


def test_ctrl_c_interrupts_a_run_on_the_main_thread(one_thread_at_a_time):
    # The run's first progress call (its only one: the next would be an hour later) says it
    # started; the signal goes once the run is back in C++ (the GIL released: this thread gets it).
    started = threading.Event()
    sender = threading.Thread(target=lambda: started.wait() and os.kill(os.getpid(), signal.SIGINT))
    sender.start()
    r = endless_model().run(progress=lambda t, stats: started.set(), progress_interval=3600.0)
    sender.join()
    assert r.status == "interrupted" and r.message.startswith("interrupted: KeyboardInterrupt")
    assert 0 < r.end_time < 3e4 and len(r) > 0  # it stopped part way, keeping its rows
    assert r.time[-1] <= r.end_time
