"""ctde: hybrid (continuous-time and discrete-event) simulation from Python.

Load a model file and run it::

    import ctde
    m = ctde.load("bouncing_ball.json", set={"e": 0.7})
    r = m.run()
    r["h.out"], r.time, r.to_pandas()

or build one through the actor registry (``ctde.Model``), with actors
written in Python (``ctde.Actor``); run a sweep of many runs here or on a
Dask cluster (``ctde.sweep``). See docs/python.md and docs/sweep.md.
"""

from ._errors import ModelError
from . import _ctde
from ._actor import Actor, FiringContext
from ._builder import Model
from ._model import Linearization, LoadedModel, load
from ._results import Results, ResultsView
from ._registry import describe, types
from ._snapshot import Simulation, Snapshot, SnapshotError, resume
from ._sweep import SweepRun, load_sweep, sweep

__version__ = _ctde.__version__

__all__ = [
    "Actor",
    "FiringContext",
    "Linearization",
    "LoadedModel",
    "Model",
    "ModelError",
    "Results",
    "ResultsView",
    "Simulation",
    "Snapshot",
    "SnapshotError",
    "SweepRun",
    "__version__",
    "describe",
    "load",
    "load_sweep",
    "resume",
    "sweep",
    "types",
]
