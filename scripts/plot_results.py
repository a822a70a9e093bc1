#!/usr/bin/python3
"""Plots a ctde results file: continuous columns as lines, discrete columns
(empty except at their event rows) as stems with markers.

    /usr/bin/python3 scripts/plot_results.py results.csv plot.png
        [--width 10 --height 6 --dpi 100] [--title TEXT] [--discrete=COLUMN ...]

The figure is WIDTH x HEIGHT inches at DPI dots per inch (1000 x 600 pixels by
default); the format follows the output's extension (.png, .svg, .pdf).
Without --discrete, a column with an empty cell is taken as discrete; with it,
exactly the columns named are (`ctde run --plot` names them from the model).
Exit status: 0 drawn, 1 a bad results file, 2 matplotlib is missing.
"""
import argparse
import csv
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as missing:
    print(f"plot_results.py: matplotlib is not available to {sys.executable} ({missing});"
          " on Debian: apt-get install python3-matplotlib", file=sys.stderr)
    sys.exit(2)


class BadResults(Exception):
    """A results file that cannot be plotted."""


def read(path):
    """Returns (times, {column: [value or None]}) from a results CSV."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise BadResults(f"cannot read {path}: {e.strerror}")
    if not rows or rows[0][:2] != ["time", "microstep"]:
        raise BadResults(f"{path}: not a ctde results file (the first line must start with time,microstep)")
    header, body = rows[0], rows[1:]
    names = header[2:]
    columns = {name: [] for name in names}
    times = []
    for number, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise BadResults(f"{path}:{number}: {len(row)} cells, the header has {len(header)}")
        try:
            times.append(float(row[0]))
            for name, cell in zip(names, row[2:]):
                columns[name].append(float(cell) if cell != "" else None)
        except ValueError as e:
            raise BadResults(f"{path}:{number}: {e}")
    return times, columns


def split(columns, discrete_names):
    """Separates continuous from discrete columns (see the module's doc)."""
    if discrete_names:
        unknown = [n for n in discrete_names if n not in columns]
        if unknown:
            raise BadResults(f"--discrete names no column of the results: {', '.join(unknown)}")
        discrete = {n: v for n, v in columns.items() if n in discrete_names}
    else:
        discrete = {n: v for n, v in columns.items() if any(x is None for x in v)}
    continuous = {n: v for n, v in columns.items() if n not in discrete}
    return continuous, discrete


def draw(times, continuous, discrete, args):
    panels = max((1 if continuous else 0) + (1 if discrete else 0), 1)
    fig, axes = plt.subplots(panels, 1, figsize=(args.width, args.height), sharex=True, squeeze=False)
    axes = [a[0] for a in axes]
    if args.title:
        axes[0].set_title(args.title)
    i = 0
    if continuous:
        for name, values in continuous.items():
            axes[i].plot(times, [v if v is not None else float("nan") for v in values], label=name,
                         linewidth=1.2)
        axes[i].set_ylabel("continuous")
        axes[i].legend(loc="best", fontsize="small")
        axes[i].grid(True, alpha=0.3)
        i += 1
    if discrete:
        for k, (name, values) in enumerate(discrete.items()):
            ts = [t for t, v in zip(times, values) if v is not None]
            vs = [v for v in values if v is not None]
            colour = f"C{k % 10}"
            if ts:
                axes[i].stem(ts, vs, linefmt=f"{colour}-", markerfmt=f"{colour}o", basefmt=" ", label=name)
            else:
                axes[i].plot([], [], f"{colour}o", label=f"{name} (no events)")
        axes[i].axhline(0, color="0.6", linewidth=0.8)
        axes[i].set_ylabel("discrete events")
        axes[i].legend(loc="best", fontsize="small")
        axes[i].grid(True, alpha=0.3)
    if not times:
        axes[0].text(0.5, 0.5, "no rows", ha="center", va="center", transform=axes[0].transAxes)
    axes[-1].set_xlabel("time (s)")
    fig.tight_layout()
    fig.savefig(args.output, dpi=args.dpi)  # no bbox_inches: the size stays WIDTH x HEIGHT x DPI


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results")
    parser.add_argument("output")
    parser.add_argument("--width", type=float, default=10, help="inches (default 10)")
    parser.add_argument("--height", type=float, default=6, help="inches (default 6)")
    parser.add_argument("--dpi", type=float, default=100, help="dots per inch (default 100)")
    parser.add_argument("--title", default="")
    parser.add_argument("--discrete", action="append", default=[], metavar="COLUMN",
                        help="a discrete column (repeatable)")
    args = parser.parse_args()
    try:
        times, columns = read(args.results)
        continuous, discrete = split(columns, args.discrete)
        draw(times, continuous, discrete, args)
    except BadResults as e:
        sys.exit(f"plot_results.py: error: {e}")
    except (OSError, ValueError) as e:  # an unwritable output, an unknown output format
        sys.exit(f"plot_results.py: error: cannot write {args.output}: {e}")


if __name__ == "__main__":
    main()
