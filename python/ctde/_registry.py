"""The actor registry's metadata: ctde.types() and ctde.describe()."""

import json

from . import _ctde


def types():
    """Every actor type a model may use, sorted by name: a list of dicts
    ``{"type", "family", "summary"}`` (as ``ctde types --json``)."""
    return json.loads(_ctde.types_json())


def describe(type):  # noqa: A002 (the API's name)
    """One actor type: ``type``, ``family``, ``summary``, ``time_mode``,
    ``inputs``/``outputs`` (name, kind, width: None when inferred),
    ``parameters`` (name, kind, default, required) and ``sample_params``
    (as ``ctde describe TYPE``).

    Raises:
        TypeError: ``type`` is not a str.
        ModelError: no such type (the message suggests the closest name).
    """
    if not isinstance(type, str):
        raise TypeError(f"describe(): type must be a str, not {type.__class__.__name__}")
    return json.loads(_ctde.describe_json(type))
