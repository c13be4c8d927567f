"""The table checks of :mod:`mjsat.replay`, compiled with numba.

The same two checks as :func:`mjsat.replay._clears_sides` and
:func:`mjsat.replay._clears_grid` (their pure-Python twins, which the tests compare with
these on right and wrong move lists), for a process that checks many solutions: the
turtle's 72 moves cost about 2 us here against some 30 in numpy, besides the move list's
conversion to an array, which both pay.
:func:`mjsat.replay.check_solution` calls them once numba is loaded and the process has
checked :data:`mjsat.replay.COMPILED_AFTER` solutions. They share no code with the search:
the replay stays the one independent judge.

Arguments:

====================  ==================================================================
name                  what
====================  ==================================================================
``groups``            ``int64[n]``: the group of every tile
``moves``             ``int64[m, 2]``: the moves (any numbers: a tile outside ``0..n-1``
                      fails)
``csr``               the twelve ``int32`` arrays of :attr:`mjsat.layout.SideTables.csr`:
                      CSR ``(ptr, idx)`` of ``above``, the two sides and their reverses
``cy``, ``cx``        ``int32[n]``: each tile's cell on the grid with its margin
                      (:attr:`mjsat.board.GridTables.cell_arrays`)
``rows``, ``cols``    ``int64[h]``, ``int64[w]``: the occupancy of the full deal as bit
                      masks (:attr:`mjsat.board.GridTables.masks`; grids of at most 62
                      cells a side)
====================  ==================================================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.search.config import JIT_FLAGS

__all__ = ["MAX_MASK_CELLS"]

MAX_MASK_CELLS = 62
"""The widest and tallest grid (margin included) whose masks fit the ``int64`` of :func:`_clears_grid`."""


@njit(**JIT_FLAGS)
def _clears_sides(groups, moves, csr):
    """Whether ``moves`` clear a ``"sides"`` board: each move names two present tiles of one
    group, each with no present tile above it and no present tile on one of its sides
    (counters of the present tiles above and on each side, lowered per removal through the
    reverse relations), and every tile goes."""
    n = groups.shape[0]
    m = moves.shape[0]
    if 2 * m != n:
        return False
    aptr, optr, tptr = csr[0], csr[2], csr[4]
    cptr, cidx, o_ptr, o_idx, t_ptr, t_idx = csr[6], csr[7], csr[8], csr[9], csr[10], csr[11]
    present = np.ones(n, dtype=np.uint8)
    cnt = np.empty(3 * n, dtype=np.int64)
    for t in range(n):
        cnt[t] = aptr[t + 1] - aptr[t]
        cnt[n + t] = optr[t + 1] - optr[t]
        cnt[2 * n + t] = tptr[t + 1] - tptr[t]
    for i in range(m):
        a = moves[i, 0]
        b = moves[i, 1]
        if a < 0 or b < 0 or a >= n or b >= n or a == b or not present[a] or not present[b]:
            return False
        if groups[a] != groups[b]:
            return False
        if cnt[a] or cnt[b] or (cnt[n + a] and cnt[2 * n + a]) or (cnt[n + b] and cnt[2 * n + b]):
            return False
        present[a] = 0
        present[b] = 0
        for x in (a, b):
            for k in range(cptr[x], cptr[x + 1]):
                cnt[cidx[k]] -= 1
            for k in range(o_ptr[x], o_ptr[x + 1]):
                cnt[n + o_idx[k]] -= 1
            for k in range(t_ptr[x], t_ptr[x + 1]):
                cnt[2 * n + t_idx[k]] -= 1
    return True


@njit(**JIT_FLAGS)
def _clear_run(mask, p, size):
    """The run ``lo..hi`` of clear bits of ``mask`` (bits ``0..size-1``) around its clear bit ``p``."""
    lo = p
    while lo > 0 and not (mask >> (lo - 1)) & 1:
        lo -= 1
    hi = p
    while hi < size - 1 and not (mask >> (hi + 1)) & 1:
        hi += 1
    return lo, hi


@njit(**JIT_FLAGS)
def _clears_grid(groups, moves, cy, cx, rows, cols):
    """Whether ``moves`` clear a ``"grid-path"`` board: each move names two present tiles of
    one group joined by a path of at most three segments through empty cells (the test of
    :func:`mjsat.shisen.connectable_masks`), and every tile goes."""
    n = groups.shape[0]
    m = moves.shape[0]
    if 2 * m != n:
        return False
    h = rows.shape[0]
    w = cols.shape[0]
    rows = rows.copy()
    cols = cols.copy()
    present = np.ones(n, dtype=np.uint8)
    one = np.int64(1)
    for i in range(m):
        a = moves[i, 0]
        b = moves[i, 1]
        if a < 0 or b < 0 or a >= n or b >= n or a == b or not present[a] or not present[b]:
            return False
        if groups[a] != groups[b]:
            return False
        ya, xa, yb, xb = np.int64(cy[a]), np.int64(cx[a]), np.int64(cy[b]), np.int64(cx[b])
        rows[ya] &= ~(one << xa)
        rows[yb] &= ~(one << xb)
        cols[xa] &= ~(one << ya)
        cols[xb] &= ~(one << yb)
        present[a] = 0
        present[b] = 0
        if ya == yb and xa == xb:
            return False
        joined = False
        ua, da = _clear_run(cols[xa], ya, h)
        ub, db = _clear_run(cols[xb], yb, h)
        x0, x1 = (xa, xb) if xa <= xb else (xb, xa)
        span = ((one << (x1 - x0 + 1)) - 1) << x0
        for y in range(max(ua, ub), min(da, db) + 1):  # middle segment on row y
            if not rows[y] & span:
                joined = True
                break
        if not joined:
            la, ra = _clear_run(rows[ya], xa, w)
            lb, rb = _clear_run(rows[yb], xb, w)
            y0, y1 = (ya, yb) if ya <= yb else (yb, ya)
            span = ((one << (y1 - y0 + 1)) - 1) << y0
            for x in range(max(la, lb), min(ra, rb) + 1):  # middle segment on column x
                if not cols[x] & span:
                    joined = True
                    break
        if not joined:
            return False
    return True
