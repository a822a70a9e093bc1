"""ctde.sweep(): the runs of `ctde sweep MODEL SWEEP` in-process or on a Dask
cluster, with the command's own pieces (the sweep file's parsing, run k's
values and random-actor seeds, the warm-up of a warm-started sweep, one run
in memory, the HDF5 writer), so that run k is the same run whatever ran it
(docs/sweep.md, "Dask")."""

import functools
import json
import math
import numbers
import os

from . import _ctde
from ._errors import ModelError
from ._results import ResultsView


class SweepRun(ResultsView):
    """One run of a sweep: its rows (``time``, ``microstep``, ``r["h.out"]``,
    ``to_pandas()``... as ``Results``) and how it ended.

    Attributes:
        index: the run's index k.
        parameters: dict of the swept parameters' values in this run.
        status: "ok", "stopped", "error" or "interrupted".
        message: why it failed, or "".
        stats: dict of counters (steps, rejected_steps, rhs_evals, events,
            time_events, state_events, loop_solves, loop_iterations).
        end_time: where the run ended (s).
        wall_time: the run's wall-clock time (s; of a warm-started run, its
            own part after the warm-up).
        warm_start_until: in a warm-started sweep, the time T (s) the run
            branched from the warm-up at: its rows up to T are the warm-up's,
            the same in every run; None otherwise.
    """

    def __init__(self, record):
        (self.index, self.parameters, self.status, self.message, self.stats, self.end_time, self.wall_time, time,
         microstep, names, columns, discrete, self.warm_start_until) = record.unpack()
        super().__init__(time, microstep, dict(zip(names, columns)), discrete)
        self._record = record

    def __reduce__(self):  # pickled as the C++ record's bytes
        return SweepRun, (self._record,)

    def __repr__(self):
        return (f"<ctde.SweepRun {self.index} {self.parameters} status={self.status!r} rows={len(self)} "
                f"end_time={self.end_time}>")


def _text(function, argument, what, value):
    """(text, file name for messages, path or None) of a model or sweep given
    as a path, a dict or JSON text."""
    if isinstance(value, dict):
        return json.dumps(value), "<dict>", None
    if isinstance(value, str) and value.lstrip().startswith("{"):
        return value, "<text>", None
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise ModelError(f"cannot read the {what} file '{path}': {e.strerror}") from None
        try:
            return data.decode("utf-8"), path, path
        except UnicodeDecodeError:
            raise ModelError(f"the {what} file '{path}' is not UTF-8 text") from None
    raise TypeError(f"{function}(): {argument} must be a path, a dict or JSON text, not {value.__class__.__name__}")


def load_sweep(spec):
    """Reads a sweep file (docs/sweep.md): a path, a dict or JSON text.

    Returns the C++ ``SweepSpec``: ``run_count``, ``names()``, ``values(k)``
    (run k's values, as ``ctde sweep`` gives them), ``actor_seed(k, actor)``,
    ``grid``, ``random``, ``samples``, ``seed``, ``stop_time``,
    ``warm_start_until`` (None without a warm start), ``text``.

    Raises:
        ModelError: naming the file and the JSON location.
    """
    text, file, _ = _text("load_sweep", "spec", "sweep", spec)
    return _ctde.parse_sweep(text, file)


@functools.lru_cache(maxsize=4)
def _worker_model(text, path, folder, sweep_text, sweep_file, record, rows, warm):
    """The SweepModel of a task, parsed (and its warm-up read) once per worker process."""
    return _ctde.SweepModel(text, path, folder, _ctde.parse_sweep(sweep_text, sweep_file), warm,
                            None if record is None else list(record), rows)


def _run_batch(task, warm=None):
    """What a Dask worker runs: task = (model text, model file, folder, sweep
    text, sweep file, record (a tuple of names, or None), rows, run indices),
    plain data, and the warm-up's bytes of a warm-started sweep (sent once
    per worker: a scattered future). Returns the runs' records (pickled as
    their bytes)."""
    *source, indices = task
    model = _worker_model(*source, warm)
    return [_ctde.run_one(model, k) for k in indices]


def _record_names(record):
    """sweep()'s ``record`` as a tuple of signal names, or None."""
    if record is None:
        return None
    if isinstance(record, str):
        record = record.split(",")
    if not isinstance(record, (list, tuple)) or not all(isinstance(name, str) for name in record):
        raise TypeError(f"sweep(): record must be a list of signal names or None, not {record!r}")
    if not record or not all(record):
        raise ModelError(f"sweep(): record={record!r}: expects actor.port names")
    return tuple(record)


class _Collector:
    """Where the records go: kept (sorted by index at the end), or written to
    the HDF5 file as they arrive, keeping only the summary."""

    def __init__(self, model, writer):
        self._model = model
        self._writer = writer
        self._kept = []

    def add(self, record):
        if self._writer is None:
            self._kept.append(record)
            return
        self._writer.add(record)
        self._kept.append({
            "index": record.index, "parameters": dict(record.parameters), "status": record.status,
            "message": record.message,
        })

    def finish(self):
        if self._writer is None:
            self._kept.sort(key=lambda r: r.index)
            return [SweepRun(r) for r in self._kept]
        self._writer.close(self._model.spec.names())
        self._kept.sort(key=lambda r: r["index"])
        return self._kept


def _batches(count, size):
    return [list(range(start, min(start + size, count))) for start in range(0, count, size)]


def _run_on_dask(client, model, folder, sweep_file, batch_size, collector, warm, kept):
    from distributed import as_completed  # lazily: ctde.sweep without a client needs no Dask

    count = model.spec.run_count
    if batch_size is None:
        threads = max(1, sum(client.nthreads().values()))
        batch_size = max(1, math.ceil(count / (4 * threads)))
    source = (model.text, model.path, folder, model.spec.text, sweep_file) + kept
    batches = _batches(count, batch_size)
    tasks = [source + (b,) for b in batches]
    if warm is None:
        futures = client.map(_run_batch, tasks, pure=False)
    else:  # the warm-up's bytes go to each worker once, not with every task
        shared = client.scatter(warm, broadcast=True, hash=False)
        futures = client.map(_run_batch, tasks, [shared] * len(tasks), pure=False)
    indices = {future.key: batch for future, batch in zip(futures, batches)}
    for future in as_completed(futures):
        batch = indices.pop(future.key)
        try:
            records = future.result()
        except Exception as e:  # noqa: BLE001 (a lost worker, a task that raised: those runs fail, the others go on)
            records = [_ctde.failed_run(model, k, f"the Dask task failed: {e!r}") for k in batch]
        for record in records:
            collector.add(record)
        future.release()


def sweep(model, spec, client=None, output=None, batch_size=None, rows="all", record=None):
    """Runs every run of a sweep, as ``ctde sweep MODEL SPEC -o OUTPUT``.

    Run k has the values and the random actors' seeds that ``ctde sweep``
    gives it, so the results are the same, bit for bit, whatever runs them.
    The model and the sweep are checked once, before any run; a run that
    fails is kept with its status and message and the others go on. A
    sweep with ``"warm_start": {"until": T}`` runs the warm-up (the model
    with the values not swept, up to T) once, here, and every run resumes
    from it with its own values (docs/sweep.md, "Warm start").

    Args:
        model: a model file's path, a dict shaped like one, or its JSON text.
        spec: a sweep file's path (docs/sweep.md), a dict or JSON text.
        client: a ``distributed.Client``: the runs are Dask tasks (plain data:
            the model's and the sweep's text and the run indices; the workers
            import ``ctde``). None: run here, one run after the other, the GIL
            released during each; Ctrl-C stops the current run at its next
            step (status "interrupted"), starts no new one and returns (or
            writes) the runs so far.
        output: an HDF5 file (.h5 or .hdf5) to write, the same file as the
            command's; None: keep the runs in memory.
        batch_size: runs per Dask task (default: about four tasks per worker
            thread).
        rows: which rows every run keeps, as ``ctde sweep --rows``: "all",
            "output" (the output_interval grid), "events" (the tags with
            events) or "final" (the last row).
        record: the signals every run records instead of the model's
            ``record`` (a list of "actor.port" names, or a text
            "a.out,b.out"), as ``ctde sweep --record``; None: the model's.

    Returns:
        Without ``output``, the runs in index order (``SweepRun``: status,
        message, parameters, rows). With ``output``, one dict per run in index
        order: ``index``, ``parameters``, ``status``, ``message`` (the rows are
        in the file).

    Raises:
        TypeError: an argument of the wrong type (naming it).
        ValueError: ``output`` is not an .h5/.hdf5 file; ``batch_size`` < 1.
        ModelError: the model or the sweep is wrong, ``rows`` or ``record``
            does not fit the model, or the warm start cannot be made or
            resumed with the swept values (nothing ran or was written).
        OSError: ``output`` cannot be written.
    """
    if output is not None:
        if not isinstance(output, (str, os.PathLike)):
            raise TypeError(f"sweep(): output must be a path or None, not {output.__class__.__name__}")
        output = os.fspath(output)
        if os.path.splitext(output)[1] not in (".h5", ".hdf5"):
            raise ValueError(f"sweep(): output '{output}': a sweep is written to an HDF5 file (.h5 or .hdf5)")
    if batch_size is not None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Integral):
            raise TypeError(f"sweep(): batch_size must be a whole number or None, not "
                            f"{batch_size.__class__.__name__}")
        if batch_size < 1:
            raise ValueError(f"sweep(): batch_size must be at least 1, got {batch_size}")
        batch_size = int(batch_size)
    if client is not None and not (hasattr(client, "map") and hasattr(client, "nthreads")):
        raise TypeError(f"sweep(): client must be a distributed.Client or None, not {client.__class__.__name__}")
    model_text, model_file, model_path = _text("sweep", "model", "model", model)
    sweep_text, sweep_file, sweep_path = _text("sweep", "spec", "sweep", spec)
    if model_path is not None:
        folder = os.path.dirname(model_path) or "."
    else:
        folder = os.getcwd()
    if not isinstance(rows, str):
        raise TypeError(f"sweep(): rows must be a text (all, output, events, final), not {rows.__class__.__name__}")
    kept = (_record_names(record), rows)
    parsed = _ctde.parse_sweep(sweep_text, sweep_file)
    names = None if kept[0] is None else list(kept[0])
    checked = _ctde.SweepModel(model_text, model_file, folder, parsed, None, names, rows)
    _ctde.check_sweep_model(checked, sweep_file)
    warm = None
    if parsed.warm_start_until is not None:  # run once here; the runs resume from it
        warm = _ctde.warm_up(checked, sweep_file)
        checked = _ctde.SweepModel(model_text, model_file, folder, parsed, warm, names, rows)

    writer = None
    if output is not None:
        inputs = [(name, path) for name, path in (("model", model_path), ("spec", sweep_path)) if path]
        writer = _ctde.SweepFileWriter(output, inputs, model_file, model_text, sweep_text)
    collector = _Collector(checked, writer)
    if client is None:
        for k in range(checked.spec.run_count):
            record = _ctde.run_one(checked, k)
            collector.add(record)
            if record.status == "interrupted":  # Ctrl-C: this run stopped at its next step, no new one starts
                break
    else:
        # The workers anchor the model's relative `file` parameters at an absolute folder.
        _run_on_dask(client, checked, os.path.abspath(folder), sweep_file, batch_size, collector, warm, kept)
    return collector.finish()
