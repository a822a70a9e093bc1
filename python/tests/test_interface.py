"""A model's interface (declared inputs, outputs, tunable parameters, units) from
Python: built with ctde.Model and read back by validate(), the same as the
model file written for the command; an input holds its start in a plain run."""

import json
import math
import os

import ctde


def plant():
    m = ctde.Model("plant", parameters={"a": 2, "gain": 3}, director={"stop_time": 2, "rtol": 1e-10, "atol": 1e-12},
                   inputs={"u": {"to": "sum.in0", "start": 1}}, outputs={"y": "x.out", "dy": "sum.out"},
                   tunable=["gain"], units={"u": "m/s", "y": "m", "dy": "m/s", "a": "1/s"})
    m.add("Sum", "sum", signs="+-")
    m.add("Gain", "k", k="a")
    m.add("Gain", "g", k="gain")
    m.add("Integrator", "x")
    for a, b in [("sum.out", "g.in"), ("g.out", "x.in"), ("x.out", "k.in"), ("k.out", "sum.in1")]:
        m.connect(a, b)
    return m


def test_validate_reports_the_interface_of_a_built_model_and_of_the_same_file():
    built = plant().validate()
    assert built["inputs"] == {"u": "u.out"}
    assert built["outputs"] == {"y": "x.out", "dy": "sum.out"}
    assert built["tunable"] == ["gain"]
    source = os.path.join(os.environ["CTDE_SOURCE_DIR"], "tests", "fmu_export", "models", "plant.json")
    loaded = ctde.load(source).validate()
    assert built["units"] == {"u": "m/s", "y": "m", "dy": "m/s", "a": "1/s"}
    for key in ("inputs", "outputs", "tunable", "units"):
        assert loaded[key] == built[key]
    assert json.loads(plant().to_json())["inputs"] == {"u": {"to": "sum.in0", "start": 1}}


def test_an_input_holds_its_start_in_a_plain_run():
    r = plant().run()
    assert r.status == "ok"
    # y' = 3 (1 - 2 y): y(2) = 0.5 (1 - e^-12)
    assert abs(r["x.out"][-1] - 0.5 * (1 - math.exp(-12))) < 1e-8
    assert (r["u.out"] == 1).all()
