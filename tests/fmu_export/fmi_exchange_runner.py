#!/usr/bin/env python3
"""A minimal, strict Model Exchange runner for ctde's exported FMUs (ctest `fmu_exchange_runner`).

Written from the FMI 3.0 and 2.0 standards' text (the Model Exchange state
machines and their example of an importer's loop), independently of ctde's
own importer: it loads an exported FMU's binary with ctypes and integrates
its states itself, with classical Runge-Kutta steps, an event found by a
sign change of an indicator bisected to 1e-13 s, and time events stepped to
exactly; it checks every status, and that the FMU refuses what the standard
forbids (a call in the wrong mode, arrays of the wrong size, an interface
the FMU was not exported with), with a logged reason.

    fmi_exchange_runner.py CTDE MODEL_DIR SCRATCH

As fmi_runner.py, whose checks, loggers and closed forms it shares.
Exit 0: every check held.
"""
import ctypes as C
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fmi_runner as R  # noqa: E402  (the shared checks and callbacks)

from fmi_runner import OK, ERROR, check, last_error  # noqa: E402

DOUBLES = C.POINTER(C.c_double)


def array(values):
    return (C.c_double * max(1, len(values)))(*values)


class Exchange3:
    """FMI 3.0 Model Exchange (standard section 3.2)."""

    def __init__(self, binary):
        self.base = R.Fmi3(binary)
        f = self.lib = self.base.lib
        f.fmi3InstantiateModelExchange.restype = C.c_void_p
        f.fmi3InstantiateModelExchange.argtypes = [C.c_char_p, C.c_char_p, C.c_char_p, C.c_bool, C.c_bool,
                                                   C.c_void_p, R.LOG3]
        for name in ["fmi3EnterContinuousTimeMode"]:
            getattr(f, name).argtypes = [C.c_void_p]
        f.fmi3SetTime.argtypes = [C.c_void_p, C.c_double]
        for name in ["fmi3SetContinuousStates", "fmi3GetContinuousStateDerivatives", "fmi3GetEventIndicators",
                     "fmi3GetContinuousStates", "fmi3GetNominalsOfContinuousStates"]:
            getattr(f, name).argtypes = [C.c_void_p, DOUBLES, C.c_size_t]
        f.fmi3GetNumberOfContinuousStates.argtypes = [C.c_void_p, C.POINTER(C.c_size_t)]
        f.fmi3GetNumberOfEventIndicators.argtypes = [C.c_void_p, C.POINTER(C.c_size_t)]
        f.fmi3CompletedIntegratorStep.argtypes = [C.c_void_p, C.c_bool, C.POINTER(C.c_bool), C.POINTER(C.c_bool)]
        f.fmi3UpdateDiscreteStates.argtypes = [C.c_void_p] + [C.POINTER(C.c_bool)] * 5 + [DOUBLES]

    def instantiate(self, folder, token):
        resources = (os.path.join(folder, "resources") + os.sep).encode()
        return self.lib.fmi3InstantiateModelExchange(b"me3", token.encode(), resources, False, False, None, R.log3)

    def initialize(self, inst, stop):
        check(self.lib.fmi3EnterInitializationMode(inst, False, 0.0, 0.0, True, stop) == OK, "EnterInitializationMode")
        check(self.lib.fmi3ExitInitializationMode(inst) == OK, "ExitInitializationMode: to Event Mode")

    def sizes(self, inst):
        nx, nz = C.c_size_t(), C.c_size_t()
        check(self.lib.fmi3GetNumberOfContinuousStates(inst, C.byref(nx)) == OK, "fmi3GetNumberOfContinuousStates")
        check(self.lib.fmi3GetNumberOfEventIndicators(inst, C.byref(nz)) == OK, "fmi3GetNumberOfEventIndicators")
        return nx.value, nz.value

    def update(self, inst):
        """The event iteration: (values changed, terminate, next event time or None)."""
        changed = False
        while True:
            flags = [C.c_bool() for _ in range(5)]
            next_time = C.c_double()
            check(self.lib.fmi3UpdateDiscreteStates(inst, *[C.byref(b) for b in flags], C.byref(next_time)) == OK,
                  "fmi3UpdateDiscreteStates")
            changed = changed or flags[3].value
            if not flags[0].value:
                return changed, flags[1].value, next_time.value if flags[4].value else None

    def vector(self, name, inst, n):
        values = (C.c_double * max(1, n))()
        check(getattr(self.lib, name)(inst, values, n) == OK, name)
        return list(values)[:n]

    def set_point(self, inst, t, x):
        check(self.lib.fmi3SetTime(inst, t) == OK, "fmi3SetTime %r" % t)
        check(self.lib.fmi3SetContinuousStates(inst, array(x), len(x)) == OK, "fmi3SetContinuousStates")

    def derivatives(self, inst, n):
        return self.vector("fmi3GetContinuousStateDerivatives", inst, n)

    def indicators(self, inst, n):
        return self.vector("fmi3GetEventIndicators", inst, n)

    def states(self, inst, n):
        return self.vector("fmi3GetContinuousStates", inst, n)

    def completed(self, inst):
        enter, terminate = C.c_bool(), C.c_bool()
        check(self.lib.fmi3CompletedIntegratorStep(inst, True, C.byref(enter), C.byref(terminate)) == OK,
              "fmi3CompletedIntegratorStep")
        return enter.value

    def enter_event(self, inst):
        check(self.lib.fmi3EnterEventMode(inst) == OK, "fmi3EnterEventMode")

    def enter_continuous(self, inst):
        check(self.lib.fmi3EnterContinuousTimeMode(inst) == OK, "fmi3EnterContinuousTimeMode")

    def get(self, inst, refs):
        return self.base.get(inst, refs)


class Exchange2:
    """FMI 2.0 Model Exchange (standard section 3.2)."""

    class EventInfo(C.Structure):
        _fields_ = [("newDiscreteStatesNeeded", C.c_int), ("terminateSimulation", C.c_int),
                    ("nominalsOfContinuousStatesChanged", C.c_int), ("valuesOfContinuousStatesChanged", C.c_int),
                    ("nextEventTimeDefined", C.c_int), ("nextEventTime", C.c_double)]

    def __init__(self, binary):
        self.base = R.Fmi2(binary)
        f = self.lib = self.base.lib
        for name in ["fmi2EnterEventMode", "fmi2EnterContinuousTimeMode"]:
            getattr(f, name).argtypes = [C.c_void_p]
        f.fmi2SetTime.argtypes = [C.c_void_p, C.c_double]
        for name in ["fmi2SetContinuousStates", "fmi2GetDerivatives", "fmi2GetEventIndicators",
                     "fmi2GetContinuousStates", "fmi2GetNominalsOfContinuousStates"]:
            getattr(f, name).argtypes = [C.c_void_p, DOUBLES, C.c_size_t]
        f.fmi2CompletedIntegratorStep.argtypes = [C.c_void_p, C.c_int, C.POINTER(C.c_int), C.POINTER(C.c_int)]
        f.fmi2NewDiscreteStates.argtypes = [C.c_void_p, C.POINTER(Exchange2.EventInfo)]

    def instantiate(self, folder, guid):
        uri = ("file://" + os.path.join(folder, "resources")).encode()
        return self.lib.fmi2Instantiate(b"me2", 0, guid.encode(), uri, C.byref(R.CALLBACKS), 0, 0)

    def initialize(self, inst, stop):
        check(self.lib.fmi2SetupExperiment(inst, 0, 0.0, 0.0, 1, stop) == OK, "fmi2SetupExperiment")
        check(self.lib.fmi2EnterInitializationMode(inst) == OK, "fmi2EnterInitializationMode")
        check(self.lib.fmi2ExitInitializationMode(inst) == OK, "fmi2ExitInitializationMode: to Event Mode")

    def update(self, inst):
        changed = False
        while True:
            info = Exchange2.EventInfo()
            check(self.lib.fmi2NewDiscreteStates(inst, C.byref(info)) == OK, "fmi2NewDiscreteStates")
            changed = changed or info.valuesOfContinuousStatesChanged != 0
            if not info.newDiscreteStatesNeeded:
                return changed, info.terminateSimulation != 0, info.nextEventTime if info.nextEventTimeDefined else None

    def vector(self, name, inst, n):
        values = (C.c_double * max(1, n))()
        check(getattr(self.lib, name)(inst, values, n) == OK, name)
        return list(values)[:n]

    def set_point(self, inst, t, x):
        check(self.lib.fmi2SetTime(inst, t) == OK, "fmi2SetTime %r" % t)
        check(self.lib.fmi2SetContinuousStates(inst, array(x), len(x)) == OK, "fmi2SetContinuousStates")

    def derivatives(self, inst, n):
        return self.vector("fmi2GetDerivatives", inst, n)

    def indicators(self, inst, n):
        return self.vector("fmi2GetEventIndicators", inst, n)

    def states(self, inst, n):
        return self.vector("fmi2GetContinuousStates", inst, n)

    def completed(self, inst):
        enter, terminate = C.c_int(), C.c_int()
        check(self.lib.fmi2CompletedIntegratorStep(inst, 1, C.byref(enter), C.byref(terminate)) == OK,
              "fmi2CompletedIntegratorStep")
        return enter.value != 0

    def enter_event(self, inst):
        check(self.lib.fmi2EnterEventMode(inst) == OK, "fmi2EnterEventMode")

    def enter_continuous(self, inst):
        check(self.lib.fmi2EnterContinuousTimeMode(inst) == OK, "fmi2EnterContinuousTimeMode")

    def get(self, inst, refs):
        return self.base.get(inst, refs)


def rk4(me, inst, t, x, h, nx):
    """One classical Runge-Kutta step of the FMU's states from (t, x)."""
    def f(s, y):
        me.set_point(inst, s, y)
        return me.derivatives(inst, nx)
    k1 = f(t, x)
    k2 = f(t + h / 2, [a + h / 2 * b for a, b in zip(x, k1)])
    k3 = f(t + h / 2, [a + h / 2 * b for a, b in zip(x, k2)])
    k4 = f(t + h, [a + h * b for a, b in zip(x, k3)])
    return [a + h / 6 * (p + 2 * q + 2 * r + s) for a, p, q, r, s in zip(x, k1, k2, k3, k4)]


def crossed(z0, z1):
    return any((a > 0 and b <= 0) or (a < 0 and b >= 0) for a, b in zip(z0, z1))


def simulate(me, inst, stop, h, nx, nz, on_step=None):
    """The standard's importer loop; returns the times of the state events."""
    changed, terminate, next_time = me.update(inst)
    me.enter_continuous(inst)
    t, x = 0.0, me.states(inst, nx)
    me.set_point(inst, t, x)
    z = me.indicators(inst, nz)
    state_events = []
    while t < stop and not terminate:
        t1 = min(t + h, stop, next_time if next_time is not None else stop)
        x1 = rk4(me, inst, t, x, t1 - t, nx)
        me.set_point(inst, t1, x1)
        z1 = me.indicators(inst, nz)
        state_event = crossed(z, z1)
        if state_event:  # bisect to the first crossing, from t
            a, b = t, t1
            while b - a > 1e-13:
                m = (a + b) / 2
                xm = rk4(me, inst, t, x, m - t, nx)
                me.set_point(inst, m, xm)
                if crossed(z, me.indicators(inst, nz)):
                    b = m
                else:
                    a = m
            t1, x1 = b, rk4(me, inst, t, x, b - t, nx)
            me.set_point(inst, t1, x1)
            state_events.append(t1)
        time_event = next_time is not None and t1 == next_time
        step_event = me.completed(inst)
        t, x = t1, x1
        if on_step:
            on_step(t)
        if state_event or time_event or step_event:
            me.enter_event(inst)
            changed, terminate, next_time = me.update(inst)
            me.enter_continuous(inst)
            if changed:
                x = me.states(inst, nx)
            me.set_point(inst, t, x)
        z = me.indicators(inst, nz)
    return state_events


def ball(me, folder, token, root, fmi):
    inst = me.instantiate(folder, token)
    check(inst is not None, "FMI %d: Model Exchange instantiated: %s" % (fmi, last_error()))
    me.initialize(inst, 10.0)
    if fmi == 3:
        nx, nz = me.sizes(inst)
    else:  # FMI 2 says them in the model description
        nx, nz = len(root.find("ModelStructure").find("Derivatives")), int(root.get("numberOfEventIndicators"))
    check((nx, nz) == (2, 1), "two states and one indicator: %r" % ((nx, nz),))
    # Event Mode: the states are the importer's to read, not to set.
    check(getattr(me.lib, "fmi%dSetContinuousStates" % fmi)(inst, array([1, 2]), 2) == ERROR,
          "SetContinuousStates in Event Mode is refused")
    check("not allowed in Event Mode" in last_error(), "and says why: " + last_error())
    R.MESSAGES.clear()
    getattr(me.lib, "fmi%dReset" % fmi)(inst)
    me.initialize(inst, 10.0)
    impacts = simulate(me, inst, 10.0, 0.01, nx, nz)
    expected = R.ball_impacts(10.0)
    check(len(impacts) == len(expected) and all(abs(a - b) < 1e-9 for a, b in zip(impacts, expected)),
          "FMI %d ME: the impacts at the closed form's times %r: %r" % (fmi, expected, impacts))
    # Wrong sizes, and a function of the other interface.
    check(getattr(me.lib, "fmi%dGetEventIndicators" % fmi)(inst, array([0, 0]), 2) == ERROR,
          "two indicators asked of a model with one is refused")
    check("2 indicators, but the model has 1" in last_error(), "and says so: " + last_error())
    getattr(me.lib, "fmi%dFreeInstance" % fmi)(inst)
    inst = me.instantiate(folder, token)
    me.initialize(inst, 10.0)
    if fmi == 3:
        check(me.base.step(inst, 0.0, 0.1)[0] == ERROR, "fmi3DoStep of a Model Exchange instance is refused")
        check(me.lib.fmi3SetTime(inst, 0.5) == ERROR, "FMI 3: fmi3SetTime in Event Mode is refused")
    else:
        check(me.lib.fmi2DoStep(inst, 0.0, 0.1, 1) == ERROR, "fmi2DoStep of a Model Exchange instance is refused")
    getattr(me.lib, "fmi%dFreeInstance" % fmi)(inst)


def plant(me, folder, token, refs, fmi):
    """y' = 3 (u - 2 y): u = 1 to t = 1, then 2, set in Continuous-Time Mode (a continuous input)."""
    inst = me.instantiate(folder, token)
    check(me.base.set(inst, [refs["u"]], [1.0]) == OK, "the input's start value")
    me.initialize(inst, 2.0)

    def at_step(t):
        if abs(t - 1.0) < 1e-12:
            check(me.base.set(inst, [refs["u"]], [2.0]) == OK, "u set in Continuous-Time Mode")
    simulate(me, inst, 2.0, 0.01, 1, 0, on_step=at_step)
    y = me.get(inst, [refs["y"]])[1][0]
    y1 = 0.5 * (1 - math.exp(-6))
    want = 1 + (y1 - 1) * math.exp(-6)
    check(abs(y - want) < 1e-7, "FMI %d ME: y(2) = %r, the closed form %r" % (fmi, y, want))
    check(me.base.set(inst, [refs["a"]], [3.0]) == ERROR, "a fixed parameter after initialization is refused")
    getattr(me.lib, "fmi%dFreeInstance" % fmi)(inst)


def main():
    ctde, models, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    ball_model = os.path.join(models, os.pardir, os.pardir, os.pardir, "examples", "models", "bouncing_ball.json")
    plant_model = os.path.join(models, "plant.json")
    for fmi, kind in ((3, Exchange3), (2, Exchange2)):
        folder, binary, token, refs, root = R.unpacked(ctde, ball_model, os.path.join(scratch, "ball_me%d.fmu" % fmi),
                                                      fmi, "me")
        check(root.find("CoSimulation") is None, "--interface me: no <CoSimulation>")
        me = kind(binary)
        ball(me, folder, token, root, fmi)
        folder, binary, token, refs, root = R.unpacked(ctde, plant_model, os.path.join(scratch, "plant_me%d.fmu" % fmi),
                                                      fmi, "both")
        check(root.find("CoSimulation") is not None, "--interface both: <CoSimulation> too")
        plant(kind(binary), folder, token, refs, fmi)
    # A Model Exchange export instantiated for Co-Simulation: refused, saying why.
    folder, binary, token, refs, _ = R.unpacked(ctde, ball_model, os.path.join(scratch, "ball_only_me.fmu"), 3, "me")
    check(R.Fmi3(binary).instantiate(folder, token) is None, "Co-Simulation of an ME-only FMU is refused")
    check("offers Model Exchange only" in last_error(), "and says why: " + last_error())
    if R.FAILURES:
        print("%d checks failed" % len(R.FAILURES), file=sys.stderr)
        return 1
    print("fmi_exchange_runner: all %d checks held" % R.CHECKED[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
