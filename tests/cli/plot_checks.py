"""What tests/cli/test_cli_plot.cpp checks in how scripts/plot_results.py reads
results files: the runs it loads (times and columns, as the drawing sees them).

Usage: plot_checks.py CHECK ARGUMENT... with CHECK one of the functions below.
A failed assertion exits 1 with its message; what a check prints is for the
test to read.
"""
import os
import sys

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import plot_results  # noqa: E402 (found through the path above)


def only_run(path, runs=""):
    runs = plot_results.read_all([path], runs)
    assert len(runs) == 1, f"{path}: {len(runs)} runs"
    return runs[0]


def assert_same_run(a, b, what):
    """The same times and columns: names in the same order, values and absent ones (None) alike."""
    assert a.times == b.times, f"{what}: the times differ"
    assert list(a.columns) == list(b.columns), f"{what}: columns {list(a.columns)} and {list(b.columns)}"
    for name in a.columns:
        assert a.columns[name] == b.columns[name], f"{what}: {name} differs"


def same_columns(*paths):
    """The files (one run each: CSV, HDF5, MAT) load into the same run.
    Prints the columns and, per column, how many values are absent."""
    first = only_run(paths[0])
    for path in paths[1:]:
        assert_same_run(first, only_run(path), f"{paths[0]} and {path}")
    assert first.times, "no rows"
    print(*[f"{name}:{values.count(None)}" for name, values in first.columns.items()])


def sweep_run(sweep_path, index, run_path):
    """Run `index` of a sweep file loads as the run of `run_path` does (the same
    model and values run alone). Prints the sweep's labels."""
    assert_same_run(only_run(sweep_path, index), only_run(run_path), f"{sweep_path} run {index} and {run_path}")
    print(*[r.label for r in plot_results.read_all([sweep_path])], sep="\n")


def foreign_hdf5(path):
    """Writes an HDF5 file that is no ctde results file (a dataset x, no time)."""
    with h5py.File(path, "w") as f:
        f["x"] = [1.0, 2.0]


def foreign_mat(path):
    """Writes a MAT file that is no ctde results file (a matrix A, no time)."""
    import scipy.io

    scipy.io.savemat(path, {"A": [[1.0, 2.0], [3.0, 4.0]]})


CHECKS = {check.__name__: check for check in (same_columns, sweep_run, foreign_hdf5, foreign_mat)}

if __name__ == "__main__":
    CHECKS[sys.argv[1]](*sys.argv[2:])
