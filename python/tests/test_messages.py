"""The messages of the mistakes a newcomer makes first, asserted whole: in a
sweep file, in the director's options, in the Python API
(scripts/untested_messages.py lists the messages no test asserts yet)."""

import pytest

import ctde
from ctde import ModelError

CONSTANT = [{"name": "c", "type": "Constant", "params": {"value": 1}}]


@pytest.mark.parametrize("spec, message", [
    ({"ctde_sweep": 1, "grid": {"e": [0.5, "x"]}}, '<dict> at /grid/e/1: expected a number, got "x"'),
    # JSON errors at the file's line and column, as a model file's (read_json_text)
    ('{"ctde_sweep": 1, "grid": {"e": [1e999]}}',
     "<text>:1:34: 1e999 is beyond a double's range (write \"inf\" for infinity)"),
    ('{"ctde_sweep": 1,', "<text>:1:18: JSON syntax error: syntax error while parsing object key - unexpected "
                         "end of input; expected string literal"),
    ('{"ctde_sweep": 1,\n "grid": {"e": [0.5, 0.6,]}}',
     "<text>:2:26: JSON syntax error: syntax error while parsing value - unexpected ']'; expected '[', '{', or "
     "a literal"),
    ('{"ctde_sweep": 1, "grid": {"e": [1]}, "grid": {"e": [2]}}',
     "<text> at /grid: the key 'grid' appears twice in this object; give each key once"),
    ({"ctde": 1, "name": "ball", "actors": []},
     '<dict> at /: this is a model file (it has "ctde" and no "ctde_sweep"), not a sweep file: are the model '
     "and the sweep swapped? (ctde sweep MODEL.json SWEEP.json)"),
    ({"ctde_sweep": 1, "random": {"e": {"uniform": [0, 1]}}, "samples": 0},
     "<dict> at /samples: expected a whole number >= 1, got 0"),
    ({"ctde_sweep": 1, "grid": {"": [1]}}, "<dict> at /grid/: a parameter name is empty"),
    ({"ctde_sweep": 1, "grid": {"time": [1]}},
     "<dict> at /grid/time: 'time' cannot be swept: the results file uses the name itself"),
    ({"ctde_sweep": 1, "grid": [1]}, "<dict> at /grid: expected an object of parameter: [values]"),
    ({"ctde_sweep": 1, "grid": {"e": []}}, "<dict> at /grid/e: expected a non-empty array of numbers"),
    ({"ctde_sweep": 1, "random": [1]}, "<dict> at /random: expected an object of parameter: distribution"),
    ({"ctde_sweep": 1, "random": {"e": [0, 1]}},
     '<dict> at /random/e: expected {"uniform": [low, high]} or {"normal": [mean, sd]}'),
    ({"ctde_sweep": 1, "random": {"e": {"uniform": [0]}}}, "<dict> at /random/e/uniform: expected two numbers"),
    ({"ctde_sweep": 1, "grid": {"e": [1]}, "warm_start": 3}, '<dict> at /warm_start: expected {"until": T} (T in s)'),
    ({"ctde_sweep": 1, "grid": {"e": [1]}, "warm_start": {}},
     '<dict> at /warm_start: missing "until": T, the time (s) the runs branch at'),
    ({"ctde_sweep": 1, "grid": {"e": [1]}, "stop_time": 0}, "<dict> at /stop_time: the stop time must be > 0"),
    ({"ctde_sweep": 1, "grid": {f"p{i}": list(range(1000)) for i in range(7)}}, "<dict> at /: too many runs"),
])
def test_a_wrong_sweep_file_is_refused_naming_the_place_and_the_mistake(spec, message):
    with pytest.raises(ModelError) as e:
        ctde.load_sweep(spec)
    assert str(e.value) == message


@pytest.mark.parametrize("director, message", [
    ({}, "<dict> at /director/stop_time: director option 'stop_time' is required (the run's end, in seconds)"),
    ({"stop_time": 1, "time_resolution": 2}, "<dict> at /director/time_resolution: director option "
                                             "'time_resolution': time_resolution 2 is outside the accepted range "
                                             "[1e-18, 1] s"),
    ({"stop_time": 1e-13, "time_resolution": 1e-12}, "<dict> at /director/stop_time: director option 'stop_time' "
                                                     "(1e-13 s) is less than one tick (1e-12 s) after start_time: "
                                                     "the run would not advance"),
])
def test_a_wrong_director_option_is_refused_naming_it(director, message):
    with pytest.raises(ModelError) as e:
        ctde.load({"ctde": 1, "director": director, "actors": CONSTANT}).run()
    assert str(e.value) == message


def test_the_python_api_names_the_argument_and_what_it_got():
    m = ctde.Model("m", director={"stop_time": 1})
    with pytest.raises(TypeError) as e:
        m.add(3, "x")
    assert str(e.value) == "add(): type must be an actor type name (str) or a ctde.Actor, not int"
    with pytest.raises(ModelError) as e:
        m.add("Composite", "k", gain=1)
    assert str(e.value) == "model 'm': a Composite takes no parameters or time_mode"
    with pytest.raises(ModelError) as e:
        m.add("Gain", "g", time_mode="sometimes")
    assert str(e.value) == "model 'm': actor 'g': time_mode must be 'continuous' or 'discrete', not 'sometimes'"
    with pytest.raises(TypeError) as e:
        ctde.load({"ctde": 1}, set=[1])
    assert str(e.value) == "load(): set must be a dict of parameter name -> value, not list"
    with pytest.raises(TypeError) as e:
        ctde.load({"ctde": 1}, set={"": 1})
    assert str(e.value) == "load(): set keys must be parameter names (non-empty str), got ''"
    with pytest.raises(TypeError) as e:
        ctde.load(3)
    assert str(e.value) == "load(): model must be a path, a dict or JSON text, not int"
    with pytest.raises(TypeError) as e:
        ctde.describe(3)
    assert str(e.value) == "describe(): type must be a str, not int"
    model = ctde.load({"ctde": 1, "director": {"stop_time": 1}, "actors": CONSTANT, "record": ["c.out"]})
    with pytest.raises(TypeError) as e:
        model.run(trace=1)
    assert str(e.value) == "run(): trace must be a bool, not int"
    r = model.run()
    with pytest.raises(TypeError) as e:
        r[3]
    assert str(e.value) == "results index must be a column name (str), not int"
    with pytest.raises(KeyError) as e:
        r["d.out"]
    assert e.value.args == ("no recorded column 'd.out'; the columns are: c.out",)


class _Fine(ctde.Actor):
    outputs = {"y": 1}

    def fire(self, ctx):
        pass


def test_python_actors_and_networks_refuse_a_wrong_declaration_naming_it():
    class BadPorts(ctde.Actor):
        outputs = [1]

    class BadName(ctde.Actor):
        outputs = {"a.b": 1}

    m = ctde.Model("m", director={"stop_time": 1})
    with pytest.raises(TypeError) as e:
        m.add(BadPorts, "b")
    assert str(e.value) == "BadPorts.outputs must be a dict of port name -> width, not list"
    with pytest.raises(TypeError) as e:
        m.add(BadName, "b")
    assert str(e.value) == "BadName.outputs: port names are non-empty str without '.', got 'a.b'"
    with pytest.raises(TypeError) as e:
        m.add("Gain", 3)
    assert str(e.value) == "add(): name must be a str, not int"
    with pytest.raises(TypeError) as e:
        m.connect(3, "x.in")
    assert str(e.value) == "connect(): source must be an endpoint str ('actor.port'), not int"
    k = m.add("Composite", "k")
    with pytest.raises(ModelError) as e:
        k.add(_Fine, "f")
    assert str(e.value) == "composite 'k': Python actors go in the model's top level, not in a Composite"
    with pytest.raises(TypeError) as e:
        k.input("u")
    assert str(e.value) == "input(): give at least one inner endpoint"


def test_an_actor_without_fire_fails_its_run_naming_it():
    class NoFire(ctde.Actor):
        outputs = {"y": 1}

        def initialize(self, ctx):
            ctx.fire_at(0.0)

    m = ctde.Model("m", director={"stop_time": 1})
    m.add(NoFire, "n")
    r = m.run()
    assert (r.status, r.actor) == ("error", "n")
    assert r.message.startswith("at t=0 s (tick 0, microstep 0): n: Python fire() raised NotImplementedError: "
                                "NoFire does not define fire(ctx)\n"), r.message


def test_run_start_and_sweep_name_the_argument_of_the_wrong_type():
    model = ctde.load({"ctde": 1, "director": {"stop_time": 1}, "actors": CONSTANT})
    with pytest.raises(TypeError) as e:
        model.start(trace=1)
    assert str(e.value) == "start(): trace must be a bool, not int"
    with pytest.raises(TypeError) as e:
        model.run(progress=3)
    assert str(e.value) == "run(): progress must be callable or None, not int"
    spec = {"ctde_sweep": 1, "grid": {"e": [1]}}
    for kwargs, error, message in [
        ({"output": 3}, TypeError, "sweep(): output must be a path or None, not int"),
        ({"batch_size": 1.5}, TypeError, "sweep(): batch_size must be a whole number or None, not float"),
        ({"batch_size": 0}, ValueError, "sweep(): batch_size must be at least 1, got 0"),
        ({"client": "x"}, TypeError, "sweep(): client must be a distributed.Client or None, not str"),
    ]:
        with pytest.raises(error) as e:
            ctde.sweep({"ctde": 1}, spec, **kwargs)
        assert str(e.value) == message
