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
.. [GF05] P. Gimeno Fortea, "Mahjongg Solitaire Solver", web page, 1998-2005.
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import math
import numbers
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from mjsat.board import Board, Layout, Move
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, SolveResult
from mjsat.search.config import EXHAUSTED, MOVES, NODES, RUNNING, SCANS, SOLVED, Rules
from mjsat.search.pairing import MAHJONG, Geometry, PythonSearch, SearchLimit, geometry, pairings

__all__ = [
    "solve_search",
    "ENGINES",
    "UnknownEngineError",
    "SearchOptionError",
    "check_search_options",
    "default_attempts",
    "prior_conflict",
    "kernels_cached",
    "ensure_compiled",
    "prepare_search",
    "warm_up",
]

ENGINES = ("numba", "python")
"""The implementations of the search."""

FAST_PLAIN_SHARE = 0.5
"""With the incremental playouts (numba engine, Mahjong) the default is this share of de
Bondt's number as plain playouts (18 on the turtle), then de Bondt's number of
scan-guided ones (36): a guided playout costs several plain ones but clears far more
deals (figures in benchmarks/README.md)."""

GUIDED_ATTEMPTS = 0
"""Default number of scan-guided playouts otherwise (the Python engine, Shisen-Sho: a
guided playout then costs a fresh apply per move)."""

CHUNK_NODES = 200
"""Nodes the numba kernel runs between two looks at the clock."""

COMPILE_SECONDS = 120
"""The compile time of every kernel that :func:`ensure_compiled` announces on a cold cache
(the order of magnitude on a two-core machine; measurements in benchmarks/README.md)."""

_LOG = logging.getLogger("mjsat.search")


class UnknownEngineError(ValueError):
    """An ``engine`` option that is neither ``numba`` nor ``python``."""


class SearchOptionError(ValueError):
    """A count option of the ``search`` method that is not a non-negative integer."""


_SWITCHES = ("freeze", "loose", "prior", "scan", "critical", "bondt")


def check_search_options(
    *,
    engine: str = "numba",
    attempts: int | None = None,
    guided: int | None = None,
    presearch: int = 0,
    node_limit: int | None = None,
    **switches: Any,
) -> None:
    """Check the options of :func:`solve_search` without a board (registered in
    :attr:`mjsat.methods.MethodInfo.check`); the on/off ``switches`` (``freeze``,
    ``loose``, ``prior``, ``scan``, ``critical``, ``bondt``) take any value.

    Raises
    ------
    UnknownEngineError
        ``engine`` is not one of :data:`ENGINES`.
    SearchOptionError
        ``attempts``, ``guided``, ``presearch`` or ``node_limit`` is not a non-negative
        integer (``None`` stands for the default where the option has one), or a switch
        the method does not have.

    Notes
    -----
    :math:`O(1)`.
    """
    if engine not in ENGINES:
        raise UnknownEngineError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    extra = sorted(set(switches) - set(_SWITCHES))
    if extra:
        raise SearchOptionError(f"the search has no option {extra[0]!r} (its switches: {', '.join(_SWITCHES)})")
    for label, value in (("attempts", attempts), ("guided", guided), ("presearch", presearch), ("node_limit", node_limit)):
        if value is None and label != "presearch":
            continue
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
            raise SearchOptionError(f"{label} must be an integer >= 0, got {value!r}")


def default_attempts(geo: Geometry) -> int:
    """de Bondt's number of random attempts: the number of groups of four tiles or more.

    [dB20]_, section 5, gives it for Mahjong (36 on the 144-tile layouts, as in [dB12]_);
    the same number is used for Shisen-Sho here.
    """
    return sum(1 for m in geo.members if len(m) >= 4)


# --------------------------------------------------------------------------- prior analysis

def _pairing_ok(tiles: tuple[int, ...], pairing: Any, desc: list[int]) -> bool:
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
    desc = board.layout.descendants
    for g, tiles in enumerate(geo.members):
        if len(tiles) > 8:
            continue
        mask = 0
        for t in tiles:
            mask |= 1 << t
        if not any(desc[t] & mask for t in tiles):
            continue  # no tile of the group lies on another one: every pairing is fine
        if not any(_pairing_ok(tiles, p, desc) for p in pairings(len(tiles))):
            return g
    return None


# --------------------------------------------------------------------------- compiling


def _entry_kernels() -> list[Any]:
    """The kernels Python calls (their callees are compiled into them)."""
    from mjsat.search import kernels as K
    from mjsat.search import kernels_bondt as KB

    return [K._autopair, K._scan, K._attempts, K._guided, K._dfs, KB._bondt]


def kernels_cached() -> bool:
    """True iff every kernel the search calls is compiled in numba's disk cache (or the JIT
    is off), so that a process loads them instead of compiling them.

    Notes
    -----
    Reads one small index file per kernel; a cache made for other sources counts as absent.
    """
    for kernel in _entry_kernels():
        cache = getattr(kernel, "_cache", None)
        if cache is None:  # NUMBA_DISABLE_JIT: plain Python functions
            continue
        try:
            if not cache._cache_file._load_index():
                return False
        except (AttributeError, OSError, EOFError, ValueError):  # another numba's layout: assume cold
            return False
    return True


@contextlib.contextmanager
def _compile_lock() -> Iterator[None]:
    """An exclusive lock beside numba's cache, so that processes starting together on a
    cold cache compile once: the others wait, then load."""
    try:
        folder = _entry_kernels()[-1]._cache._cache_path
        os.makedirs(folder, exist_ok=True)
        handle = open(os.path.join(folder, "mjsat-compile.lock"), "a")
    except (AttributeError, OSError):  # no cache folder to share: compile alone
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


_READY = False
"""True once this process has the kernels (loaded, compiled, or the JIT off)."""


def ensure_compiled(notify: Callable[[str], None] | None = None) -> bool:
    """Make sure the numba kernels are compiled before a timed search starts.

    On a warm cache this returns at once (the kernels load on first use). On a cold one
    it says so first, through ``notify`` (default: a warning of the ``mjsat.search``
    logger, which prints on stderr), with how long compiling takes, then compiles every
    kernel under a lock that processes starting together share, so only one of them
    compiles while the others wait and then load.

    Parameters
    ----------
    notify : callable, optional
        Receives the one-line notice.

    Returns
    -------
    bool
        True iff this call compiled (or waited for another process to compile).

    Notes
    -----
    The method's :attr:`~mjsat.methods.MethodInfo.prepare` (:func:`prepare_search`), so
    :func:`mjsat.methods.solve` runs it before any method's clock starts and
    ``--time-limit`` counts the search, not the compiler; :func:`solve_search` (numba
    engine) calls it too. ``make install`` compiles ahead (:func:`warm_up`).
    """
    global _READY
    if _READY:
        return False
    if kernels_cached():
        _READY = True
        return False
    say = notify or _LOG.warning
    say(
        f"mjsat: the numba kernels are not compiled yet; compiling them first (once, about {COMPILE_SECONDS} s;"
        " later runs load them from the disk cache; `make install` compiles them ahead)"
    )
    with _compile_lock():
        _READY = True  # the searches that compile must not come back here
        try:
            if not kernels_cached():  # another process may have compiled them meanwhile
                _exercise()
        except BaseException:
            _READY = False
            raise
    return True


def prepare_search(*, engine: str = "numba", **options: Any) -> None:
    """The :attr:`mjsat.methods.MethodInfo.prepare` of the method ``search``: with the numba
    engine, :func:`ensure_compiled`."""
    if engine == "numba":
        ensure_compiled()


def _exercise() -> None:
    """Run every kernel the search calls once, on every path: Mahjong, Shisen-Sho on a grid
    and on the Mahjong grid, plain and guided playouts, the critical-group search (with
    and without the presearch) and de Bondt's tree (each compiled, or loaded, on first use)."""
    from mjsat.board import MahjongBoard, ShisenShoBoard, ShisenShoMahjongBoard

    row = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)])
    boards = [
        MahjongBoard(row, [0, 1, 1, 0]),
        ShisenShoBoard(row, [0, 1, 1, 0]),
        ShisenShoMahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 1, 1), (2, 0, 0)]), [0, 0, 1, 1]),
    ]
    for board in boards:
        solve_search(board, attempts=1, guided=0)
        solve_search(board, attempts=0, guided=1)
        solve_search(board, attempts=0, guided=0)
        solve_search(board, attempts=0, guided=0, presearch=1)
        solve_search(board, attempts=0, guided=0, bondt=True)


def warm_up() -> None:
    """Compile every kernel the search calls if the cache is cold (:func:`ensure_compiled`,
    announced), then load them all into this process, so that timings that follow measure
    the search and not the compiler or the loader."""
    ensure_compiled()
    _exercise()


# --------------------------------------------------------------------------- the wrapper


def solve_search(
    board: Board,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    node_limit: int | None = None,
    attempts: int | None = None,
    freeze: bool = True,
    loose: bool = True,
    prior: bool = True,
    scan: bool = True,
    critical: bool = True,
    bondt: bool = False,
    guided: int | None = None,
    presearch: int = 0,
    engine: str = "numba",
) -> SolveResult:
    """Decide ``board`` with the pairing-set search ([GF05]_, [dB12]_, [dB20]_).

    Parameters
    ----------
    board : Board
        A Mahjong, transposed Mahjong or Shisen-Sho board, solved from its full deal.
    time_limit : float or None
        Seconds before answering ``unknown`` (a cold numba cache is compiled first, and
        said so: :func:`ensure_compiled`).
    seed : int
        Seed of the random attempts.
    node_limit : int or None
        Search nodes before answering ``unknown``.
    attempts : int or None
        Random playouts before the exhaustive search; default :func:`default_attempts`
        (de Bondt's choice), or :data:`FAST_PLAIN_SHARE` of it when the playouts are the
        incremental ones (numba engine, Mahjong, with ``scan``: the guided ones then
        follow); 0 switches them off.
    freeze, loose, prior, scan, critical : bool
        The improvements, each switchable: the freeze and loose-tile cleaning rules, the
        prior analysis, the pruning scan, the critical-group probing (see
        :mod:`mjsat.search.pairing`).
    bondt : bool
        Search with de Bondt's "pairing one, then two" tree with backward adaptation
        ([dB12]_, section 3.2) instead of the critical-group probing; ``critical`` is then
        ignored (see :meth:`~mjsat.search.pairing.PythonSearch._search_bondt`).
    guided : int or None
        Scan-guided random playouts after the plain ones (a random move is kept only when
        the pruning scan still clears the position after it); default with ``scan``:
        :func:`default_attempts` with the incremental playouts, else
        :data:`GUIDED_ATTEMPTS`; without ``scan`` 0; 0 switches them off.
    presearch : int
        numba engine: nodes of the exhaustive search run before the random attempts; the
        search then resumes where it stopped, for twice as many nodes each time the
        attempts done double (after 1/8, 2/8, 4/8 of them), so that deals refuted in a few
        nodes skip most attempts. 0: all attempts first, as de Bondt does.
    engine : {"numba", "python"}
        The compiled kernels or the pure-Python twin.

    Returns
    -------
    SolveResult
        ``solvable`` with the moves, ``unsolvable`` (exhaustive), or ``unknown``.
        ``stats`` holds ``nodes``, ``scans``, ``attempts`` and ``seconds_<phase>``.

    Raises
    ------
    UnknownEngineError
        ``engine`` is not one of :data:`ENGINES`.
    SearchOptionError
        A count option that is not a non-negative integer.
    GroupTooLargeError
        numba engine: a group of more than :data:`~mjsat.search.config.MAX_GROUP` tiles
        (refused before anything is built).

    Notes
    -----
    Exponential in the worst case (the problem is NP-complete): at most one tree level per
    group and ``(r-1)!!`` children for a group of ``r`` tiles. A node costs
    :math:`O(n + e)` for apply and scan in the numba engine on Mahjong (event-driven), and
    one scan per pairing of every unpaired group with ``critical``.

    References
    ----------
    .. [GF05] P. Gimeno Fortea, "Mahjongg Solitaire Solver", web page, 1998-2005.
    .. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
    .. [dB20] M. de Bondt, "Solving Shisen-Sho boards", arXiv:2010.09014, 2020.
    """
    check_search_options(engine=engine, attempts=attempts, guided=guided, presearch=presearch, node_limit=node_limit)
    if engine == "numba":
        from mjsat.search.kernels import check_group_sizes

        check_group_sizes(board.groups)
        ensure_compiled()
    t0 = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + float(time_limit)
    geo = geometry(board)
    stats: dict[str, Any] = {"engine": engine, "nodes": 0, "scans": 0, "attempts": 0, "guided": 0}
    t_prior = time.perf_counter()
    if prior:
        g = prior_conflict(board, geo)
        stats["seconds_prior"] = time.perf_counter() - t_prior
        if g is not None:
            t = geo.members[g][0]
            return SolveResult(
                UNSOLVABLE, "search", stats=stats,
                reason=f"prior analysis: group {board.group_label(board.groups[t])} blocks itself",
            )  # fmt: skip
    incremental = engine == "numba" and geo.kind == MAHJONG
    k = default_attempts(geo)
    if attempts is None:
        n_attempts = int(math.ceil(k * FAST_PLAIN_SHARE)) if incremental and scan else k
    else:
        n_attempts = int(attempts)
    if guided is None:
        n_guided = (k if incremental else GUIDED_ATTEMPTS) if scan else 0
    else:
        n_guided = int(guided)
    if engine == "python":
        opts = dict(freeze=bool(freeze), loose=bool(loose), scan=bool(scan), critical=bool(critical), bondt=bool(bondt))
        result = _run_python(geo, opts, (n_attempts, n_guided), seed, node_limit, deadline, stats)
    else:
        from mjsat.search.kernels import Kernels

        kernels = Kernels(geo, Rules(freeze=bool(freeze), loose=bool(loose), scan=bool(scan), critical=bool(critical)))
        result = _run_numba(kernels, bool(bondt), (n_attempts, n_guided), seed, node_limit, deadline, stats,
                            presearch=int(presearch))
    stats["seconds_total"] = time.perf_counter() - t0
    return result


def _run_python(
    geo: Geometry,
    opts: dict[str, bool],
    plan: tuple[int, int],
    seed: int,
    node_limit: int | None,
    deadline: float | None,
    stats: dict[str, Any],
) -> SolveResult:
    search = PythonSearch(geo, node_limit=node_limit, deadline=deadline, **opts)
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    if any(plan) and opts["scan"]:  # [dB12], 3.3: a pruning scan before the attempts
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
                return SolveResult(SOLVABLE, "search", moves=moves, stats=stats,
                                   reason=f"{'guided' if guided else 'random'} attempt {i + 1}")
            if deadline is not None and time.monotonic() > deadline:
                stats["seconds_attempts"] = time.perf_counter() - t
                return SolveResult(UNKNOWN, "search", stats=stats, reason="time limit")
    stats["seconds_attempts"] = time.perf_counter() - t
    t = time.perf_counter()
    try:
        moves: list[Move] | None = search.search()
    except SearchLimit as lim:
        stats.update(nodes=search.nodes, scans=search.scans, seconds_search=time.perf_counter() - t)
        return SolveResult(UNKNOWN, "search", stats=stats, reason=lim.reason)
    stats.update(nodes=search.nodes, scans=search.scans, seconds_search=time.perf_counter() - t)
    if moves is None:
        return SolveResult(UNSOLVABLE, "search", stats=stats)
    return SolveResult(SOLVABLE, "search", moves=moves, stats=stats)


class _Run:
    """One exhaustive search in the kernels (the critical-group search, or de Bondt's tree),
    resumable between chunks of nodes."""

    def __init__(self, kernels: Any, bondt: bool) -> None:
        from mjsat.search import kernels_bondt as KB

        self.kernels = kernels
        if bondt:
            self.tree: Any = KB.bondt_tree(kernels)
            self._step: Callable[[int], int] = lambda budget: KB.bondt_search(kernels, self.tree, budget)
        else:
            self.tree = kernels.tree()
            self._step = lambda budget: kernels.search(self.tree, budget)

    @property
    def nodes(self) -> int:
        return int(self.tree.stats[NODES])

    def run(self, budget: int) -> int:
        return self._step(budget)

    def until_done(self, node_limit: int | None, deadline: float | None) -> tuple[int, str]:
        """Chunks of :data:`CHUNK_NODES` nodes until decided or a limit is reached; the
        clock and the node limit are looked at between chunks, so a limit is overrun by at
        most one chunk."""
        while True:
            budget = CHUNK_NODES
            if node_limit is not None:
                budget = min(budget, int(node_limit) - self.nodes)
            code = self.run(budget)
            if code != RUNNING:
                return code, ""
            if node_limit is not None and self.nodes >= node_limit:
                return code, "node limit"
            if deadline is not None and time.monotonic() > deadline:
                return code, "time limit"

    def result(self, code: int, stats: dict[str, Any], reason: str) -> SolveResult:
        from mjsat.search.kernels import moves_of

        st = self.tree.stats
        stats.update(nodes=int(st[NODES]), scans=stats["scans"] + int(st[SCANS]))
        if code == SOLVED:
            return SolveResult(SOLVABLE, "search", moves=moves_of(self.tree.moves, int(st[MOVES])), stats=stats)
        if code == EXHAUSTED:
            return SolveResult(UNSOLVABLE, "search", stats=stats)
        return SolveResult(UNKNOWN, "search", stats=stats, reason=reason)


def _run_numba(
    kernels: Any,
    bondt: bool,
    plan: tuple[int, int],
    seed: int,
    node_limit: int | None,
    deadline: float | None,
    stats: dict[str, Any],
    presearch: int = 0,
) -> SolveResult:
    """Random attempts, then the search, with the numba kernels (see :func:`solve_search`)."""
    from mjsat.search.kernels import moves_of

    n = kernels.n
    moves = kernels.move_list()
    t = time.perf_counter()
    if any(plan) and kernels.rules.scan:  # [dB12], 3.3: a pruning scan before the attempts
        stats["scans"] = 1
        if not kernels.scan(*kernels.start()):
            stats["seconds_attempts"] = time.perf_counter() - t
            return SolveResult(UNSOLVABLE, "search", stats=stats, reason="pruning scan at the start")
    run = None
    if presearch > 0 and not bondt:  # a few search nodes first: most refutations are cheap
        run = _Run(kernels, False)
        t_pre = time.perf_counter()
        code = run.run(presearch if node_limit is None else min(presearch, int(node_limit)))
        stats["seconds_search"] = time.perf_counter() - t_pre
        if code != RUNNING:
            return run.result(code, stats, "")
    rng = np.array([np.random.default_rng(seed).integers(1, 2**62)], dtype=np.uint64)
    next_at, grant = max(8, plan[0] // 8), 2 * presearch
    for guided, key, count in ((False, "attempts", plan[0]), (True, "guided", plan[1])):
        done = 0
        while done < count:
            if run is not None and not guided and done >= next_at:  # interleave: search again, twice as long
                t_pre = time.perf_counter()
                code = run.run(grant if node_limit is None else max(0, min(grant, int(node_limit) - run.nodes)))
                stats["seconds_search"] += time.perf_counter() - t_pre
                if code != RUNNING:
                    return run.result(code, stats, "")
                next_at, grant = 2 * next_at, 2 * grant
            step = min(8, count - done)
            hit = kernels.playouts(step, rng, moves, guided=guided)
            if hit >= 0:
                stats[key] = done + hit + 1
                stats["seconds_attempts"] = time.perf_counter() - t
                return SolveResult(SOLVABLE, "search", moves=moves_of(moves, n // 2), stats=stats,
                                   reason=f"{'guided' if guided else 'random'} attempt {done + hit + 1}")
            done += step
            stats[key] = done
            if deadline is not None and time.monotonic() > deadline:
                stats["seconds_attempts"] = time.perf_counter() - t
                return SolveResult(UNKNOWN, "search", stats=stats, reason="time limit")
    stats["seconds_attempts"] = time.perf_counter() - t
    t = time.perf_counter()
    if run is None:
        run = _Run(kernels, bondt)
    code, reason = run.until_done(node_limit, deadline)
    stats["seconds_search"] = stats.get("seconds_search", 0.0) + time.perf_counter() - t
    return run.result(code, stats, reason)
