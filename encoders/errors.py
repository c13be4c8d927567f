"""What the encoders raise: a board or option they cannot encode, and a build past its deadline."""

from __future__ import annotations

from mjsat import clock

__all__ = ["EncodingError", "BuildTimeLimit", "check_deadline"]


class EncodingError(ValueError):
    """A board or an option an encoder cannot handle (unknown game, bad step bound)."""


class BuildTimeLimit(Exception):
    """The deadline passed while a CNF was being built (the ``sat`` method answers
    ``unknown``)."""


def check_deadline(deadline: float | None, what: str) -> None:
    """Raise :class:`BuildTimeLimit` when ``deadline`` (a :func:`mjsat.clock.now` value)
    has passed; ``what`` says where the build was.

    >>> check_deadline(None, "anything")
    >>> check_deadline(0.0, "layered encoding")
    Traceback (most recent call last):
    ...
    mjsat.encoders.errors.BuildTimeLimit: time limit (building the layered encoding)
    """
    if deadline is not None and clock.now() > deadline:
        raise BuildTimeLimit(f"time limit (building the {what})")
