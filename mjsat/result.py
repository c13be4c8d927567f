"""The result object every method returns: ``solvable``, ``unsolvable`` or ``unknown``."""

from __future__ import annotations

import dataclasses
from typing import Any

from mjsat.board import Move

__all__ = ["SOLVABLE", "UNSOLVABLE", "UNKNOWN", "STATUSES", "SolveResult", "MjsatUnfeasible", "SolverError"]

SOLVABLE = "solvable"
UNSOLVABLE = "unsolvable"
UNKNOWN = "unknown"
STATUSES = (SOLVABLE, UNSOLVABLE, UNKNOWN)


class MjsatUnfeasible(Exception):
    """Base of the domain exceptions for 'nothing found' (never a silent ``None``)."""


class SolverError(RuntimeError):
    """A method broke its contract (for example an answer that replay rejects): a bug."""


@dataclasses.dataclass
class SolveResult:
    """What a method found about a board.

    ``status`` is ``solvable`` (``moves`` then holds a replay-verified clearing sequence),
    ``unsolvable`` (only from an exhaustive method that finished) or ``unknown`` (a time or
    node limit was reached; ``reason`` says which). ``stats`` holds method-specific
    counts (nodes, variables, clauses, build and solve time, ...).
    """

    status: str
    method: str
    moves: list[Move] = dataclasses.field(default_factory=list)
    seconds: float = 0.0
    stats: dict[str, Any] = dataclasses.field(default_factory=dict)
    certified: bool = False
    reason: str = ""
    verified: bool = False

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
            "verified": self.verified,
            "certified": self.certified,
            "reason": self.reason,
            "stats": self.stats,
        }
