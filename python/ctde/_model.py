"""Loading model files and running them: ctde.load() and what both kinds
of model (loaded, or built with ctde.Model) share."""

import json
import numbers
import os

from . import _ctde
from ._errors import ModelError
from ._results import Results


def _named_as_in_python(call, *args):
    """call(*args); the loader names an override by the command line's
    `--set NAME=VALUE`, which from Python was `set`."""
    try:
        return call(*args)
    except ModelError as e:
        if str(e).startswith("--set "):
            text = "set: " + str(e)[len("--set "):]
            raise ModelError(text, text, e.location) from None
        raise


def _check_stop_time(function, stop_time):
    if stop_time is None:
        return None
    if isinstance(stop_time, bool) or not isinstance(stop_time, numbers.Real):
        raise TypeError(f"{function}(): stop_time must be a number or None, not {stop_time.__class__.__name__}")
    return float(stop_time)


def _override_text(name, value):
    """A `set` value as the command line's --set NAME=VALUE takes it."""
    if isinstance(value, bool) or value is None:
        raise TypeError(f"load(): set['{name}'] must be a number, a str (an expression) or a list, "
                        f"not {value.__class__.__name__}")
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Real):
        return json.dumps(float(value))
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return json.dumps(value)
    raise TypeError(f"load(): set['{name}'] must be a number, a str (an expression) or a list, "
                    f"not {value.__class__.__name__}")


def _overrides(set):  # noqa: A002 (the API's name)
    if set is None:
        return []
    if not isinstance(set, dict):
        raise TypeError(f"load(): set must be a dict of parameter name -> value, not {set.__class__.__name__}")
    overrides = []
    for name, value in set.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"load(): set keys must be parameter names (non-empty str), got {name!r}")
        overrides.append((name, _override_text(name, value)))
    return overrides


class _Runnable:
    """validate() and run() over a _ctde.ModelSource made by _source()."""

    def _source(self, stop_time):
        raise NotImplementedError

    def _validate(self, stop_time):
        return _ctde.validate(self._source(stop_time))

    def _run(self, stop_time, trace, progress, progress_interval):
        return _ctde.run(self._source(stop_time), trace, progress, progress_interval)

    def validate(self, stop_time=None):
        """Checks everything a run checks, running nothing.

        Returns a dict: ``name``, ``columns`` (what a run records),
        ``python_actors`` and ``single_threaded`` (True when the model holds
        Python actors: each of their firings takes the GIL).

        Raises:
            ModelError: naming the file, the JSON location and the actor or port.
        """
        stop_time = _check_stop_time("validate", stop_time)
        return _named_as_in_python(self._validate, stop_time)

    def start(self, stop_time=None, trace=False):
        """A Simulation of this model at its start time, to drive in pieces:
        ``advance_to(t)``, ``snapshot()``, ``run()`` (docs/python.md, "Snapshots").

        Raises:
            ModelError: the model is wrong (nothing ran).
        """
        from ._snapshot import Simulation
        stop_time = _check_stop_time("start", stop_time)
        if not isinstance(trace, bool):
            raise TypeError(f"start(): trace must be a bool, not {trace.__class__.__name__}")
        return Simulation(self._source(stop_time), trace)

    def run(self, stop_time=None, trace=False, progress=None, progress_interval=0.1):
        """Runs the model; the GIL is released for the whole run.

        Args:
            stop_time: replaces the director's ``stop_time`` (s).
            trace: keep the event trace (``Results.trace``).
            progress: ``callable(time, stats)`` called at most every
                ``progress_interval`` seconds of wall time, with the GIL
                taken only for it; returning False, or raising, ends the run
                with status "interrupted".

        Returns:
            Results. A run failure is its status ("error"), with the rows so far.

        Raises:
            ModelError: the model is wrong (nothing ran).
        """
        stop_time = _check_stop_time("run", stop_time)
        if not isinstance(trace, bool):
            raise TypeError(f"run(): trace must be a bool, not {trace.__class__.__name__}")
        if progress is not None and not callable(progress):
            raise TypeError(f"run(): progress must be callable or None, not {progress.__class__.__name__}")
        if type(progress_interval) is not float and (isinstance(progress_interval, bool) or
                                                    not isinstance(progress_interval, numbers.Real)):
            raise TypeError("run(): progress_interval must be a number (s)")
        output = _named_as_in_python(self._run, stop_time, trace, progress, float(progress_interval))
        return Results(output, traced=trace)


    def linearize(self, at=None, inputs=None, outputs=None):
        """The linear model of the continuous side at time ``at`` (the start
        when None), after running there: x' = A x + B u, y = C x + D u for
        small changes of the states, of the signals at the ``inputs`` ports
        and of the ``outputs`` ports' values ("actor.port" names; every
        element of a port's width). Discrete values are held at theirs.
        ``inputs`` None: the model's declared inputs; ``outputs`` None: its
        declared outputs, else its recorded continuous outputs.

        Returns:
            Linearization: ``A``, ``B``, ``C``, ``D`` (numpy arrays),
            ``states``, ``inputs``, ``outputs`` (names), ``eigenvalues``
            (of A, complex) and ``time``.

        Raises:
            ModelError: the model or a port name is wrong.
            RuntimeError: the run failed before ``at``, or a value is not finite.
        """
        at = _check_stop_time("linearize", at)
        names = []
        for what, ports in (("inputs", inputs), ("outputs", outputs)):
            if ports is None:  # the model's declared ones (then its recorded continuous outputs)
                names.append(None)
                continue
            if isinstance(ports, str) or not all(isinstance(p, str) for p in ports):
                raise TypeError(f"linearize(): {what} must be a list of 'actor.port' names")
            names.append(list(ports))
        found = _named_as_in_python(_ctde.linearize, self._source(None), at, names[0], names[1])
        return Linearization(**found)


class Linearization:
    """What Model.linearize() found: A, B, C, D (numpy arrays, rows by
    states or outputs, columns by states or inputs), the names of the
    states, inputs and outputs, the eigenvalues of A, and the time."""

    def __init__(self, time, states, inputs, outputs, A, B, C, D, eigenvalues):  # noqa: N803 (the matrices' names)
        self.time = time
        self.states = states
        self.inputs = inputs
        self.outputs = outputs
        self.A, self.B, self.C, self.D = A, B, C, D
        self.eigenvalues = eigenvalues

    def __repr__(self):
        return (f"Linearization(t={self.time}, states={self.states}, inputs={self.inputs}, "
                f"outputs={self.outputs})")


class LoadedModel(_Runnable):
    """A model read by ctde.load(): a file, a dict or JSON text, with its
    `set` overrides. The first validate() or run() uses what load() read;
    later ones read it again, so it may be run many times."""

    def __init__(self, kind, content, file, folder, overrides, model_path=()):
        self._kind = kind
        self._content = content
        self._file = file
        self._folder = folder
        self._overrides = overrides
        self._model_path = list(model_path)
        self._loaded = _named_as_in_python(_ctde.LoadedSource, self._source(None))
        self.name = self._loaded.name

    @property
    def file(self):
        """The model file's path, or "<dict>" / "<text>"."""
        return self._file

    def _source(self, stop_time):
        source = _ctde.ModelSource(self._kind == "file", self._content, self._file, self._folder, self._overrides,
                                   stop_time)
        source.model_path = self._model_path
        return source

    def _validate(self, stop_time):
        return self._loaded.validate(stop_time)

    def _run(self, stop_time, trace, progress, progress_interval):
        return self._loaded.run(stop_time, trace, progress, progress_interval)

    def __repr__(self):
        return f"<ctde.LoadedModel {self.name!r} from {self._file}>"


def _model_path(model_path):
    """`model_path` as a list of folder names: None, one folder, or a list of them."""
    if model_path is None:
        return []
    if isinstance(model_path, (str, os.PathLike)):
        return [os.fspath(model_path)]
    try:
        folders = list(model_path)
    except TypeError:
        folders = None
    if folders is None or not all(isinstance(f, (str, os.PathLike)) for f in folders):
        raise TypeError("load(): model_path must be a folder or a list of folders (str or os.PathLike), "
                        f"not {model_path!r}")
    return [os.fspath(f) for f in folders]


def load(model, set=None, model_path=None):  # noqa: A002 (the API's name)
    """Reads a model: a path to a model file (str or os.PathLike), a dict
    shaped like a model file, or JSON text (a str starting with '{').

    Args:
        set: parameter overrides, ``{"e": 0.7}``, as ``ctde run --set e=0.7``
            (a str value is an expression or JSON, as on the command line).
        model_path: a folder or a list of folders searched for included
            model files not found beside the including file, as
            ``ctde run --model-path`` (CTDE_MODEL_PATH's folders follow).

    Raises:
        TypeError: an argument of the wrong type (naming it).
        ModelError: the file cannot be read or is not a valid model file.
    """
    overrides = _overrides(set)
    folders = _model_path(model_path)
    if isinstance(model, dict):
        return LoadedModel("text", json.dumps(model), "<dict>", os.getcwd(), overrides, folders)
    if isinstance(model, str) and model.lstrip().startswith("{"):
        return LoadedModel("text", model, "<text>", os.getcwd(), overrides, folders)
    if isinstance(model, (str, os.PathLike)):
        return LoadedModel("file", os.fspath(model), os.fspath(model), "", overrides, folders)
    raise TypeError(f"load(): model must be a path, a dict or JSON text, not {model.__class__.__name__}")
