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
import math
import numbers
import threading
import time
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mjsat import clock
from mjsat.board import Board, Layout, Move
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, SolveResult
from mjsat.search.config import N_STATS, PAIR_TESTS, PLAYOUTS, S_MOVES, S_NODES, S_SCANS
from mjsat.search.pairing import MAHJONG, SH3D, SHISEN, Geometry, PythonSearch, SearchLimit, geometry, pairings

__all__ = [
    "solve_search",
    "SearchRun",
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

ENGINES = ("numba", "python")
"""The implementations of the search."""

FAST_PLAIN_SHARE = 0.6
"""With the incremental kernels (numba, Mahjong) the default is this share of de Bondt's
number as plain playouts (22 on the turtle), then de Bondt's number of scan-guided ones
(36): a guided playout costs several plain ones and clears far more deals (the figures
are in benchmarks/README.md, section search)."""

GUIDED_ATTEMPTS = 0
"""Default number of scan-guided playouts otherwise (the Python engine, Shisen-Sho: a
guided playout then costs a fresh apply per move)."""

FREEZE_PAIR_KINDS = (SH3D,)
"""The kinds of geometry on which ``freeze_pair`` is on by default: Shisen-Sho on the
Mahjong grid, where it saves time; on Mahjong and on rectangular Shisen-Sho it does not
(figures in benchmarks/README.md, section search)."""

DEFAULT_PLAYOUT = "rows"
"""The default policy of the Mahjong random playouts (:data:`mjsat.search.config.PLAYOUTS`):
``"rows"`` clears more turtle deals per playout than ``"safe"`` at about the same CPU, and
``"safe"`` more than ``"uniform"`` (the figures are in benchmarks/README.md, section
search)."""

CHUNK_NODES = 200
"""Nodes the numba kernel runs between two looks at the clock."""

ONE_CALL_MIN_SECONDS = 0.1
"""The shortest time limit with which :func:`solve_search` decides a Mahjong deal under a
node limit of at most :data:`CHUNK_NODES` in one compiled call (:func:`_solve_one_call`),
which looks at no clock."""

ONE_CALL_MAX_TILES = 2048
"""The largest board :func:`solve_search` decides in one compiled call: the batch path keeps
an ``n x n`` table of the layout's cover order (4 MiB at this size)."""

DEFAULT_PAIR_TEST: dict[int, str] = {SHISEN: "cells", SH3D: "bits"}
"""The pair test of the numba kernels (:data:`mjsat.search.config.PAIR_TESTS`) by game
kind, the bitsets where they pay: they make the whole search cheaper on turtle deals of
Shisen-Sho on the Mahjong grid, and change nothing measurable on full rectangles of whole
tiles, where the cell walk is as fast on the crowded positions the search mostly tests
(the figures: benchmarks/README.md, section pairs)."""


class UnknownEngineError(ValueError):
    """An ``engine`` option that is neither ``numba`` nor ``python``."""


class SearchOptionError(ValueError):
    """A count option of the ``search`` method that is not a non-negative integer."""


class UnknownPlayoutError(ValueError):
    """A ``playout`` option of the ``search`` method that is not one of
    :data:`mjsat.search.config.PLAYOUTS`."""


class UnknownPairTestError(ValueError):
    """A ``pair_test`` option of the ``search`` method that is not one of
    :data:`mjsat.search.config.PAIR_TESTS`."""


def check_search_options(
    *,
    engine: str = "numba",
    attempts: int | None = None,
    guided: int | None = None,
    presearch: int = 0,
    node_limit: int | None = None,
    pair_test: str | None = None,
    playout: str | None = None,
    **switches: Any,
) -> None:
    """Check the options of :func:`solve_search` without a board (registered in
    :attr:`mjsat.methods.MethodInfo.check`); the on/off ``switches`` take ``True``,
    ``False`` (``1``, ``0``) or ``None`` (the default), so a value such as ``"on"`` is
    refused here, for every board, not by the first board that reads it.

    Raises
    ------
    UnknownEngineError
        ``engine`` is not one of :data:`ENGINES`.
    SearchOptionError
        ``attempts``, ``guided``, ``presearch`` or ``node_limit`` is not a non-negative
        integer (``None`` stands for the default where the option has one).
    UnknownPairTestError
        ``pair_test`` is neither ``None`` nor one of :data:`mjsat.search.config.PAIR_TESTS`.
    UnknownPlayoutError
        ``playout`` is neither ``None`` nor one of :data:`mjsat.search.config.PLAYOUTS`.
    SearchOptionError
        A switch (``freeze_pair``, ``critical``, ...) that is not true or false.

    Notes
    -----
    :math:`O(1)`.
    """
    if engine not in ENGINES:
        raise UnknownEngineError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    if pair_test is not None and pair_test not in PAIR_TESTS:
        raise UnknownPairTestError(f"unknown pair_test {pair_test!r} (known: {', '.join(PAIR_TESTS)})")
    if playout is not None and playout not in PLAYOUTS:
        raise UnknownPlayoutError(f"unknown playout {playout!r} (known: {', '.join(PLAYOUTS)})")
    for label, value in (
        ("attempts", attempts),
        ("guided", guided),
        ("presearch", presearch),
        ("node_limit", node_limit),
    ):
        if (value is None and label != "presearch") or (type(value) is int and value >= 0):
            continue
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
            raise SearchOptionError(f"{label} must be an integer >= 0, got {value!r}")
    for label, value in switches.items():
        if value is not None and not (isinstance(value, (bool, numbers.Integral)) and value in (0, 1)):
            raise SearchOptionError(f"{label} must be true or false (on/off), got {str(value)[:40]!r}")


def default_attempts(geo: Geometry) -> int:
    """de Bondt's number of random attempts: the number of groups of four tiles or more.

    [dB20]_ section 5 gives it for Mahjong (36 on the 144-tile layouts, as in [dB12]_);
    the same number is used for Shisen-Sho here.
    """
    return sum(1 for m in geo.members if len(m) >= 4)


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


def _one_call_applies(board: Board, time_limit: float | None, **options: Any) -> bool:
    """Whether :func:`solve_search` with ``options`` runs ``board`` in one compiled call
    (:func:`_solve_one_call`; see its Notes)."""
    node_limit = options.get("node_limit")
    return (
        options.get("engine", "numba") == "numba"
        and board.kind == "sides"
        and len(board) <= ONE_CALL_MAX_TILES
        and node_limit is not None
        and node_limit <= CHUNK_NODES
        and (time_limit is None or time_limit >= ONE_CALL_MIN_SECONDS)
        and not any(options.get(k) for k in ("bondt", "presearch", "joint", "loose_pair", "freeze_pair"))
    )


def warm_up(board: Board | None = None, time_limit: float | None = None, **options: Any) -> None:
    """Load (or compile, the first time) numba kernels, so that timings that follow
    measure the search and not the compiler.

    Without ``board``: every kernel (the Mahjong kernels: playouts, guided playouts, the
    search, de Bondt's tree; those of Shisen-Sho on a grid and on the Mahjong grid, and the
    batch path's, :mod:`mjsat.search.batch`). With ``board`` (and the options and time limit
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


_PREPARED: set[tuple[str, ...]] = set()
"""What :func:`prepare_search` loaded in this process: ``("all",)``, or per game and path."""


def _cache_is_cold() -> bool:
    """True when no compiled kernel of this package is in numba's on-disk cache."""
    from numba.core import config

    cache_dir = getattr(config, "CACHE_DIR", "")  # set when numba reads its environment, unknown to mypy
    root = Path(cache_dir) if cache_dir else Path(__file__).parent / "__pycache__"
    return not root.is_dir() or not any(root.rglob("kernels*.nbi"))


def prepare_search(
    board: Board | None = None, *, time_limit: float | None = None, engine: str = "numba", **options: object
) -> None:
    """:attr:`mjsat.methods.MethodInfo.prepare` of ``search``: :func:`warm_up` once per
    process and path, before the timed search, so that a time limit does not count loading
    or compiling the kernels (a cold cache takes tens of seconds). With ``board``, only the
    kernels of the path a search of it with ``options`` and ``time_limit`` takes (the
    batch path's one call, or the phase kernels, per game); without, every kernel."""
    if engine != "numba" or ("all",) in _PREPARED:
        return
    key: tuple[str, ...] = ("all",)
    if board is not None:
        one = board.kind == "sides" and _one_call_applies(board, time_limit, engine=engine, **options)
        key = (board.game, "one-call" if one else "phases", "bondt" if options.get("bondt") else "")
    if key in _PREPARED:
        return
    if _cache_is_cold():
        logging.getLogger(__name__).warning(
            "compiling the numba kernels once (about a minute; later runs load them from the cache)"
        )
    warm_up(board, time_limit, **options)
    _PREPARED.add(key)


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
    freeze_pair: bool | None = None,
    loose_pair: bool = False,
    joint: bool = False,
    guided: int | None = None,
    presearch: int = 0,
    pair_test: str | None = None,
    playout: str | None = None,
    engine: str = "numba",
) -> SolveResult:
    """Decide ``board`` with the pairing-set search (seeds 000, 001, 002).

    Parameters
    ----------
    board : Board
        A Mahjong, transposed Mahjong or Shisen-Sho board, solved from its full deal.
    time_limit : float or None
        Seconds before answering ``unknown``.
    seed : int
        Seed of the random attempts.
    node_limit : int or None
        Search nodes before answering ``unknown``.
    attempts : int or None
        Random playouts before the exhaustive search; default :func:`default_attempts`
        (de Bondt's choice), or :data:`FAST_PLAIN_SHARE` of it when the playouts are the
        cheap incremental ones (numba, Mahjong, with ``scan``: the guided
        ones then follow); 0 switches them off.
    freeze, loose, prior, scan, critical : bool
        The improvements, each switchable for measurement: the freeze and loose-tile
        cleaning rules, the prior analysis, the pruning scan, the critical-group probing
        (see :mod:`mjsat.search.pairing`).
    bondt : bool
        Search with de Bondt's "pairing one, then two" tree with backward adaptation
        ([dB12]_, section 3.2) instead of the critical-group probing; ``critical`` is then
        ignored (see :meth:`~mjsat.search.pairing.PythonSearch._search_bondt`).
    freeze_pair : bool or None
        The cleaning rule of [GF05]_ that looks one pair ahead in a group of four tiles
        left: the group goes at once when removing one of its pairs lets the other go
        (every game). Default: on for Shisen-Sho on the Mahjong grid, where it pays, off
        elsewhere, where it does not (:data:`FREEZE_PAIR_KINDS`).
    loose_pair : bool
        The other one: two free tiles go when their removal leaves a third one free and
        loose, which then waits for the fourth (Mahjong; ignored on Shisen-Sho). The
        soundness of both: :class:`~mjsat.search.pairing.PythonSearch`.
    joint : bool
        Without ``critical`` (and without ``bondt``): branch jointly on every group with
        a playable pair, over the product of their pairings ([GF05]_'s ternary
        enumeration), instead of on the first such group.
    guided : int or None
        Scan-guided random playouts after the plain ones (a random move is kept only when
        the pruning scan still clears the position after it); default with ``scan``:
        :func:`default_attempts` with the incremental kernels (numba, Mahjong), else
        :data:`GUIDED_ATTEMPTS`; without ``scan`` 0; 0 switches
        them off.
    presearch : int
        numba engine: nodes of the exhaustive search run before the random attempts; the
        search then resumes where it stopped, for twice as many nodes each time the
        attempts done double (after 1/8, 2/8, 4/8 of them), so that deals refuted in a few
        nodes skip most attempts. 0: all attempts first, as de Bondt does.
    pair_test : {None, "cells", "bits"}
        numba engine, Shisen-Sho: the pair test of the kernels
        (:data:`mjsat.search.config.PAIR_TESTS`): walking the cells, or de Bondt's row and
        column bitsets ([dB20]_, Theorems 3.2 and 3.3); ``None``: the game's entry of
        :data:`DEFAULT_PAIR_TEST`. A grid with a row or column longer than
        :data:`mjsat.search.kernels_bits.LINE_BITS` cells walks cells; ``stats`` names the
        test that ran as ``pair_test``.
    playout : {None, "uniform", "safe", "rows"}
        numba engine, Mahjong: how a random playout, plain or scan-guided, draws a pair when
        it is stuck (:data:`mjsat.search.config.PLAYOUTS`); ``None``:
        :data:`DEFAULT_PLAYOUT`. The Python engine and the other games draw uniformly.
    engine : {"numba", "python"}
        The compiled kernels or the pure-Python reference.

    Returns
    -------
    SolveResult
        ``solvable`` with the moves, ``unsolvable`` (exhaustive), or ``unknown``.
        ``stats`` holds ``nodes``, ``scans``, ``attempts`` and ``seconds_<phase>``.

    Raises
    ------
    UnknownEngineError
        ``engine`` is not one of :data:`ENGINES`.
    UnknownPairTestError
        ``pair_test`` is not one of :data:`mjsat.search.config.PAIR_TESTS`.

    Notes
    -----
    Exponential in the worst case (the problem is NP-complete): at most one tree level per
    group and ``(r-1)!!`` children for a group of ``r`` tiles. A node costs
    :math:`O(n + e)` for apply and scan in the numba engine on Mahjong (event-driven), and
    one scan per pairing of every unpaired group with ``critical``.

    On a Mahjong deal of at most :data:`ONE_CALL_MAX_TILES` tiles under a node limit of at
    most :data:`CHUNK_NODES` (the budget of the ``auto`` plan's search step), with the numba
    engine, the default rules of the batch path and no time limit or one of at least
    :data:`ONE_CALL_MIN_SECONDS`, every phase
    runs in one compiled call (:func:`_solve_one_call`, the kernel of the batch path): the
    same answer, moves and counts, without the Python between the phases; ``stats`` then
    has ``seconds_total`` alone of the times.
    """
    check_search_options(
        engine=engine,
        attempts=attempts,
        guided=guided,
        presearch=presearch,
        node_limit=node_limit,
        pair_test=pair_test,
        playout=playout,
    )
    if node_limit is not None and _one_call_applies(
        board, time_limit, engine=engine, node_limit=node_limit, bondt=bondt, presearch=presearch, joint=joint,
        loose_pair=loose_pair, freeze_pair=freeze_pair,
    ):  # fmt: skip
        rules = (bool(prior), bool(freeze), bool(loose), bool(scan), bool(critical))
        one = _solve_one_call(board, seed, int(node_limit), attempts, guided, rules, playout or DEFAULT_PLAYOUT)
        if one is not None:
            return one
    return SearchRun(
        board,
        seed=seed,
        node_limit=node_limit,
        attempts=attempts,
        freeze=freeze,
        loose=loose,
        prior=prior,
        scan=scan,
        critical=critical,
        bondt=bondt,
        freeze_pair=freeze_pair,
        loose_pair=loose_pair,
        joint=joint,
        guided=guided,
        presearch=presearch,
        engine=engine,
        pair_test=pair_test,
        playout=playout,
    ).advance(time_limit)


class _Clock:
    """The deadline of a :class:`SearchRun`'s current slice (``None``: no limit)."""

    __slots__ = ("deadline",)

    def __init__(self) -> None:
        self.deadline: float | None = None

    def expired(self) -> bool:
        return self.deadline is not None and clock.now() > self.deadline


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
    seed, node_limit, attempts, freeze, loose, prior, scan, critical, bondt, freeze_pair, loose_pair, joint, guided, presearch, engine, pair_test, playout
        As :func:`solve_search`.

    Raises
    ------
    UnknownEngineError, SearchOptionError
        As :func:`check_search_options`.

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

    def __init__(
        self,
        board: Board,
        *,
        seed: int = 0,
        node_limit: int | None = None,
        attempts: int | None = None,
        freeze: bool = True,
        loose: bool = True,
        prior: bool = True,
        scan: bool = True,
        critical: bool = True,
        bondt: bool = False,
        freeze_pair: bool | None = None,
        loose_pair: bool = False,
        joint: bool = False,
        guided: int | None = None,
        presearch: int = 0,
        engine: str = "numba",
        pair_test: str | None = None,
        playout: str | None = None,
    ) -> None:
        check_search_options(
            engine=engine,
            attempts=attempts,
            guided=guided,
            presearch=presearch,
            node_limit=node_limit,
            pair_test=pair_test,
            playout=playout,
        )
        self._playout = PLAYOUTS.index(playout or DEFAULT_PLAYOUT)
        self._pair_test = pair_test
        self._clock = _Clock()
        self._seconds = 0.0
        self._done: SolveResult | None = None
        self._steps = self._run(
            board,
            seed,
            node_limit,
            attempts,
            {
                "freeze": bool(freeze),
                "loose": bool(loose),
                "scan": bool(scan),
                "critical": bool(critical),
                "bondt": bool(bondt),
                "freeze_pair": freeze_pair,
                "loose_pair": bool(loose_pair),
                "joint": bool(joint),
            },
            prior,
            guided,
            presearch,
            engine,
        )

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
        self._clock.deadline = None if time_limit is None else clock.now() + float(time_limit)
        try:
            result = next(self._steps)
        except StopIteration as stop:
            result = stop.value
            self._done = result
        self._seconds += time.perf_counter() - t0
        result.stats["seconds_total"] = self._seconds
        return result

    def _run(
        self,
        board: Board,
        seed: int,
        node_limit: int | None,
        attempts: int | None,
        rules: dict[str, Any],
        prior: bool,
        guided: int | None,
        presearch: int,
        engine: str,
    ) -> Generator[SolveResult, None, SolveResult]:
        """The phases, yielding an ``unknown`` result whenever the clock runs out."""
        geo = geometry(board)
        stats: dict[str, Any] = {"engine": engine, "nodes": 0, "scans": 0, "attempts": 0, "guided": 0}
        t_prior = time.perf_counter()
        if prior:
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
        scan = rules["scan"]
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
        opts = dict(rules)
        if engine == "numba":
            opts["playout"] = self._playout
        if rules["freeze_pair"] is None:
            opts["freeze_pair"] = geo.kind in FREEZE_PAIR_KINDS
        if engine == "python":
            return (yield from _run_python(geo, opts, (n_attempts, n_guided), seed, node_limit, self._clock, stats))
        return (
            yield from _run_numba(
                geo,
                opts,
                (n_attempts, n_guided),
                seed,
                node_limit,
                self._clock,
                stats,
                presearch=int(presearch),
                pair_test=self._pair_test,
            )
        )


def _out_of_time(stats: dict[str, Any]) -> SolveResult:
    """The ``unknown`` a run yields when its slice is over (its stats so far, copied)."""
    return SolveResult(UNKNOWN, "search", stats=dict(stats), reason="time limit")


def _run_python(
    geo: Geometry,
    opts: dict[str, bool],
    plan: tuple[int, int],
    seed: int,
    node_limit: int | None,
    clock: _Clock,
    stats: dict[str, Any],
) -> Generator[SolveResult, None, SolveResult]:
    """Random attempts, then the search, in Python (see :class:`SearchRun`)."""
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    search = PythonSearch(geo, node_limit=node_limit, **opts)
    if any(plan) and opts["scan"]:  # [dB12] 3.3: a pruning scan before the attempts
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
    opts: dict[str, bool],
    plan: tuple[int, int],
    seed: int,
    node_limit: int | None,
    clock: _Clock,
    stats: dict[str, Any],
    presearch: int = 0,
    pair_test: str | None = None,
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
        words = WORDS_OF_PAIR_TEST[pair_test or DEFAULT_PAIR_TEST[geo.kind]](sh, geo.kind == SH3D)
        stats["pair_test"] = "bits" if words else "cells"
    pool = _SCRATCH
    scratch = pool.take(K, (n, ngroups, int(sh[2] * sh[3]), words))
    try:
        return (
            yield from _phases(
                K, geo, (kind, gr, mj, sh, pt), opts, plan, seed, node_limit, clock, stats, presearch, scratch
            )
        )
    finally:
        pool.give_back(scratch)


def _phases(
    K: Any,
    geo: Geometry,
    arrays: tuple[Any, ...],
    opts: dict[str, bool],
    plan: tuple[int, int],
    seed: int,
    node_limit: int | None,
    clock: _Clock,
    stats: dict[str, Any],
    presearch: int,
    scratch: _Scratch,
) -> Generator[SolveResult, None, SolveResult]:
    """The phases of :func:`_run_numba` on the arrays of ``scratch``."""
    kind, gr, mj, sh, pt = arrays
    n = geo.n
    ngroups = len(geo.members)
    ws = scratch.ws
    flags = _flags(K, tuple(opts.items()))
    moves = scratch.moves
    pres, partner = scratch.pres, scratch.partner
    t = time.perf_counter()
    rng = scratch.rng
    rng[0] = _playout_state(seed)
    presearch = presearch if not opts["bondt"] else 0
    opened = 0  # random attempts made by the opening kernel
    if any(plan) and opts["scan"]:  # [dB12] 3.3: a pruning scan before the attempts
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
    if opts["bondt"]:
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


def _solve_one_call(
    board: Board,
    seed: int,
    node_limit: int,
    attempts: int | None,
    guided: int | None,
    rules: tuple[bool, bool, bool, bool, bool],
    playout: str,
) -> SolveResult | None:
    """:func:`solve_search` on a Mahjong deal in one call of the batch path's kernel
    (:meth:`mjsat.search.batch.BatchSolver.run`, its solver kept by the layout per set of
    options); ``None`` when a group is too large for the kernels (the caller's run then
    says so).

    Parameters
    ----------
    board : Board
        A ``"sides"`` board, solved from its full deal.
    seed, node_limit, attempts, guided, playout
        As :func:`solve_search`.
    rules : tuple of bool
        ``(prior, freeze, loose, scan, critical)``.

    Notes
    -----
    As :func:`solve_search`; a deal's moves are replayed inside the call as well.
    """
    from mjsat.search import kernels_batch as KB
    from mjsat.search.batch import BatchSolver
    from mjsat.search.kernels import MAX_GROUP

    t = time.perf_counter()
    prior, freeze, loose, scan, critical = rules
    key = ("search", "one-call", board.game, node_limit, attempts, guided, rules, playout)
    solver = board.layout.memo(
        key,
        lambda: BatchSolver(
            board.layout, game=board.game, node_limit=node_limit, attempts=attempts, guided=guided, prior=prior,
            freeze=freeze, loose=loose, scan=scan, critical=critical, playout=playout,
        ),
    )  # fmt: skip
    deal = np.array(board.groups, dtype=np.int64).reshape(1, -1)
    out = solver.run(deal, np.array([_playout_state(seed)], dtype=np.uint64))
    code, phase, info = int(out.status[0]), int(out.phase[0]), out.info[0]
    if code == KB.BAD_DEAL or (code == KB.UNDECIDED and info[KB.INFO_BIGGEST] > MAX_GROUP):
        return None
    stats: dict[str, Any] = {
        "engine": "numba", "nodes": int(out.nodes[0]), "scans": int(info[KB.INFO_SCANS]),
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


@functools.lru_cache(maxsize=64)
def _flags(K: Any, opts: tuple[tuple[str, bool], ...]) -> np.ndarray:
    """The kernels' rule array of the options ``opts`` (``bondt`` is not a rule; built
    once per set of options, the kernels only read it)."""
    return K.rules(**{key: value for key, value in opts if key != "bondt"})


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
