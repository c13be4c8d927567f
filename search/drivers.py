"""The drivers of the search: which path runs a search, chosen by one table.

A *driver* runs the phases of :func:`mjsat.search.solver.solve_search` on one board:

* ``python``: the pure-Python reference (:class:`mjsat.search.pairing.PythonSearch`);
* ``one-call``: a Mahjong deal under a small node budget, every phase in one compiled call
  of the batch path's kernel (:class:`mjsat.search.batch.BatchSolver`), no clock looked at;
* ``bondt``: the numba kernels, de Bondt's "pairing one, then two" tree after the playouts;
* ``phases``: the numba kernels, phase by phase from Python, the critical-group search in
  chunks of nodes with the clock looked at between them.

:data:`DRIVERS` lists them in the order they are tried; the first whose rule fits the
options and the board runs (:func:`choose_driver`), and ``stats["driver"]`` names it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from mjsat.search.pairing import MAHJONG

if TYPE_CHECKING:
    from mjsat.search.options import SearchOptions

__all__ = [
    "Driver",
    "DRIVERS",
    "choose_driver",
    "batch_refusal",
    "CHUNK_NODES",
    "ONE_CALL_MIN_SECONDS",
    "ONE_CALL_MAX_TILES",
]

CHUNK_NODES = 200
"""Nodes the numba kernel runs between two looks at the clock."""

ONE_CALL_MIN_SECONDS = 0.1
"""The shortest time limit with which the ``one-call`` driver decides a Mahjong deal under
a node limit of at most :data:`CHUNK_NODES`: it looks at no clock."""

ONE_CALL_MAX_TILES = 2048
"""The largest board of the ``one-call`` driver: the batch path keeps an ``n x n`` table
of the layout's cover order (4 MiB at this size)."""


def batch_refusal(options: SearchOptions, kind: int = MAHJONG) -> str:
    """Why the batch path's kernel (:mod:`mjsat.search.kernels_batch`) cannot run a search of
    ``options`` on a geometry of ``kind`` (``""``: it can). It runs the numba engine's
    critical-group search on Mahjong, with playouts first, and the cleaning rules but the
    two that look one pair ahead."""
    if options.engine != "numba":
        return f"engine {options.engine!r}"
    if kind != MAHJONG:
        return "a game other than Mahjong"
    if options.bondt:
        return "bondt on"
    if options.presearch:
        return f"presearch {options.presearch}"
    if options.joint:
        return "joint on"
    if options.loose_pair:
        return "loose_pair on"
    if options.freeze_pair_on(kind):
        return "freeze_pair on"
    return ""


def _one_call(options: SearchOptions, kind: int, n: int, time_limit: float | None) -> bool:
    """A deal the batch kernel runs (:func:`batch_refusal`) of at most
    :data:`ONE_CALL_MAX_TILES` tiles, under a node limit of at most :data:`CHUNK_NODES`,
    no time limit or one of at least :data:`ONE_CALL_MIN_SECONDS`."""
    return (
        options.node_limit is not None
        and options.node_limit <= CHUNK_NODES
        and n <= ONE_CALL_MAX_TILES
        and (time_limit is None or time_limit >= ONE_CALL_MIN_SECONDS)
        and not batch_refusal(options, kind)
    )


class Driver(NamedTuple):
    """A row of :data:`DRIVERS`."""

    name: str
    """The driver's name (``stats["driver"]``)."""
    fits: Callable[[SearchOptions, int, int, float | None], bool]
    """``fits(options, kind, n, time_limit)``: whether it runs a search of ``options`` on a
    board of geometry ``kind`` and ``n`` tiles under ``time_limit``."""
    resumable: bool
    """Whether it can stop at a time limit and continue where it stopped
    (:class:`mjsat.search.solver.SearchRun`)."""


DRIVERS: tuple[Driver, ...] = (
    Driver("python", lambda o, kind, n, t: o.engine == "python", True),
    Driver("one-call", _one_call, False),
    Driver("bondt", lambda o, kind, n, t: o.bondt, True),
    Driver("phases", lambda o, kind, n, t: True, True),
)
"""The drivers in the order they are tried (see the module docstring)."""


def choose_driver(
    options: SearchOptions, kind: int, n: int, time_limit: float | None = None, *, resumable: bool = False
) -> str:
    """The name of the first driver of :data:`DRIVERS` that fits (only the resumable ones
    when ``resumable``).

    Notes
    -----
    :math:`O(1)`.
    """
    for driver in DRIVERS:
        if (driver.resumable or not resumable) and driver.fits(options, kind, n, time_limit):
            return driver.name
    raise AssertionError("the last driver fits every search")  # pragma: no cover
