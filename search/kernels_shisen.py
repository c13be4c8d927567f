"""numba kernels of the pairing-set search for rectangular Shisen-Sho ([dB20]_).

Apply and scan round over the groups until nothing changes, with the path test of
:func:`mjsat.shisen.connectable` on a flat occupancy grid with its margin (a
:class:`~mjsat.search.config.GridTables`: each tile's cell and the grid's shape). The
pure-Python references are :func:`mjsat.shisen.connectable` and
:class:`~mjsat.search.pairing.PythonSearch`; :mod:`mjsat.search.kernels` dispatches to
these kernels for the kinds :data:`~mjsat.search.pairing.SHISEN` and
:data:`~mjsat.search.pairing.SH3D`, and the tests compare them.

The kernels' arguments are named as in the table of :mod:`mjsat.search.config`.

References
----------
.. [dB20] M. de Bondt, "Solving Shisen-Sho boards", arXiv:2010.09014, 2020.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from mjsat.search.config import INLINE_FLAGS, JIT_FLAGS
from mjsat.search.kernels_sh3d import _s3_grid, _s3_ok, _s3_take

__all__ = ["connect"]

# --------------------------------------------------------------------------- Shisen-Sho


@njit(**JIT_FLAGS)
def _connect(grid, h, w, ya, xa, yb, xb):
    """The path test of :func:`mjsat.shisen.connectable` on a flat grid with its margin.

    Parameters
    ----------
    grid : numpy.ndarray
        ``uint8[h * w]``, the occupancy grid row by row (1: a tile). The two end cells are
        emptied for the test and put back afterwards.
    h, w : int
        The grid's shape.
    ya, xa, yb, xb : int
        The two cells.

    Returns
    -------
    bool
        True iff a path of at most three segments through empty cells joins them.

    Notes
    -----
    :math:`O((h + w)^2)`.
    """
    if ya == yb and xa == xb:
        return False
    sa = grid[ya * w + xa]
    sb = grid[yb * w + xb]
    grid[ya * w + xa] = 0
    grid[yb * w + xb] = 0
    a0 = xa
    while a0 > 0 and grid[ya * w + a0 - 1] == 0:
        a0 -= 1
    a1 = xa
    while a1 < w - 1 and grid[ya * w + a1 + 1] == 0:
        a1 += 1
    b0 = xb
    while b0 > 0 and grid[yb * w + b0 - 1] == 0:
        b0 -= 1
    b1 = xb
    while b1 < w - 1 and grid[yb * w + b1 + 1] == 0:
        b1 += 1
    r0 = ya
    while r0 > 0 and grid[(r0 - 1) * w + xa] == 0:
        r0 -= 1
    r1 = ya
    while r1 < h - 1 and grid[(r1 + 1) * w + xa] == 0:
        r1 += 1
    s0 = yb
    while s0 > 0 and grid[(s0 - 1) * w + xb] == 0:
        s0 -= 1
    s1 = yb
    while s1 < h - 1 and grid[(s1 + 1) * w + xb] == 0:
        s1 += 1
    found = False
    lo, hi = min(xa, xb), max(xa, xb)
    for y in range(max(r0, s0), min(r1, s1) + 1):
        ok = True
        for x in range(lo, hi + 1):
            if grid[y * w + x] != 0:
                ok = False
                break
        if ok:
            found = True
            break
    if not found:
        lo, hi = min(ya, yb), max(ya, yb)
        for x in range(max(a0, b0), min(a1, b1) + 1):
            ok = True
            for y in range(lo, hi + 1):
                if grid[y * w + x] != 0:
                    ok = False
                    break
            if ok:
                found = True
                break
    grid[ya * w + xa] = sa
    grid[yb * w + xb] = sb
    return found


# The apply and the scan below serve both games: ``d3`` picks the rectangular grid's cell
# of a tile or the Mahjong grid's four half-tile cells (:mod:`mjsat.search.kernels_sh3d`).
# ``cells`` is the board's GridTables, ``ws`` the Workspace (mjsat.search.config).


@njit(**INLINE_FLAGS)
def _sh_grid(d3, pres, cells, grid):
    """Fill the ``uint8`` occupancy ``grid`` from position ``pres``."""
    if d3:
        _s3_grid(pres, cells, grid)
        return
    grid[:] = 0
    for t in range(pres.shape[0]):
        if pres[t]:
            grid[cells.row[t] * cells.width + cells.col[t]] = 1


@njit(**INLINE_FLAGS)
def _sh_ok(d3, a, b, cells, grid):
    """Can tiles ``a`` and ``b`` pair on the occupancy ``grid``?"""
    if d3:
        return _s3_ok(a, b, cells, grid)
    return _connect(grid, cells.height, cells.width, cells.row[a], cells.col[a], cells.row[b], cells.col[b])


@njit(**INLINE_FLAGS)
def _sh_take(d3, t, pres, cells, grid):
    """Take tile ``t`` off the position and the grid."""
    if d3:
        _s3_take(t, pres, cells, grid)
    else:
        pres[t] = 0
        grid[cells.row[t] * cells.width + cells.col[t]] = 0


@njit(**JIT_FLAGS)
def _sh_apply(d3, groups, cells, pres, partner, moves, mptr, rules, ws):
    """Apply the pairing set and the freeze rule to ``pres``, in place, round after round.

    Parameters
    ----------
    d3 : bool
        Shisen-Sho on the Mahjong grid.
    groups : Groups
    cells : GridTables
    pres, partner : numpy.ndarray
        ``uint8[n]`` position and ``int32[n]`` pairing set (a group left with two tiles
        gets paired).
    moves : numpy.ndarray
        ``int32[n // 2 + 1, 2]``, the moves are recorded from row ``mptr`` on.
    mptr : int
    rules : Rules
    ws : Workspace
        ``grid`` holds the occupancy of ``pres`` afterwards (for :func:`_sh_ok`).

    Returns
    -------
    int
        The new ``mptr``.
    """
    gptr, gidx = groups.start, groups.tiles
    grid = ws.grid
    _sh_grid(d3, pres, cells, grid)
    changed = True
    while changed:
        changed = False
        for g in range(gptr.shape[0] - 1):
            live = 0
            first = -1
            for k in range(gptr[g], gptr[g + 1]):
                if pres[gidx[k]]:
                    live += 1
                    if first < 0:
                        first = gidx[k]
            if live == 0:
                continue
            if partner[first] >= 0:
                for k in range(gptr[g], gptr[g + 1]):
                    t = gidx[k]
                    p = partner[t]
                    if t < p and pres[t] and pres[p] and _sh_ok(d3, t, p, cells, grid):
                        _sh_take(d3, t, pres, cells, grid)
                        _sh_take(d3, p, pres, cells, grid)
                        moves[mptr, 0] = t
                        moves[mptr, 1] = p
                        mptr += 1
                        changed = True
                continue
            if live == 2:
                for k in range(gptr[g], gptr[g + 1]):
                    t = gidx[k]
                    if pres[t] and t != first:
                        partner[first] = t
                        partner[t] = first
                changed = True
                continue
            if rules.freeze:
                frozen = True
                for k in range(gptr[g], gptr[g + 1]):
                    a = gidx[k]
                    if not pres[a]:
                        continue
                    for j in range(k + 1, gptr[g + 1]):
                        b = gidx[j]
                        if pres[b] and not _sh_ok(d3, a, b, cells, grid):
                            frozen = False
                            break
                    if not frozen:
                        break
                if frozen:
                    first = -1
                    for k in range(gptr[g], gptr[g + 1]):
                        t = gidx[k]
                        if pres[t]:
                            if first < 0:
                                first = t
                            else:
                                _sh_take(d3, first, pres, cells, grid)
                                _sh_take(d3, t, pres, cells, grid)
                                moves[mptr, 0] = first
                                moves[mptr, 1] = t
                                mptr += 1
                                first = -1
                    changed = True
    return mptr


@njit(**JIT_FLAGS)
def _sh_scan(d3, groups, cells, pres, partner, ws):
    """The pruning scan of ``pres``: True iff the relaxed game clears it.

    A group with a pairing plays by it; a group without one plays its first connectable
    pair, then each tile as soon as it connects to a tile of its group present at the start.

    Parameters
    ----------
    d3 : bool
        Shisen-Sho on the Mahjong grid.
    groups : Groups
    cells : GridTables
    pres, partner : numpy.ndarray
        ``uint8[n]`` position and ``int32[n]`` pairing set (read only).
    ws : Workspace
        ``scan_present``, ``scan_queued`` (the tiles present at the start), ``opened`` and
        ``scan_grid`` are used.
    """
    ps, start, opened, grid = ws.scan_present, ws.scan_queued, ws.opened, ws.scan_grid
    gptr, gidx = groups.start, groups.tiles
    left = 0
    for t in range(pres.shape[0]):
        ps[t] = pres[t]
        start[t] = pres[t]
        left += pres[t]
    opened[:] = 0
    _sh_grid(d3, ps, cells, grid)
    changed = True
    while changed and left > 0:
        changed = False
        for g in range(gptr.shape[0] - 1):
            first = -1
            for k in range(gptr[g], gptr[g + 1]):
                if ps[gidx[k]]:
                    first = gidx[k]
                    break
            if first < 0:
                continue
            if partner[first] >= 0:
                for k in range(gptr[g], gptr[g + 1]):
                    t = gidx[k]
                    p = partner[t]
                    if t < p and ps[t] and ps[p] and _sh_ok(d3, t, p, cells, grid):
                        _sh_take(d3, t, ps, cells, grid)
                        _sh_take(d3, p, ps, cells, grid)
                        left -= 2
                        changed = True
                continue
            if not opened[g]:
                for k in range(gptr[g], gptr[g + 1]):
                    a = gidx[k]
                    if not ps[a] or opened[g]:
                        continue
                    for j in range(k + 1, gptr[g + 1]):
                        b = gidx[j]
                        if ps[b] and _sh_ok(d3, a, b, cells, grid):
                            _sh_take(d3, a, ps, cells, grid)
                            _sh_take(d3, b, ps, cells, grid)
                            left -= 2
                            opened[g] = 1
                            changed = True
                            break
            if opened[g]:
                for k in range(gptr[g], gptr[g + 1]):
                    t = gidx[k]
                    if not ps[t]:
                        continue
                    for j in range(gptr[g], gptr[g + 1]):
                        u = gidx[j]
                        if u != t and start[u] and _sh_ok(d3, t, u, cells, grid):
                            _sh_take(d3, t, ps, cells, grid)
                            left -= 1
                            changed = True
                            break
    return left == 0


def connect(grid: Any, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """The path test of :func:`mjsat.shisen.connectable` in the kernel (:func:`_connect`).

    Parameters
    ----------
    grid : numpy.ndarray
        ``uint8[h, w]``, the occupancy grid with its margin (1: a tile), C-contiguous.
    a, b : (int, int)
        The two cells ``(row, column)``.

    Raises
    ------
    ValueError
        ``grid`` is not a C-contiguous 2-D ``uint8`` array, or a cell lies outside it.
    """
    if not isinstance(grid, np.ndarray) or grid.dtype != np.uint8 or grid.ndim != 2 or not grid.flags.c_contiguous:
        raise ValueError("grid must be a C-contiguous 2-D uint8 array")
    h, w = grid.shape
    for y, x in (a, b):
        if not (0 <= y < h and 0 <= x < w):
            raise ValueError(f"cell {(y, x)} lies outside the {h} x {w} grid")
    return bool(_connect(grid.reshape(-1), h, w, a[0], a[1], b[0], b[1]))
