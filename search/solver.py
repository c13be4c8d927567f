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

import collections
import functools
import logging
import threading
import time
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mjsat.board import Board, Layout, Move
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, SolveResult
from mjsat.search.config import N_STATS, S_MOVES, S_NODES, S_SCANS
from mjsat.search.drivers import CHUNK_NODES, ONE_CALL_MAX_TILES, ONE_CALL_MIN_SECONDS, choose_driver
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
from mjsat.search.pairing import _KIND_OF, MAHJONG, SH3D, Geometry, PythonSearch, SearchLimit, geometry, pairings

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

# --------------------------------------------------------------------------- prior analysis


def _pairing_ok(tiles: tuple[int, ...], pairing: Any, desc: Sequence[int]) -> bool:
    pairs = [(tiles[i], tiles[j]) for i, j in pairing]
    masks = []
    for a, b in pairs:
        if desc[a] >> b & 1 or desc[b] >> a & 1:
            return False
        masks.append(((1 << a) | (1 << b), desc[a] | desc[b]))
    # pair i must go before pair j when a tile of i lies on a tile of j: no cycle allowed
    k = len(pairs)
    succ = [[j for j in range(k) if j != i and masks[i][1] & masks[j][0]] for i in range(k)]
    indeg = [0] * k
    for i in range(k):
        for j in succ[i]:
            indeg[j] += 1
    stack = [i for i in range(k) if indeg[i] == 0]
    seen = 0
    while stack:
        i = stack.pop()
        seen += 1
        for j in succ[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                stack.append(j)
    return seen == k


def prior_conflict(board: Board, geo: Geometry | None = None) -> int | None:
    """A group (renumbered as in :func:`~mjsat.search.pairing.geometry`) that no pairing can
    remove, by the cover order alone; ``None`` when there is none.

    A tile lying (directly or through other tiles) on another one must go strictly
    before it. A pairing of a group is impossible when it pairs two such tiles, or when
    its pairs must go before one another in a cycle ([GF05]_: a tile on two tiles of its
    group stacked on each other, or on three tiles of its group). Groups of more than
    eight tiles are not checked.

    Notes
    -----
    :math:`O(n \\cdot e)` bit operations once per layout, then :math:`O(r \\cdot (r-1)!!)`
    per group of ``r`` tiles.
    """
    geo = geo or geometry(board)
    if geo.kind != MAHJONG:
        return None
    layout = board.layout
    top, under = layout.memo(("search", "stacked-pairs"), lambda: _stacked_pairs(layout.descendants))
    if not len(top):
        return None
    group = np.asarray(geo.group)
    same = group[top] == group[under]
    if not same.any():
        return None  # no tile lies on a tile of its own group: every pairing is fine
    desc = layout.descendants
    for g in sorted(set(group[top[same]].tolist())):
        tiles = geo.members[g]
        if len(tiles) <= 8 and not any(_pairing_ok(tiles, p, desc) for p in pairings(len(tiles))):
            return g
    return None


def _stacked_pairs(desc: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``(top, under)``: every pair of tiles where ``under`` lies below ``top``, directly or
    through other tiles (the bits of ``desc[top]``), as two int arrays."""
    top, under = [], []
    for t, mask in enumerate(desc):
        u = 0
        while mask:
            if mask & 1:
                top.append(t)
                under.append(u)
            mask >>= 1
            u += 1
    return np.array(top, dtype=np.intp), np.array(under, dtype=np.intp)


# --------------------------------------------------------------------------- the wrapper


def warm_up() -> None:
    """Load (or compile, the first time) every numba kernel, so that timings that follow
    measure the search and not the compiler: the Mahjong kernels (playouts, guided playouts,
    the search, de Bondt's tree), those of Shisen-Sho on a grid and on the Mahjong grid,
    and the batch path's (:mod:`mjsat.search.batch`)."""
    from mjsat.board import find_variant

    line = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)])
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
    from mjsat.search.batch import solve_batch

    solve_batch(line, np.array([[0, 1, 1, 0]]), tail=False)


def _call_phase_kernels(board: Board) -> None:
    """Call each kernel that a run calls from Python once on ``board`` (a run that ends
    early reaches only some of them: the attempts after the first eight, the guided ones,
    the scan without the attempts)."""
    from mjsat.search import kernels as K

    geo = geometry(board)
    kind, gr, mj, sh, _ = K.arrays(geo)
    scratch = _SCRATCH.take(K, (geo.n, len(geo.members), int(sh[2] * sh[3]), 0))
    try:
        flags, rng = K.rules(), scratch.rng
        pres, partner, moves, ws = scratch.pres, scratch.partner, scratch.moves, scratch.ws
        rng[0] = _playout_state(0)
        K._opening(kind, gr, mj, sh, flags, 1, rng, pres, partner, moves, ws)
        K._attempts(kind, gr, mj, sh, flags, 1, rng, pres, partner, moves, ws)
        K._more_attempts(kind, gr, mj, sh, flags, 1, rng, pres, partner, moves, ws)
        K._guided(kind, gr, mj, sh, flags, 1, rng, pres, partner, moves, ws)
        pres.fill(1)
        partner.fill(-1)
        K._autopair(gr, pres, partner)
        K._scan(kind, gr, mj, sh, pres, partner, moves, flags, ws)
    finally:
        _SCRATCH.give_back(scratch)


_PREPARED = {"done": False}


def _cache_is_cold() -> bool:
    """True when no compiled kernel of this package is in numba's on-disk cache."""
    from numba.core import config

    cache_dir = getattr(config, "CACHE_DIR", "")  # set when numba reads its environment, unknown to mypy
    root = Path(cache_dir) if cache_dir else Path(__file__).parent / "__pycache__"
    return not root.is_dir() or not any(root.rglob("kernels*.nbi"))


def prepare_search(**given: Any) -> None:
    """:attr:`mjsat.methods.MethodInfo.prepare` of ``search``: :func:`warm_up` once per
    process, before the first timed search of the numba engine (the options ``given`` by
    name), so that a time limit does not count loading or compiling the kernels (a cold
    cache takes tens of seconds)."""
    if SearchOptions.of(**given).engine != "numba" or _PREPARED["done"]:
        return
    if _cache_is_cold():
        logging.getLogger(__name__).warning(
            "compiling the numba kernels once (about a minute; later runs load them from the cache)"
        )
    warm_up()
    _PREPARED["done"] = True


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
    if choose_driver(opts, _KIND_OF.get(board.kind, -1), len(board), time_limit) == "one-call":
        one = _solve_one_call(board, seed, opts)
        if one is not None:
            return one
    return SearchRun(board, opts, seed=seed).advance(time_limit)


class _Clock:
    """The deadline of a :class:`SearchRun`'s current slice (``None``: no limit)."""

    __slots__ = ("deadline",)

    def __init__(self) -> None:
        self.deadline: float | None = None

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline


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
        self._clock = _Clock()
        self._seconds = 0.0
        self._done: SolveResult | None = None
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
        t0 = time.perf_counter()
        self._clock.deadline = None if time_limit is None else time.monotonic() + float(time_limit)
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
        counts = (plan.attempts, plan.guided)
        if driver == "python":
            return (yield from _run_python(geo, options, counts, seed, self._clock, stats))
        return (yield from _run_numba(geo, options, plan.rules, counts, seed, self._clock, stats))


def _out_of_time(stats: dict[str, Any]) -> SolveResult:
    """The ``unknown`` a run yields when its slice is over (its stats so far, copied)."""
    return SolveResult(UNKNOWN, "search", stats=dict(stats), reason="time limit")


def _run_python(
    geo: Geometry,
    options: SearchOptions,
    plan: tuple[int, int],
    seed: int,
    clock: _Clock,
    stats: dict[str, Any],
) -> Generator[SolveResult, None, SolveResult]:
    """Random attempts, then the search, in Python (see :class:`SearchRun`)."""
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    search = PythonSearch(geo, node_limit=options.node_limit, **options.switches(geo.kind))
    if any(plan) and options.scan:  # [dB12] 3.3: a pruning scan before the attempts
        partner = [-1] * geo.n
        for tiles in geo.members:
            if len(tiles) == 2:
                partner[tiles[0]], partner[tiles[1]] = tiles[1], tiles[0]
        if not search.scan(bytearray(b"\x01") * geo.n, partner):
            stats.update(scans=search.scans, seconds_attempts=time.perf_counter() - t)
            return SolveResult(UNSOLVABLE, "search", stats=stats, reason="pruning scan at the start")
    for guided, count in zip((False, True), plan):
        key = "guided" if guided else "attempts"
        for i in range(count):
            moves = search.attempt(rng, guided=guided)
            stats[key] = i + 1
            if moves is not None:
                stats["seconds_attempts"] = time.perf_counter() - t
                return SolveResult(
                    SOLVABLE,
                    "search",
                    moves=moves,
                    stats=stats,
                    reason=f"{'guided' if guided else 'random'} attempt {i + 1}",
                )
            if clock.expired():
                stats["seconds_attempts"] = time.perf_counter() - t
                yield _out_of_time(stats)
    stats["seconds_attempts"] = time.perf_counter() - t
    t = time.perf_counter()
    while True:
        search.deadline = clock.deadline
        try:
            moves = search.search()
        except SearchLimit as lim:
            stats.update(nodes=search.nodes, scans=search.scans, seconds_search=time.perf_counter() - t)
            if lim.reason != "time limit":
                return SolveResult(UNKNOWN, "search", stats=stats, reason=lim.reason)
            yield _out_of_time(stats)  # the recursive search starts again in the next slice
            continue
        break
    stats.update(nodes=search.nodes, scans=search.scans, seconds_search=time.perf_counter() - t)
    if moves is None:
        return SolveResult(UNSOLVABLE, "search", stats=stats)
    return SolveResult(SOLVABLE, "search", moves=moves, stats=stats)


def _run_numba(
    geo: Geometry,
    options: SearchOptions,
    flags: np.ndarray,
    plan: tuple[int, int],
    seed: int,
    clock: _Clock,
    stats: dict[str, Any],
) -> Generator[SolveResult, None, SolveResult]:
    """Random attempts, then the search, with the numba kernels (see :class:`SearchRun`).

    The run takes its scratch arrays from :data:`_SCRATCH` (those of an ended run of the
    same size, restarted, or new ones) and gives them back when it ends.

    Notes
    -----
    The search runs in chunks of ``CHUNK_NODES`` nodes; the clock and the node limit are
    looked at between chunks, so a limit is overrun by at most one chunk; the attempts
    look at it every eight playouts.
    """
    from mjsat.search import kernels as K
    from mjsat.search.kernels_bits import WORDS_OF_PAIR_TEST

    kind, gr, mj, sh, pt = K.arrays(geo)
    n = geo.n
    ngroups = len(geo.members)
    words = 0
    if geo.kind != MAHJONG:
        words = WORDS_OF_PAIR_TEST[options.pair_test_of(geo.kind)](sh, geo.kind == SH3D)
        stats["pair_test"] = "bits" if words else "cells"
    pool = _SCRATCH
    scratch = pool.take(K, (n, ngroups, int(sh[2] * sh[3]), words))
    try:
        return (yield from _phases(K, geo, (kind, gr, mj, sh, pt), options, flags, plan, seed, clock, stats, scratch))
    finally:
        pool.give_back(scratch)


def _phases(
    K: Any,
    geo: Geometry,
    arrays: tuple[Any, ...],
    options: SearchOptions,
    flags: np.ndarray,
    plan: tuple[int, int],
    seed: int,
    clock: _Clock,
    stats: dict[str, Any],
    scratch: _Scratch,
) -> Generator[SolveResult, None, SolveResult]:
    """The phases of :func:`_run_numba` on the arrays of ``scratch``."""
    kind, gr, mj, sh, pt = arrays
    n = geo.n
    ngroups = len(geo.members)
    ws = scratch.ws
    node_limit = options.node_limit
    moves = scratch.moves
    pres, partner = scratch.pres, scratch.partner
    t = time.perf_counter()
    rng = scratch.rng
    rng[0] = _playout_state(seed)
    presearch = options.presearch if not options.bondt else 0
    opened = 0  # random attempts made by the opening kernel
    if any(plan) and options.scan:  # [dB12] 3.3: a pruning scan before the attempts
        stats["scans"] = 1
        if presearch > 0:
            pres.fill(1)
            partner.fill(-1)
            K._autopair(gr, pres, partner)
            hit = -1 if K._scan(kind, gr, mj, sh, pres, partner, moves, flags, ws) else K.OPENING_REFUTED
        else:  # the scan and the first attempts in one kernel call
            opened = min(8, plan[0])
            hit = K._opening(kind, gr, mj, sh, flags, opened, rng, pres, partner, moves, ws)
        if hit == K.OPENING_REFUTED:
            stats["seconds_attempts"] = time.perf_counter() - t
            return SolveResult(UNSOLVABLE, "search", stats=stats, reason="pruning scan at the start")
        if hit >= 0:
            return _cleared(stats, moves, n, "attempts", hit + 1, t)
        stats["attempts"] = opened
        if opened and clock.expired():
            stats["seconds_attempts"] = time.perf_counter() - t
            yield _out_of_time(stats)
    dfs = None
    if presearch > 0:  # a few search nodes first: most refutations are cheap
        dfs = _Dfs(K, kind, gr, mj, sh, pt, flags, ws, scratch.search_stacks(K, gr))
        t_pre = time.perf_counter()
        code = dfs.run(presearch if node_limit is None else min(presearch, int(node_limit)))
        stats["seconds_search"] = time.perf_counter() - t_pre
        if code != K.RUNNING:
            return dfs.result(code, stats, "")
    next_at, grant = max(8, plan[0] // 8), 2 * presearch
    for kernel, key, count in ((K._attempts, "attempts", plan[0]), (K._guided, "guided", plan[1])):
        done = opened if key == "attempts" else 0
        while done < count:
            if dfs is not None and key == "attempts" and done >= next_at:  # interleave: search again, twice as long
                t_pre = time.perf_counter()
                code = dfs.run(grant if node_limit is None else max(0, min(grant, int(node_limit) - dfs.nodes)))
                stats["seconds_search"] += time.perf_counter() - t_pre
                if code != K.RUNNING:
                    return dfs.result(code, stats, "")
                next_at, grant = 2 * next_at, 2 * grant
            step = min(8, count - done)
            if key == "attempts" and done > 0:  # the deal's playouts go on from their kept start
                kernel = K._more_attempts
            hit = kernel(kind, gr, mj, sh, flags, step, rng, pres, partner, moves, ws)
            if hit >= 0:
                return _cleared(stats, moves, n, key, done + hit + 1, t)
            done += step
            stats[key] = done
            if clock.expired():
                stats["seconds_attempts"] = time.perf_counter() - t
                yield _out_of_time(stats)
    stats["seconds_attempts"] = time.perf_counter() - t
    t = time.perf_counter()
    if options.bondt:
        return (
            yield from _run_bondt(K, kind, gr, mj, sh, pt, flags, ws, moves, n, ngroups, node_limit, clock, stats, t)
        )
    if dfs is None:
        dfs = _Dfs(K, kind, gr, mj, sh, pt, flags, ws, scratch.search_stacks(K, gr))
    reason = ""
    while True:
        budget = CHUNK_NODES
        if node_limit is not None:
            budget = min(budget, int(node_limit) - dfs.nodes)
        code = dfs.run(budget)
        if code != K.RUNNING:
            break
        if node_limit is not None and dfs.nodes >= node_limit:
            reason = "node limit"
            break
        if clock.expired():
            seconds = stats.get("seconds_search", 0.0) + time.perf_counter() - t
            yield dfs.result(K.RUNNING, {**stats, "seconds_search": seconds}, "time limit")
    stats["seconds_search"] = stats.get("seconds_search", 0.0) + time.perf_counter() - t
    return dfs.result(code, stats, reason)


def _cleared(stats: dict[str, Any], moves: np.ndarray, n: int, key: str, number: int, t: float) -> SolveResult:
    """The ``solvable`` answer of the playout ``number`` of the kind ``key`` (``"attempts"`` or
    ``"guided"``), whose moves are in ``moves``; ``t`` is when the attempts began."""
    stats[key] = number
    stats["seconds_attempts"] = time.perf_counter() - t
    what = "random" if key == "attempts" else "guided"
    return SolveResult(SOLVABLE, "search", moves=_moves(moves, n // 2), stats=stats, reason=f"{what} attempt {number}")


def _solve_one_call(board: Board, seed: int, options: SearchOptions) -> SolveResult | None:
    """:func:`solve_search` on a Mahjong deal in one call of the batch path's kernel
    (:meth:`mjsat.search.batch.BatchSolver.run`, its solver kept per layout and options by
    :func:`_one_call_solver`); ``None`` when a group is too large for the kernels (the
    caller's run then says so).

    Notes
    -----
    As :func:`solve_search`; a deal's moves are replayed inside the call as well.
    """
    from mjsat.search import kernels_batch as KB
    from mjsat.search.kernels import MAX_GROUP

    t = time.perf_counter()
    solver = _one_call_solver(board.layout, board.game, options)
    deal = np.array(board.groups, dtype=np.int64).reshape(1, -1)
    out = solver.run(deal, np.array([_playout_state(seed)], dtype=np.uint64))
    code, phase, info = int(out.status[0]), int(out.phase[0]), out.info[0]
    if code == KB.BAD_DEAL or (code == KB.UNDECIDED and info[KB.INFO_BIGGEST] > MAX_GROUP):
        return None
    stats: dict[str, Any] = {
        "engine": "numba", "driver": "one-call", "nodes": int(out.nodes[0]), "scans": int(info[KB.INFO_SCANS]),
        "attempts": int(info[KB.INFO_ATTEMPTS]), "guided": int(info[KB.INFO_GUIDED]),
        "seconds_total": time.perf_counter() - t,
    }  # fmt: skip
    if code == KB.UNDECIDED:
        return SolveResult(UNKNOWN, "search", stats=stats, reason="node limit")
    if code == KB.UNSOLVABLE:
        reason = ""
        if phase == KB.BY_PRIOR:
            t0 = _first_tile_of_group(board.groups, int(info[KB.INFO_PRIOR_GROUP]))
            reason = f"prior analysis: group {board.group_label(board.groups[t0])} blocks itself"
        elif phase == KB.BY_SCAN:
            reason = "pruning scan at the start"
        return SolveResult(UNSOLVABLE, "search", stats=stats, reason=reason)
    moves = [(a, b) for a, b in out.moves[0, : int(out.nmoves[0])].tolist()]
    reason = ""
    if phase == KB.BY_PLAIN:
        reason = f"random attempt {stats['attempts']}"
    elif phase == KB.BY_GUIDED:
        reason = f"guided attempt {stats['guided']}"
    return SolveResult(SOLVABLE, "search", moves=moves, stats=stats, reason=reason)


_ONE_CALL_SOLVERS: collections.OrderedDict[tuple[Any, ...], Any] = collections.OrderedDict()
"""The batch solvers of the ``one-call`` driver, by layout, game and options (the most
recently used :data:`_ONE_CALL_KEEP`)."""

_ONE_CALL_KEEP = 16


def _one_call_solver(layout: Layout, game: str, options: SearchOptions) -> Any:
    """The :class:`~mjsat.search.batch.BatchSolver` of ``layout``, ``game`` and ``options``,
    built once and kept in :data:`_ONE_CALL_SOLVERS` (the layout's tables are the layout's)."""
    from mjsat.search.batch import BatchSolver

    key = (id(layout), game, options, options.rules(MAHJONG).tobytes())
    with _ONE_CALL_LOCK:
        hit = _ONE_CALL_SOLVERS.get(key)
        if hit is not None and hit.layout is layout:
            _ONE_CALL_SOLVERS.move_to_end(key)
            return hit
    solver = BatchSolver(layout, options, game=game)
    with _ONE_CALL_LOCK:
        _ONE_CALL_SOLVERS[key] = solver
        while len(_ONE_CALL_SOLVERS) > _ONE_CALL_KEEP:
            _ONE_CALL_SOLVERS.popitem(last=False)
    return solver


_ONE_CALL_LOCK = threading.Lock()


def _first_tile_of_group(groups: Sequence[int], g: int) -> int:
    """The first tile of the ``g``-th group in order of first appearance."""
    seen: set[int] = set()
    for t, v in enumerate(groups):
        if v not in seen:
            if len(seen) == g:
                return t
            seen.add(v)
    raise ValueError(f"no group {g}")


@functools.lru_cache(maxsize=256)
def _playout_state(seed: int) -> int:
    """The first state of the kernels' random playouts for ``seed`` (drawn from
    ``numpy.random.default_rng(seed)``; kept, as a generator costs more than a playout)."""
    return int(np.random.default_rng(seed).integers(1, 2**62))


class _Scratch:
    """The arrays one numba run writes, for boards of one size: the kernels' workspace
    (:func:`~mjsat.search.kernels.workspace`), the playouts' position, partners and moves,
    and the search's stacks (built when first needed). See :class:`_ScratchPool`.

    Attributes
    ----------
    key : tuple of int
        ``(n, groups, grid cells, bit words)``: the size it fits.
    nbytes : int
        The bytes of its arrays (the stacks' too once built).
    """

    __slots__ = ("key", "nbytes", "ws", "pres", "partner", "moves", "rng", "stacks")

    def __init__(self, K: Any, key: tuple[int, ...]) -> None:
        n, ngroups, cells, words = key
        self.key = key
        self.ws = K.workspace(n, ngroups, cells, words)
        self.pres = np.ones(n, dtype=np.uint8)
        self.partner = np.full(n, -1, dtype=np.int32)
        self.moves = np.zeros((n // 2 + 1, 2), dtype=np.int32)
        self.rng = np.zeros(1, dtype=np.uint64)
        self.stacks: tuple[np.ndarray, ...] | None = None
        self.nbytes = sum(a.nbytes for a in (*self.ws, self.pres, self.partner, self.moves, self.rng))

    def search_stacks(self, K: Any, gr: Any) -> tuple[np.ndarray, ...]:
        """``(P, Q, bg, bgr, allow, nxt, mend, moves, st)`` of :func:`~mjsat.search.kernels._dfs`
        at the full deal of the groups ``gr``; one search per run uses them."""
        if self.stacks is not None:
            K._wipe_stacks(gr, *self.stacks)
            return self.stacks
        n, ngroups = self.key[0], self.key[1]
        P, Q, *rest = K._new_stacks(n, ngroups)
        P[0] = 1
        K._autopair(gr, P[0], Q[0])
        self.stacks = (P, Q, *rest, np.zeros((n // 2 + 1, 2), dtype=np.int32), np.zeros(N_STATS, dtype=np.int64))
        self.nbytes += sum(a.nbytes for a in self.stacks)
        return self.stacks


class _ScratchPool:
    """The scratch arrays that ended numba runs gave back, by size, for the next runs.

    A run takes a :class:`_Scratch` of its size (:meth:`take`: one given back, made fit
    for a new run by :func:`~mjsat.search.kernels.restart` and, for its search,
    :func:`~mjsat.search.kernels._wipe_stacks`; or a new one) and gives it back when it
    ends (:meth:`give_back`). Runs alive at once each hold their own. At most ``depth`` scratches of a size are kept, and at most
    ``max_bytes`` in all (the sizes used longest ago are dropped first).

    Notes
    -----
    A scratch is about :math:`n^2 / 2` ints (the legal-move list); taking one back costs
    two fills instead of some thirty allocations.
    """

    def __init__(self, depth: int = 4, max_bytes: int = 1 << 24) -> None:
        self.depth = depth
        self.max_bytes = max_bytes
        self._free: collections.OrderedDict[tuple[int, ...], list[_Scratch]] = collections.OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def take(self, K: Any, key: tuple[int, ...]) -> _Scratch:
        """A scratch of size ``key`` (``(n, groups, grid cells, bit words)``)."""
        with self._lock:
            free = self._free.get(key)
            if not free:
                scratch = None
            else:
                scratch = free.pop()
                self._bytes -= scratch.nbytes
        if scratch is None:
            return _Scratch(K, key)
        K.restart(scratch.ws)
        return scratch

    def give_back(self, scratch: _Scratch) -> None:
        """Keep ``scratch`` for a later run of its size (dropped when the pool is full)."""
        if self.depth == 0 or scratch.nbytes > self.max_bytes:
            return
        with self._lock:
            free = self._free.setdefault(scratch.key, [])
            self._free.move_to_end(scratch.key)
            if len(free) >= self.depth:
                return
            free.append(scratch)
            self._bytes += scratch.nbytes
            while self._bytes > self.max_bytes:
                _, dropped = self._free.popitem(last=False)
                self._bytes -= sum(s.nbytes for s in dropped)

    def __len__(self) -> int:
        """The scratches kept."""
        return sum(len(v) for v in self._free.values())

    @property
    def nbytes(self) -> int:
        """The bytes of the arrays of the scratches kept."""
        return self._bytes


_SCRATCH = _ScratchPool()
"""The scratch arrays of the numba runs of this process."""


class _Dfs:
    """The state of the numba critical-group search, resumable between calls."""

    def __init__(
        self, K: Any, kind: Any, gr: Any, mj: Any, sh: Any, pt: Any, flags: np.ndarray, ws: Any, stacks: Any
    ) -> None:
        self.K = K
        self.args = (kind, gr, mj, sh, pt, flags)
        self.ws = ws
        self.P, self.Q, self.bg, self.bgr, self.allow, self.nxt, self.mend, self.moves, self.st = stacks

    @property
    def nodes(self) -> int:
        return int(self.st[S_NODES])

    def run(self, budget: int) -> int:
        return self.K._dfs(
            *self.args,
            self.P,
            self.Q,
            self.bg,
            self.bgr,
            self.allow,
            self.nxt,
            self.mend,
            self.moves,
            self.st,
            budget,
            self.ws,
        )

    def result(self, code: int, stats: dict[str, Any], reason: str) -> SolveResult:
        stats.update(nodes=int(self.st[S_NODES]), scans=stats["scans"] + int(self.st[S_SCANS]))
        if code == self.K.SOLVED:
            return SolveResult(SOLVABLE, "search", moves=_moves(self.moves, int(self.st[S_MOVES])), stats=stats)
        if code == self.K.EXHAUSTED:
            return SolveResult(UNSOLVABLE, "search", stats=stats)
        return SolveResult(UNKNOWN, "search", stats=stats, reason=reason)


def _run_bondt(
    K: Any,
    kind: Any,
    gr: Any,
    mj: Any,
    sh: Any,
    pt: Any,
    flags: np.ndarray,
    ws: Any,
    moves: np.ndarray,
    n: int,
    ngroups: int,
    node_limit: int | None,
    clock: _Clock,
    stats: dict[str, Any],
    t: float,
) -> Generator[SolveResult, None, SolveResult]:
    """The numba "pairing one, then two" tree in chunks of nodes (see :func:`_run_numba`)."""
    from mjsat.search import kernels_bondt as KB

    sg = np.zeros(ngroups + 1, dtype=np.int32)
    sk = np.zeros(ngroups + 1, dtype=np.int32)
    rot = np.zeros(ngroups, dtype=np.int32)
    pres = np.ones(n, dtype=np.uint8)
    partner = np.full(n, -1, dtype=np.int32)
    st = np.zeros(N_STATS, dtype=np.int64)
    reason = ""
    while True:
        budget = CHUNK_NODES
        if node_limit is not None:
            budget = min(budget, int(node_limit) - int(st[S_NODES]))
        code = KB._bondt(kind, gr, mj, sh, pt, flags, sg, sk, rot, pres, partner, moves, st, budget, ws)
        if code != K.RUNNING:
            break
        if node_limit is not None and st[S_NODES] >= node_limit:
            reason = "node limit"
            break
        if clock.expired():
            nodes, scans = int(st[S_NODES]), stats["scans"] + int(st[S_SCANS])
            yield _out_of_time({**stats, "nodes": nodes, "scans": scans, "seconds_search": time.perf_counter() - t})
    stats.update(
        nodes=int(st[S_NODES]), scans=stats["scans"] + int(st[S_SCANS]), seconds_search=time.perf_counter() - t
    )
    if code == K.SOLVED:
        return SolveResult(SOLVABLE, "search", moves=_moves(moves, int(st[S_MOVES])), stats=stats)
    if code == K.EXHAUSTED:
        return SolveResult(UNSOLVABLE, "search", stats=stats)
    return SolveResult(UNKNOWN, "search", stats=stats, reason=reason)


def _moves(moves: np.ndarray, count: int) -> list[Move]:
    return [(a, b) if a < b else (b, a) for a, b in moves[:count].tolist()]
