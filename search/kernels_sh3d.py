"""numba kernels of the pairing-set search for Shisen-Sho on the Mahjong grid (seed 002, 4.1).

The game is :class:`mjsat.board.ShisenShoMahjongBoard` (kind :data:`~mjsat.search.pairing.SH3D`
of :mod:`mjsat.search.pairing`); the pure-Python references are
:func:`mjsat.shisen.connectable3d` for the pair test and
:class:`~mjsat.search.pairing.PythonSearch` for apply and scan, and the tests compare them.
:mod:`mjsat.search.kernels_shisen` runs the rectangular game's apply and scan with this
module's grid, take and pair test (:func:`_s3_grid`, :func:`_s3_take`, :func:`_s3_ok`) on
that kind.

The geometry travels in the same ``sh`` tuple type as the rectangular game's,
``(cy, cx, h, w)`` (two ``int32`` arrays, two ``int64``), so that the search kernels are
compiled once for both games:

* the levels of the half-tile occupancy grid (margin included) are stacked: row ``r`` of
  level ``l`` is row ``l * h1 + r`` of one ``(levels * h1, w)`` grid, kept flat in the
  kernels' ``uint8`` grid workspace;
* ``cy[t]`` is the stacked row of tile ``t``'s top-left cell, ``cx[t]`` its column, and one
  more entry ``cy[n]`` holds ``h1``, the height of a level;
* ``h = levels * h1`` and ``w`` is the width.

A tile covers four cells. Apply and scan round over the groups until nothing changes, as
for the rectangular game; a pair test costs :math:`O(\\text{levels})` for the two pillars
and :math:`O((h_1 + w)^2)` at worst for the lines walked cell by cell
(:func:`s3_connect`), or :math:`O(\\log(h_1 + w))` on the levels' row and column bitsets
when the workspace has them (:func:`mjsat.search.kernels_bits._bits_connect3d`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.search.config import JIT_FLAGS
from mjsat.search.kernels_bits import _bits_connect3d, _bits_place, _bits_put, _bits_take, _bits_trees
from mjsat.search.pairing import SH3D, Geometry

__all__ = ["sh3d_arrays", "s3_connect"]

_TILE_CELLS = 2
"""Half-tile cells of a tile along each axis."""


def sh3d_arrays(geo: Geometry) -> tuple[np.ndarray, np.ndarray, np.int64, np.int64]:
    """The ``sh`` tuple of a :data:`~mjsat.search.pairing.SH3D` geometry (see the module docstring)."""
    if geo.kind != SH3D:
        raise ValueError(f"not a Shisen-Sho geometry on the Mahjong grid (kind {geo.kind})")
    levels, h1, w = geo.shape
    cy = np.array([l * h1 + r for r, _, l in geo.cells] + [h1], dtype=np.int32)
    cx = np.array([c for _, c, _ in geo.cells], dtype=np.int32)
    return (cy, cx, np.int64(levels * h1), np.int64(w))


@njit(**JIT_FLAGS)
def _s3_lines(g, off, h1, w, ra, ca, rb, cb, same):
    """At most three lines (``same``) or two lines from tile a's cells to tile b's on one
    level; the tiles' own cells are already empty.

    Parameters
    ----------
    g : uint8[levels * h1 * w]
        The stacked occupancy grid.
    off : int
        Where the level starts in ``g``.
    h1, w : int
        The height and width of a level.
    ra, ca, rb, cb : int
        The top-left cells of the two tiles (level-local).
    same : bool
        Both tiles lie on this level (else tile a is lower and only reaches it through its
        pillar).
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
def s3_connect(grid, levels, h1, w, ra, ca, la, rb, cb, lb):
    """:func:`mjsat.shisen.connectable3d` on the flat stacked grid: can the tiles with
    top-left cells ``(ra, ca)`` on level ``la`` and ``(rb, cb)`` on ``lb`` pair now?

    The two tiles' cells are emptied for the test and put back afterwards.

    Parameters
    ----------
    grid : uint8[levels * h1 * w]
        The stacked occupancy grid (see the module docstring).
    levels, h1, w : int
        Its number of levels, and the height and width of a level.
    ra, ca, la, rb, cb, lb : int
        The top-left cells (level-local rows and columns, margin included) and levels of the
        two tiles.
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


@njit(**JIT_FLAGS)
def _s3_ok(a, b, sh, grid, bits):
    """Can tiles ``a`` and ``b`` pair on the current ``grid`` (``uint8[h * w]``)? On its
    bitsets ``bits`` (``uint64[B]``) unless they are empty. ``sh``: the tuple of the module
    docstring.
    """
    cy, cx, w = sh[0], sh[1], sh[3]
    h1 = cy[cy.shape[0] - 1]
    ya, yb = cy[a], cy[b]
    if bits.shape[0] > 0:
        return _bits_connect3d(grid, bits, sh[2] // h1, h1, w, ya % h1, cx[a], ya // h1, yb % h1, cx[b], yb // h1)
    return s3_connect(grid, sh[2] // h1, h1, w, ya % h1, cx[a], ya // h1, yb % h1, cx[b], yb // h1)


@njit(**JIT_FLAGS)
def _s3_set(t, sh, grid, v):
    """Set the four cells of tile ``t`` in ``grid`` (``uint8[h * w]``) to ``v``; ``sh``: the
    tuple of the module docstring.
    """
    i = sh[0][t] * sh[3] + sh[1][t]
    w = sh[3]
    grid[i] = v
    grid[i + 1] = v
    grid[i + w] = v
    grid[i + w + 1] = v


@njit(**JIT_FLAGS)
def _s3_grid(pres, sh, grid, bits):
    """Fill ``grid`` (``uint8[h * w]``) and its bitsets ``bits`` (``uint64[B]``, empty when
    the pair test walks cells) with the occupancy of ``pres`` (``uint8[n]``); ``sh``: the
    tuple of the module docstring.
    """
    grid[:] = 0
    for t in range(pres.shape[0]):
        if pres[t]:
            _s3_set(t, sh, grid, 1)
    if bits.shape[0] > 0:
        h1 = sh[0][sh[0].shape[0] - 1]
        bits[:] = 0
        for t in range(pres.shape[0]):
            if pres[t]:
                _bits_put(bits, h1, sh[3], sh[0][t], sh[1][t], _TILE_CELLS)
        _bits_trees(bits, sh[2] // h1, h1, sh[3])


@njit(**JIT_FLAGS)
def _s3_take(t, pres, sh, grid, bits):
    """Take tile ``t`` off ``pres`` (``uint8[n]``), ``grid`` (``uint8[h * w]``) and its
    bitsets ``bits`` (``uint64[B]``, empty when the pair test walks cells); ``sh``: the
    tuple of the module docstring.
    """
    pres[t] = 0
    _s3_set(t, sh, grid, 0)
    if bits.shape[0] > 0:
        _bits_take(bits, sh[0][sh[0].shape[0] - 1], sh[3], sh[0][t], sh[1][t], _TILE_CELLS)


@njit(**JIT_FLAGS)
def _s3_put(t, pres, sh, grid, bits):
    """Put tile ``t`` back on ``pres`` (``uint8[n]``), ``grid`` (``uint8[h * w]``) and its
    bitsets ``bits`` (``uint64[B]``, empty when the pair test walks cells): the inverse of
    :func:`_s3_take`; ``sh``: the tuple of the module docstring.
    """
    pres[t] = 1
    _s3_set(t, sh, grid, 1)
    if bits.shape[0] > 0:
        _bits_place(bits, sh[0][sh[0].shape[0] - 1], sh[3], sh[0][t], sh[1][t], _TILE_CELLS)
