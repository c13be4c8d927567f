"""The result object every method returns: ``solvable``, ``unsolvable`` or ``unknown``."""

from __future__ import annotations

import dataclasses
from typing import Any

from mjsat.board import Move

__all__ = [
    "SOLVABLE",
    "UNSOLVABLE",
    "UNKNOWN",
    "STATUSES",
    "SolveResult",
    "MjsatUnfeasible",
    "SolverError",
    "MethodNotApplicableError",
]

SOLVABLE = "solvable"
UNSOLVABLE = "unsolvable"
UNKNOWN = "unknown"
STATUSES = (SOLVABLE, UNSOLVABLE, UNKNOWN)


class MjsatUnfeasible(Exception):
    """Base of the domain exceptions for 'nothing found' (never a silent ``None``)."""


class SolverError(RuntimeError):
    """A method broke its contract (for example an answer that replay rejects): a bug."""


class MethodNotApplicableError(ValueError):
    """A method does not cover this board: a game it has no model for, or a shape outside
    what its theorem handles (``height2`` on stacks of three, ``sat`` on a
    ``shisen-sho-3d`` board, ...).

    It is the one way a method says "does not apply": the board is fine and the method is
    not broken, another method may decide the board. Every other exception a method raises
    is a failure (bad options, a bug).

    Parameters
    ----------
    method : str
        The method's name in :data:`mjsat.methods.METHODS`.
    game : str or None
        The board's game, when the refusal concerns a game.
    reason : str
        Why, in words (the message printed after ``method ... does not apply:``).

    >>> str(MethodNotApplicableError("sat", "shisen-sho-3d", "no encoding for shisen-sho-3d boards"))
    "method 'sat' does not apply: no encoding for shisen-sho-3d boards"
    """

    def __init__(self, method: str, game: str | None, reason: str) -> None:
        self.method = method
        self.game = game
        self.reason = reason
        super().__init__(f"method {method!r} does not apply: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across worker processes, subclasses too
        return (_rebuild_not_applicable, (type(self), self.method, self.game, self.reason))


def _rebuild_not_applicable(
    cls: type[MethodNotApplicableError], method: str, game: str | None, reason: str
) -> MethodNotApplicableError:
    exc = cls.__new__(cls)
    MethodNotApplicableError.__init__(exc, method, game, reason)
    return exc


@dataclasses.dataclass
class SolveResult:
    """What a method found about a board.

    ``status`` is ``solvable`` (``moves`` then holds a replay-verified clearing sequence),
    ``unsolvable`` (only from an exhaustive method that finished) or ``unknown`` (a time or
    node limit was reached; ``reason`` says which). ``stats`` holds method-specific
    counts (nodes, variables, clauses, build and solve time, ...). ``seconds`` is the wall
    time of the method, ``cpu_seconds`` this process's CPU time over it (both set by
    :func:`mjsat.methods.solve`, without the replay), ``clock`` the clock its time limit
    counted (``wall`` or ``cpu``).
    """

    status: str
    method: str
    moves: list[Move] = dataclasses.field(default_factory=list)
    seconds: float = 0.0
    stats: dict[str, Any] = dataclasses.field(default_factory=dict)
    certified: bool = False
    reason: str = ""
    verified: bool = False
    cpu_seconds: float = 0.0
    clock: str = "wall"

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")

    @property
    def label(self) -> str:
        """The status as printed: ``unsolvable (certified)`` when a proof was checked."""
        if self.status == UNSOLVABLE and self.certified:
            return "unsolvable (certified)"
        return self.status

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "label": self.label,
            "method": self.method,
            "moves": [list(m) for m in self.moves],
            "seconds": round(self.seconds, 6),
            "cpu_seconds": round(self.cpu_seconds, 6),
            "clock": self.clock,
            "verified": self.verified,
            "certified": self.certified,
            "reason": self.reason,
            "stats": self.stats,
        }
