"""The exceptions of the ctde package."""


class ModelError(Exception):
    """A mistake in a model: its text names the file, the JSON location and
    the actor, port or parameter (as ``ctde validate`` prints it).

    Attributes:
        message: what is wrong, without the location.
        location: where (``model.json at /actors/2/params/k``), or "".
    """

    def __init__(self, text, message=None, location=""):
        super().__init__(text)
        self.message = text if message is None else message
        self.location = location
ModelError.__module__ = "ctde"
