"""Size limits on what mjsat reads and builds, each liftable by an environment variable.

A file or an option can ask for work that grows with a number it states (a board of
2**70 tiles, a CNF header of a billion variables, a million SAT steps). Each such number
is checked against a :class:`Limit` *before* anything that grows with it is allocated,
and a number above the limit is refused on one line that names the limit and the
environment variable that lifts it. The defaults lie far above real use: the reductions
of 10,000-clause formulas (boards of one to four million tiles) pass.

* :data:`MAX_TILES`, ``MJSAT_MAX_TILES``: 16,777,216 tiles in a board or layout;
* :data:`MAX_CNF_VARS`, ``MJSAT_MAX_CNF_VARIABLES``: 10,000,000 variables declared by a CNF;
* :data:`MAX_STEP_CELLS`, ``MJSAT_MAX_STEP_CELLS``: 100,000,000 tiles x steps of a SAT
  encoding given ``--steps``;
* :data:`MAX_PAIRS`, ``MJSAT_MAX_PAIRS``: 10,000,000 candidate pairs of a SAT or CP-SAT
  model;
* :data:`MAX_JSON_DEPTH`, ``MJSAT_MAX_JSON_DEPTH``: 64 nested arrays and objects in a JSON
  input;
* :data:`MAX_PICTURE_CELLS`, ``MJSAT_MAX_PICTURE_CELLS``: 4,000,000 characters of an ASCII
  picture (a larger board is described in one line instead of drawn);
* :data:`MAX_INPUT_BYTES`, ``MJSAT_MAX_INPUT_BYTES``: 268,435,456 bytes (256 MiB) of one
  input file;
* :data:`MAX_MEMORY`, ``MJSAT_MAX_MEMORY_MB``: 4,096 MiB that the tiles of a board or
  layout would need, estimated from their count before anything is built
  (:class:`TileLimit`; :func:`planned_use` for solving, which needs more a tile);
* :data:`MAX_COUNT`, ``MJSAT_MAX_COUNT``: 10,000,000 boards of one run;
* :data:`MAX_CNF_CLAUSES`, ``MJSAT_MAX_CNF_CLAUSES``: 10,000,000 clauses of a formula
  ``reduce family`` builds.

>>> MAX_TILES.exceeded(10)
>>> MAX_TILES.exceeded(2**70, "the board")  # doctest: +ELLIPSIS
'the board has 1,180,591,620,717,411,303,424 tiles, above the limit of 16,777,216 (set MJSAT_MAX_TILES to lift it)'
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Iterator
from contextvars import ContextVar

__all__ = [
    "SizeLimitError",
    "LimitSettingError",
    "Limit",
    "LIMITS",
    "MAX_TILES",
    "MAX_CNF_VARS",
    "MAX_STEP_CELLS",
    "MAX_PAIRS",
    "MAX_JSON_DEPTH",
    "MAX_PICTURE_CELLS",
    "MAX_INPUT_BYTES",
    "MAX_MEMORY",
    "MAX_COUNT",
    "MAX_CNF_CLAUSES",
    "TileLimit",
    "TILE_BYTES",
    "SOLVE_TILE_BYTES",
    "planned_use",
    "limits_help",
]


class SizeLimitError(ValueError):
    """A size above a :class:`Limit`."""


class LimitSettingError(ValueError):
    """An environment variable of a :class:`Limit` that is not a positive integer."""


@dataclasses.dataclass(frozen=True)
class Limit:
    """One size limit: a default, the environment variable that replaces it, a unit.

    Attributes
    ----------
    env : str
        The environment variable; a positive integer there replaces the default.
    default : int
    unit : str
        What is counted, in the plural (``"tiles"``).
    about : str
        Where it applies, for help texts.
    """

    env: str
    default: int
    unit: str
    about: str = ""

    @property
    def value(self) -> int:
        """The limit in force (the environment variable's value, else the default).

        Raises
        ------
        LimitSettingError
            The environment variable is set to something other than a positive integer.
        """
        raw = os.environ.get(self.env, "").strip().replace("_", "").replace(",", "")
        if not raw:
            return self.default
        if not raw.isascii() or not raw.isdigit() or len(raw) > 30 or int(raw) < 1:
            raise LimitSettingError(f"{self.env} must be a positive integer, got {os.environ[self.env][:40]!r}")
        return int(raw)

    def exceeded(
        self, count: int, subject: str = "the input", *, at_least: bool = False, verb: str = "has"
    ) -> str | None:
        """``None`` when ``count`` is within the limit, else the one-line refusal
        (``at_least``: ``count`` is a lower bound, the reader stopped counting there)."""
        limit = self.value
        if count <= limit:
            return None
        more = "more than " if at_least else ""
        shown = limit if at_least else count
        return f"{subject} {verb} {more}{shown:,} {self.unit}, above the limit of {limit:,} (set {self.env} to lift it)"

    def check(self, count: int, subject: str = "the input", *, verb: str = "has") -> None:
        """Raise :class:`SizeLimitError` when ``count`` is above the limit."""
        message = self.exceeded(count, subject, verb=verb)
        if message is not None:
            raise SizeLimitError(message)


MAX_MEMORY = Limit(
    "MJSAT_MAX_MEMORY_MB",
    4096,
    "MiB of memory (estimated)",
    "that a board or layout of that many tiles needs, estimated from its size before it is built",
)
"""Memory, in MiB, that the tiles of a board or layout would need (see :class:`TileLimit`)."""

TILE_BYTES = 700
"""Bytes a tile of a board or layout costs while it is read, built, written or explained
(measured: ``deal --layout rect-1000x1000`` peaks at 544 MB, ``reduce witness`` of a
720,060-tile board at 512 MB)."""
SOLVE_TILE_BYTES = 2000
"""Bytes a tile costs when the board is solved (measured: ``solve --layout rect-500x500``
peaks at 447 MB for 250,000 tiles, the tables of every method of the plan built)."""

_USE: ContextVar[tuple[str, int]] = ContextVar("mjsat_tile_use", default=("hold", TILE_BYTES))


@contextlib.contextmanager
def planned_use(what: str, bytes_per_tile: int) -> Iterator[None]:
    """Within the block, boards and layouts are sized for ``what`` (``"solve"``), at
    ``bytes_per_tile`` each: a command that will solve a board says so before reading it,
    so that a board too large to solve is refused before it is built."""
    token = _USE.set((what, bytes_per_tile))
    try:
        yield
    finally:
        _USE.reset(token)


@dataclasses.dataclass(frozen=True)
class TileLimit(Limit):
    """The limit on tiles, and through it on memory: a count of tiles is refused above
    its own limit or when its estimated memory (:data:`TILE_BYTES` a tile, or what
    :func:`planned_use` says) is above :data:`MAX_MEMORY`. :attr:`value` is the smaller
    of the two bounds, so a reader that stops counting there stops in time.

    >>> MAX_TILES.exceeded(8_000_000, "rect: 4000x2000")  # doctest: +ELLIPSIS
    'rect: 4000x2000 (8,000,000 tiles at about 700 bytes each) would need 5,341 MiB of memory (estimated), above the limit of 4,096 (set MJSAT_MAX_MEMORY_MB to lift it)'
    """

    @property
    def value(self) -> int:
        _, per = _USE.get()
        return min(Limit.value.fget(self), MAX_MEMORY.value * (1 << 20) // per)  # type: ignore[attr-defined]

    def exceeded(
        self, count: int, subject: str = "the input", *, at_least: bool = False, verb: str = "has"
    ) -> str | None:
        own = Limit(self.env, self.default, self.unit, self.about)
        message = own.exceeded(count, subject, at_least=at_least, verb=verb)
        if message is not None:
            return message
        what, per = _USE.get()
        mib = -(-count * per // (1 << 20))
        more = "more than " if at_least else ""
        goal = "" if what == "hold" else f" to {what}"
        return MAX_MEMORY.exceeded(
            mib, f"{subject} ({more}{count:,} tiles at about {per:,} bytes each{goal})", verb="would need"
        )


MAX_TILES = TileLimit("MJSAT_MAX_TILES", 1 << 24, "tiles", "of a board or layout, read from a file or built")
"""Tiles of a board or layout (read from a file, named, or built by a reduction), and
the memory they would need (:class:`TileLimit`)."""
MAX_CNF_CLAUSES = Limit("MJSAT_MAX_CNF_CLAUSES", 10_000_000, "clauses", "of a formula built (reduce family)")
"""Clauses of a formula that mjsat builds (``reduce family``), checked before it is built."""
MAX_COUNT = Limit("MJSAT_MAX_COUNT", 10_000_000, "boards", "of one run (sample -n, crossval counts)")
"""Boards one run may be asked for (``sample -n``, ``crossval --count/--random-small/--height2``)."""
MAX_CNF_VARS = Limit("MJSAT_MAX_CNF_VARIABLES", 10_000_000, "variables", "declared by a DIMACS header")
"""Variables a DIMACS header declares (used or not: the reductions give each a gadget)."""
MAX_STEP_CELLS = Limit("MJSAT_MAX_STEP_CELLS", 100_000_000, "tiles x steps", "of a SAT encoding given --steps")
"""Tiles times parallel steps of a stepped SAT encoding (``--steps``), about its variables."""
MAX_PAIRS = Limit(
    "MJSAT_MAX_PAIRS", 10_000_000, "candidate pairs", "of a SAT or CP-SAT model (each group of k tiles makes k(k-1)/2)"
)
"""Candidate pairs of equal tiles a SAT or CP-SAT model is built over (one variable each)."""
MAX_JSON_DEPTH = Limit("MJSAT_MAX_JSON_DEPTH", 64, "levels of nesting", "of arrays and objects in a JSON input")
"""Nested arrays and objects in a JSON input (mjsat's own files nest fewer than ten)."""
MAX_PICTURE_CELLS = Limit("MJSAT_MAX_PICTURE_CELLS", 4_000_000, "characters", "of an ASCII picture")
"""Characters of an ASCII picture; a larger board is described in one line instead."""

MAX_INPUT_BYTES = Limit("MJSAT_MAX_INPUT_BYTES", 1 << 28, "bytes", "of one input file (256 MiB)")
"""Bytes of one input file (the largest shipped file is a few megabytes)."""

LIMITS: tuple[Limit, ...] = (
    MAX_TILES,
    MAX_CNF_VARS,
    MAX_STEP_CELLS,
    MAX_PAIRS,
    MAX_JSON_DEPTH,
    MAX_PICTURE_CELLS,
    MAX_INPUT_BYTES,
    MAX_MEMORY,
    MAX_COUNT,
    MAX_CNF_CLAUSES,
)
"""Every limit, for help texts."""


def limits_help() -> str:
    """One line per limit: the variable, its default and what it counts (for ``--help``)."""
    return "\n".join(f"  {lim.env}={lim.default:_}: {lim.unit} {lim.about}" for lim in LIMITS)
