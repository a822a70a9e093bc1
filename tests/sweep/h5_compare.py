"""Compares two ctde sweep files dataset by dataset and attribute by attribute.

Usage: h5_compare.py A.h5 B.h5. Wall-clock times (the `wall_time` attribute
and summary column) are left out: they differ from run to run. Exit 0 when
the files hold the same runs with the same values (NaN equal to NaN), else 1
with the first difference on stdout.
"""
import sys

import h5py
import numpy as np

IGNORED = {"wall_time"}


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    return a.shape == b.shape and np.array_equal(a, b)


def compare_attributes(name, x, y):
    keys = set(x.attrs) - IGNORED
    if keys != set(y.attrs) - IGNORED:
        return f"{name}: attributes {sorted(keys)} != {sorted(set(y.attrs) - IGNORED)}"
    for key in sorted(keys):
        if not same(x.attrs[key], y.attrs[key]):
            return f"{name}: attribute {key}: {x.attrs[key]!r} != {y.attrs[key]!r}"
    return None


def compare(a, b):
    difference = compare_attributes("/", a, b)
    if difference:
        return difference
    if sorted(a["runs"]) != sorted(b["runs"]):
        return f"/runs: {len(a['runs'])} runs != {len(b['runs'])}"
    for run in a["runs"]:
        x, y = a["runs"][run], b["runs"][run]
        difference = compare_attributes(f"/runs/{run}", x, y)
        if difference:
            return difference
        if sorted(x) != sorted(y):
            return f"/runs/{run}: datasets {sorted(x)} != {sorted(y)}"
        for dataset in x:
            if not same(x[dataset][()], y[dataset][()]):
                return f"/runs/{run}/{dataset} differs"
    sa, sb = a["summary"][()], b["summary"][()]
    if sa.dtype.names != sb.dtype.names:
        return f"/summary: columns {sa.dtype.names} != {sb.dtype.names}"
    for column in sa.dtype.names:
        if column not in IGNORED and not same(sa[column], sb[column]):
            return f"/summary: column {column} differs"
    return None


def main():
    with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
        difference = compare(a, b)
    if difference:
        print(difference)
        return 1
    print("same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
