"""Building models in Python through the actor registry: ctde.Model."""

import copy
import inspect
import json
import numbers
import os

from . import _ctde
from ._actor import Actor
from ._errors import ModelError
from ._model import _Runnable
from ._registry import describe

_TIME_MODES = ("continuous", "discrete")


def _json_value(where, value):
    """A parameter value as a model file writes it (numbers, expressions, lists)."""
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        value = value.tolist()
    if isinstance(value, bool) or value is None:
        raise TypeError(f"{where} must be a number, a str or a list, not {value.__class__.__name__}")
    if isinstance(value, numbers.Real):
        return float(value) if not isinstance(value, int) else value
    if isinstance(value, (str, dict)):
        return copy.deepcopy(value)
    if isinstance(value, (list, tuple)):
        return [_json_value(where, v) for v in value]
    raise TypeError(f"{where} must be a number, a str or a list, not {value.__class__.__name__}")


_PARAMETER_NAMES = {}  # type name -> its parameters' names (a registered type's never change)


def _parameter_names(type_name):
    """The parameter names of registered type `type_name`, described once
    per type (add() is then constant time per call); ModelError for an
    unknown type."""
    names = _PARAMETER_NAMES.get(type_name)
    if names is None:
        names = [p["name"] for p in describe(type_name)["parameters"]]
        _PARAMETER_NAMES[type_name] = names
    return names


def _check_name(function, name):
    if not isinstance(name, str):
        raise TypeError(f"{function}(): name must be a str, not {name.__class__.__name__}")


def _check_endpoint(function, argument, endpoint):
    if not isinstance(endpoint, str):
        raise TypeError(f"{function}(): {argument} must be an endpoint str ('actor.port'), "
                        f"not {endpoint.__class__.__name__}")


class _Network:
    """Actors and connections: the top of a Model, or a Composite."""

    def __init__(self, name):
        self.name = name
        self._actors = []  # in order: model-file actor dicts, Composite, or _PythonEntry
        self._names = set()  # the names in _actors: add() checks a name in constant time
        self._connections = []

    def _append(self, name, actor):
        self._actors.append(actor)
        self._names.add(name)

    def _python(self):
        return [a for a in self._actors if isinstance(a, _PythonEntry)]

    def add(self, type, name, *, time_mode=None, **params):  # noqa: A002 (the API's name)
        """Adds an actor named `name`: `type` is a registered type name
        ("Gain"; ctde.types()), "Composite" (returns the Composite to fill),
        or a ctde.Actor subclass or instance (an actor written in Python;
        top level only). `params` are the type's parameters, as a model file
        writes them (numbers, expressions, lists). Returns the added actor's
        entry (the Composite for "Composite").

        Raises:
            TypeError: an argument of the wrong type.
            ModelError: an unknown type or parameter, or a name already used.
        """
        _check_name("add", name)
        if name in self._names:
            raise ModelError(f"{self._where()}: an actor named '{name}' is already there")
        if inspect.isclass(type) and issubclass(type, Actor):
            type = type(**params)
            params = {}
        if isinstance(type, Actor):
            return self._add_python(type, name, params, time_mode)
        if not isinstance(type, str):
            raise TypeError(f"add(): type must be an actor type name (str) or a ctde.Actor, "
                            f"not {type.__class__.__name__}")
        if type == "Composite":
            if params or time_mode is not None:
                raise ModelError(f"{self._where()}: a Composite takes no parameters or time_mode")
            composite = Composite(name)
            self._append(name, composite)
            return composite
        known = _parameter_names(type)  # ModelError for an unknown type
        entry = {"name": name, "type": type}
        for key in params:
            if key not in known:
                raise ModelError(f"{self._where()}: actor '{name}' ({type}) has no parameter '{key}'; "
                                 f"its parameters: {', '.join(known) or 'none'}")
        if params:
            entry["params"] = {k: _json_value(f"add(): parameter '{k}'", v) for k, v in params.items()}
        if time_mode is not None:
            if time_mode not in _TIME_MODES:
                raise ModelError(f"{self._where()}: actor '{name}': time_mode must be 'continuous' or "
                                 f"'discrete', not {time_mode!r}")
            entry["time_mode"] = time_mode
        self._append(name, entry)
        return entry

    def _add_python(self, actor, name, params, time_mode):
        if params or time_mode is not None:
            raise TypeError("add(): the parameters of a Python actor go to its class: add(MyActor, name, **params)")
        raise ModelError(f"{self._where()}: Python actors go in the model's top level, not in a Composite")

    def connect(self, source, destination):
        """Connects output endpoint `source` ("slope.out") to input endpoint
        `destination` ("x.in"), relative to this network."""
        _check_endpoint("connect", "source", source)
        _check_endpoint("connect", "destination", destination)
        self._connections.append([source, destination])

    def _where(self):
        return f"composite '{self.name}'"

    def _network_dict(self):
        """Actors and connections as a model file writes them (Python actors with type "Python")."""
        actors = [copy.deepcopy(a) if isinstance(a, dict) else a.to_dict() for a in self._actors]
        return actors, [list(c) for c in self._connections]


class _PythonEntry:
    """A Python actor in a Model: its name and instance."""

    def __init__(self, name, actor):
        self.name = name
        self.actor = actor

    def to_dict(self):
        return {"name": self.name, "type": "Python"}


class Composite(_Network):
    """A nested network (model files' "Composite"): its own actors and
    connections, and exported ports (input() / output())."""

    def __init__(self, name):
        super().__init__(name)
        self._inputs = {}
        self._outputs = {}

    def input(self, name, *endpoints):
        """Exports input port `name`, standing for the inner input(s) `endpoints` ("bu.in")."""
        _check_name("input", name)
        for e in endpoints:
            _check_endpoint("input", "endpoints", e)
        if not endpoints:
            raise TypeError("input(): give at least one inner endpoint")
        self._inputs[name] = endpoints[0] if len(endpoints) == 1 else list(endpoints)

    def output(self, name, endpoint):
        """Exports output port `name`, standing for the inner output `endpoint` ("x.out")."""
        _check_name("output", name)
        _check_endpoint("output", "endpoint", endpoint)
        self._outputs[name] = endpoint

    def to_dict(self):
        actors, connections = self._network_dict()
        out = {"name": self.name, "type": "Composite", "actors": actors}
        if connections:
            out["connections"] = connections
        if self._inputs:
            out["inputs"] = copy.deepcopy(self._inputs)
        if self._outputs:
            out["outputs"] = dict(self._outputs)
        return out


class Model(_Network, _Runnable):
    """A model built in Python: ``add`` actors, ``connect`` them, set
    ``parameters``, ``director`` options and ``record``; ``to_json()``
    writes the model file the command runs, ``run()`` runs it directly
    (Python actors included).

    Attributes:
        parameters: dict of model parameters (name -> number, expression or list).
        director: dict of director options (``stop_time`` is required).
        record: list of output endpoints to record (empty: every output).
        inputs: the model's declared inputs, name -> "actor.port", a list of
            them, or {"to": ..., "start": value} (docs/model-format.md,
            "The model's interface"; an FMU of the model offers them).
        outputs: its declared outputs, name -> "actor.port".
        tunable: the model parameters an FMU of it may change between steps.
        units: the unit of a model parameter, input or output, name -> "m/s"
            (an FMU of the model declares it).
    """

    def __init__(self, name="model", *, parameters=None, director=None, record=None, inputs=None, outputs=None,
                 tunable=None, units=None):
        _check_name("Model", name)
        super().__init__(name)
        self.parameters = dict(parameters or {})
        self.director = dict(director or {})
        self.record = list(record or [])
        self.inputs = dict(inputs or {})
        self.outputs = dict(outputs or {})
        self.tunable = list(tunable or [])
        self.units = dict(units or {})

    def _where(self):
        return f"model '{self.name}'"

    def _add_python(self, actor, name, params, time_mode):
        if params or time_mode is not None:
            raise TypeError("add(): the parameters of a Python actor go to its class: add(MyActor, name, **params)")
        actor._declared_ports()  # TypeError now rather than at the run
        self._append(name, _PythonEntry(name, actor))
        return actor

    def to_dict(self):
        """The model as a model-file dict (a Python actor appears with type
        "Python", which only run() and validate() can make)."""
        actors, connections = self._network_dict()
        out = {"ctde": 1, "name": self.name}
        if self.parameters:
            out["parameters"] = {k: _json_value(f"parameters['{k}']", v) for k, v in self.parameters.items()}
        out["director"] = {k: _json_value(f"director['{k}']", v) for k, v in self.director.items()}
        out["actors"] = actors
        if connections:
            out["connections"] = connections
        if self.record:
            out["record"] = list(self.record)
        if self.inputs:
            out["inputs"] = {k: _json_value(f"inputs['{k}']", v) for k, v in self.inputs.items()}
        if self.outputs:
            out["outputs"] = dict(self.outputs)
        if self.tunable:
            out["tunable"] = list(self.tunable)
        if self.units:
            out["units"] = dict(self.units)
        return out

    def to_json(self, indent=2):
        """The model file text (``ctde run`` runs it).

        Raises:
            ModelError: the model holds Python actors, which a file cannot hold.
        """
        python = self._python()
        if python:
            raise ModelError(f"model '{self.name}': Python actors ({', '.join(a.name for a in python)}) "
                             f"cannot be written to a model file")
        return json.dumps(self.to_dict(), indent=indent)

    def _source(self, stop_time):
        source = _ctde.ModelSource(False, json.dumps(self.to_dict()), f"<model '{self.name}'>", os.getcwd(), [],
                                   stop_time)
        for entry in self._python():
            inputs, outputs = entry.actor._declared_ports()
            source.add_actor(entry.name, type(entry.actor).__name__, entry.actor, inputs, outputs)
        return source

    def __repr__(self):
        return f"<ctde.Model {self.name!r}: {len(self._actors)} actors>"
