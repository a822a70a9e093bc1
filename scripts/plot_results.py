#!/usr/bin/python3
"""Plots ctde results files, every run of every file overlaid.

    /usr/bin/python3 scripts/plot_results.py RESULTS [MORE ...] -o plot.png
        [--signals a.out,b.out] [--runs 0,3-5] [--logx] [--logy] [--title TEXT]
        [--width 10 --height 6 --dpi 100] [--discrete=COLUMN ...] [--describe]

Results files (docs/cli.md, "ctde plot"; told apart by their first bytes, not
their names):
- CSV (ctde run -o x.csv): a run; an empty cell is an absent value.
- HDF5 (ctde run -o x.h5): a run, the root group; ctde sweep's file: every
  run /runs/<k> (--runs chooses some), labelled "run k: e=0.6" with its swept
  parameters (from /summary), and its status when not ok. Vector datasets
  (rows x width) are the columns NAME[0], NAME[1], ... as in a CSV.
- MAT (ctde run -o x.mat, version 5): a run; signals.<field> in the order of
  signal_names, which gives the columns' names.
A NaN in an HDF5 or MAT file is an absent value (ctde writes absent values so).

Layout (docs/cli.md, "ctde plot"):
- Continuous signals are lines, grouped into panels of similar scale: sorted by
  their largest magnitude, a signal joins the panel above when its magnitude is
  at least 1/20 of that panel's largest (so a speed of 0..1 never shares an
  axis with a voltage of 0..100). Signals that are all zero join the smallest.
- Discrete signals (a column empty except at its events) with few events are
  stems with markers, grouped by scale the same way. Dense ones (more than 50
  events in a run, or most events closer than 3 pixels) are dots at their
  values when those differ, else (a clock's ticks) rows of one event raster,
  a row per signal and run. Signals whose values are all 0 are raster rows.
- Roundoff is not data: a value whose magnitude is below 1e-9 of its signal's
  largest is drawn as 0, and a signal whose values all lie below 1e-9 of the
  plot's largest magnitude (at least 1) is drawn as 0 altogether.
- Each run has its own line style and marker; each signal of a panel its own
  colour (a panel of one signal colours the runs instead). With more runs than
  line styles (4), each signal has a panel of its own, its runs coloured.
- A legend lists 12 lines at most (the last "+N more"); an event raster is at
  most twice a panel's height and labels 12 of its rows at most (every k-th).

The figure is WIDTH inches wide and HEIGHT high for up to three panels, 1.5
inches more for each further one, at DPI dots per inch; the format follows the
output's extension (.png, .svg, .pdf). Without --discrete, a column with an
empty cell in some run is discrete; with it, exactly the columns named are.
--describe prints the layout as JSON on stdout and draws nothing.
Exit status: 0 drawn, 1 an unexpected failure, 2 matplotlib is missing or a
bad command line, 3 a bad results file or signal name (the input's fault).
"""
import argparse
import csv
import json
import math
import os
import sys

ROUNDOFF = 1e-9  # values below this fraction of their signal's largest are drawn as 0
SHARE_FACTOR = 20.0  # signals whose magnitudes are within this factor share a panel
DENSE_EVENTS = 50  # a discrete signal with more events than this in a run is a raster
CLOSE_PIXELS = 3.0  # events closer than this on the time axis are "close"
MAX_PER_PANEL = 6  # more signals than this in one panel start another panel
EXTRA_PANEL_INCHES = 1.5  # added to the height for each panel beyond three
LINE_STYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D", "v", "x"]
EXIT_BAD_INPUT = 3
LEGEND_ENTRIES = 12  # a legend lists this many lines at most, the last "+N more"
RASTER_LABELS = 12  # an event raster labels this many rows at most (every k-th row)
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
MAT_HEADER = b"MATLAB "  # "MATLAB 5.0 MAT-file, ..." (and 7.3's, which scipy cannot read)
# The columns of a sweep file's /summary that are no swept parameter (docs/sweep.md, "Results files").
SWEEP_SUMMARY_OWN = {"index", "status", "message", "steps", "events", "wall_time"}


class BadInput(Exception):
    """A results file that cannot be plotted, or a signal name it lacks."""


class CannotWrite(Exception):
    """The plot file cannot be written."""


class MissingModule(Exception):
    """A Python module that reading HDF5 or MAT files needs is not installed."""


class Run:
    """One run: its file, label, times and columns ({name: [value or None]}).

    `index` is its number in a sweep file (None for a file of one run),
    `parameters` its swept values ({name: value}), `status` how it ended.
    """

    def __init__(self, path, times, columns, index=None, parameters=None, status="ok"):
        self.path = path
        self.label = os.path.basename(path)
        self.times = times
        self.columns = columns
        self.index = index
        self.parameters = parameters or {}
        self.status = status


def read_results(path, wanted_runs):
    """The runs of one results file, by its first bytes: HDF5, MAT, else CSV."""
    try:
        with open(path, "rb") as f:
            start = f.read(len(HDF5_SIGNATURE))
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror}")
    if start == HDF5_SIGNATURE:
        return read_hdf5(path, wanted_runs)
    if start.startswith(MAT_HEADER):
        return [read_mat(path)]
    return [read_csv(path)]


def not_results(path, why):
    return BadInput(f"{path}: not a ctde results file ({why}; ctde writes CSV whose first line starts with "
                    "time,microstep, HDF5 and MAT files)")


def read_csv(path):
    """Reads a results CSV into a Run."""
    try:
        with open(path, newline="") as f:
            rows = csv.reader(f)
            header = next(rows, [])
            if header[:2] != ["time", "microstep"]:
                raise not_results(path, "its first line does not start with time,microstep")
            names = header[2:]
            columns = {name: [] for name in names}
            times = []
            for number, row in enumerate(rows, start=2):
                if len(row) != len(header):
                    raise BadInput(f"{path}:{number}: {len(row)} cells, the header has {len(header)}")
                try:
                    times.append(float(row[0]))
                    for name, cell in zip(names, row[2:]):
                        columns[name].append(float(cell) if cell != "" else None)
                except ValueError as e:
                    raise BadInput(f"{path}:{number}: {e}")
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror}")
    except UnicodeDecodeError:
        raise not_results(path, "not text")
    return Run(path, times, columns)


def import_module(name, package):
    try:
        return __import__(name, fromlist=["_"])
    except ImportError as missing:
        raise MissingModule(f"{name} is not available to {sys.executable} ({missing}); "
                            f"on Debian: apt-get install {package}")


def absent_as_none(values):
    """A column's values as floats, NaN (absent) as None."""
    return [None if v != v else v for v in values.astype(float).tolist()]


def add_columns(columns, name, values, rows, where):
    """Adds a signal of `rows` x width values as CSV's columns: NAME, or NAME[0], NAME[1], ..."""
    if values.shape[:1] != (rows,) or values.ndim > 2:
        raise BadInput(f"{where}: {name} has the shape {values.shape}, the time {rows} rows")
    if values.ndim == 2 and values.shape[1] > 1:
        for e in range(values.shape[1]):
            columns[f"{name}[{e}]"] = absent_as_none(values[:, e])
    else:
        columns[name] = absent_as_none(values.reshape(rows))


def hdf5_run(path, group, h5py, index=None, parameters=()):
    """One run's group: time, microstep and a dataset per signal."""
    where = f"{path}:{group.name}"
    if not isinstance(group.get("time"), h5py.Dataset):
        raise not_results(path, f"an HDF5 file without {group.name.rstrip('/')}/time")
    times = group["time"][()].astype(float).tolist()
    columns = {}
    for name in group:  # in the order written (the record's), where the file keeps it; else by name
        item = group[name]
        if name in ("time", "microstep") or not isinstance(item, h5py.Dataset) or item.dtype.kind != "f":
            continue
        add_columns(columns, name, item[()], len(times), where)
    values = {p: float(group.attrs[p]) for p in parameters if p in group.attrs}
    return Run(path, times, columns, index, values, str(group.attrs.get("status", "ok")))


def read_hdf5(path, wanted_runs):
    """A run (the root group) or a sweep's runs (/runs/<k>, those of --runs if given)."""
    h5py = import_module("h5py", "python3-h5py")
    try:
        with h5py.File(path, "r") as f:
            if not isinstance(f.get("runs"), h5py.Group):
                return [hdf5_run(path, f["/"], h5py)]
            indices = sorted(int(k) for k in f["runs"] if k.isdigit())
            missing = [k for k in wanted_runs or [] if k not in indices]
            if missing:
                raise BadInput(f"--runs: {path} has no run {', '.join(map(str, missing))} "
                               f"(its runs: {index_ranges(indices) or 'none'})")
            summary = f.get("summary")
            names = summary.dtype.names if isinstance(summary, h5py.Dataset) and summary.dtype.names else ()
            parameters = [n for n in names if n not in SWEEP_SUMMARY_OWN]
            chosen = [k for k in indices if not wanted_runs or k in wanted_runs]
            return [hdf5_run(path, f["runs"][str(k)], h5py, k, parameters) for k in chosen]
    except OSError as e:
        raise BadInput(f"{path}: cannot read the HDF5 file ({e})")


def read_mat(path):
    """A MAT file of ctde run -o x.mat: time, signals (a struct), signal_names."""
    io = import_module("scipy.io", "python3-scipy")
    try:
        m = io.loadmat(path)
    except (ValueError, TypeError, NotImplementedError, OSError) as e:
        raise BadInput(f"{path}: cannot read the MAT file ({e})")
    if not {"time", "signals", "signal_names"} <= m.keys():
        raise not_results(path, "a MAT file without time, signals and signal_names")
    times = m["time"].reshape(-1).astype(float).tolist()
    fields = m["signals"].dtype.names or ()
    names = [str(cell[0]) if cell.size else "" for cell in m["signal_names"].reshape(-1)]
    if len(names) != len(fields):
        raise BadInput(f"{path}: {len(names)} signal_names for {len(fields)} fields of signals")
    columns = {}
    for name, field in zip(names, fields):
        add_columns(columns, name, m["signals"][field][0, 0], len(times), path)
    return Run(path, times, columns)


def index_ranges(indices):
    """[0, 1, 2, 5] as "0-2, 5"."""
    spans = []
    for k in indices:
        if spans and k == spans[-1][1] + 1:
            spans[-1][1] = k
        else:
            spans.append([k, k])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def parse_runs(text):
    """--runs 0,3-5: the run numbers of a sweep file to draw."""
    runs = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()) or (last and int(last) < int(first)):
            raise BadInput(f"--runs {text}: expects run numbers and ranges such as 0,3-5")
        runs += range(int(first), int(last or first) + 1)
    return list(dict.fromkeys(runs))


def run_label(run):
    """A sweep run's label: its number, swept values, and how it ended when not ok."""
    label = f"run {run.index}"
    if run.parameters:
        label += ": " + ", ".join(f"{name}={value:.6g}" for name, value in run.parameters.items())
    return label if run.status == "ok" else f"{label} ({run.status})"


def label_runs(runs, files):
    """Labels runs by file name, or by path where two files share a name; a
    sweep's runs by run_label(), after the file's label when there are several files."""
    names = [os.path.basename(f) for f in files]
    for r in runs:
        if names.count(r.label) > 1:
            r.label = r.path
        if r.index is not None:
            r.label = run_label(r) if len(files) == 1 else f"{r.label} {run_label(r)}"
    labels = [r.label for r in runs]
    for i, r in enumerate(runs):
        if labels.count(r.label) > 1:
            r.label = f"{r.label} #{i + 1}"


def signal_names(runs):
    """Every column of every run, in the order first seen."""
    seen = []
    for r in runs:
        seen += [n for n in r.columns if n not in seen]
    return seen


def choose(runs, wanted):
    """The signals to draw: all, or those of --signals (each must exist)."""
    known = signal_names(runs)
    if not wanted:
        return known
    chosen, unknown = [], []
    for n in wanted:
        # a vector signal's name stands for all its elements, n[0], n[1], ...
        found = [n] if n in known else [k for k in known if k.startswith(n + "[")]
        chosen += found
        if not found:
            unknown.append(n)
    if unknown:
        quoted = ", ".join("'" + n + "'" for n in unknown)  # as ctde plot's own check says it
        raise BadInput(f"--signals: no signal {quoted} in the results; "
                       f"they have: {', '.join(known) if known else '(no signals)'}")
    return list(dict.fromkeys(chosen))


def is_discrete(name, runs, discrete_names):
    if discrete_names:
        return name in discrete_names
    return any(v is None for r in runs for v in r.columns.get(name, []))


def finite(values):
    return [v for v in values if v is not None and math.isfinite(v)]


def magnitude(name, runs):
    """The largest |value| of a signal over all runs (0 without values)."""
    return max((abs(v) for r in runs for v in finite(r.columns.get(name, []))), default=0.0)


def clean_roundoff(names, runs, report):
    """Sets roundoff-sized values to 0 in place (see the module's doc).

    Records in report["roundoff"] the signals drawn as 0 altogether and in
    report["zeroed"] how many values were set to 0 per other signal.
    """
    magnitudes = {n: magnitude(n, runs) for n in names}
    plot_scale = max([1.0] + list(magnitudes.values()))
    for name in names:
        whole = magnitudes[name] < ROUNDOFF * plot_scale
        threshold = ROUNDOFF * plot_scale if whole else ROUNDOFF * magnitudes[name]
        zeroed = 0
        for r in runs:
            values = r.columns.get(name)
            if values is None:
                continue
            for i, v in enumerate(values):
                if v is not None and v != 0.0 and abs(v) < threshold:
                    values[i] = 0.0
                    zeroed += 1
        if whole and magnitudes[name] > 0.0:
            report["roundoff"].append(name)
        elif zeroed:
            report["zeroed"][name] = zeroed


def group_by_scale(names, runs):
    """Panels (lists of names) of signals of similar magnitude, largest first.

    With more runs than line styles, a panel holds one signal: its runs are
    told apart by colour (a panel of several signals colours the signals).
    """
    per_panel = MAX_PER_PANEL if len(runs) <= len(LINE_STYLES) else 1
    magnitudes = {n: magnitude(n, runs) for n in names}
    order = sorted((n for n in names if magnitudes[n] > 0.0), key=lambda n: -magnitudes[n])
    panels = []
    for name in order:
        panel = panels[-1] if panels else None
        if panel and len(panel) < per_panel and magnitudes[name] * SHARE_FACTOR >= magnitudes[panel[0]]:
            panel.append(name)
        else:
            panels.append([name])
    zeros = [n for n in names if magnitudes[n] == 0.0]
    if zeros and panels and len(panels[-1]) + len(zeros) <= per_panel:
        panels[-1] += zeros
    else:
        panels += [zeros[i:i + per_panel] for i in range(0, len(zeros), per_panel)]
    rank = {n: i for i, n in enumerate(names)}  # each panel lists its signals in column order
    return [sorted(p, key=rank.get) for p in panels]


def events(name, run):
    """The (time, value) pairs of a discrete signal in one run."""
    return [(t, v) for t, v in zip(run.times, run.columns.get(name, [])) if v is not None]


def is_dense(name, runs, seconds_per_pixel):
    """Whether a discrete signal has too many events for stems (see the module's doc)."""
    for r in runs:
        times = [t for t, _ in events(name, r)]
        if len(times) > DENSE_EVENTS:
            return True
        gaps = [b - a for a, b in zip(times, times[1:]) if b > a]
        close = sum(1 for g in gaps if g < CLOSE_PIXELS * seconds_per_pixel)
        if len(gaps) >= 3 and close * 2 > len(gaps):
            return True
    return False


def discrete_kind(name, runs, seconds_per_pixel):
    """How a discrete signal is drawn: "stems", "points" or "raster".

    Sparse signals are stems. Dense ones are a raster row when their values
    tell nothing (all equal), else dots at their values (no stems). Signals
    whose every value is 0 are raster rows however many events they have.
    """
    values = {v for r in runs for _, v in events(name, r)}
    if values <= {0.0}:
        return "raster"
    if not is_dense(name, runs, seconds_per_pixel):
        return "stems"
    return "raster" if len(values) == 1 else "points"


def time_span(runs, logx):
    times = [t for r in runs for t in r.times if not logx or t > 0]
    return (min(times), max(times)) if times else (0.0, 1.0)


def skip_non_positive(names, runs, logx, logy, notes):
    """For log axes: drops rows at t <= 0 and values <= 0, with a note of how many."""
    for r in runs:
        if logx:
            keep = [i for i, t in enumerate(r.times) if t > 0]
            if len(keep) < len(r.times):
                notes.append(f"{r.label}: {len(r.times) - len(keep)} rows at time <= 0 skipped (log time axis)")
                r.times = [r.times[i] for i in keep]
                r.columns = {n: [v[i] for i in keep] for n, v in r.columns.items()}
        if logy:
            for name in names:
                values = r.columns.get(name, [])
                bad = [i for i, v in enumerate(values) if v is not None and not v > 0]
                for i in bad:
                    values[i] = float("nan")
                if bad:
                    notes.append(f"{r.label}: {len(bad)} values <= 0 of {name} skipped (log value axes)")


def layout(runs, args):
    """Decides what is drawn where: the description --describe prints."""
    names = choose(runs, args.signals)
    report = {"runs": [r.label for r in runs], "panels": [], "roundoff": [], "zeroed": {}, "notes": []}
    discrete = [n for n in names if is_discrete(n, runs, args.discrete)]
    continuous = [n for n in names if n not in discrete]
    clean_roundoff(names, runs, report)
    start, end = time_span(runs, args.logx)
    axis_pixels = args.width * args.dpi * 0.8
    seconds_per_pixel = (end - start) / axis_pixels if end > start else 0.0
    report["seconds_per_pixel"] = seconds_per_pixel
    kinds = {n: discrete_kind(n, runs, seconds_per_pixel) for n in discrete}
    valued = [n for n in names if kinds.get(n) != "raster"]  # a raster row draws no values
    skip_non_positive(valued, runs, args.logx, args.logy, report["notes"])
    for panel in group_by_scale(continuous, runs):
        report["panels"].append({"kind": "lines", "signals": panel})
    for kind in ("stems", "points"):
        for panel in group_by_scale([n for n in discrete if kinds[n] == kind], runs):
            report["panels"].append({"kind": kind, "signals": panel})
    raster = [n for n in discrete if kinds[n] == "raster"]
    if raster:
        report["panels"].append({"kind": "raster", "signals": raster})
    extra = max(0, len(report["panels"]) - 3)
    report["width_pixels"] = round(args.width * args.dpi)
    report["height_pixels"] = round((args.height + EXTRA_PANEL_INCHES * extra) * args.dpi)
    return report


def style(run_index, signal_index, signals_in_panel):
    """Colour, line style and marker of one signal of one run in a panel."""
    colour = f"C{(signal_index if signals_in_panel > 1 else run_index) % 10}"
    return colour, LINE_STYLES[run_index % len(LINE_STYLES)], MARKERS[run_index % len(MARKERS)]


def series(signals, runs):
    """(signal, run, its colour, line style, marker) for every signal of a panel in
    every run that has it: the drawing functions' common walk."""
    for k, name in enumerate(signals):
        for i, r in enumerate(runs):
            if name in r.columns:
                yield (name, r) + style(i, k, len(signals))


def legend_label(name, run, runs, report):
    label = name if len(runs) == 1 else f"{name} · {run.label}"
    return label + " (roundoff, drawn as 0)" if name in report["roundoff"] else label


def axis_label(signals):
    text = ", ".join(signals[:3]) + (f" +{len(signals) - 3}" if len(signals) > 3 else "")
    return text if len(text) <= 40 else text[:39] + "…"


def draw_lines(ax, signals, runs, report, logy):
    for name, r, colour, line, _ in series(signals, runs):
        values = [v if v is not None else float("nan") for v in r.columns[name]]
        ax.plot(r.times, values, color=colour, linestyle=line, linewidth=1.2,
                label=legend_label(name, r, runs, report))


def draw_stems(ax, signals, runs, report, logy):
    """Stems from 0 to each value, with a marker (on a log axis only markers)."""
    for name, r, colour, line, marker in series(signals, runs):
        pairs = events(name, r)
        label = legend_label(name, r, runs, report)
        if not pairs:
            ax.plot([], [], color=colour, marker=marker, linestyle="none", label=f"{label} (no events)")
            continue
        ts, vs = zip(*pairs)
        if not logy:
            ax.vlines(ts, 0, vs, colors=colour, linestyles=line, linewidth=1.0, alpha=0.7)
        ax.plot(ts, vs, color=colour, marker=marker, markersize=4, linestyle="none", label=label)
    if not logy:
        ax.axhline(0, color="0.6", linewidth=0.8)


def draw_points(ax, signals, runs, report, logy):
    for name, r, colour, _, marker in series(signals, runs):
        pairs = events(name, r)
        ts, vs = zip(*pairs) if pairs else ((), ())
        ax.plot(ts, vs, color=colour, marker=marker, markersize=2, linestyle="none", alpha=0.6,
                label=f"{legend_label(name, r, runs, report)} ({len(pairs)} events)")


def draw_raster(ax, signals, runs, report, seconds_per_pixel):
    rows = [(name, i, r) for name in signals for i, r in enumerate(runs) if name in r.columns]
    labels = []
    for row, (name, i, r) in enumerate(rows):
        colour = f"C{(signals.index(name) if len(runs) == 1 else i) % 10}"
        times = [t for t, _ in events(name, r)]
        span = (max(times) - min(times)) if times else 0.0
        per_pixel = len(times) * seconds_per_pixel / span if span > 0 else 0.0
        # Many ticks per pixel merge into a band: faint ticks let its density show.
        ax.eventplot([times], lineoffsets=[row], linelengths=0.8, linewidths=1.0,
                     colors=[colour],
                     alpha=1.0 if per_pixel <= 1 else max(0.05, 1.0 / per_pixel))
        label = name if len(runs) == 1 else f"{name} · {r.label}"
        labels.append(f"{axis_label([label])} ({len(times)})")
    step = math.ceil(len(rows) / RASTER_LABELS) if rows else 1  # more rows than labels fit: every step-th
    ax.set_yticks(range(0, len(rows), step))
    ax.set_yticklabels(labels[::step], fontsize="small")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_ylabel("events")
    ax.grid(True, axis="x", alpha=0.3)


def legend(ax, points):
    """The panel's legend: at most LEGEND_ENTRIES lines, the last "+N more" (a
    sweep's hundred runs would hide the plot)."""
    handles, labels = ax.get_legend_handles_labels()
    if len(handles) > LEGEND_ENTRIES:
        more = len(handles) - LEGEND_ENTRIES + 1
        handles = handles[:LEGEND_ENTRIES - 1] + [ax.plot([], [], linestyle="none")[0]]
        labels = labels[:LEGEND_ENTRIES - 1] + [f"+{more} more"]
    ax.legend(handles, labels, loc="best" if points < 20000 else "upper right", fontsize="x-small",
              ncol=2 if len(handles) > 4 else 1)


def draw(runs, report, args):
    import matplotlib  # imported only when drawing: --describe does without

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = report["panels"] or [{"kind": "lines", "signals": []}]
    # A raster row per signal and run, up to twice a panel's height (12 rows); more rows are narrower.
    heights = [min(0.4 + 0.3 * len(p["signals"]) * len(runs), 4.0) if p["kind"] == "raster" else 2.0
               for p in panels]
    fig, axes = plt.subplots(len(panels), 1, sharex=True, squeeze=False, gridspec_kw={"height_ratios": heights},
                             figsize=(report["width_pixels"] / args.dpi, report["height_pixels"] / args.dpi))
    axes = [a[0] for a in axes]
    for ax, panel in zip(axes, panels):
        signals = panel["signals"]
        if panel["kind"] == "raster":
            draw_raster(ax, signals, runs, report, report["seconds_per_pixel"])
            continue
        drawers = {"lines": draw_lines, "stems": draw_stems, "points": draw_points}
        drawers[panel["kind"]](ax, signals, runs, report, args.logy)
        ax.set_ylabel(axis_label(signals), fontsize="small")
        ax.ticklabel_format(axis="y", useOffset=False)
        if args.logy and any(v > 0 for n in signals for r in runs for v in finite(r.columns.get(n, []))):
            ax.set_yscale("log")
        elif args.logy:
            ax.text(0.5, 0.5, "no values > 0 to draw on a log axis", ha="center", va="center", transform=ax.transAxes)
        ax.grid(True, alpha=0.3)
        if signals:
            legend(ax, sum(len(r.times) for r in runs) * len(signals))
    if args.logx:
        axes[-1].set_xscale("log")
    if args.title:
        axes[0].set_title(args.title)
    if not any(r.times for r in runs):
        axes[0].text(0.5, 0.5, "no rows", ha="center", va="center", transform=axes[0].transAxes)
    elif not report["panels"]:
        axes[0].text(0.5, 0.5, "no signals", ha="center", va="center", transform=axes[0].transAxes)
    axes[-1].set_xlabel("time (s)")
    fig.tight_layout()
    try:
        fig.savefig(args.output, dpi=args.dpi)  # no bbox_inches: the size stays as described
    except (OSError, ValueError) as e:  # an unwritable output, an unknown output format
        raise CannotWrite(f"cannot write {args.output}: {e}")
    plt.close(fig)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+", help="results files: CSV, HDF5 (a run or a sweep) or MAT")
    parser.add_argument("-o", "--output", help="the plot (.png, .svg or .pdf)")
    parser.add_argument("--signals", type=lambda s: [n for n in s.split(",") if n], default=[],
                        help="the signals to draw: a.out,b.out (default: all)")
    parser.add_argument("--runs", default="", help="a sweep file's runs to draw: 0,3-5 (default: all)")
    parser.add_argument("--logx", action="store_true", help="a logarithmic time axis")
    parser.add_argument("--logy", action="store_true", help="logarithmic value axes")
    parser.add_argument("--width", type=float, default=10, help="inches (default 10)")
    parser.add_argument("--height", type=float, default=6, help="inches for up to three panels (default 6)")
    parser.add_argument("--dpi", type=float, default=100, help="dots per inch (default 100)")
    parser.add_argument("--title", default="")
    parser.add_argument("--discrete", action="append", default=[], metavar="COLUMN",
                        help="a discrete column (repeatable)")
    parser.add_argument("--describe", action="store_true", help="print the layout as JSON and draw nothing")
    args = parser.parse_args()
    if not args.output and not args.describe:
        parser.error("give -o OUTPUT (or --describe)")
    return args


def read_all(paths, runs_text=""):
    """Every run of the results files, labelled; --runs (`runs_text`) chooses a sweep's."""
    wanted = parse_runs(runs_text) if runs_text else None
    runs = [r for path in paths for r in read_results(path, wanted)]
    if wanted and not any(r.index is not None for r in runs):
        raise BadInput(f"--runs {runs_text}: chooses runs of a sweep's HDF5 file, and no file is one")
    label_runs(runs, paths)
    return runs


def main():
    args = parse_arguments()
    try:
        runs = read_all(args.results, args.runs)
        report = layout(runs, args)
    except BadInput as e:
        print(f"plot_results.py: error: {e}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
    except MissingModule as e:
        print(f"plot_results.py: {e}", file=sys.stderr)
        sys.exit(2)
    for note in report["notes"]:
        print(f"plot_results.py: note: {note}", file=sys.stderr)
    if args.describe:
        print(json.dumps(report))
        return
    try:
        draw(runs, report, args)
    except ImportError as missing:
        print(f"plot_results.py: matplotlib is not available to {sys.executable} ({missing});"
              " on Debian: apt-get install python3-matplotlib", file=sys.stderr)
        sys.exit(2)
    except CannotWrite as e:
        sys.exit(f"plot_results.py: error: {e}")


if __name__ == "__main__":
    main()
