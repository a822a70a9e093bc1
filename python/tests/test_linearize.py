"""Linearization from Python (Model.linearize) and the files of
`ctde linearize -o`: against a pendulum's closed form, and the three file
formats read back alike."""

import json
import math
import subprocess

import numpy as np
import pytest
import scipy.io

import ctde


def pendulum(theta0):
    m = ctde.Model("pendulum", director={"stop_time": 1})
    m.add("Integrator", "theta", initial=theta0)
    m.add("Integrator", "omega")
    m.add("Expression", "f", expr="-9.81 * sin(in0)")
    m.connect("theta.out", "f.in0")
    m.connect("f.out", "omega.in")
    m.connect("omega.out", "theta.in")
    m.add("Gain", "twice", k=2.0)
    m.connect("theta.out", "twice.in")
    return m


def test_a_pendulum_linearizes_to_its_closed_form_at_the_bottom_and_the_top():
    bottom = pendulum(0.0).linearize(outputs=["theta.out"])
    assert bottom.states == ["theta", "omega"]
    assert bottom.outputs == ["theta.out"]
    np.testing.assert_allclose(bottom.A, [[0, 1], [-9.81, 0]], atol=1e-8)
    np.testing.assert_allclose(bottom.C, [[1, 0]], atol=1e-8)
    assert bottom.B.shape == (2, 0) and bottom.D.shape == (1, 0)
    np.testing.assert_allclose(sorted(bottom.eigenvalues.imag), [-math.sqrt(9.81), math.sqrt(9.81)], atol=1e-7)
    top = pendulum(math.pi).linearize(inputs=["twice.in"], outputs=["twice.out"])
    np.testing.assert_allclose(top.A, [[0, 1], [9.81, 0]], atol=1e-8)
    np.testing.assert_allclose(top.D, [[2.0]], atol=1e-8)
    np.testing.assert_allclose(top.eigenvalues.real, [-math.sqrt(9.81), math.sqrt(9.81)], atol=1e-7)


def test_linearize_after_a_run_and_its_errors():
    lin = pendulum(0.5).linearize(at=0.25)
    assert lin.time == 0.25
    theta = lin.A[1, 0]
    assert -9.81 < theta < 0  # -9.81 cos(theta(0.25)), theta still in (0, pi/2)
    with pytest.raises(ctde.ModelError, match="linearize: actor 'theta' has no input 'nope'"):
        pendulum(0).linearize(inputs=["theta.nope"])
    with pytest.raises(TypeError, match="inputs must be a list"):
        pendulum(0).linearize(inputs="theta.in")


@pytest.fixture
def statespace(tmp_path):
    path = tmp_path / "ss.json"
    path.write_text(json.dumps({
        "ctde": 1, "name": "ss", "director": {"stop_time": 5},
        "actors": [{"name": "u", "type": "Step", "params": {"time": 1, "after": 1}},
                   {"name": "p", "type": "StateSpace", "params": {"A": [[0, 1], [-4, -0.4]], "B": [[0], [1]],
                                                                   "C": [[1, 0]], "D": [[0.5]], "initial": [1, 0]}}],
        "connections": [["u.out", "p.in"]], "record": ["p.out"]}))
    return path


def test_ctde_linearize_writes_json_mat_and_npz_alike(statespace, tmp_path, cli):
    found = {}
    for ext in ("json", "mat", "npz"):
        out = tmp_path / f"lin.{ext}"
        run = subprocess.run([cli, "linearize", str(statespace), "--at", "2", "--inputs", "p.in", "-o", str(out)],
                             capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith("linearized at t = 2 s: 2 states, 1 inputs, 1 outputs\n")
        if ext == "json":
            d = json.loads(out.read_text())
            found[ext] = {k: np.array(d[k]) for k in "ABCD"} | {
                "states": d["states"], "eigenvalues": np.array([complex(re, im) for re, im in d["eigenvalues"]])}
        elif ext == "mat":
            d = scipy.io.loadmat(out)
            found[ext] = {k: d[k] for k in "ABCD"} | {
                "states": [str(s[0][0]) for s in d["states"]], "eigenvalues": d["eigenvalues"].ravel()}
        else:
            d = np.load(out)
            found[ext] = {k: d[k] for k in "ABCD"} | {"states": list(d["states"]), "eigenvalues": d["eigenvalues"]}
    for ext, d in found.items():
        np.testing.assert_allclose(d["A"], [[0, 1], [-4, -0.4]], atol=1e-8, err_msg=ext)
        np.testing.assert_allclose(d["B"], [[0], [1]], atol=1e-8, err_msg=ext)
        np.testing.assert_allclose(d["C"], [[1, 0]], atol=1e-8, err_msg=ext)
        np.testing.assert_allclose(d["D"], [[0.5]], atol=1e-8, err_msg=ext)
        assert d["states"] == ["p[0]", "p[1]"], ext
        np.testing.assert_allclose(d["eigenvalues"], [-0.2 - 1j * math.sqrt(3.96), -0.2 + 1j * math.sqrt(3.96)],
                                   atol=1e-8, err_msg=ext)
    bad = subprocess.run([cli, "linearize", str(statespace), "-o", str(tmp_path / "lin.xlsx")],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2
    assert "linearize writes .json, .mat or .npz files" in bad.stderr
