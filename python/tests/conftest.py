"""Shared paths for the Python package's tests (run by ctest: PYTHONPATH
points at <build>/python, CTDE_SOURCE_DIR at the sources, CTDE_CLI at the
command)."""

import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("CTDE_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
MODELS = SOURCE_DIR / "examples" / "models"


@pytest.fixture
def ball_path():
    return MODELS / "bouncing_ball.json"


@pytest.fixture
def pi_path():
    return MODELS / "sampled_pi.json"


@pytest.fixture
def cli():
    path = os.environ.get("CTDE_CLI")
    if not path:
        pytest.skip("CTDE_CLI is not set (run through ctest)")
    return path


@pytest.fixture
def one_thread_at_a_time():
    """No forced switch of the GIL during the test (a switch interval of an
    hour): a thread waiting for the GIL gets it only when its holder releases
    it (a run without the GIL, a sleep, a lock). A test can so make a thread
    run Python code only while another is inside a run, by construction
    rather than by the clock."""
    import sys

    before = sys.getswitchinterval()
    sys.setswitchinterval(3600.0)
    yield
    sys.setswitchinterval(before)
