"""The batch path: many deals of one Mahjong layout, decided in compiled chunks.

:class:`BatchSolver` builds the layout's tables once (the relations of the rules, the
cover order of the prior analysis, the kernels' pairing tables); :meth:`BatchSolver.run`
decides a matrix of deals (one row of groups per deal) in one call of
:func:`mjsat.search.kernels_batch._solve_chunk`: per deal the prior analysis, the pruning
scan, the plain and scan-guided playouts and the critical-group search under a node budget,
the phases and defaults of :func:`mjsat.search.solver.solve_search`, and a replay of every
``solvable`` answer by the Mahjong rules. :func:`solve_batch` then gives every deal the
batch left undecided to the ``auto`` plan (:func:`mjsat.methods.solve`) one at a time,
without its budgeted search step, which the batch has just run: every deal gets a
verdict, and ``unsolvable`` comes only from exhaustive code.

>>> import numpy as np
>>> from mjsat.board import Layout
>>> line = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)])
>>> res = solve_batch(line, np.array([[0, 1, 1, 0], [0, 0, 1, 1]]))
>>> res.status
['solvable', 'unsolvable']
>>> res.moves(0)
[(0, 3), (1, 2)]
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mjsat.board import Board, InvalidBoardError, Layout, Move, find_variant
from mjsat.plans import DEFAULT_NODE_BUDGET
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, MethodNotApplicableError, SolveResult
from mjsat.search import kernels_batch as KB
from mjsat.search.options import SearchOptionError, SearchOptions
from mjsat.search.pairing import MAHJONG
from mjsat.search.prior import stacked_pairs
from mjsat.search.scratch import playout_state

__all__ = [
    "BatchSolver",
    "BatchResult",
    "BatchInputError",
    "ChunkResult",
    "BatchReplayError",
    "solve_batch",
    "DEFAULT_CHUNK",
    "BATCH_OPTIONS",
    "TAIL_STEPS",
]

BATCH_OPTIONS = SearchOptions(node_limit=DEFAULT_NODE_BUDGET)
"""The options of :func:`solve_batch` by default: the ``auto`` plan's node budget
(:data:`~mjsat.plans.DEFAULT_NODE_BUDGET`) per deal."""

DEFAULT_CHUNK = 256
"""Deals per compiled call of :func:`solve_batch`."""

TAIL_STEPS = ("height2", "sat", "cpsat", "search", "ref")
"""The steps of the ``auto`` plan that the deals left undecided go to: every step but its
budgeted search, which the batch has run."""

_STATUS = {KB.UNDECIDED: UNKNOWN, KB.SOLVABLE: SOLVABLE, KB.UNSOLVABLE: UNSOLVABLE}
_PHASE = {
    KB.BY_NONE: None,
    KB.BY_PRIOR: "prior",
    KB.BY_SCAN: "scan",
    KB.BY_PLAIN: "attempts",
    KB.BY_GUIDED: "guided",
    KB.BY_SEARCH: "search",
}


class ChunkResult(NamedTuple):
    """What one compiled call of :meth:`BatchSolver.run` wrote, one entry per deal."""

    status: np.ndarray
    """``int64[D]``: ``UNDECIDED``, ``SOLVABLE``, ... of :mod:`mjsat.search.kernels_batch`."""
    phase: np.ndarray
    """``int64[D]``: the phase that decided (``BY_*``)."""
    moves: np.ndarray
    """``int32[D, n // 2, 2]``: the moves of the deals solved, each move's tiles in order."""
    nmoves: np.ndarray
    """``int64[D]``: the number of moves in ``moves``."""
    nodes: np.ndarray
    """``int64[D]``: search nodes."""
    cpu_ns: np.ndarray
    """``int64[D]``: CPU time in nanoseconds, read inside the compiled loop."""
    info: np.ndarray
    """``int64[D, N_INFO]``: the counts of the columns ``INFO_*``."""


class BatchInputError(ValueError):
    """Deals that are not a matrix of integer groups of the layout's width, or seeds that do
    not match them."""


class BatchReplayError(ValueError):
    """The compiled replay rejected the moves the compiled search returned (a bug)."""


@dataclasses.dataclass
class BatchResult:
    """The verdicts of :func:`solve_batch`.

    Attributes
    ----------
    status : list of str
        Per deal ``solvable``, ``unsolvable`` or (only when the tail is off, or the ``auto``
        plan ran out of time) ``unknown``.
    decided_by : list of str or None
        The phase of the batch that decided the deal (``prior``, ``scan``, ``attempts``,
        ``guided``, ``search``) or ``auto`` for the tail.
    nodes : numpy.ndarray
        Search nodes of the batch per deal.
    move_array : numpy.ndarray
        ``int32[D, n // 2, 2]``: the moves of the deals the batch solved, each move's tiles
        in increasing order.
    nmoves : numpy.ndarray
        The number of moves of each deal in ``move_array`` (0 when not solved there).
    tail : dict of int to SolveResult
        The ``auto`` plan's results of the deals the batch left undecided, by row.
    cpu_seconds : numpy.ndarray
        CPU seconds of each deal (see the attribute).
    """

    status: list[str]
    decided_by: list[str | None]
    nodes: np.ndarray
    move_array: np.ndarray
    nmoves: np.ndarray
    tail: dict[int, SolveResult]
    cpu_seconds: np.ndarray
    """CPU seconds of each deal: its time in the compiled call (read inside the loop,
    without the call's dispatch and the Python around it, which the block pays once), plus
    the tail's (``time.process_time``) for a deal the batch left undecided."""

    def moves(self, i: int) -> list[Move] | None:
        """The moves that clear deal ``i`` (``None`` unless it is ``solvable``)."""
        if i in self.tail:
            r = self.tail[i]
            return list(r.moves) if r.status == SOLVABLE and r.moves is not None else None
        if self.status[i] != SOLVABLE:
            return None
        return [(int(a), int(b)) for a, b in self.move_array[i, : self.nmoves[i]].tolist()]


class BatchSolver:
    """The batch path for the deals of one layout and game (see the module docstring).

    Parameters
    ----------
    layout : Layout
    game : str
        A game whose boards are of the ``"sides"`` kind (Mahjong, transposed Mahjong).
    options : SearchOptions or None
        The options of :func:`mjsat.search.solver.solve_search` (its defaults by default),
        replaced by those ``given`` by name. ``node_limit`` is the search nodes per deal
        before it is left undecided (unset: no limit; the search then decides every deal
        whose groups have at most eight tiles). The batch runs the numba engine's
        critical-group search with the rules ``prior``, ``freeze``, ``loose``, ``scan``,
        ``critical`` and ``playout``; the other options keep their defaults.

    Raises
    ------
    MethodNotApplicableError
        The game's boards are not of the ``"sides"`` kind.
    SearchOptionError
        An option that cannot work, or one the batch does not run.

    Notes
    -----
    The layout's tables: :math:`O(n^2)` once (the cover order as an ``n x n`` matrix).
    """

    def __init__(
        self, layout: Layout, options: SearchOptions | None = None, *, game: str = "mahjong", **given: Any
    ) -> None:
        from mjsat.search import kernels as K
        from mjsat.search.drivers import batch_refusal

        opts = SearchOptions.of(options, **given)
        refusal = batch_refusal(opts)
        if refusal:
            raise SearchOptionError(f"the batch path does not run the search with {refusal}")
        self.options = opts
        self.cls: type[Board] = find_variant(game)
        if self.cls.kind != "sides":
            raise MethodNotApplicableError(
                "search", self.cls.game, "the batch path decides the deals of Mahjong layouts only"
            )
        self.layout = layout
        self.n = len(layout)
        assert self.cls.sides is not None  # every "sides" game names its two sides
        self.mj = tuple(np.ascontiguousarray(a, dtype=np.int32) for a in layout.side_tables(self.cls.sides).csr)
        empty = np.zeros(0, dtype=np.int32)
        self.kind = np.int64(0)
        self.sh = (empty, empty, np.int64(1), np.int64(1))
        self.pt = K._PTAB
        self.opts = opts.rules(MAHJONG)
        self.desc, self.top, self.under = _cover_order(layout)
        self.plan = KB.plan_array(opts)
        self.node_limit = KB.NO_LIMIT if opts.node_limit is None else int(opts.node_limit)

    def deals(self, groups: Any) -> np.ndarray:
        """``groups`` as a C-contiguous ``int64[D, n]`` matrix.

        Raises
        ------
        BatchInputError
            Not a 2-D integer array of ``n`` columns.
        """
        arr = np.asarray(groups)
        if arr.ndim != 2 or arr.shape[1] != self.n or (arr.size and arr.dtype.kind not in "iu"):
            raise BatchInputError(
                f"the deals must be an integer matrix of {self.n} columns (one row per deal),"
                f" got shape {arr.shape} of {arr.dtype}"
            )
        return np.ascontiguousarray(arr, dtype=np.int64)

    def states(self, seeds: int | Sequence[int] | np.ndarray, count: int) -> np.ndarray:
        """The first playout state of each deal (the seed of :func:`solve_search`).

        Raises
        ------
        BatchInputError
            A sequence of seeds whose length is not ``count``.
        """
        if isinstance(seeds, (int, np.integer)):
            return np.full(count, playout_state(int(seeds)), dtype=np.uint64)
        seq = [int(s) for s in seeds]
        if len(seq) != count:
            raise BatchInputError(f"{len(seq)} seeds given for {count} deals")
        return np.array([playout_state(s) for s in seq], dtype=np.uint64)

    def run(self, deals: np.ndarray, states: np.ndarray) -> ChunkResult:
        """One compiled call on ``deals`` (from :meth:`deals`) with playout ``states``.

        Returns
        -------
        ChunkResult
            The codes of :mod:`mjsat.search.kernels_batch` per deal, the moves, each deal's
            CPU time in nanoseconds (read inside the compiled loop) and its counts.
        """
        d = deals.shape[0]
        status = np.zeros(d, dtype=np.int64)
        phase = np.zeros(d, dtype=np.int64)
        moves = np.zeros((d, self.n // 2, 2), dtype=np.int32)
        nmoves = np.zeros(d, dtype=np.int64)
        nodes = np.zeros(d, dtype=np.int64)
        cpu = np.zeros(d, dtype=np.int64)
        info = np.zeros((d, KB.N_INFO), dtype=np.int64)
        KB._solve_chunk(
            self.kind, deals, states, self.mj, self.sh, self.pt, self.opts, self.desc, self.top, self.under,
            self.plan, self.node_limit, KB.CPU_CLOCK, status, phase, moves, nmoves, nodes, cpu, info,
        )  # fmt: skip
        return ChunkResult(status, phase, moves, nmoves, nodes, cpu, info)

    def board(self, row: np.ndarray) -> Board:
        """The board of one deal."""
        return self.cls(self.layout, row)


def _cover_order(layout: Layout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(desc, top, under)`` of the layout (see :mod:`mjsat.search.kernels_batch`), kept by
    the layout."""

    def build() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = len(layout)
        desc = np.zeros((n, n), dtype=np.uint8)
        top, under = stacked_pairs(layout.descendants)
        desc[top, under] = 1
        return desc, top.astype(np.int64), under.astype(np.int64)

    return layout.memo(("search", "batch-cover-order"), build)


def solve_batch(
    layout: Layout,
    groups: Any,
    options: SearchOptions | None = None,
    *,
    game: str = "mahjong",
    seed: int | Sequence[int] = 0,
    chunk: int = DEFAULT_CHUNK,
    tail: bool = True,
    time_limit: float | None = None,
    solver: BatchSolver | None = None,
    **given: Any,
) -> BatchResult:
    """Decide every deal of ``groups`` (one row of groups per deal) of ``layout``.

    Parameters
    ----------
    layout : Layout
    groups : array_like of int
        ``D x n``: the group of every tile, one deal per row.
    options : SearchOptions or None
        The options of :class:`BatchSolver` (default :data:`BATCH_OPTIONS`, with the
        ``auto`` plan's node budget per deal), replaced by those ``given`` by name.
    game : str
        A Mahjong game (``"sides"`` boards).
    seed : int or sequence of int
        The seed of the random playouts, for all deals or one per deal (``solve``'s
        ``seed``).
    chunk : int
        Deals per compiled call.
    tail : bool
        Give the deals the batch leaves undecided to the ``auto`` plan
        (:data:`TAIL_STEPS`), one at a time; off: they stay ``unknown``.
    time_limit : float or None
        Seconds of each tail call.
    solver : BatchSolver or None
        A solver built before (its options are used; ``options`` and ``given`` are then
        ignored).
    **given
        Options by name.

    Returns
    -------
    BatchResult

    Raises
    ------
    BatchInputError
        ``groups`` is not an integer matrix of the layout's width, or ``seed`` has another
        length.
    InvalidBoardError
        A deal has a group with an odd number of tiles (named by its row).
    BatchReplayError
        The replay rejects moves the batch found (a bug).

    Notes
    -----
    The cost of the phases per deal (see :func:`mjsat.search.solver.solve_search`) plus
    the ``auto`` plan's on the deals left undecided.
    """
    from mjsat.methods import solve

    if solver is not None:
        bs = solver
    else:
        bs = BatchSolver(layout, options if options is not None else BATCH_OPTIONS, game=game, **given)
    deals = bs.deals(groups)
    d = deals.shape[0]
    states = bs.states(seed, d)
    seeds = [int(seed)] * d if isinstance(seed, (int, np.integer)) else [int(s) for s in seed]
    parts = [bs.run(deals[a : a + chunk], states[a : a + chunk]) for a in range(0, d, max(1, int(chunk)))]
    if parts:
        status, phase, moves, nmoves, nodes, cpu_ns, _ = (np.concatenate(p) for p in zip(*parts))
    else:
        status = phase = nmoves = nodes = cpu_ns = np.zeros(0, dtype=np.int64)
        moves = np.zeros((0, bs.n // 2, 2), dtype=np.int32)
    cpu = cpu_ns / 1e9
    for i in np.flatnonzero(status == KB.BAD_DEAL).tolist():
        try:
            bs.board(deals[i])
        except InvalidBoardError as exc:
            raise InvalidBoardError(f"deal {i}: {exc}") from None
    for i in np.flatnonzero(status == KB.REPLAY_FAILED).tolist():
        raise BatchReplayError(f"deal {i}: the replay rejects the moves the batch search returned")
    out = [_STATUS[c] for c in status.tolist()]
    by = [_PHASE[c] for c in phase.tolist()]
    tails: dict[int, SolveResult] = {}
    if tail:
        steps = ",".join(TAIL_STEPS)
        for i in np.flatnonzero(status == KB.UNDECIDED).tolist():
            c0 = time.process_time()
            res = solve(bs.board(deals[i]), "auto", time_limit=time_limit, seed=seeds[i], plan_steps=steps)
            cpu[i] += time.process_time() - c0
            tails[i] = res
            out[i] = res.status
            by[i] = "auto"
    return BatchResult(out, by, nodes, moves, nmoves, tails, cpu)
