"""Actors written in Python: discrete, fired at events, alike to built-in ones."""

import numpy as np
import pytest

import ctde
from test_build import sampled_pi


class Ticker(ctde.Actor):
    """Fires every `period` seconds from `start`, sending the count of its firings."""

    outputs = {"count": 1}
    parameters = {"period": None, "start": 0.0}

    def initialize(self, ctx):
        self.n = 0
        ctx.fire_at(self.params["start"])

    def fire(self, ctx):
        assert ctx.time_event
        self.n += 1
        ctx.send("count", self.n)
        ctx.fire_at(ctx.time + self.params["period"])


class PythonPI(ctde.Actor):
    """The sampled PI's discrete part: u = ki T sum(e) + kp e."""

    inputs = {"e": 1}
    outputs = {"u": 1}
    parameters = {"kp": None, "ki": None, "T": None}

    def initialize(self, ctx):
        self.sum = 0.0

    def fire(self, ctx):
        e = ctx.input("e")
        self.sum += e
        p = self.params
        ctx.send("u", (p["ki"] * p["T"]) * self.sum + p["kp"] * e)


def test_a_python_source_fires_at_exact_times():
    m = ctde.Model("ticks", director={"stop_time": 1})
    m.add(Ticker, "tick", period=0.25, start=0.125)
    m.add("Accumulator", "total")
    m.connect("tick.count", "total.in")
    r = m.run()
    assert r.status == "ok"
    present = ~np.isnan(r["tick.count"])
    np.testing.assert_array_equal(r.time[present], [0.125, 0.375, 0.625, 0.875])
    np.testing.assert_array_equal(r["tick.count"][present], [1, 2, 3, 4])
    np.testing.assert_array_equal(r["total.out"][~np.isnan(r["total.out"])], [1, 3, 6, 10])


def test_a_python_pi_controller_gives_the_built_in_loop_bit_for_bit(pi_path):
    m = sampled_pi()
    # Replace the discrete part (sum_e, integral, proportional, u) by one Python actor.
    replaced = {"sum_e", "integral", "proportional", "u"}
    m._actors = [a for a in m._actors if not (isinstance(a, dict) and a["name"] in replaced)]
    m._connections = [c for c in m._connections
                      if c[0].split(".")[0] not in replaced and c[1].split(".")[0] not in replaced]
    m.add(PythonPI, "pi", kp=0.8, ki=1.1, T=0.2)
    m.connect("sample.out", "pi.e")
    m.connect("pi.u", "hold.in")
    m.record = ["plant.x.out", "hold.out"]
    assert m.validate()["single_threaded"] is True
    python = m.run()
    built_in = ctde.load(pi_path).run()
    assert python.status == "ok"
    np.testing.assert_array_equal(python.time, built_in.time)
    np.testing.assert_array_equal(python["plant.x.out"], built_in["plant.x.out"])
    np.testing.assert_array_equal(python["hold.out"], built_in["hold.out"])


def test_a_model_runs_twice_alike_with_its_python_actor_reinitialized():
    m = ctde.Model("ticks", director={"stop_time": 1})
    m.add(Ticker, "tick", period=0.5)
    a, b = m.run(), m.run()
    np.testing.assert_array_equal(a["tick.count"], b["tick.count"])
    assert np.nanmax(a["tick.count"]) == 3  # at 0, 0.5 and the stop time 1


def test_an_exception_in_fire_is_the_runs_error_naming_the_actor():
    class Broken(Ticker):
        def fire(self, ctx):
            if ctx.time >= 0.5:
                raise ValueError("bad sample")
            super().fire(ctx)

    m = ctde.Model("broken", director={"stop_time": 1})
    m.add(Broken, "b", period=0.25)
    r = m.run()
    assert r.status == "error" and r.actor == "b"
    assert "ValueError: bad sample" in r.message and r.end_time == 0.5
    np.testing.assert_array_equal(r["b.count"][~np.isnan(r["b.count"])], [1, 2])


@pytest.mark.parametrize("body, message", [
    (lambda ctx: ctx.send("count", [1, 2]), "has width 1, got 2"),
    (lambda ctx: ctx.send("nope", 1), "no output named 'nope'"),
    (lambda ctx: ctx.send("count", "x"), "must be a number"),
    (lambda ctx: ctx.input("x"), "no input named 'x'"),
    (lambda ctx: ctx.fire_at(ctx.time - 1), "before now"),
])
def test_misuse_of_the_context_is_the_runs_error(body, message):
    class Misuse(Ticker):
        def fire(self, ctx):
            body(ctx)

    m = ctde.Model("m", director={"stop_time": 1})
    m.add(Misuse, "a", period=0.5)
    r = m.run()
    assert r.status == "error" and message in r.message


@pytest.mark.parametrize("later, reason", [(float("nan"), "fire_at(): time must be finite"),
                                           (float("inf"), "fire_at(): time must be finite"),
                                           (-1.0, "fire_at(): time is before now")])
def test_fire_at_a_time_not_to_come_is_the_runs_error_naming_the_actor_and_the_time(later, reason):
    class Misuse(Ticker):
        def fire(self, ctx):
            ctx.fire_at(ctx.time + later)

    m = ctde.Model("m", director={"stop_time": 1})
    m.add(Misuse, "a", period=0.5)
    r = m.run()
    assert (r.status, r.actor, r.end_time) == ("error", "a", 0.0)
    assert r.message.startswith("at t=0 s (tick 0, microstep 0): a: Python fire() raised ValueError: "
                                f"{reason}\n"), r.message


def test_the_context_is_only_valid_during_the_call():
    kept = []

    class Keeper(Ticker):
        def fire(self, ctx):
            kept.append(ctx)

    m = ctde.Model("m", director={"stop_time": 1})
    m.add(Keeper, "a", period=0.5)
    assert m.run().status == "ok"
    with pytest.raises(RuntimeError, match="outside its actor's fire"):
        kept[0].time


def test_a_stop_request_ends_the_run():
    class Stopper(Ticker):
        def fire(self, ctx):
            ctx.stop()

    m = ctde.Model("m", director={"stop_time": 1})
    m.add(Stopper, "a", period=0.5, start=0.3)
    r = m.run()
    assert r.status == "stopped" and r.end_time == 0.3


def test_declarations_are_checked():
    class BadWidth(ctde.Actor):
        outputs = {"y": 0}

    with pytest.raises(TypeError, match=r"BadWidth.outputs\['y'\]: the width must be an int >= 1"):
        ctde.Model("m").add(BadWidth, "b")
    with pytest.raises(TypeError, match="unexpected parameter 'speed'"):
        Ticker(period=1, speed=2)
    with pytest.raises(TypeError, match="missing required parameter 'period'"):
        Ticker()


def test_a_model_with_python_actors_has_no_model_file():
    m = ctde.Model("m", director={"stop_time": 1})
    m.add(Ticker, "t", period=1)
    with pytest.raises(ctde.ModelError, match=r"Python actors \(t\) cannot be written to a model file"):
        m.to_json()
    # The stand-in type "Python" is for Python actors only.
    d = m.to_dict()
    assert d["actors"] == [{"name": "t", "type": "Python"}]
    with pytest.raises(ctde.ModelError, match=r"<dict> at /actors/0.*a model file cannot hold one"):
        ctde.load(d)
