#!/usr/bin/env python3
"""A minimal, strict FMI runner for ctde's exported FMUs (ctest `fmu_runner`).

Written from the FMI 3.0 and 2.0 standards' text, independently of ctde's
own importer: it loads an exported FMU's binary with ctypes, calls the
Co-Simulation functions in the order the state machines allow, checks every
status, and checks that the FMU refuses what the standard forbids (a call in
the wrong mode, a variable of the wrong causality, a step from the wrong
communication point, a wrong instantiation token), with a logged reason.

    fmi_runner.py CTDE MODEL_DIR SCRATCH

CTDE is the ctde command (it exports the models), MODEL_DIR holds plant.json
and stopper.json, SCRATCH is a folder to work in. Exit 0: every check held.
"""
import ctypes as C
import math
import os
import subprocess
import sys
import zipfile
import xml.etree.ElementTree as ET

OK, WARNING, DISCARD, ERROR = 0, 1, 2, 3
FAILURES = []
MESSAGES = []
CHECKED = [0]


def check(condition, what):
    CHECKED[0] += 1
    if not condition:
        FAILURES.append(what)
        print("FAILED:", what, file=sys.stderr)


def unpacked(ctde, model, fmu, fmi, interface="cs"):
    """Exports `model` as `fmu` and unpacks it beside: (folder, binary, token, value references, description root)."""
    subprocess.run([ctde, "export", model, "-o", fmu, "--fmi", str(fmi), "--interface", interface], check=True,
                   capture_output=True)
    folder = fmu[:-4]
    with zipfile.ZipFile(fmu) as archive:
        archive.extractall(folder)
    root = ET.parse(os.path.join(folder, "modelDescription.xml")).getroot()
    refs = {v.get("name"): int(v.get("valueReference")) for v in root.iter("Float64" if fmi == 3 else "ScalarVariable")}
    identifier = root.find("CoSimulation" if interface == "cs" else "ModelExchange").get("modelIdentifier")
    platform = "x86_64-linux" if fmi == 3 else "linux64"
    binary = os.path.join(folder, "binaries", platform, identifier + ".so")
    token = root.get("instantiationToken" if fmi == 3 else "guid")
    return folder, binary, token, refs, root


def export(ctde, model, fmu, fmi):
    return unpacked(ctde, model, fmu, fmi)[:4]


# ---- FMI 3.0 (section 2.3 of the standard: the functions and their arguments)

LOG3 = C.CFUNCTYPE(None, C.c_void_p, C.c_int, C.c_char_p, C.c_char_p)


@LOG3
def log3(env, status, category, message):
    MESSAGES.append((status, category.decode(), message.decode()))


class Fmi3:
    def __init__(self, binary):
        self.lib = C.CDLL(binary, mode=os.RTLD_LOCAL)
        f = self.lib
        f.fmi3GetVersion.restype = C.c_char_p
        f.fmi3InstantiateCoSimulation.restype = C.c_void_p
        f.fmi3InstantiateCoSimulation.argtypes = [C.c_char_p, C.c_char_p, C.c_char_p, C.c_bool, C.c_bool, C.c_bool,
                                                  C.c_bool, C.c_void_p, C.c_size_t, C.c_void_p, LOG3, C.c_void_p]
        f.fmi3FreeInstance.argtypes = [C.c_void_p]
        f.fmi3FreeInstance.restype = None
        f.fmi3EnterInitializationMode.argtypes = [C.c_void_p, C.c_bool, C.c_double, C.c_double, C.c_bool, C.c_double]
        for name in ["fmi3ExitInitializationMode", "fmi3Terminate", "fmi3Reset", "fmi3EnterEventMode"]:
            getattr(f, name).argtypes = [C.c_void_p]
        f.fmi3GetFloat64.argtypes = [C.c_void_p, C.POINTER(C.c_uint32), C.c_size_t, C.POINTER(C.c_double), C.c_size_t]
        f.fmi3SetFloat64.argtypes = f.fmi3GetFloat64.argtypes
        f.fmi3GetInt32.argtypes = [C.c_void_p, C.POINTER(C.c_uint32), C.c_size_t, C.POINTER(C.c_int32), C.c_size_t]
        f.fmi3DoStep.argtypes = [C.c_void_p, C.c_double, C.c_double, C.c_bool, C.POINTER(C.c_bool),
                                 C.POINTER(C.c_bool), C.POINTER(C.c_bool), C.POINTER(C.c_double)]
        f.fmi3GetFMUState.argtypes = [C.c_void_p, C.POINTER(C.c_void_p)]
        f.fmi3SetFMUState.argtypes = [C.c_void_p, C.c_void_p]
        f.fmi3FreeFMUState.argtypes = [C.c_void_p, C.POINTER(C.c_void_p)]
        f.fmi3SerializedFMUStateSize.argtypes = [C.c_void_p, C.c_void_p, C.POINTER(C.c_size_t)]
        f.fmi3SerializeFMUState.argtypes = [C.c_void_p, C.c_void_p, C.POINTER(C.c_uint8), C.c_size_t]
        f.fmi3DeserializeFMUState.argtypes = [C.c_void_p, C.POINTER(C.c_uint8), C.c_size_t, C.POINTER(C.c_void_p)]

    def instantiate(self, folder, token, name="runner", early_return_allowed=False):
        resources = (os.path.join(folder, "resources") + os.sep).encode()
        return self.lib.fmi3InstantiateCoSimulation(name.encode(), token.encode(), resources, False, False, False,
                                                    early_return_allowed, None, 0, None, log3, None)

    def get(self, inst, refs):
        vr = (C.c_uint32 * len(refs))(*refs)
        values = (C.c_double * len(refs))()
        status = self.lib.fmi3GetFloat64(inst, vr, len(refs), values, len(refs))
        return status, list(values)

    def set(self, inst, refs, values):
        vr = (C.c_uint32 * len(refs))(*refs)
        vals = (C.c_double * len(values))(*values)
        return self.lib.fmi3SetFloat64(inst, vr, len(refs), vals, len(values))

    def step(self, inst, t, h):
        handling, terminate, early, last = C.c_bool(), C.c_bool(), C.c_bool(), C.c_double()
        status = self.lib.fmi3DoStep(inst, t, h, False, C.byref(handling), C.byref(terminate), C.byref(early),
                                     C.byref(last))
        return status, terminate.value, last.value

    def step_early(self, inst, t, h):
        """DoStep: status, earlyReturn, lastSuccessfulTime."""
        handling, terminate, early, last = C.c_bool(), C.c_bool(), C.c_bool(), C.c_double()
        status = self.lib.fmi3DoStep(inst, t, h, False, C.byref(handling), C.byref(terminate), C.byref(early),
                                     C.byref(last))
        check(not handling.value, "eventHandlingNeeded stays false (no event mode)")
        return status, early.value, last.value


def ball_impacts(stop):
    """The bouncing ball's impact times up to `stop` (examples/models/bouncing_ball.json:
    g 9.81, e 0.8, dropped from 10 m at rest): t1 = sqrt(2 h0 / g), then flights of 2 e^k v1 / g."""
    g, e, h0 = 9.81, 0.8, 10.0
    t = math.sqrt(2 * h0 / g)
    v = g * t
    times = []
    while t <= stop:
        times.append(t)
        v *= e
        t += 2 * v / g
    return times


def fmi3_early_return(fmi, folder, token, refs):
    """With earlyReturnAllowed, a step of 0.5 s returns at each impact inside it; without, never."""
    for allowed in (True, False):
        inst = fmi.instantiate(folder, token, early_return_allowed=allowed)
        check(fmi.lib.fmi3EnterInitializationMode(inst, False, 0.0, 0.0, True, 10.0) == OK, "EnterInitializationMode")
        check(fmi.lib.fmi3ExitInitializationMode(inst) == OK, "ExitInitializationMode")
        t, returns = 0.0, []
        while t < 10.0:
            status, early, last = fmi.step_early(inst, t, min(0.5, 10.0 - t))
            check(status == OK, "DoStep from %g" % t)
            if early:
                returns.append(last)
                height = fmi.get(inst, [refs["h"]])[1][0]
                check(abs(height) < 1e-9, "h = 0 at the early return at %r: %r" % (last, height))
            t = last
        fmi.lib.fmi3FreeInstance(inst)
        if not allowed:
            check(returns == [], "no early return unless allowed: %r" % returns)
            continue
        impacts = ball_impacts(10.0)
        check(len(returns) == len(impacts) and all(abs(a - b) < 1e-9 for a, b in zip(returns, impacts)),
              "early returns at the impacts %r: %r" % (impacts, returns))


def last_error():
    errors = [m for m in MESSAGES if m[0] == ERROR]
    return errors[-1][2] if errors else ""


def fmi3_refusals(fmi, folder, token, refs):
    check(fmi.lib.fmi3GetVersion() == b"3.0", "fmi3GetVersion is 3.0")
    check(fmi.instantiate(folder, "{not-the-token}") is None, "a wrong instantiation token is refused")
    check("instantiation token" in last_error(), "the refusal of the token is logged: " + last_error())
    inst = fmi.instantiate(folder, token)
    check(fmi.step(inst, 0, 0.1)[0] == ERROR, "fmi3DoStep in Instantiated is refused")
    check("not allowed in Instantiated" in last_error(), "the refused step is logged: " + last_error())
    check(fmi.lib.fmi3ExitInitializationMode(inst) == ERROR, "after an error only Reset and Free are allowed")
    check(fmi.lib.fmi3Reset(inst) == OK, "fmi3Reset in the error state")
    check(fmi.set(inst, [refs["y"]], [1.0]) == ERROR, "an output cannot be set")
    check("causality output" in last_error(), "the refused set names the causality: " + last_error())
    fmi.lib.fmi3Reset(inst)
    check(fmi.lib.fmi3EnterInitializationMode(inst, False, 0.0, 0.0, True, 4.0) == OK, "EnterInitializationMode")
    check(fmi.lib.fmi3ExitInitializationMode(inst) == OK, "ExitInitializationMode")
    check(fmi.set(inst, [refs["a"]], [5.0]) == ERROR, "a fixed parameter cannot be set in Step Mode")
    fmi.lib.fmi3Reset(inst)
    fmi.lib.fmi3EnterInitializationMode(inst, False, 0.0, 0.0, True, 4.0)
    fmi.lib.fmi3ExitInitializationMode(inst)
    check(fmi.step(inst, 0.5, 0.1)[0] == ERROR, "a step from another communication point is refused")
    check("not where the last step ended" in last_error(), "the refused step says why: " + last_error())
    fmi.lib.fmi3Reset(inst)
    vr = (C.c_uint32 * 1)(refs["y"])
    values = (C.c_int32 * 1)()
    fmi.lib.fmi3EnterInitializationMode(inst, False, 0.0, 0.0, True, 4.0)
    check(fmi.lib.fmi3GetInt32(inst, vr, 1, values, 1) == ERROR, "an Int32 get of a Float64 variable is refused")
    fmi.lib.fmi3FreeInstance(inst)


def fmi3_run(fmi, folder, token, refs):
    inst = fmi.instantiate(folder, token)
    check(fmi.set(inst, [refs["u"]], [1.0]) == OK, "an input's start value set in Instantiated")
    check(fmi.lib.fmi3EnterInitializationMode(inst, False, 0.0, 0.0, True, 4.0) == OK, "EnterInitializationMode")
    status, (y0,) = fmi.get(inst, [refs["y"]])
    check(status == OK and y0 == 0.0, "y(0) = 0 in Initialization Mode")
    check(fmi.lib.fmi3ExitInitializationMode(inst) == OK, "ExitInitializationMode")
    t, h = 0.0, 0.1
    for _ in range(20):  # to t = 2: y = 0.5 (1 - e^{-6t})
        status, terminate, last = fmi.step(inst, t, h)
        t = last
        check(status == OK and not terminate, "DoStep to %g" % t)
    status, (y2, dy2) = fmi.get(inst, [refs["y"], refs["dy"]])
    check(abs(y2 - 0.5 * (1 - math.exp(-12))) < 1e-8, "y(2) = 0.5 (1 - e^-12), got %r" % y2)
    check(abs(dy2 - (1 - 2 * y2)) < 1e-9, "dy = u - a y")
    # Rollback: the state at t = 2, three steps, back, the same three steps: the same values, bit for bit.
    state = C.c_void_p()
    check(fmi.lib.fmi3GetFMUState(inst, C.byref(state)) == OK, "fmi3GetFMUState")
    first = []
    for k in range(3):
        fmi.step(inst, 2 + 0.1 * k, h)
        first.append(fmi.get(inst, [refs["y"]])[1][0])
    check(fmi.lib.fmi3SetFMUState(inst, state) == OK, "fmi3SetFMUState")
    again = []
    for k in range(3):
        status = fmi.step(inst, 2 + 0.1 * k, h)[0]
        check(status == OK, "a step after the rollback")
        again.append(fmi.get(inst, [refs["y"]])[1][0])
    check(first == again, "the steps after a rollback give the same values: %r %r" % (first, again))
    size = C.c_size_t()
    check(fmi.lib.fmi3SerializedFMUStateSize(inst, state, C.byref(size)) == OK and size.value > 0, "state size")
    data = (C.c_uint8 * size.value)()
    check(fmi.lib.fmi3SerializeFMUState(inst, state, data, size.value) == OK, "fmi3SerializeFMUState")
    copy = C.c_void_p()
    check(fmi.lib.fmi3DeserializeFMUState(inst, data, size.value, C.byref(copy)) == OK, "fmi3DeserializeFMUState")
    check(fmi.lib.fmi3SetFMUState(inst, copy) == OK, "fmi3SetFMUState of the deserialized state")
    fmi.step(inst, 2.0, h)
    check(fmi.get(inst, [refs["y"]])[1][0] == first[0], "the deserialized state goes on as the saved one")
    fmi.lib.fmi3FreeFMUState(inst, C.byref(state))
    fmi.lib.fmi3FreeFMUState(inst, C.byref(copy))
    check(state.value is None, "fmi3FreeFMUState clears the pointer")
    # A tunable parameter between steps: gain 3 -> 6 at t = 2.1, then y = 0.5 + (y - 0.5) e^{-12 (t - 2.1)}.
    t = 2.1
    y = fmi.get(inst, [refs["y"]])[1][0]
    check(fmi.set(inst, [refs["gain"]], [6.0]) == OK, "a tunable parameter set in Step Mode")
    for k in range(5):
        fmi.step(inst, t + 0.1 * k, h)
    y_end = fmi.get(inst, [refs["y"]])[1][0]
    check(abs(y_end - (0.5 + (y - 0.5) * math.exp(-12 * 0.5))) < 1e-8, "gain 6 after the change: %r" % y_end)
    check(fmi.lib.fmi3Terminate(inst) == OK, "fmi3Terminate")
    check(fmi.get(inst, [refs["y"]])[0] == OK, "Get after Terminate")
    fmi.lib.fmi3FreeInstance(inst)


def fmi3_reset_parameters(fmi, folder, token, refs):
    """A parameter set before initialization, then fmi3Reset: the next run has the start values again."""
    inst = fmi.instantiate(folder, token)
    expected = {3.0: 0.5 * (1 - math.exp(-6)), 6.0: 0.5 * (1 - math.exp(-12))}  # y(1), u = 1, a = 2
    for gain in (6.0, None):
        if gain is not None:
            check(fmi.set(inst, [refs["gain"]], [gain]) == OK, "gain set in Instantiated")
        check(fmi.lib.fmi3EnterInitializationMode(inst, False, 0.0, 0.0, True, 4.0) == OK, "EnterInitializationMode")
        check(fmi.lib.fmi3ExitInitializationMode(inst) == OK, "ExitInitializationMode")
        t = 0.0
        for _ in range(10):
            t = fmi.step(inst, t, 0.1)[2]
        y = fmi.get(inst, [refs["y"]])[1][0]
        want = expected[gain if gain is not None else 3.0]
        check(abs(y - want) < 1e-8, "y(1) with gain %s: %r, expected %r" % (gain or "at its start 3", y, want))
        check(fmi.lib.fmi3Reset(inst) == OK, "fmi3Reset")
    fmi.lib.fmi3FreeInstance(inst)


def fmi3_stopper(fmi, folder, token, refs):
    inst = fmi.instantiate(folder, token)
    fmi.lib.fmi3EnterInitializationMode(inst, False, 0.0, 0.0, False, 0.0)
    fmi.lib.fmi3ExitInitializationMode(inst)
    status, terminate, last = fmi.step(inst, 0.0, 1.0)
    check(status == OK and terminate, "a Stop inside the step: terminateSimulation")
    check(abs(last - 0.5) < 1e-9, "lastSuccessfulTime is the Stop's time 0.5, got %r" % last)
    check(fmi.step(inst, last, 0.1)[0] == ERROR, "no step after the run ended")
    fmi.lib.fmi3FreeInstance(inst)


# ---- FMI 2.0 (section 2.1: the functions; 4.2: Co-Simulation)

LOG2 = C.CFUNCTYPE(None, C.c_void_p, C.c_char_p, C.c_int, C.c_char_p, C.c_char_p, C.c_char_p)


@LOG2
def log2(env, name, status, category, message, argument):
    text = message.decode()
    if text == "%s":  # the logger is printf-like: the FMU passes its text as the argument
        text = argument.decode()
    MESSAGES.append((status, category.decode(), text))


class Callbacks(C.Structure):
    _fields_ = [("logger", LOG2), ("allocateMemory", C.c_void_p), ("freeMemory", C.c_void_p),
                ("stepFinished", C.c_void_p), ("componentEnvironment", C.c_void_p)]


CALLBACKS = Callbacks(log2, None, None, None, None)


class Fmi2:
    def __init__(self, binary):
        self.lib = C.CDLL(binary, mode=os.RTLD_LOCAL)
        f = self.lib
        f.fmi2GetVersion.restype = C.c_char_p
        f.fmi2Instantiate.restype = C.c_void_p
        f.fmi2Instantiate.argtypes = [C.c_char_p, C.c_int, C.c_char_p, C.c_char_p, C.POINTER(Callbacks), C.c_int,
                                      C.c_int]
        f.fmi2FreeInstance.argtypes = [C.c_void_p]
        f.fmi2FreeInstance.restype = None
        f.fmi2SetupExperiment.argtypes = [C.c_void_p, C.c_int, C.c_double, C.c_double, C.c_int, C.c_double]
        for name in ["fmi2EnterInitializationMode", "fmi2ExitInitializationMode", "fmi2Terminate", "fmi2Reset"]:
            getattr(f, name).argtypes = [C.c_void_p]
        f.fmi2GetReal.argtypes = [C.c_void_p, C.POINTER(C.c_uint), C.c_size_t, C.POINTER(C.c_double)]
        f.fmi2SetReal.argtypes = f.fmi2GetReal.argtypes
        f.fmi2DoStep.argtypes = [C.c_void_p, C.c_double, C.c_double, C.c_int]
        f.fmi2GetBooleanStatus.argtypes = [C.c_void_p, C.c_int, C.POINTER(C.c_int)]
        f.fmi2GetRealStatus.argtypes = [C.c_void_p, C.c_int, C.POINTER(C.c_double)]
        f.fmi2GetFMUstate.argtypes = [C.c_void_p, C.POINTER(C.c_void_p)]
        f.fmi2SetFMUstate.argtypes = [C.c_void_p, C.c_void_p]
        f.fmi2FreeFMUstate.argtypes = [C.c_void_p, C.POINTER(C.c_void_p)]

    def instantiate(self, folder, guid):
        uri = ("file://" + os.path.join(folder, "resources")).encode()
        return self.lib.fmi2Instantiate(b"runner2", 1, guid.encode(), uri, C.byref(CALLBACKS), 0, 0)

    def get(self, inst, refs):
        vr = (C.c_uint * len(refs))(*refs)
        values = (C.c_double * len(refs))()
        return self.lib.fmi2GetReal(inst, vr, len(refs), values), list(values)

    def set(self, inst, refs, values):
        vr = (C.c_uint * len(refs))(*refs)
        return self.lib.fmi2SetReal(inst, vr, len(refs), (C.c_double * len(values))(*values))


def fmi2_run(fmi, folder, guid, refs):
    check(fmi.lib.fmi2GetVersion() == b"2.0", "fmi2GetVersion is 2.0")
    check(fmi.instantiate(folder, "{wrong}") is None, "a wrong GUID is refused")
    inst = fmi.instantiate(folder, guid)
    check(fmi.lib.fmi2EnterInitializationMode(inst) == ERROR, "EnterInitializationMode before SetupExperiment")
    check("fmi2SetupExperiment" in last_error(), "the refusal says why: " + last_error())
    fmi.lib.fmi2Reset(inst)
    check(fmi.lib.fmi2SetupExperiment(inst, 0, 0.0, 0.0, 1, 4.0) == OK, "fmi2SetupExperiment")
    check(fmi.set(inst, [refs["u"]], [1.0]) == OK, "an input's start value")
    check(fmi.lib.fmi2EnterInitializationMode(inst) == OK, "fmi2EnterInitializationMode")
    check(fmi.lib.fmi2DoStep(inst, 0.0, 0.1, 1) == ERROR, "fmi2DoStep in Initialization Mode is refused")
    fmi.lib.fmi2Reset(inst)
    fmi.lib.fmi2SetupExperiment(inst, 0, 0.0, 0.0, 1, 4.0)
    fmi.lib.fmi2EnterInitializationMode(inst)
    check(fmi.lib.fmi2ExitInitializationMode(inst) == OK, "fmi2ExitInitializationMode")
    for k in range(20):
        check(fmi.lib.fmi2DoStep(inst, 0.1 * k, 0.1, 1) == OK, "fmi2DoStep %d" % k)
    status, (y,) = fmi.get(inst, [refs["y"]])
    check(abs(y - 0.5 * (1 - math.exp(-12))) < 1e-8, "FMI 2: y(2) = 0.5 (1 - e^-12), got %r" % y)
    state = C.c_void_p()
    check(fmi.lib.fmi2GetFMUstate(inst, C.byref(state)) == OK, "fmi2GetFMUstate")
    fmi.lib.fmi2DoStep(inst, 2.0, 0.1, 0)
    first = fmi.get(inst, [refs["y"]])[1][0]
    check(fmi.lib.fmi2SetFMUstate(inst, state) == OK, "fmi2SetFMUstate")
    fmi.lib.fmi2DoStep(inst, 2.0, 0.1, 0)
    check(fmi.get(inst, [refs["y"]])[1][0] == first, "FMI 2: the step after a rollback is the same")
    fmi.lib.fmi2FreeFMUstate(inst, C.byref(state))
    terminated = C.c_int(5)
    check(fmi.lib.fmi2GetBooleanStatus(inst, 3, C.byref(terminated)) == OK and terminated.value == 0,
          "fmi2Terminated is false while the run goes on")
    check(fmi.lib.fmi2Terminate(inst) == OK, "fmi2Terminate")
    fmi.lib.fmi2FreeInstance(inst)


def fmi2_stopper(fmi, folder, guid):
    inst = fmi.instantiate(folder, guid)
    fmi.lib.fmi2SetupExperiment(inst, 0, 0.0, 0.0, 0, 0.0)
    fmi.lib.fmi2EnterInitializationMode(inst)
    fmi.lib.fmi2ExitInitializationMode(inst)
    check(fmi.lib.fmi2DoStep(inst, 0.0, 1.0, 1) == DISCARD, "FMI 2: a Stop inside the step returns fmi2Discard")
    terminated, last = C.c_int(0), C.c_double()
    check(fmi.lib.fmi2GetBooleanStatus(inst, 3, C.byref(terminated)) == OK and terminated.value == 1,
          "fmi2Terminated after the Stop")
    check(fmi.lib.fmi2GetRealStatus(inst, 2, C.byref(last)) == OK and abs(last.value - 0.5) < 1e-9,
          "fmi2LastSuccessfulTime is 0.5, got %r" % last.value)
    fmi.lib.fmi2FreeInstance(inst)


def main():
    ctde, models, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    plant, stopper = os.path.join(models, "plant.json"), os.path.join(models, "stopper.json")
    folder, binary, token, refs = export(ctde, plant, os.path.join(scratch, "plant3.fmu"), 3)
    fmi = Fmi3(binary)
    fmi3_refusals(fmi, folder, token, refs)
    fmi3_run(fmi, folder, token, refs)
    fmi3_reset_parameters(fmi, folder, token, refs)
    folder, binary, token, refs = export(ctde, stopper, os.path.join(scratch, "stopper3.fmu"), 3)
    fmi3_stopper(Fmi3(binary), folder, token, refs)
    ball = os.path.join(models, os.pardir, os.pardir, os.pardir, "examples", "models", "bouncing_ball.json")
    folder, binary, token, refs = export(ctde, ball, os.path.join(scratch, "ball3.fmu"), 3)
    fmi3_early_return(Fmi3(binary), folder, token, refs)
    folder, binary, guid, refs = export(ctde, plant, os.path.join(scratch, "plant2.fmu"), 2)
    fmi2_run(Fmi2(binary), folder, guid, refs)
    folder, binary, guid, refs = export(ctde, stopper, os.path.join(scratch, "stopper2.fmu"), 2)
    fmi2_stopper(Fmi2(binary), folder, guid)
    if FAILURES:
        print("%d checks failed" % len(FAILURES), file=sys.stderr)
        return 1
    print("fmi_runner: all %d checks held" % CHECKED[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
