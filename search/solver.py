"""``solve_search``: the pairing-set search behind ``mjsat solve --method search``.

The wrapper validates the board, runs the phases in order and times each of them:

1. **prior** analysis (Mahjong only, [GF05]_): a tile that lies, directly or through
   other tiles, on tiles of its own group forces an order between them; a group none of
   whose pairings respects these orders makes the board unsolvable at once;
2. **random attempts** ([dB12]_, section 3.3): a pruning scan of the whole board first
   (some layouts fail it for most deals), then random playouts with the cleaning rules;
3. the exhaustive **search** (:mod:`mjsat.search.pairing` in Python,
   :mod:`mjsat.search.kernels` in numba), in chunks of nodes so that the time limit is
   checked between them.

>>> from mjsat.board import Layout, MahjongBoard
>>> board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
>>> solve_search(board, engine="python").status
'solvable'
>>> solve_search(board.with_groups([0, 0, 1, 1]), engine="python").status
'unsolvable'

References
----------
.. [GF05] P. Gimeno Fortea, "Mahjongg Solitaire Solver", web page, 2005.
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
.. [dB20] M. de Bondt, "Solving Shisen-Sho boards", arXiv:2010.09014, 2020.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import numpy as np

from mjsat import clock
from mjsat.board import Board, Layout
from mjsat.result import UNSOLVABLE, SolveResult
from mjsat.search.drivers import (
    BY_NAME,
    CHUNK_NODES,
    ONE_CALL_MAX_TILES,
    ONE_CALL_MIN_SECONDS,
    Clock,
    choose_driver,
    solve_one_call,
    solve_small,
)
from mjsat.search.options import (
    DEFAULT_PAIR_TEST,
    DEFAULT_PLAYOUT,
    ENGINES,
    FAST_PLAIN_SHARE,
    FREEZE_PAIR_KINDS,
    GUIDED_ATTEMPTS,
    SearchOptionError,
    SearchOptions,
    UnknownEngineError,
    UnknownPairTestError,
    UnknownPlayoutError,
    check_search_options,
    default_attempts,
)
from mjsat.search.pairing import _KIND_OF, MAHJONG, geometry
from mjsat.search.prior import prior_conflict
from mjsat.search.scratch import SCRATCH, playout_state

__all__ = [
    "solve_search",
    "SearchRun",
    "SearchOptions",
    "CHUNK_NODES",
    "ONE_CALL_MAX_TILES",
    "ONE_CALL_MIN_SECONDS",
    "FAST_PLAIN_SHARE",
    "FREEZE_PAIR_KINDS",
    "GUIDED_ATTEMPTS",
    "ENGINES",
    "UnknownEngineError",
    "SearchOptionError",
    "UnknownPairTestError",
    "UnknownPlayoutError",
    "DEFAULT_PLAYOUT",
    "check_search_options",
    "default_attempts",
    "prior_conflict",
    "DEFAULT_PAIR_TEST",
    "warm_up",
    "prepare_search",
]

# --------------------------------------------------------------------------- the wrapper


def _one_call_applies(board: Board, time_limit: float | None, **options: Any) -> bool:
    """Whether :func:`solve_search` with ``options`` (by name) runs ``board`` in one compiled
    call: the driver :data:`mjsat.search.drivers.DRIVERS` chooses for it is ``one-call``."""
    opts = SearchOptions.of(**options)
    return choose_driver(opts, _KIND_OF.get(board.kind, -1), len(board), time_limit) == "one-call"


def warm_up(board: Board | None = None, time_limit: float | None = None, **options: Any) -> None:
    """Load (or compile, the first time) numba kernels, so that timings that follow
    measure the search and not the compiler.

    Without ``board``: every kernel (the Mahjong kernels: playouts, guided playouts, the
    search, de Bondt's tree; those of Shisen-Sho on a grid and on the Mahjong grid, the
    batch path's, :mod:`mjsat.search.batch`, and the replay's, :mod:`mjsat.replay_kernels`). With ``board`` (and the options and time limit
    of a :func:`solve_search` call): only the kernels that call may run: the batch path's
    kernel when it decides the board in one compiled call, else the phase kernels, run on
    a four-tile board of the same game."""
    from mjsat.board import find_variant

    line = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)])
    if board is not None:
        tiny = find_variant(board.game)(line, [0, 1, 1, 0])
        if _one_call_applies(board, time_limit, **options):
            solve_search(tiny, **options)
            return
        rest = {k: v for k, v in options.items() if k not in ("node_limit", "attempts", "guided")}
        _call_phase_kernels(tiny)
        _run_phases(tiny)
        solve_search(tiny, attempts=1, **rest)
        solve_search(tiny, attempts=0, guided=1, **rest)
        solve_search(tiny, attempts=0, guided=0, **rest)
        solve_search(tiny, attempts=0, guided=0, **rest)  # again: a scratch taken back is wiped
        return
    board = find_variant("mahjong")(line, [0, 1, 1, 0])
    for game in ("mahjong", "shisen-sho", "shisen-sho-3d"):
        _call_phase_kernels(find_variant(game)(line, [0, 1, 1, 0]))
    solve_search(board, attempts=1)
    solve_search(board, attempts=0, guided=1)
    solve_search(board, attempts=0, guided=0)
    solve_search(board, attempts=0, guided=0)  # again: a scratch taken back is wiped
    solve_search(board, attempts=0, guided=0, bondt=True)
    for game in ("shisen-sho", "shisen-sho-3d"):
        solve_search(find_variant(game)(line, [0, 1, 1, 0]), attempts=0, guided=0)
        _run_phases(find_variant(game)(line, [0, 1, 1, 0]))
    from mjsat.search.batch import solve_batch

    solve_batch(line, np.array([[0, 1, 1, 0]]), tail=False)
    from mjsat import replay_kernels as R

    tiny = find_variant("shisen-sho")(line, [0, 1, 1, 0])
    moves = np.array([[1, 2], [0, 3]], dtype=np.int64)
    R._clears_sides(np.array(board.groups, dtype=np.int64), moves, board.rule_tables().csr)
    R._clears_grid(np.array(tiny.groups, dtype=np.int64), moves, *tiny.rule_tables().cell_arrays,
                  *(np.array(m, dtype=np.int64) for m in tiny.rule_tables().masks))  # fmt: skip


def _call_phase_kernels(board: Board) -> None:
    """Call each kernel that a run calls from Python once on ``board`` (a run that ends
    early reaches only some of them: the attempts after the first eight, the guided ones,
    the scan without the attempts)."""
    from mjsat.search import kernels as K

    geo = geometry(board)
    kind, gr, mj, sh, _ = K.arrays(geo)
    scratch = SCRATCH.take(K, (geo.n, len(geo.members), int(sh[2] * sh[3]), 0))
    try:
        flags, rng = K.rules(), scratch.rng
        pres, partner, moves, ws = scratch.pres, scratch.partner, scratch.moves, scratch.ws
        rng[0] = playout_state(0)
        K._opening(kind, gr, mj, sh, flags, 1, rng, pres, partner, moves, ws)
        K._attempts(kind, gr, mj, sh, flags, 1, rng, pres, partner, moves, ws)
        K._more_attempts(kind, gr, mj, sh, flags, 1, rng, pres, partner, moves, ws)
        K._guided(kind, gr, mj, sh, flags, 1, rng, pres, partner, moves, ws)
        pres.fill(1)
        partner.fill(-1)
        K._autopair(gr, pres, partner)
        K._scan(kind, gr, mj, sh, pres, partner, moves, flags, ws)
    finally:
        SCRATCH.give_back(scratch)


def _run_phases(board: Board) -> None:
    """Run the ``phases`` driver's search on ``board`` from Python, without playouts (a small
    board's search otherwise runs inside the ``small`` driver's one call)."""
    geo = geometry(board)
    opts = SearchOptions()
    run = BY_NAME["phases"].run
    assert run is not None
    stats: dict[str, Any] = {"scans": 0}
    for _ in run(geo, opts, opts.rules(geo.kind), (0, 0), 0, Clock(), stats):
        pass


_PREPARED: set[tuple[str, ...]] = set()
"""What :func:`prepare_search` loaded in this process: ``("all",)``, or per game and path."""


def _cache_is_cold() -> bool:
    """True when no compiled kernel of this package is in numba's on-disk cache."""
    from numba.core import config

    cache_dir = getattr(config, "CACHE_DIR", "")  # set when numba reads its environment, unknown to mypy
    root = Path(cache_dir) if cache_dir else Path(__file__).parent
    return not root.is_dir() or not any(root.rglob("*.nbi"))


def prepare_search(board: Board | None = None, *, time_limit: float | None = None, **given: Any) -> None:
    """:attr:`mjsat.methods.MethodInfo.prepare` of ``search``: :func:`warm_up` once per
    process and path, before the timed search of the numba engine (the options ``given`` by
    name), so that a time limit does not count loading or compiling the kernels (a cold
    cache takes tens of seconds). With ``board``, only the kernels of the path a search of
    it with these options and ``time_limit`` takes (the batch path's one call, or the phase
    kernels, per game); without, every kernel."""
    opts = SearchOptions.of(**given)
    if opts.engine != "numba" or ("all",) in _PREPARED:
        return
    key: tuple[str, ...] = ("all",)
    if board is not None:
        one = board.kind == "sides" and choose_driver(opts, MAHJONG, len(board), time_limit) == "one-call"
        key = (board.game, "one-call" if one else "phases", "bondt" if opts.bondt else "")
    if key in _PREPARED:
        return
    if _cache_is_cold():
        logging.getLogger(__name__).warning(
            "compiling the numba kernels once (about a minute; later runs load them from the cache)"
        )
    warm_up(board, time_limit, **given)
    _PREPARED.add(key)


def solve_search(
    board: Board,
    options: SearchOptions | None = None,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    **given: Any,
) -> SolveResult:
    """Decide ``board`` with the pairing-set search (seeds 000, 001, 002).

    Parameters
    ----------
    board : Board
        A Mahjong, transposed Mahjong or Shisen-Sho board, solved from its full deal.
    options : SearchOptions or None
        The options (:class:`~mjsat.search.options.SearchOptions`; default: its defaults).
    time_limit : float or None
        Seconds before answering ``unknown``.
    seed : int
        Seed of the random attempts.
    **given
        Options by name, replacing those of ``options`` (``mjsat solve -O KEY=VALUE``).

    Returns
    -------
    SolveResult
        ``solvable`` with the moves, ``unsolvable`` (exhaustive), or ``unknown``.
        ``stats`` holds ``driver`` (the path that ran, :data:`mjsat.search.drivers.DRIVERS`),
        ``nodes``, ``scans``, ``attempts`` and ``seconds_<phase>``.

    Raises
    ------
    SearchOptionError
        An option that cannot work (:meth:`SearchOptions.check`), named.

    Notes
    -----
    Exponential in the worst case (the problem is NP-complete): at most one tree level per
    group and ``(r-1)!!`` children for a group of ``r`` tiles. A node costs
    :math:`O(n + e)` for apply and scan in the numba engine on Mahjong (event-driven), and
    one scan per pairing of every unpaired group with ``critical``.

    The driver is the first of :data:`mjsat.search.drivers.DRIVERS` that fits: on a Mahjong
    deal under the ``auto`` plan's node budget, every phase runs in one compiled call
    (``one-call``, the kernel of the batch path): the same answer, moves and counts, without
    the Python between the phases; ``stats`` then has ``seconds_total`` alone of the times.
    """
    opts = SearchOptions.of(options, **given)
    driver = choose_driver(opts, _KIND_OF.get(board.kind, -1), len(board), time_limit)
    if driver in _ONE_CALLS:
        one = _ONE_CALLS[driver](board, seed, opts)
        if one is not None:
            return one
    return SearchRun(board, opts, seed=seed).advance(time_limit)


_ONE_CALLS = {"one-call": solve_one_call, "small": solve_small}
"""The drivers that run a search in one compiled call, by name: ``fn(board, seed, options)``,
``None`` when the board needs the ``phases`` after all."""


class SearchRun:
    """The search on one board, run in slices that continue where the last one stopped.

    :meth:`advance` runs the search until it decides or its time limit is up; called
    again after an ``unknown`` at a time limit, it continues from the same playout or
    search node rather than starting afresh (the plans' races use this: a slice of the
    search is never paid twice). :func:`solve_search` is one :meth:`advance` without a
    limit or with the caller's.

    Parameters
    ----------
    board : Board
        As :func:`solve_search`; the run reads it once, at the first :meth:`advance`.
    options : SearchOptions or None
        The options, replaced by those ``given`` by name (as :func:`solve_search`).
    seed : int
        Seed of the random attempts.

    Raises
    ------
    SearchOptionError
        As :meth:`SearchOptions.check`.

    Notes
    -----
    The numba engine continues exactly (its playout generator and search stack live in
    the run); the Python engine's recursive search cannot stop and resume, so after a time
    limit in its search phase the next slice starts that phase again.

    Examples
    --------
    >>> from mjsat.board import Layout, MahjongBoard
    >>> board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
    >>> run = SearchRun(board, engine="python")
    >>> run.advance(10.0).status
    'solvable'
    """

    def __init__(self, board: Board, options: SearchOptions | None = None, *, seed: int = 0, **given: Any) -> None:
        self.options = SearchOptions.of(options, **given)
        self._clock = Clock()
        self._seconds = 0.0
        self._done: SolveResult | None = None
        self._first: tuple[Board, int] | None = (board, seed)
        self._steps = self._run(board, seed, self.options)

    def advance(self, time_limit: float | None = None) -> SolveResult:
        """Run until the search decides or ``time_limit`` seconds have passed.

        Returns
        -------
        SolveResult
            As :func:`solve_search`; ``unknown`` with reason ``"time limit"`` when the slice
            ended first (call again to continue). Once decided (or stopped at the node
            limit), the same result again.
        """
        if self._done is not None:
            return self._done
        if self._first is not None:  # a small board: its first slice may be the whole search in one call
            board, seed = self._first
            self._first = None
            if choose_driver(self.options, _KIND_OF.get(board.kind, -1), len(board), time_limit) == "small":
                one = solve_small(board, seed, self.options)
                if one is not None:
                    self._done = one
                    return one
        t0 = time.perf_counter()
        self._clock.deadline = None if time_limit is None else clock.now() + float(time_limit)
        try:
            result = next(self._steps)
        except StopIteration as stop:
            result = stop.value
            self._done = result
        self._seconds += time.perf_counter() - t0
        result.stats["seconds_total"] = self._seconds
        return result

    def _run(self, board: Board, seed: int, options: SearchOptions) -> Generator[SolveResult, None, SolveResult]:
        """The phases, yielding an ``unknown`` result whenever the clock runs out."""
        geo = geometry(board)
        plan = options.resolve(geo)
        driver = choose_driver(options, geo.kind, geo.n, resumable=True)
        stats: dict[str, Any] = {
            "engine": options.engine, "driver": driver, "nodes": 0, "scans": 0, "attempts": 0, "guided": 0,
        }  # fmt: skip
        t_prior = time.perf_counter()
        if options.prior:
            g = prior_conflict(board, geo)
            stats["seconds_prior"] = time.perf_counter() - t_prior
            if g is not None:
                t = geo.members[g][0]
                return SolveResult(
                    UNSOLVABLE,
                    "search",
                    stats=stats,
                    reason=f"prior analysis: group {board.group_label(board.groups[t])} blocks itself",
                )
        run = BY_NAME[driver].run
        assert run is not None  # a resumable driver
        return (yield from run(geo, options, plan.rules, (plan.attempts, plan.guided), seed, self._clock, stats))
