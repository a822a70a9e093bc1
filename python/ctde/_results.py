"""Run results as numpy arrays (sharing the run's memory) and pandas frames."""

import json

import numpy as np


class ResultsView:
    """Rows of results: ``time``, ``microstep`` and one float64 column per
    scalar element of each recorded signal (NaN where a discrete signal has
    no token). ``r["h.out"]`` is a column; for a signal of width n,
    ``r["a.out[i]"]`` is element i and ``r["a.out"]`` an (rows, n) array."""

    def __init__(self, time, microstep, columns, discrete):
        self._time = time
        self._microstep = microstep
        self._columns = columns  # name -> array, in the results' order
        self._discrete = discrete

    @property
    def time(self):
        """The time of each row (s), float64."""
        return self._time

    @property
    def microstep(self):
        """The microstep of each row, uint32: rows (t, 0), (t, 1)... are the two sides of a jump."""
        return self._microstep

    @property
    def columns(self):
        """The recorded columns' names, in order (width-n signals as "a.out[i]")."""
        return list(self._columns)

    @property
    def discrete_columns(self):
        """The names of the discrete signals' columns (NaN on rows without a token)."""
        return list(self._discrete)

    def __len__(self):
        return len(self._time)

    def __contains__(self, name):
        return name in self._columns or bool(self._elements(name))

    def _elements(self, name):
        prefix = name + "["
        return [c for c in self._columns if c.startswith(prefix) and c.endswith("]")]

    def __getitem__(self, name):
        if not isinstance(name, str):
            raise TypeError(f"results index must be a column name (str), not {name.__class__.__name__}")
        column = self._columns.get(name)
        if column is not None:
            return column
        elements = self._elements(name)
        if elements:
            return np.column_stack([self._columns[c] for c in elements])
        raise KeyError(f"no recorded column '{name}'; the columns are: {', '.join(self._columns)}")

    def to_pandas(self):
        """A pandas DataFrame: columns ``time``, ``microstep``, then the signals."""
        import pandas as pd  # lazily: numpy alone is enough for the rest

        data = {"time": self._time, "microstep": self._microstep}
        data.update(self._columns)
        return pd.DataFrame(data, copy=False)

    def _select(self, index):
        return ResultsView(self._time[index], self._microstep[index],
                           {n: c[index] for n, c in self._columns.items()}, self._discrete)

    def left(self):
        """The first row at each time (the (t, 0) row, before any jump at t): one row per t."""
        t = self._time
        keep = np.ones(len(t), dtype=bool)
        keep[1:] = t[1:] != t[:-1]
        return self._select(keep)

    def right(self):
        """The last row at each time (after every jump at t): one row per t."""
        t = self._time
        keep = np.ones(len(t), dtype=bool)
        keep[:-1] = t[:-1] != t[1:]
        return self._select(keep)


class Results(ResultsView):
    """What ``run()`` returns. A run failure is a status, not an exception:
    the rows up to the failure are kept.

    Attributes:
        status: "ok", "stopped" (a Stop actor), "error" or "interrupted".
        message: the error's text (time, tag, actor), "" when ok.
        actor: the failing actor's path, or "".
        end_time: where the run ended (s).
        stats: dict of counters (steps, rejected_steps, rhs_evals, events,
            time_events, state_events, loop_solves, loop_iterations).
        trace: the trace lines as dicts (docs/trace-format.md) when the run
            was asked for one (``trace=True``), else None.
    """

    def __init__(self, output, traced=False):
        (time, microstep, names, columns, discrete, self.status, self.message, self.actor, self.end_time,
         self.stats, self._trace_text) = output.unpack()
        super().__init__(time, microstep, dict(zip(names, columns)), discrete)
        self._traced = traced
        self._trace = None

    @property
    def trace(self):
        if not self._traced:
            return None
        if self._trace is None:
            self._trace = [json.loads(line) for line in self._trace_text.splitlines() if line]
        return self._trace

    def __repr__(self):
        return (f"<ctde.Results status={self.status!r} rows={len(self)} "
                f"columns={len(self._columns)} end_time={self.end_time}>")
