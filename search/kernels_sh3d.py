"""numba kernels of the pairing-set search for Shisen-Sho on the Mahjong grid ([dB20]_, 4.1).

The game is :class:`mjsat.board.ShisenShoMahjongBoard` (kind :data:`~mjsat.search.pairing.SH3D`
of :mod:`mjsat.search.pairing`); the pure-Python references are
:func:`mjsat.shisen.connectable3d` for the pair test and
:class:`~mjsat.search.pairing.PythonSearch` for apply and scan, and the tests compare them.
:mod:`mjsat.search.kernels_shisen` runs the rectangular game's apply and scan with this
module's grid, take and pair test (:func:`_s3_grid`, :func:`_s3_take`, :func:`_s3_ok`) on
that kind.

The geometry travels in the same :class:`~mjsat.search.config.GridTables` as the
rectangular game's (two ``int32`` arrays, two ``int64``), so that the search kernels are
compiled once for both games:

* the levels of the half-tile occupancy grid (margin included) are stacked: row ``r`` of
  level ``l`` is row ``l * h1 + r`` of one ``(levels * h1, w)`` grid, kept flat in the
  kernels' ``uint8`` grid workspace;
* ``row[t]`` is the stacked row of tile ``t``'s top-left cell, ``col[t]`` its column, and
  one more entry ``row[n]`` holds ``h1``, the height of a level;
* ``height = levels * h1`` and ``width`` is ``w``.

A tile covers four cells. Apply and scan round over the groups until nothing changes, as
for the rectangular game; a pair test costs :math:`O(\\text{levels})` for the two pillars
and :math:`O((h_1 + w)^2)` at worst for the lines.

The kernels' arguments are named as in the table of :mod:`mjsat.search.config`.

References
----------
.. [dB20] M. de Bondt, "Solving Shisen-Sho boards", arXiv:2010.09014, 2020.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from mjsat.search.config import INLINE_FLAGS, JIT_FLAGS, GridTables
from mjsat.search.pairing import SH3D, Geometry

__all__ = ["sh3d_grid", "connect3d"]


def sh3d_grid(geo: Geometry) -> GridTables:
    """The :class:`~mjsat.search.config.GridTables` of a :data:`~mjsat.search.pairing.SH3D`
    geometry (see the module docstring).

    Raises
    ------
    ValueError
        ``geo`` is of another kind.
    """
    if geo.kind != SH3D:
        raise ValueError(f"not a Shisen-Sho geometry on the Mahjong grid (kind {geo.kind})")
    levels, h1, w = geo.shape
    row = np.array([l * h1 + r for r, _, l in geo.cells] + [h1], dtype=np.int32)
    col = np.array([c for _, c, _ in geo.cells], dtype=np.int32)
    return GridTables(row, col, np.int64(levels * h1), np.int64(w))


@njit(**JIT_FLAGS)
def _s3_lines(g, off, h1, w, ra, ca, rb, cb, same):
    """Is there a path of lines from tile a's cells to tile b's on one level?

    Parameters
    ----------
    g : numpy.ndarray
        ``uint8``, the flat stacked grid; the two tiles' own cells are already empty.
    off : int
        Where the level starts in ``g``.
    h1, w : int
        The height and width of a level.
    ra, ca, rb, cb : int
        The level-local top-left cells of the two tiles.
    same : bool
        Both tiles on this level: at most three lines. Otherwise tile a is the lower tile,
        its column of cells on this level (the pillar, the third line) is where the path
        starts, and at most two lines run from there.

    Returns
    -------
    bool
    """
    for i in range(2):  # middle line horizontal, on row y
        xa = ca + i
        a0 = ra
        a1 = ra + 1
        if same:
            while a0 > 0 and g[off + (a0 - 1) * w + xa] == 0:
                a0 -= 1
            while a1 < h1 - 1 and g[off + (a1 + 1) * w + xa] == 0:
                a1 += 1
        for j in range(2):
            xb = cb + j
            b0 = rb
            while b0 > 0 and g[off + (b0 - 1) * w + xb] == 0:
                b0 -= 1
            b1 = rb + 1
            while b1 < h1 - 1 and g[off + (b1 + 1) * w + xb] == 0:
                b1 += 1
            lo = min(xa, xb)
            hi = max(xa, xb)
            for y in range(max(a0, b0), min(a1, b1) + 1):
                base = off + y * w
                ok = True
                for x in range(lo, hi + 1):
                    if g[base + x] != 0:
                        ok = False
                        break
                if ok:
                    return True
    for i in range(2):  # middle line vertical, on column x
        ya = ra + i
        a0 = ca
        a1 = ca + 1
        if same:
            while a0 > 0 and g[off + ya * w + a0 - 1] == 0:
                a0 -= 1
            while a1 < w - 1 and g[off + ya * w + a1 + 1] == 0:
                a1 += 1
        for j in range(2):
            yb = rb + j
            b0 = cb
            while b0 > 0 and g[off + yb * w + b0 - 1] == 0:
                b0 -= 1
            b1 = cb + 1
            while b1 < w - 1 and g[off + yb * w + b1 + 1] == 0:
                b1 += 1
            lo = min(ya, yb)
            hi = max(ya, yb)
            for x in range(max(a0, b0), min(a1, b1) + 1):
                ok = True
                for y in range(lo, hi + 1):
                    if g[off + y * w + x] != 0:
                        ok = False
                        break
                if ok:
                    return True
    return False


@njit(**JIT_FLAGS)
def _s3_connect(grid, levels, h1, w, ra, ca, la, rb, cb, lb):
    """:func:`mjsat.shisen.connectable3d` on the flat stacked grid: can the tiles with
    top-left cells ``(ra, ca)`` on level ``la`` and ``(rb, cb)`` on ``lb`` pair now?

    Parameters
    ----------
    grid : numpy.ndarray
        ``uint8[levels * h1 * w]``, the stacked occupancy grid (1: a tile's cell). The two
        tiles' cells are emptied for the test and put back afterwards.
    levels, h1, w : int
        Levels, and the height and width of a level, margin included.
    ra, ca, la, rb, cb, lb : int
        Level-local row and column (margin included) and level of each tile's top-left cell.

    Returns
    -------
    bool

    Notes
    -----
    :math:`O(\text{levels})` for the two pillars, :math:`O((h_1 + w)^2)` at worst for the lines.
    """
    if la > lb:
        ra, ca, la, rb, cb, lb = rb, cb, lb, ra, ca, la
    if abs(ra - rb) < 2 and abs(ca - cb) < 2:
        return False  # the same tile, or the higher one lies on the lower one
    for k in range(la + 1, levels):
        i = (k * h1 + ra) * w + ca
        if grid[i] != 0 or grid[i + 1] != 0 or grid[i + w] != 0 or grid[i + w + 1] != 0:
            return False
    for k in range(lb + 1, levels):
        i = (k * h1 + rb) * w + cb
        if grid[i] != 0 or grid[i + 1] != 0 or grid[i + w] != 0 or grid[i + w + 1] != 0:
            return False
    off = lb * h1 * w
    same = la == lb
    ib = off + rb * w + cb
    b0, b1, b2, b3 = grid[ib], grid[ib + 1], grid[ib + w], grid[ib + w + 1]
    grid[ib] = grid[ib + 1] = grid[ib + w] = grid[ib + w + 1] = 0
    ia = off + ra * w + ca
    a0, a1, a2, a3 = grid[ia], grid[ia + 1], grid[ia + w], grid[ia + w + 1]
    if same:
        grid[ia] = grid[ia + 1] = grid[ia + w] = grid[ia + w + 1] = 0
    found = _s3_lines(grid, off, h1, w, ra, ca, rb, cb, same)
    if same:
        grid[ia], grid[ia + 1], grid[ia + w], grid[ia + w + 1] = a0, a1, a2, a3
    grid[ib], grid[ib + 1], grid[ib + w], grid[ib + w + 1] = b0, b1, b2, b3
    return found


@njit(**INLINE_FLAGS)
def _s3_ok(a, b, cells, grid):
    """Can tiles ``a`` and ``b`` pair on the current ``grid`` (``cells``: a GridTables)?"""
    cy, cx, w = cells.row, cells.col, cells.width
    h1 = cy[cy.shape[0] - 1]
    return _s3_connect(grid, cells.height // h1, h1, w, cy[a] % h1, cx[a], cy[a] // h1, cy[b] % h1, cx[b], cy[b] // h1)


@njit(**INLINE_FLAGS)
def _s3_set(t, cells, grid, v):
    """Set the four cells of tile ``t`` to ``v``."""
    w = cells.width
    i = cells.row[t] * w + cells.col[t]
    grid[i] = v
    grid[i + 1] = v
    grid[i + w] = v
    grid[i + w + 1] = v


@njit(**INLINE_FLAGS)
def _s3_grid(pres, cells, grid):
    """Fill the occupancy ``grid`` from position ``pres``."""
    grid[:] = 0
    for t in range(pres.shape[0]):
        if pres[t]:
            _s3_set(t, cells, grid, 1)


@njit(**INLINE_FLAGS)
def _s3_take(t, pres, cells, grid):
    """Take tile ``t`` off the position and the grid."""
    pres[t] = 0
    _s3_set(t, cells, grid, 0)


def connect3d(grid: Any, a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """:func:`mjsat.shisen.connectable3d` in the kernel (:func:`_s3_connect`).

    Parameters
    ----------
    grid : numpy.ndarray
        ``uint8[levels, h1, w]``, the occupancy grid of half-tile cells with the margin,
        C-contiguous.
    a, b : (int, int, int)
        ``(row, col, level)`` of each tile's top-left cell.

    Raises
    ------
    ValueError
        ``grid`` is not a C-contiguous 3-D ``uint8`` array, or a tile's cells lie outside it.
    """
    if not isinstance(grid, np.ndarray) or grid.dtype != np.uint8 or grid.ndim != 3 or not grid.flags.c_contiguous:
        raise ValueError("grid must be a C-contiguous 3-D uint8 array")
    levels, h1, w = grid.shape
    for r, c, l in (a, b):
        if not (0 <= l < levels and 0 <= r < h1 - 1 and 0 <= c < w - 1):
            raise ValueError(f"tile at {(r, c, l)} lies outside the {levels} x {h1} x {w} grid")
    return bool(_s3_connect(grid.reshape(-1), levels, h1, w, a[0], a[1], a[2], b[0], b[1], b[2]))
