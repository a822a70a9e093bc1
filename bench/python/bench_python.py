"""The Python package's figures (docs/performance.md, "Python package"):

1. the bouncing ball run from Python (ctde.load(...).run()) against the same
   load + run in C++, in the same process (_ctde._cpp_baseline_run, the
   runs alternated) and as a program (python_ball_cpp): ratios of the best
   times;
2. handing 1e6 result rows to numpy: the time to make the Results (every
   column a numpy array) from a finished run, and the check that no byte
   was copied (the arrays share the run's memory);
3. a Python actor firing 1e5 times: microseconds per firing, and over a
   built-in DiscreteClock doing the same.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python/bench_python.py build/release

Short (a few seconds): best of a few repeats, which a busy machine affects
least.
"""

import pathlib
import subprocess
import sys
import time

import numpy as np

import ctde
from ctde import _ctde

ROOT = pathlib.Path(__file__).resolve().parents[2]
BALL = ROOT / "examples" / "models" / "bouncing_ball.json"


def best(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def ball(build, sets, stop_time, repeats):
    """Python against C++ in the same process, alternated (so that a busy
    machine slows both alike), and against the separate C++ program."""
    overrides = [(k, str(v)) for k, v in sets.items()]
    r = ctde.load(BALL, set=sets).run(stop_time=stop_time)
    assert r.status == "ok" and len(r) == _ctde._cpp_baseline_run(str(BALL), overrides, stop_time)
    py, cpp = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        ctde.load(BALL, set=sets).run(stop_time=stop_time)
        py.append(time.perf_counter() - start)
        start = time.perf_counter()
        _ctde._cpp_baseline_run(str(BALL), overrides, stop_time)
        cpp.append(time.perf_counter() - start)
    program = subprocess.run([str(pathlib.Path(build) / "bench" / "python_ball_cpp"), str(BALL), str(repeats),
                              "-" if stop_time is None else str(stop_time)]
                             + [f"{k}={v}" for k, v in overrides], check=True, capture_output=True, text=True)
    fields = dict(kv.split("=") for kv in program.stdout.split())
    assert int(fields["rows"]) == len(r)
    print(f"ball set={sets} stop_time={stop_time}: rows={len(r)} python_s={min(py):.6f} "
          f"cpp_in_process_s={min(cpp):.6f} ratio={min(py) / min(cpp):.3f} "
          f"cpp_program_s={float(fields['best_s']):.6f} ratio={min(py) / float(fields['best_s']):.3f}")


def rows_to_numpy(repeats):
    m = ctde.Model("rows", director={"stop_time": 1, "output_interval": 1e-6, "max_step": 0.5})
    m.add("Constant", "c", value=1.0)
    m.add("Integrator", "x")
    m.connect("c.out", "x.in")
    m.record = ["x.out"]
    output = _ctde.run(m._source(None), False, None, 0.1)
    rows = output.rows
    handoff = best(lambda: ctde.Results(output), repeats)
    a, b = ctde.Results(output), ctde.Results(output)
    shared = all(np.shares_memory(a[n], b[n]) for n in a.columns) and np.shares_memory(a.time, b.time)
    owns = any(x.flags.owndata for x in [a.time, a.microstep] + [a[n] for n in a.columns])
    copy = best(lambda: [np.array(a.time), np.array(a.microstep)] + [np.array(a[n]) for n in a.columns], repeats)
    print(f"rows_to_numpy: rows={rows} columns={2 + len(a.columns)} handoff_ms={handoff * 1e3:.3f} "
          f"shared={shared} owndata={owns} (a copy of the same: {copy * 1e3:.3f} ms)")


class Ticker(ctde.Actor):
    outputs = {"count": 1}
    parameters = {"period": None}

    def initialize(self, ctx):
        self.n = 0
        ctx.fire_at(0.0)

    def fire(self, ctx):
        self.n += 1
        ctx.send("count", self.n)
        ctx.fire_at(ctx.time + self.params["period"])


def python_actor(firings, repeats):
    period = 1.0 / firings

    def with_python():
        m = ctde.Model("py", director={"stop_time": 1 - period / 2})
        m.add(Ticker, "tick", period=period)
        m.add("Accumulator", "total")
        m.connect("tick.count", "total.in")
        return m

    def with_clock():
        m = ctde.Model("cpp", director={"stop_time": 1 - period / 2})
        m.add("DiscreteClock", "tick", period=period)
        m.add("Accumulator", "total")
        m.connect("tick.out", "total.in")
        return m

    r = with_python().run()
    fired = int(np.count_nonzero(~np.isnan(r["tick.count"])))
    assert r.status == "ok" and fired == firings, (r.status, fired)
    py, builtin = with_python(), with_clock()
    t_py = best(py.run, repeats)
    t_cpp = best(builtin.run, repeats)
    print(f"python_actor: firings={fired} total_s={t_py:.4f} us_per_firing={t_py / fired * 1e6:.2f} "
          f"builtin_clock_s={t_cpp:.4f} overhead_us_per_firing={(t_py - t_cpp) / fired * 1e6:.2f}")


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "release")
    ball(build, {}, None, 300)           # examples/models/bouncing_ball.json as it is: 10 s
    ball(build, {"e": 1}, 1000, 20)      # no loss, 1000 s: 350 impacts, a run long enough to time
    rows_to_numpy(5)
    python_actor(100_000, 3)


if __name__ == "__main__":
    main()
