"""Runs driven in pieces, and snapshots: model.start(), Simulation.advance_to(),
Simulation.snapshot(), ctde.resume() (docs/python.md, "Snapshots")."""

import numbers

from . import _ctde
from ._errors import ModelError
from ._results import Results

SnapshotError = _ctde.SnapshotError


def _check_time(function, name, value, allow_none):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{function}(): {name} must be a number{' or None' if allow_none else ''}, "
                        f"not {value.__class__.__name__}")
    return float(value)


class Snapshot:
    """A run saved after the events of a time (``Simulation.snapshot()``):
    the bytes of a snapshot file (``ctde run --snapshot``'s format) and the
    model it belongs to. Picklable (``pickle``, Dask and multiprocessing
    ship it); ``ctde.resume()`` continues the run from it, in this process
    or another. ``bytes(snapshot)`` is the file's content."""

    def __init__(self, data, model, time):
        self._data = bytes(data)
        self._model = dict(model)  # how to load the model again: a file or JSON text
        self.time = time

    def __bytes__(self):
        return self._data

    def save(self, path):
        """Writes the snapshot file to ``path`` (``ctde run --resume`` reads it)."""
        with open(path, "wb") as f:
            f.write(self._data)

    def __repr__(self):
        where = self._model["file"] if self._model["is_file"] else self._model["file"]
        return f"<ctde.Snapshot at t = {self.time} s of {where}>"


class Simulation:
    """A run driven in pieces (``model.start()``, ``ctde.resume()``):
    ``advance_to(t)`` runs to t and pauses after the events there,
    ``snapshot()`` saves it where it paused, ``run()`` finishes it and
    returns its Results. Each piece runs with the GIL released."""

    def __init__(self, source, trace, snapshot=None):
        self._model = {"is_file": source.is_file, "path_or_text": source.path_or_text, "file": source.file,
                       "folder": source.folder, "stop_time": source.stop_time}
        self._trace = trace
        self._run = None
        try:
            self._run = _ctde.StartedRun(source, trace, None if snapshot is None else bytes(snapshot))
        except ModelError as e:
            if str(e).startswith("--set "):
                text = "set: " + str(e)[len("--set "):]
                raise ModelError(text, text, e.location) from None
            raise

    @property
    def time(self):
        """Where the run stands (s): its start, the last pause, or its end."""
        return self._run.time

    def advance_to(self, time):
        """Runs to ``time`` (s) and pauses after the events there. Returns
        True when paused; False when the run ended before (its stop time, a
        Stop, an error or Ctrl-C: ``run()`` returns how).

        Raises:
            ValueError: ``time`` is behind where the run stands or after its stop time.
        """
        return self._run.advance_to(_check_time("advance_to", "time", time, False))

    def snapshot(self):
        """A Snapshot of the run where ``advance_to()`` paused it. The run
        goes on as the runs resumed from the snapshot do (its solvers
        restart at the snapshot's time in both: docs/snapshots.md).

        Raises:
            SnapshotError: an actor cannot save its state (a Python actor, an
                FMU without get/set FMU state).
        """
        data = self._run.snapshot()
        model = dict(self._model, overrides=[list(o) for o in self._run.overrides])
        return Snapshot(data, model, self._run.time)

    def run(self, progress=None, progress_interval=0.1):
        """Runs on to the stop time and returns the Results: every row since
        the start, or, for a resumed run, since its snapshot's time."""
        if progress is not None and not callable(progress):
            raise TypeError(f"run(): progress must be callable or None, not {progress.__class__.__name__}")
        return Results(self._run.finish(progress, float(progress_interval)), traced=self._trace)

    def __repr__(self):
        if self._run is None:
            return "<ctde.Simulation (not started)>"
        return f"<ctde.Simulation at t = {self.time} s>"


def resume(snapshot, set=None, stop_time=None, trace=False):  # noqa: A002 (the API's name)
    """A Simulation that continues the run saved in ``snapshot`` (a
    Snapshot, or the bytes of a snapshot file with the model it belongs to
    given by ``snapshot``'s own record).

    Args:
        set: parameters to change from the snapshot's time on,
            ``{"k": 2.0}``; the snapshot's own ``set`` values apply first.
        stop_time: an earlier stop time than the snapshot's run had.
        trace: keep the event trace of the rest of the run.

    Raises:
        SnapshotError: the snapshot does not read or does not fit its model
            (the model file changed since).
    """
    from ._model import _overrides
    if not isinstance(snapshot, Snapshot):
        raise TypeError(f"resume(): snapshot must be a ctde.Snapshot, not {snapshot.__class__.__name__}")
    stop_time = _check_time("resume", "stop_time", stop_time, True)
    m = snapshot._model
    source = _ctde.ModelSource(m["is_file"], m["path_or_text"], m["file"], m["folder"], _overrides(set),
                               stop_time if stop_time is not None else m["stop_time"])
    return Simulation(source, trace, snapshot)
