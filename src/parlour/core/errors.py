"""Typed errors shared by every layer."""


class ParlourError(Exception):
    """Base class: a user-facing error whose message names the fix."""


class IllegalAction(ParlourError):
    """An answer that the rules reject. The message says why, in words a player understands."""

    def __init__(self, message: str, *, decision_id: str = "") -> None:
        super().__init__(message)
        self.decision_id = decision_id
