"""Bad input: ModelError naming where, TypeError naming the argument, and
never a crash of the interpreter."""

import pytest

import ctde


def model(**director):
    return {"ctde": 1, "director": {"stop_time": 1, **director},
            "actors": [{"name": "c", "type": "Constant", "params": {"value": 1}},
                       {"name": "g", "type": "Gain", "params": {"k": 2}}],
            "connections": [["c.out", "g.in"]]}


def test_a_model_error_names_the_file_the_location_and_the_actor(tmp_path):
    bad = model()
    bad["actors"][1]["params"] = {"kk": 2}
    path = tmp_path / "bad.json"
    import json
    path.write_text(json.dumps(bad))
    with pytest.raises(ctde.ModelError) as info:
        ctde.load(path)
    e = info.value
    assert str(path) in str(e) and "/actors/1/params/kk" in str(e)
    assert "actor 'g' (Gain)" in str(e) and "its parameters: k" in str(e)
    assert e.location == f"{path} at /actors/1/params/kk"
    assert e.message.startswith("actor 'g' (Gain) has no parameter 'kk'")


def test_a_json_syntax_error_gives_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"ctde": 1,\n  "actors": [}')
    with pytest.raises(ctde.ModelError, match=r"broken.json:2:\d+: JSON syntax error"):
        ctde.load(path)


def test_validation_errors_surface_in_validate_with_the_port():
    bad = model()
    bad["connections"] = [["c.out", "g.nope"]]
    m = ctde.load(bad)
    with pytest.raises(ctde.ModelError, match=r"<dict>.*g\.nope"):
        m.validate()
    with pytest.raises(ctde.ModelError, match=r"g\.nope"):
        m.run()  # a model error is raised before anything runs, not a status


def test_a_wrong_director_option_names_it():
    with pytest.raises(ctde.ModelError, match="rtol"):
        ctde.load(model(rtol=-1)).validate()


def test_a_missing_file_is_a_model_error():
    with pytest.raises(ctde.ModelError, match="cannot open model file 'no_such_model.json'"):
        ctde.load("no_such_model.json")


def test_an_unknown_set_parameter_is_named_as_set_from_python(ball_path):
    with pytest.raises(ctde.ModelError, match=r"^set: zz=1.0: the model has no parameter 'zz' \(its parameters: e, g, h0\)"):
        ctde.load(ball_path, set={"zz": 1})


def test_validate_reports_what_a_run_records(ball_path):
    report = ctde.load(ball_path).validate()
    assert report == {"name": "bouncing_ball", "columns": ["h.out", "v.out", "ground.out"],
                      "inputs": {}, "outputs": {"h": "h.out", "v": "v.out"}, "tunable": [], "units": {},
                      "python_actors": [], "single_threaded": False}


@pytest.mark.parametrize("call, name", [
    (lambda p: ctde.load(42), "model"),
    (lambda p: ctde.load(p, set=[("e", 1)]), "set"),
    (lambda p: ctde.load(p, set={"e": True}), "set\\['e'\\]"),
    (lambda p: ctde.load(p).run(stop_time="10"), "stop_time"),
    (lambda p: ctde.load(p).run(trace=1), "trace"),
    (lambda p: ctde.load(p).run(progress=3), "progress"),
    (lambda p: ctde.load(p).validate(stop_time=[1]), "stop_time"),
    (lambda p: ctde.describe(3), "type"),
    (lambda p: ctde.Model(5), "name"),
    (lambda p: ctde.Model("m").add("Gain", 7), "name"),
    (lambda p: ctde.Model("m").add(3.5, "g"), "type"),
    (lambda p: ctde.Model("m").connect("a.out", None), "destination"),
])
def test_wrong_argument_types_are_type_errors_naming_the_argument(ball_path, call, name):
    with pytest.raises(TypeError, match=name):
        call(ball_path)


def test_an_unknown_type_suggests_the_closest():
    with pytest.raises(ctde.ModelError, match=r"unknown actor type 'Gan' \(did you mean 'Gain'\?\)"):
        ctde.describe("Gan")
    with pytest.raises(ctde.ModelError, match="did you mean 'Integrator'"):
        ctde.Model("m").add("Integrater", "x")
