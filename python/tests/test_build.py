"""Building models in Python through the registry: the same results as the
model file, bit for bit; to_json() is a file the command runs."""

import csv
import json
import subprocess

import numpy as np
import pytest

import ctde


def sampled_pi():
    """examples/models/sampled_pi.json, written in Python."""
    m = ctde.Model("sampled_pi", parameters={"a": 1.5, "b": 2, "T": 0.2, "kp": 0.8, "ki": 1.1, "r": 1},
                   director={"stop_time": 6, "rtol": 1e-9, "atol": 1e-12, "output_interval": 0.02},
                   outputs={"x": "plant.x.out", "u": "hold.out"})
    m.add("Constant", "ref", value="r")
    m.add("Sum", "error", signs="+-")
    m.add("PeriodicSampler", "sample", period="T")
    m.add("Accumulator", "sum_e")
    m.add("Gain", "integral", k="ki * T")
    m.add("Gain", "proportional", k="kp")
    m.add("Sum", "u", signs="++")
    m.add("ZeroOrderHold", "hold")
    plant = m.add("Composite", "plant")
    plant.add("Gain", "bu", k="b")
    plant.add("Gain", "ax", k="-a")
    plant.add("Sum", "dx", signs="++")
    plant.add("Integrator", "x")
    for a, b in [("bu.out", "dx.in0"), ("x.out", "ax.in"), ("ax.out", "dx.in1"), ("dx.out", "x.in")]:
        plant.connect(a, b)
    plant.input("u", "bu.in")
    plant.output("y", "x.out")
    for a, b in [("ref.out", "error.in0"), ("plant.y", "error.in1"), ("error.out", "sample.in"),
                 ("sample.out", "sum_e.in"), ("sum_e.out", "integral.in"), ("sample.out", "proportional.in"),
                 ("integral.out", "u.in0"), ("proportional.out", "u.in1"), ("u.out", "hold.in"),
                 ("hold.out", "plant.u")]:
        m.connect(a, b)
    m.record = ["plant.x.out", "hold.out", "u.out"]
    return m


def test_the_sampled_pi_built_in_python_equals_the_model_file_bit_for_bit(pi_path):
    built = sampled_pi().run()
    loaded = ctde.load(pi_path).run()
    assert built.status == loaded.status == "ok"
    assert built.columns == loaded.columns == ["plant.x.out", "hold.out", "u.out"]
    np.testing.assert_array_equal(built.time, loaded.time)
    np.testing.assert_array_equal(built.microstep, loaded.microstep)
    for name in built.columns:
        np.testing.assert_array_equal(built[name], loaded[name])
    assert built.stats == loaded.stats


def test_the_sampled_pi_settles_at_the_reference(pi_path):
    # Integral action: the plant's output reaches r = 1 (x' = -a x + b u, steady state at u = a r / b).
    r = ctde.load(pi_path).run(stop_time=30)
    assert r["plant.x.out"][-1] == pytest.approx(1.0, abs=1e-9)
    assert r["hold.out"][-1] == pytest.approx(1.5 / 2, abs=1e-9)


def test_to_json_is_the_model_file_as_the_loader_reads_it(pi_path):
    assert json.loads(sampled_pi().to_json()) | {"description": None} == \
        json.loads(pi_path.read_text()) | {"description": None}


def test_the_command_runs_what_to_json_writes(tmp_path, cli):
    m = ctde.Model("ramp", director={"stop_time": 2, "output_interval": 0.5})
    m.add("Constant", "slope", value=2.0)
    m.add("Integrator", "x")
    m.connect("slope.out", "x.in")
    m.record = ["x.out"]
    path = tmp_path / "ramp.json"
    path.write_text(m.to_json())
    out = tmp_path / "ramp.csv"
    subprocess.run([cli, "run", str(path), "-o", str(out), "--quiet"], check=True)
    with open(out) as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["time", "microstep", "x.out"]
    from_cli = np.array([[float(v) for v in row] for row in rows[1:]])
    r = m.run()
    np.testing.assert_array_equal(from_cli[:, 0], r.time)
    np.testing.assert_array_equal(from_cli[:, 2], r["x.out"])
    np.testing.assert_allclose(r["x.out"], 2 * r.time, rtol=1e-12, atol=1e-12)  # x = 2 t


def test_unknown_parameters_and_duplicate_names_are_refused_at_add():
    m = ctde.Model("m")
    with pytest.raises(ctde.ModelError, match=r"actor 'g' \(Gain\) has no parameter 'gain'; its parameters: k"):
        m.add("Gain", "g", gain=2)
    m.add("Gain", "g", k=2)
    with pytest.raises(ctde.ModelError, match="an actor named 'g' is already there"):
        m.add("Constant", "g")
    with pytest.raises(ctde.ModelError, match="time_mode"):
        m.add("Gain", "h", time_mode="sometimes")


def test_names_of_every_kind_of_actor_are_refused_again_in_their_own_network_only():
    m = ctde.Model("m")
    for i in range(1000):
        m.add("Gain", f"g{i}")
    plant = m.add("Composite", "plant")
    plant.add("Gain", "g0")  # a composite's names are its own
    for name in ("g0", "g999", "plant"):
        with pytest.raises(ctde.ModelError, match=f"^model 'm': an actor named '{name}' is already there$"):
            m.add("Constant", name)
    with pytest.raises(ctde.ModelError, match="^composite 'plant': an actor named 'g0' is already there$"):
        plant.add("Gain", "g0")
    with pytest.raises(ctde.ModelError, match="has no parameter"):
        m.add("Gain", "late", gain=1)
    m.add("Gain", "late")  # a refused add keeps no name
    assert repr(m) == "<ctde.Model 'm': 1002 actors>"


def test_time_mode_and_lists_reach_the_model_file():
    m = ctde.Model("m", director={"stop_time": 1})
    m.add("Constant", "c", value=np.array([1.0, 2.0]))
    m.add("Gain", "g", k=3, time_mode="continuous")
    m.connect("c.out", "g.in")
    d = m.to_dict()
    assert d["actors"][0] == {"name": "c", "type": "Constant", "params": {"value": [1.0, 2.0]}}
    assert d["actors"][1]["time_mode"] == "continuous"
    r = m.run()
    assert r.columns == ["c.out[0]", "c.out[1]", "g.out[0]", "g.out[1]"]
    np.testing.assert_array_equal(r["g.out"][-1], [3.0, 6.0])


def test_types_and_describe_read_the_registry():
    types = ctde.types()
    names = [t["type"] for t in types]
    assert names == sorted(names) and {"Gain", "Integrator", "ZeroCrossingDetector"} <= set(names)
    assert all(set(t) == {"type", "family", "summary"} and t["summary"] for t in types)
    gain = ctde.describe("Gain")
    assert gain["family"] == "math" and gain["time_mode"] == "polymorphic"
    assert gain["inputs"] == [{"name": "in", "kind": "polymorphic", "width": None, "optional": False}]
    assert gain["outputs"] == [{"name": "out", "kind": "polymorphic", "width": None}]
    assert [p["name"] for p in gain["parameters"]] == ["k"]
    zcd = ctde.describe("ZeroCrossingDetector")
    assert zcd["outputs"][0]["kind"] == "discrete"
    assert zcd["parameters"] == [
        {"name": "direction", "kind": "string", "default": "both", "required": False},
        {"name": "value", "kind": "scalar", "default": None, "required": False},  # optional, no default
    ]
    total = ctde.describe("Sum")
    assert total["inputs"][-1]["name"] == "in<i>" and total["inputs"][-1]["numbered"] is True


def test_every_type_is_described_and_its_sample_builds_a_valid_actor():
    for t in ctde.types():
        d = ctde.describe(t["type"])
        assert d["type"] == t["type"] and d["summary"] == t["summary"]
        m = ctde.Model("sample")
        m.add(t["type"], "a", **d["sample_params"])  # every sample parameter is a declared one
        required = {p["name"] for p in d["parameters"] if p["required"]}
        assert required <= set(d["sample_params"])


def test_the_command_describes_what_python_describes(cli):
    out = subprocess.run([cli, "describe", "Gain"], check=True, capture_output=True, text=True).stdout
    assert json.loads(out) == ctde.describe("Gain")
    listed = subprocess.run([cli, "types", "--json"], check=True, capture_output=True, text=True).stdout
    assert json.loads(listed) == ctde.types()
    table = subprocess.run([cli, "types"], check=True, capture_output=True, text=True).stdout.splitlines()
    assert len(table) == len(ctde.types()) and table[0].split()[0] == ctde.types()[0]["type"]
    bad = subprocess.run([cli, "describe", "Gan"], capture_output=True, text=True)
    assert bad.returncode == 2 and "did you mean 'Gain'" in bad.stderr
