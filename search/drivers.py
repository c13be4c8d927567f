"""The drivers of the search: which path runs a search, chosen by one table.

A *driver* runs the phases of :func:`mjsat.search.solver.solve_search` on one board:

* ``python``: the pure-Python reference (:class:`mjsat.search.pairing.PythonSearch`);
* ``one-call``: a Mahjong deal under a small node budget, every phase in one compiled call
  of the batch path's kernel (:class:`mjsat.search.batch.BatchSolver`), no clock looked at;
* ``small``: a Shisen-Sho board of at most :data:`SMALL_MAX_TILES` tiles, every phase in one
  compiled call (:func:`mjsat.search.kernels_small._solve_small`) under :data:`CHUNK_NODES`
  search nodes, no clock looked at; a board the call leaves undecided runs the ``phases``
  from the start (the same answer, moves and counts as if it had run them alone);
* ``bondt``: the numba kernels, de Bondt's "pairing one, then two" tree after the playouts;
* ``phases``: the numba kernels, phase by phase from Python, the critical-group search in
  chunks of nodes with the clock looked at between them.

:data:`DRIVERS` lists them in the order they are tried; the first whose rule fits the
options and the board runs (:func:`choose_driver`), and ``stats["driver"]`` names it.
"""

from __future__ import annotations

import collections
import functools
import threading
import time
from collections.abc import Callable, Generator, Sequence
from typing import Any, NamedTuple

import numpy as np

from mjsat.board import Board, Layout, Move
from mjsat.clock import now
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, SolveResult
from mjsat.search.config import N_STATS, S_MOVES, S_NODES, S_SCANS
from mjsat.search.options import SearchOptions
from mjsat.search.pairing import MAHJONG, SH3D, SHISEN, Geometry, PythonSearch, SearchLimit
from mjsat.search.scratch import SCRATCH, Scratch, playout_state

__all__ = [
    "Driver",
    "DRIVERS",
    "BY_NAME",
    "Clock",
    "choose_driver",
    "solve_one_call",
    "solve_small",
    "batch_refusal",
    "CHUNK_NODES",
    "ONE_CALL_MIN_SECONDS",
    "ONE_CALL_MAX_TILES",
    "SMALL_MAX_TILES",
]

CHUNK_NODES = 200
"""Nodes the numba kernel runs between two looks at the clock."""

ONE_CALL_MIN_SECONDS = 0.1
"""The shortest time limit with which the ``one-call`` driver decides a Mahjong deal under
a node limit of at most :data:`CHUNK_NODES`: it looks at no clock."""

ONE_CALL_MAX_TILES = 2048
"""The largest board of the ``one-call`` driver: the batch path keeps an ``n x n`` table
of the layout's cover order (4 MiB at this size)."""

SMALL_MAX_TILES = 64
"""The largest board of the ``small`` driver (a few dozen tiles: its one call, at most
:data:`CHUNK_NODES` search nodes, costs less than a look at the clock between phases)."""


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


def _small(options: SearchOptions, kind: int, n: int, time_limit: float | None) -> bool:
    """A Shisen-Sho board of at most :data:`SMALL_MAX_TILES` tiles, searched by the numba
    engine's critical-group search with the playouts first (no ``presearch``, not ``bondt``)
    and the pair test walking cells; no time limit or one of at least
    :data:`ONE_CALL_MIN_SECONDS`."""
    return (
        kind == SHISEN
        and n <= SMALL_MAX_TILES
        and options.engine == "numba"
        and not options.bondt
        and options.presearch == 0
        and options.pair_test_of(kind) == "cells"
        and (time_limit is None or time_limit >= ONE_CALL_MIN_SECONDS)
    )


class Clock:
    """The deadline of a :class:`~mjsat.search.solver.SearchRun`'s current slice (``None``: no limit)."""

    __slots__ = ("deadline",)

    def __init__(self) -> None:
        self.deadline: float | None = None

    def expired(self) -> bool:
        return self.deadline is not None and now() > self.deadline


def _out_of_time(stats: dict[str, Any]) -> SolveResult:
    """The ``unknown`` a run yields when its slice is over (its stats so far, copied)."""
    return SolveResult(UNKNOWN, "search", stats=dict(stats), reason="time limit")


def _run_python(
    geo: Geometry,
    options: SearchOptions,
    rules: np.ndarray,
    plan: tuple[int, int],
    seed: int,
    clock: Clock,
    stats: dict[str, Any],
) -> Generator[SolveResult, None, SolveResult]:
    """Random attempts, then the search, in Python (``rules`` is not read: the twin takes
    the options' switches; see :class:`~mjsat.search.solver.SearchRun`)."""
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
    clock: Clock,
    stats: dict[str, Any],
) -> Generator[SolveResult, None, SolveResult]:
    """Random attempts, then the search, with the numba kernels (see :class:`~mjsat.search.solver.SearchRun`).

    The run takes its scratch arrays from :data:`SCRATCH` (those of an ended run of the
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
    pool = SCRATCH
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
    clock: Clock,
    stats: dict[str, Any],
    scratch: Scratch,
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
    rng[0] = playout_state(seed)
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


def solve_one_call(board: Board, seed: int, options: SearchOptions) -> SolveResult | None:
    """:func:`~mjsat.search.solver.solve_search` on a Mahjong deal in one call of the batch path's kernel
    (:meth:`mjsat.search.batch.BatchSolver.run`, its solver kept per layout and options by
    :func:`_one_call_solver`); ``None`` when a group is too large for the kernels (the
    caller's run then says so).

    Notes
    -----
    As :func:`~mjsat.search.solver.solve_search`; a deal's moves are replayed inside the call as well.
    """
    from mjsat.search import kernels_batch as KB
    from mjsat.search.kernels import MAX_GROUP

    t = time.perf_counter()
    solver = _one_call_solver(board.layout, board.game, options)
    deal = np.array(board.groups, dtype=np.int64).reshape(1, -1)
    out = solver.run(deal, np.array([playout_state(seed)], dtype=np.uint64))
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
    moves = list(map(tuple, out.moves[0, : int(out.nmoves[0])].tolist()))
    reason = ""
    if phase == KB.BY_PLAIN:
        reason = f"random attempt {stats['attempts']}"
    elif phase == KB.BY_GUIDED:
        reason = f"guided attempt {stats['guided']}"
    return SolveResult(SOLVABLE, "search", moves=moves, stats=stats, reason=reason)


_SMALL_REASONS = {2: "random attempt {attempts}", 3: "guided attempt {guided}"}
"""The reason of a ``solvable`` answer of the ``small`` driver by the phase that found it."""


def solve_small(board: Board, seed: int, options: SearchOptions) -> SolveResult | None:
    """:func:`~mjsat.search.solver.solve_search` on a small Shisen-Sho board in one compiled
    call (:func:`mjsat.search.kernels_small._solve_small`, at most :data:`CHUNK_NODES`
    search nodes); ``None`` when the call leaves the board undecided or a group is too large
    for the kernels (the caller then runs the phases).

    Notes
    -----
    The layout's kernel arrays are kept by the layout (:meth:`mjsat.layout.Layout.memo`).
    """
    from mjsat.search import kernels_small as KS

    t = time.perf_counter()
    kind, mj, sh, pt = _small_tables(board)
    rules, counts = _small_rules(options)
    n = len(board.groups)
    moves = np.empty((n // 2 + 1, 2), dtype=np.int32)
    out = np.empty(KS.N_OUT, dtype=np.int64)
    budget = CHUNK_NODES if options.node_limit is None else min(CHUNK_NODES, int(options.node_limit))
    row = np.array(board.groups, dtype=np.int64)
    KS._solve_small(kind, row, mj, sh, pt, rules, counts, np.uint64(playout_state(seed)), budget, moves, out)
    got = out.tolist()
    code, phase = got[KS.OUT_CODE], got[KS.OUT_PHASE]
    if code == KS.SMALL_UNDECIDED or code == KS.SMALL_TOO_LARGE:
        return None
    stats: dict[str, Any] = {
        "engine": "numba", "driver": "small", "nodes": got[KS.OUT_NODES], "scans": got[KS.OUT_SCANS],
        "attempts": got[KS.OUT_ATTEMPTS], "guided": got[KS.OUT_GUIDED], "pair_test": "cells",
        "seconds_total": time.perf_counter() - t,
    }  # fmt: skip
    if code == KS.SMALL_UNSOLVABLE:
        return SolveResult(
            UNSOLVABLE, "search", stats=stats, reason="pruning scan at the start" if phase == KS.PHASE_SCAN else ""
        )
    reason = ""
    if phase == KS.PHASE_PLAIN:
        reason = f"random attempt {stats['attempts']}"
    elif phase == KS.PHASE_GUIDED:
        reason = f"guided attempt {stats['guided']}"
    return SolveResult(SOLVABLE, "search", moves=_moves(moves, got[KS.OUT_MOVES]), stats=stats, reason=reason)


def _small_tables(board: Board) -> tuple[Any, ...]:
    """``(kind, mj, sh, pt)`` of the kernels on ``board``'s grid (the layout's
    :class:`~mjsat.board.GridTables`, kept by the layout; the grid's shape as plain ints,
    which the kernels type as ``int64`` as they do ``numpy.int64``)."""
    from mjsat.search.kernels import _NO_SIDES, _PTAB

    tables = board.rule_tables()
    return _SHISEN_KIND, _NO_SIDES, (*tables.cell_arrays, *tables.shape), _PTAB


_SHISEN_KIND = np.int64(SHISEN)


@functools.lru_cache(maxsize=64)
def _small_rules(options: SearchOptions) -> tuple[np.ndarray, np.ndarray]:
    """The rule array and the playout counts (``plan`` of :func:`mjsat.search.kernels_batch.plan_array`)
    of ``options`` on Shisen-Sho, kept per options (the kernels only read them)."""
    from mjsat.search import kernels_batch as KB

    return options.rules(SHISEN), KB.plan_array(options, incremental=False)


_ONE_CALL_SOLVERS: collections.OrderedDict[tuple[Any, ...], Any] = collections.OrderedDict()
"""The batch solvers of the ``one-call`` driver, by layout content, game and options (the most
recently used :data:`_ONE_CALL_KEEP`)."""

_ONE_CALL_KEEP = 16


def _one_call_solver(layout: Layout, game: str, options: SearchOptions) -> Any:
    """The :class:`~mjsat.search.batch.BatchSolver` of ``layout``, ``game`` and ``options``,
    built once and kept in :data:`_ONE_CALL_SOLVERS` for every layout of the same content."""
    from mjsat.search.batch import BatchSolver

    # by the layout's content (positions and rule flag, as its tables are shared,
    # :meth:`mjsat.board.Layout.memo`): a board read from a file finds a dealt board's solver
    key = (layout._content, game, options, _rules_bytes(options))
    with _ONE_CALL_LOCK:
        hit = _ONE_CALL_SOLVERS.get(key)
        if hit is not None:
            _ONE_CALL_SOLVERS.move_to_end(key)
            return hit
    solver = BatchSolver(layout, options, game=game)
    with _ONE_CALL_LOCK:
        _ONE_CALL_SOLVERS[key] = solver
        while len(_ONE_CALL_SOLVERS) > _ONE_CALL_KEEP:
            _ONE_CALL_SOLVERS.popitem(last=False)
    return solver


_ONE_CALL_LOCK = threading.Lock()


@functools.lru_cache(maxsize=64)
def _rules_bytes(options: SearchOptions) -> bytes:
    """The kernels' rule array of ``options`` on Mahjong, as bytes (a key)."""
    return options.rules(MAHJONG).tobytes()


def _first_tile_of_group(groups: Sequence[int], g: int) -> int:
    """The first tile of the ``g``-th group in order of first appearance."""
    seen: set[int] = set()
    for t, v in enumerate(groups):
        if v not in seen:
            if len(seen) == g:
                return t
            seen.add(v)
    raise ValueError(f"no group {g}")


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
    clock: Clock,
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


class Driver(NamedTuple):
    """A row of :data:`DRIVERS`."""

    name: str
    """The driver's name (``stats["driver"]``)."""
    fits: Callable[[SearchOptions, int, int, float | None], bool]
    """``fits(options, kind, n, time_limit)``: whether it runs a search of ``options`` on a
    board of geometry ``kind`` and ``n`` tiles under ``time_limit``."""
    run: Callable[..., Generator[SolveResult, None, SolveResult]] | None
    """The phases after the prior analysis, resumable at a time limit
    (:class:`mjsat.search.solver.SearchRun` runs them): ``run(geo, options, rules, counts,
    seed, clock, stats)``; ``None`` for a driver that runs in one call
    (:func:`solve_one_call`)."""


DRIVERS: tuple[Driver, ...] = (
    Driver("python", lambda o, kind, n, t: o.engine == "python", _run_python),
    Driver("one-call", _one_call, None),
    Driver("small", _small, None),
    Driver("bondt", lambda o, kind, n, t: o.bondt, _run_numba),
    Driver("phases", lambda o, kind, n, t: True, _run_numba),
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
        if (driver.run is not None or not resumable) and driver.fits(options, kind, n, time_limit):
            return driver.name
    raise AssertionError("the last driver fits every search")  # pragma: no cover


BY_NAME: dict[str, Driver] = {driver.name: driver for driver in DRIVERS}
"""The rows of :data:`DRIVERS` by name."""
