"""The example notebook, executed headless (nbclient, the python3 kernel):
it loads, runs, plots and checks the closed form, so it cannot rot."""

import os

# Imported, not importorskip'ed: the test command installs them (scripts/setup.sh),
# and a notebook test that skips itself when they are missing would hide the rot.
import nbclient
import nbformat

from conftest import SOURCE_DIR

NOTEBOOK = SOURCE_DIR / "examples" / "notebooks" / "bouncing_ball.ipynb"


def test_the_bouncing_ball_notebook_runs_and_plots(monkeypatch):
    # ipykernel's inline backend draws figures as PNG outputs (the default when none is forced).
    monkeypatch.delenv("MPLBACKEND", raising=False)
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    # The kernel is a new process: it finds the package where this one did.
    import ctde
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [os.path.dirname(os.path.dirname(ctde.__file__)), os.environ.get("PYTHONPATH", "")]))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "7 impacts, largest error against the closed form" in text
    assert "e = 0.7: error" in text
    assert any(o.output_type == "display_data" and "image/png" in o.data for o in outputs)
