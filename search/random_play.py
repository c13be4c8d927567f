"""Uniform random playouts, compiled: how often random play clears a deal.

A playout plays uniformly random legal moves from the full deal until the board is clear
or no legal move is left. :func:`random_playouts` runs up to ``playouts`` of them in a
numba kernel and stops early once the count of clears settles a question asked of it:
``stop_clears`` clears reached, or ``stop_fails`` playouts that did not clear. This is
the measure of :mod:`mjsat.game.difficulty`: a ``normal`` deal needs enough clears, a
``hard`` one few, so a candidate is decided as soon as either is certain.

The random numbers are those of a splitmix64 stream seeded from ``seed`` (one 64-bit
word drawn with :func:`numpy.random.default_rng`), so the kernel and its pure-Python
reference :func:`random_playouts_reference` draw the same numbers and play the same
moves: the tests compare them move for move. At each step the legal moves are listed
group by group (groups in increasing order, the pairs of a group's members in tile
order) and one is drawn uniformly.

Kernels per rule:

* Mahjong and transposed Mahjong (``kind`` ``"sides"``): freeness read from the rule's
  CSR tables (:meth:`mjsat.board.MahjongBoard.rule_tables`: above, and the two sides),
  spelled out in the loop;
* Shisen-Sho (``"grid-path"``): the path test of the search's kernels
  (:func:`mjsat.search.kernels_shisen._connect`) on a flat occupancy grid with its margin.

Other rules (Shisen-Sho on a Mahjong layout) raise
:class:`~mjsat.result.MethodNotApplicableError`; :func:`mjsat.game.difficulty.playout_share`
plays those in Python.

>>> from mjsat.deals import deal_random
>>> from mjsat.layouts import load_layout
>>> board = deal_random(load_layout("pyramid"), seed=3)
>>> random_playouts(board, playouts=50, seed=1) == random_playouts_reference(board, playouts=50, seed=1)
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.board import Board
from mjsat.result import MethodNotApplicableError
from mjsat.search.config import JIT_FLAGS
from mjsat.search.kernels_shisen import _connect

__all__ = ["random_playouts", "random_playouts_reference", "playout_seed"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def playout_seed(seed: int) -> int:
    """The 64-bit state the playouts of ``seed`` start from."""
    return int(np.random.default_rng(seed).integers(0, 2**63, dtype=np.int64))


# --------------------------------------------------------------------------- kernels


@njit(**JIT_FLAGS)
def _next(state):
    """splitmix64: the next state (``state[0]``) and its mixed output, both uint64."""
    state[0] = state[0] + np.uint64(_GOLDEN)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    return z ^ (z >> np.uint64(31))


@njit(**JIT_FLAGS)
def _draw(state, k):
    """A uniform-enough integer in ``0 .. k - 1`` (``k`` > 0) from the stream."""
    return np.int64((_next(state) >> np.uint64(1)) % np.uint64(k))


@njit(**JIT_FLAGS)
def _mahjong_playouts(
    gptr, gidx, ab_ptr, ab_idx, one_ptr, one_idx, two_ptr, two_idx, playouts, state, stop_clears, stop_fails, pairs
):
    """Random playouts of a Mahjong deal; ``(cleared, played)``.

    Parameters
    ----------
    gptr, gidx : int32[g + 1], int32[n]
        The members of each group (CSR, tiles in increasing order).
    ab_ptr, ab_idx, one_ptr, one_idx, two_ptr, two_idx : int32 arrays
        The tiles above each tile and on each of its two sides (CSR).
    playouts : int
        Playouts at most.
    state : uint64[1]
        The splitmix64 state (advanced).
    stop_clears, stop_fails : int
        Stop once this many playouts cleared the board, or this many did not.
    pairs : int32[m, 2]
        Scratch for the legal moves (``m`` at least the pairs within groups).
    """
    n = gidx.shape[0]
    g = gptr.shape[0] - 1
    present = np.empty(n, np.uint8)
    free = np.empty(n, np.uint8)
    cleared = 0
    played = 0
    while played < playouts:
        present[:] = 1
        left = n
        while left > 0:
            for t in range(n):
                f = present[t]
                if f:
                    for k in range(ab_ptr[t], ab_ptr[t + 1]):
                        if present[ab_idx[k]]:
                            f = 0
                            break
                if f:
                    side = 1
                    for k in range(one_ptr[t], one_ptr[t + 1]):
                        if present[one_idx[k]]:
                            side = 0
                            break
                    if side == 0:
                        side = 1
                        for k in range(two_ptr[t], two_ptr[t + 1]):
                            if present[two_idx[k]]:
                                side = 0
                                break
                    f = side
                free[t] = f
            m = 0
            for q in range(g):
                for i in range(gptr[q], gptr[q + 1]):
                    a = gidx[i]
                    if free[a]:
                        for j in range(i + 1, gptr[q + 1]):
                            b = gidx[j]
                            if free[b]:
                                pairs[m, 0] = a
                                pairs[m, 1] = b
                                m += 1
            if m == 0:
                break
            r = _draw(state, m)
            present[pairs[r, 0]] = 0
            present[pairs[r, 1]] = 0
            left -= 2
        played += 1
        if left == 0:
            cleared += 1
            if cleared >= stop_clears:
                break
        elif played - cleared >= stop_fails:
            break
    return cleared, played


@njit(**JIT_FLAGS)
def _shisen_playouts(gptr, gidx, cy, cx, h, w, playouts, state, stop_clears, stop_fails, pairs):
    """Random playouts of a Shisen-Sho deal; ``(cleared, played)``.

    Parameters
    ----------
    gptr, gidx : int32[g + 1], int32[n]
        The members of each group (CSR, tiles in increasing order).
    cy, cx : int32[n]
        Each tile's cell in the occupancy grid with its margin.
    h, w : int
        The grid's shape (margin included).
    playouts, state, stop_clears, stop_fails, pairs
        As in :func:`_mahjong_playouts`.
    """
    n = gidx.shape[0]
    g = gptr.shape[0] - 1
    present = np.empty(n, np.uint8)
    grid = np.zeros(h * w, np.uint8)
    cleared = 0
    played = 0
    while played < playouts:
        present[:] = 1
        for t in range(n):
            grid[cy[t] * w + cx[t]] = 1
        left = n
        while left > 0:
            m = 0
            for q in range(g):
                for i in range(gptr[q], gptr[q + 1]):
                    a = gidx[i]
                    if present[a]:
                        for j in range(i + 1, gptr[q + 1]):
                            b = gidx[j]
                            if present[b] and _connect(grid, h, w, cy[a], cx[a], cy[b], cx[b]):
                                pairs[m, 0] = a
                                pairs[m, 1] = b
                                m += 1
            if m == 0:
                break
            r = _draw(state, m)
            a = pairs[r, 0]
            b = pairs[r, 1]
            present[a] = 0
            present[b] = 0
            grid[cy[a] * w + cx[a]] = 0
            grid[cy[b] * w + cx[b]] = 0
            left -= 2
        for t in range(n):
            grid[cy[t] * w + cx[t]] = 0
        played += 1
        if left == 0:
            cleared += 1
            if cleared >= stop_clears:
                break
        elif played - cleared >= stop_fails:
            break
    return cleared, played


# --------------------------------------------------------------------------- wrapper


def _members(board: Board) -> tuple[np.ndarray, np.ndarray]:
    groups = np.asarray(board.groups, dtype=np.int64)
    _, inverse = np.unique(groups, return_inverse=True)
    order = np.lexsort((np.arange(len(groups)), inverse))
    counts = np.bincount(inverse)
    gptr = np.zeros(len(counts) + 1, dtype=np.int32)
    np.cumsum(counts, out=gptr[1:])
    return gptr, order.astype(np.int32)


def _check(board: Board, playouts: int, stop_clears: int | None, stop_fails: int | None) -> tuple[int, int]:
    if isinstance(playouts, bool) or not isinstance(playouts, (int, np.integer)) or playouts < 0:
        raise ValueError(f"playouts must be a whole number, 0 or more, got {playouts!r}")
    if board.move_stack:
        raise ValueError("random playouts start from the full deal: the board has moves pushed")
    clears = playouts + 1 if stop_clears is None else int(stop_clears)
    fails = playouts + 1 if stop_fails is None else int(stop_fails)
    if clears < 1 or fails < 1:
        raise ValueError("stop_clears and stop_fails must be 1 or more")
    return clears, fails


def random_playouts(
    board: Board, *, playouts: int, seed: int, stop_clears: int | None = None, stop_fails: int | None = None
) -> tuple[int, int]:
    """Play up to ``playouts`` uniform random playouts of ``board``'s deal; ``(cleared, played)``.

    Stops after the playout that makes ``stop_clears`` clears or ``stop_fails`` playouts
    that did not clear (``None``: never).

    Raises
    ------
    MethodNotApplicableError
        A rule without a compiled kernel (Shisen-Sho on a Mahjong layout).
    ValueError
        A negative count, or a board with moves pushed.
    """
    clears, fails = _check(board, playouts, stop_clears, stop_fails)
    gptr, gidx = _members(board)
    sizes = np.diff(gptr).astype(np.int64)
    pairs = np.empty((max(1, int((sizes * (sizes - 1) // 2).sum())), 2), dtype=np.int32)
    state = np.array([playout_seed(seed)], dtype=np.uint64)
    if board.kind == "sides":
        c = board.rule_tables().csr
        out = _mahjong_playouts(gptr, gidx, c[0], c[1], c[2], c[3], c[4], c[5], playouts, state, clears, fails, pairs)
    elif board.kind == "grid-path":
        tables = board.rule_tables()
        cy, cx = tables.cell_arrays
        h, w = tables.shape
        out = _shisen_playouts(gptr, gidx, cy, cx, h, w, playouts, state, clears, fails, pairs)
    else:
        raise MethodNotApplicableError("random_playouts", board.game, "no compiled playouts for this rule")
    return int(out[0]), int(out[1])


def random_playouts_reference(
    board: Board, *, playouts: int, seed: int, stop_clears: int | None = None, stop_fails: int | None = None
) -> tuple[int, int]:
    """:func:`random_playouts` in pure Python on the board's own rules (:meth:`Board.is_legal`):
    the same random numbers, the same legal moves in the same order, the same answer."""
    clears, fails = _check(board, playouts, stop_clears, stop_fails)
    gptr, gidx = _members(board)
    members = [[int(t) for t in gidx[gptr[q] : gptr[q + 1]]] for q in range(len(gptr) - 1)]
    state = playout_seed(seed)
    cleared = played = 0
    while played < playouts:
        b = board.copy(stack=False)
        while b.remaining():
            moves = [
                (a, c)
                for group in members
                for i, a in enumerate(group)
                for c in group[i + 1 :]
                if b.presence[a] and b.presence[c] and b.is_legal((a, c))
            ]
            if not moves:
                break
            state = (state + _GOLDEN) & _MASK
            z = state
            z = ((z ^ (z >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            z ^= z >> 31
            b.push(moves[(z >> 1) % len(moves)])
        played += 1
        if b.is_solved():
            cleared += 1
            if cleared >= clears:
                break
        elif played - cleared >= fails:
            break
    return cleared, played
