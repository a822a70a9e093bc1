#!/usr/bin/python3
"""Plots a ctde results file: continuous columns as lines, discrete columns
(empty except at their event rows) as stems with markers.

    /usr/bin/python3 scripts/plot_results.py results.csv plot.png [--width 10 --height 6]
"""
import argparse
import csv
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    columns = {name: [] for name in header[2:]}
    times = []
    for row in body:
        times.append(float(row[0]))
        for name, cell in zip(header[2:], row[2:]):
            columns[name].append(float(cell) if cell != "" else math.nan)
    return times, columns


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results")
    parser.add_argument("output")
    parser.add_argument("--width", type=float, default=10)
    parser.add_argument("--height", type=float, default=6)
    args = parser.parse_args()
    times, columns = read(args.results)
    discrete = {n: v for n, v in columns.items() if any(math.isnan(x) for x in v)}
    continuous = {n: v for n, v in columns.items() if n not in discrete}
    panels = (1 if continuous else 0) + (1 if discrete else 0)
    fig, axes = plt.subplots(max(panels, 1), 1, figsize=(args.width, args.height), sharex=True, squeeze=False)
    axes = [a[0] for a in axes]
    i = 0
    if continuous:
        for name, values in continuous.items():
            axes[i].plot(times, values, label=name, linewidth=1.2)
        axes[i].set_ylabel("continuous")
        axes[i].legend(loc="best", fontsize="small")
        axes[i].grid(True, alpha=0.3)
        i += 1
    if discrete:
        for name, values in discrete.items():
            ts = [t for t, v in zip(times, values) if not math.isnan(v)]
            vs = [v for v in values if not math.isnan(v)]
            markers, stems, base = axes[i].stem(ts, vs, label=name)
            plt.setp(base, visible=False)
        axes[i].set_ylabel("discrete events")
        axes[i].legend(loc="best", fontsize="small")
        axes[i].grid(True, alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    fig.tight_layout()
    fig.savefig(args.output, dpi=100)


if __name__ == "__main__":
    main()
