"""What the encoders raise: a board or option they cannot encode, and a build past its
deadline or above its memory bound."""

from __future__ import annotations

from mjsat import clock
from mjsat.limits import Limit

__all__ = [
    "EncodingError",
    "BuildTimeLimit",
    "BuildSizeLimit",
    "MAX_BUILD_LITERALS",
    "check_deadline",
    "check_build_size",
]


class EncodingError(ValueError):
    """A board or an option an encoder cannot handle (unknown game, bad step bound)."""


class BuildTimeLimit(Exception):
    """The deadline passed while a CNF was being built (the ``sat`` method answers
    ``unknown``). ``reason`` is the result's reason."""

    reason = "time limit"


class BuildSizeLimit(BuildTimeLimit):
    """A model would outgrow :data:`MAX_BUILD_LITERALS` (the ``sat`` and ``cpsat`` methods
    answer ``unknown``, as at a time limit, instead of growing until the system stops them)."""

    reason = "memory bound"


MAX_BUILD_LITERALS = Limit(
    "MJSAT_MAX_CNF_LITERALS",
    100_000_000,
    "literals",
    "of a SAT or CP-SAT model built in memory (some 55 bytes each: the default is about 5.5 GB)",
)
"""Literals (summed over clauses or constraints) a model may have when it is built to be
solved: a Python list of clauses costs some 55 bytes a literal (a list of three ints is
164 bytes), so the default of 100 million (about 5.5 GB) stays well under the memory of
a 16 GB machine. ``MJSAT_MAX_CNF_LITERALS`` lifts it."""


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


def check_build_size(literals: int, what: str) -> None:
    """Raise :class:`BuildSizeLimit` when a model of ``literals`` literals (an estimate made
    before the clauses are) is above :data:`MAX_BUILD_LITERALS`.

    >>> check_build_size(10, "acyclic encoding")
    >>> check_build_size(10**12, "acyclic encoding")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjsat.encoders.errors.BuildSizeLimit: memory bound (the acyclic encoding would have 1,000,000,000,000 literals, ...
    """
    message = MAX_BUILD_LITERALS.exceeded(int(literals), f"the {what}", verb="would have")
    if message is not None:
        raise BuildSizeLimit(f"memory bound ({message})")
