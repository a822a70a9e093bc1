"""Actors written in Python: discrete only, they fire at events."""

from . import _ctde

FiringContext = _ctde.FiringContext


def _check_ports(cls, attribute):
    ports = getattr(cls, attribute)
    if not isinstance(ports, dict):
        raise TypeError(f"{cls.__name__}.{attribute} must be a dict of port name -> width, "
                        f"not {ports.__class__.__name__}")
    declared = []
    for name, width in ports.items():
        if not isinstance(name, str) or not name or "." in name:
            raise TypeError(f"{cls.__name__}.{attribute}: port names are non-empty str without '.', "
                            f"got {name!r}")
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise TypeError(f"{cls.__name__}.{attribute}['{name}']: the width must be an int >= 1, "
                            f"got {width!r}")
        declared.append((name, width))
    return declared


class Actor:
    """Base of actors written in Python.

    A subclass declares its discrete ports and its parameters as class
    attributes and reacts in ``fire(ctx)``::

        class Counter(ctde.Actor):
            inputs = {"tick": 1}           # port name -> width
            outputs = {"count": 1}
            parameters = {"step": 1.0}     # name -> default (None: required)

            def initialize(self, ctx):     # at the start time (optional)
                self.n = 0
            def fire(self, ctx):           # at each tag with a token or a fire_at
                self.n += self.params["step"]
                ctx.send("count", self.n)

    ``ctx`` (a FiringContext) gives ``time``, ``microstep``, ``time_event``,
    ``has(name)``, ``input(name)`` (a float, a list, or None when absent),
    ``send(name, value)``, ``fire_at(t)`` and ``stop()``. An exception
    raised in ``fire`` ends the run with status "error" naming the actor.
    Python actors never run on the solver's right-hand-side path; the run
    takes the GIL for each firing, so a model holding one runs
    single-threaded with respect to Python (``validate()`` says so).
    """

    inputs = {}
    outputs = {}
    parameters = {}

    def __init__(self, **params):
        known = type(self).parameters
        unknown = sorted(set(params) - set(known))
        if unknown:
            raise TypeError(f"{type(self).__name__}() got an unexpected parameter '{unknown[0]}'; "
                            f"its parameters: {', '.join(known) or 'none'}")
        missing = [name for name, default in known.items() if default is None and name not in params]
        if missing:
            raise TypeError(f"{type(self).__name__}() missing required parameter '{missing[0]}'")
        self.params = {**known, **params}

    def initialize(self, ctx):
        """At the start time, before anything fires: reset the actor's own
        state here (a model may be run several times); ``ctx.fire_at`` may
        request the first firing. Sending tokens is not allowed here."""

    def fire(self, ctx):
        """At each tag where an input holds a token or a requested time event falls."""
        raise NotImplementedError(f"{type(self).__name__} does not define fire(ctx)")

    @classmethod
    def _declared_ports(cls):
        return _check_ports(cls, "inputs"), _check_ports(cls, "outputs")
