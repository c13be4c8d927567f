"""numba kernels of de Bondt's bitset pair test for Shisen-Sho ([dB20]_, Theorems 3.2 and 3.3).

The occupancy of every row and of every column of a level is one ``uint64`` word (bit
``x`` of row ``y`` is the cell ``(y, x)``; bit ``y`` of column ``x`` is the same cell). A
pair test then costs :math:`O(\\log(h + w))` word operations instead of a walk over cells:

* how far a tile reaches along a line through empty cells is found with two bit scans
  (the highest occupied cell before it and the lowest after it: Theorem 3.2);
* a path of three lines whose middle line is vertical, on a column ``x`` that both tiles
  reach along their rows, exists iff some bit of the conjunction of the two reaches is
  clear in the disjunction of the rows strictly between the tiles' rows; that disjunction
  comes from a perfect binary tree over the rows whose inner nodes hold the disjunction of
  their leaves, in :math:`O(\\log h)` (Theorem 3.3). The same holds for columns.

Taking a tile off updates its leaves and their ancestors, :math:`O(\\log(h + w))` per
line (an ancestor that does not change stops the climb).

On the Mahjong grid ([dB20]_, section 4.2) each level has its own words, and a tile covers
two rows and two columns of half-tile cells: the same test runs for each of its two lines
against each of the other tile's (:func:`_bits_lines`), on the level of the higher tile.
The pillars above the two tiles are read from the grid of cells, :math:`O(\\text{levels})`,
instead of the paper's pillar words.

The words of one level, ``level_words(h1, w)`` of them, are two trees: rows first, then
columns. A tree over ``m`` lines has ``N`` leaves, ``N`` the least power of two
``>= m``, numbered as a binary heap: node ``1`` is the root, node ``k`` has children
``2k`` and ``2k + 1``, and line ``i`` is the leaf ``N + i`` (node ``0`` is unused). This
numbering replaces the paper's in-order one (leaves on the odd numbers), with the same
bounds. The levels of the Mahjong grid follow each other (:mod:`mjsat.search.kernels_sh3d`).

A line holds at most :data:`LINE_BITS` cells, margin included; :func:`bit_words` is 0
for a grid with a longer line, and the kernels then walk cells. The grid of cells stays
beside the bitsets: the Mahjong grid's pillar test reads it. The pure-Python reference of
these kernels is in the tests (``tests/naive.py``); the cell-walking tests
:func:`mjsat.search.kernels_shisen._connect`, :func:`mjsat.search.kernels_sh3d.s3_connect`
and the board model's :func:`mjsat.shisen.connectable` and :func:`mjsat.shisen.connectable3d`
are what they are compared with.

References
----------
.. [dB20] M. de Bondt, "Solving Shisen-Sho boards", arXiv:2010.09014, 2020.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import overload

from mjsat.search.config import JIT_FLAGS

__all__ = ["LINE_BITS", "WORDS_OF_PAIR_TEST", "bit_words", "level_words"]

LINE_BITS = 64
"""Most cells of a row or column (margin included) that the bitsets hold: one word."""

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
_WORD = 64
"""Bits of a word."""
_TOP = _WORD - 1
"""The highest bit of a word."""
_TILE_SPAN = 2
"""Cells of a tile of the Mahjong grid along each axis."""


def _leaves(m: int) -> int:
    """The least power of two ``>= m``: the leaves of a tree over ``m`` lines."""
    return 1 << max(0, int(m) - 1).bit_length()


def level_words(h1: int, w: int) -> int:
    """Words of the bitsets of one level of ``h1`` rows and ``w`` columns (see the module docstring)."""
    return 2 * _leaves(h1) + 2 * _leaves(w)


def bit_words(sh: tuple[Any, ...], d3: bool) -> int:
    """Words of the bitsets of the grid of ``sh`` (:mod:`mjsat.search.kernels`), or 0 when a
    row or a column is longer than :data:`LINE_BITS` cells.

    Parameters
    ----------
    sh : tuple
        ``(cy, cx, h, w)``: the rectangle's, or the stacked Mahjong grid's
        (:mod:`mjsat.search.kernels_sh3d`, where ``cy[-1]`` is a level's height).
    d3 : bool
        ``sh`` is the Mahjong grid's.
    """
    h, w = int(sh[2]), int(sh[3])
    h1 = int(sh[0][-1]) if d3 else h
    if h1 > LINE_BITS or w > LINE_BITS:
        return 0
    return (h // h1) * level_words(h1, w)


def _no_bitsets(sh: tuple[Any, ...], d3: bool) -> int:
    """No bitset words: the pair test walks cells."""
    return 0


WORDS_OF_PAIR_TEST: dict[str, Callable[[tuple[Any, ...], bool], int]] = {"bits": bit_words, "cells": _no_bitsets}
"""Each pair test of :data:`mjsat.search.config.PAIR_TESTS` -> the words of the bitsets
it needs for a grid ``(sh, d3)`` (the size of :data:`~mjsat.search.config.W_BITS`)."""


# The two bit scans: plain Python for NUMBA_DISABLE_JIT, the processor's instructions
# (numba's intrinsics) in compiled kernels.


def _bit_length(x: Any) -> int:
    """The number of bits of the word ``x`` up to its highest set bit (0 for 0)."""
    return int(x).bit_length()


def _lowest_bit(x: Any) -> int:
    """The index of the lowest set bit of the word ``x`` (not 0)."""
    v = int(x)
    return (v & -v).bit_length() - 1


@overload(_bit_length)
def _bit_length_kernel(x: Any) -> Callable[[Any], Any]:
    """:func:`_bit_length` in kernels: 64 minus the leading zeros."""

    def impl(x: Any) -> Any:
        # the intrinsic's first parameter, the typing context, is numba's to pass
        return np.int64(_WORD) - np.int64(leading_zeros(np.uint64(x)))  # type: ignore[call-arg]

    return impl


@overload(_lowest_bit)
def _lowest_bit_kernel(x: Any) -> Callable[[Any], Any]:
    """:func:`_lowest_bit` in kernels: the trailing zeros."""

    def impl(x: Any) -> Any:
        return np.int64(trailing_zeros(np.uint64(x)))  # type: ignore[call-arg]  # as above

    return impl


@njit(**JIT_FLAGS)
def _pow2(m):
    """The least power of two ``>= m`` (``m >= 1``), in the kernels."""
    return np.int64(1) << np.int64(_bit_length(m - 1))


@njit(**JIT_FLAGS)
def _span(lo, hi):
    """The word with bits ``lo..hi`` set (``0 <= lo``, ``hi <= 63``; empty when ``lo > hi``)."""
    if lo > hi:
        return _ZERO
    return (_ALL >> np.uint64(_TOP - hi)) & ~((_ONE << np.uint64(lo)) - _ONE)


@njit(**JIT_FLAGS)
def _run(line, lo, hi, length):
    """The empty run through the cells ``lo..hi`` of a line, as a word.

    Parameters
    ----------
    line : uint64
        The line's occupied cells (``lo..hi`` clear).
    lo, hi : int
        The cells the run starts from.
    length : int
        The cells of the line.
    """
    start = _bit_length(line & ((_ONE << np.uint64(lo)) - _ONE))  # past the last tile before
    above = line & ~(_ALL >> np.uint64(_TOP - hi))
    end = length - 1
    if above != _ZERO:
        end = _lowest_bit(above) - 1  # before the first tile after
    return _span(start, end)


@njit(**JIT_FLAGS)
def _tree_or(bits, base, leaves, lo, hi):
    """The disjunction of the lines ``lo..hi`` of the tree at ``bits[base:]`` with
    ``leaves`` leaves (0 when ``lo > hi``), :math:`O(\\log \\text{leaves})`."""
    acc = _ZERO
    left = lo + leaves
    right = hi + leaves + 1
    while left < right:
        if left & 1:
            acc |= bits[base + left]
            left += 1
        if right & 1:
            right -= 1
            acc |= bits[base + right]
        left >>= 1
        right >>= 1
    return acc


@njit(**JIT_FLAGS)
def _tree_clear(bits, base, leaves, i, mask):
    """Clear ``mask`` in line ``i`` of the tree at ``bits[base:]`` and recompute its
    ancestors up to the first one that does not change."""
    k = leaves + i
    bits[base + k] &= ~mask
    k >>= 1
    while k >= 1:
        v = bits[base + 2 * k] | bits[base + 2 * k + 1]
        if bits[base + k] == v:
            break
        bits[base + k] = v
        k >>= 1


@njit(**JIT_FLAGS)
def _tree_set(bits, base, leaves, i, mask):
    """Set ``mask`` in line ``i`` of the tree at ``bits[base:]`` and in its ancestors (an
    inner node is the disjunction of its children)."""
    k = leaves + i
    while k >= 1:
        bits[base + k] |= mask
        k >>= 1


@njit(**JIT_FLAGS)
def _bits_place(bits, h1, w, y, x, cells):
    """Put the ``cells x cells`` block at stacked row ``y``, column ``x`` back into ``bits``,
    the trees' inner nodes included: the inverse of :func:`_bits_take`.

    Parameters
    ----------
    bits : uint64[levels * level_words(h1, w)]
        The bitsets, updated.
    h1, w : int
        The rows and columns of a level.
    y, x : int
        The block's top-left cell; ``y // h1`` is its level.
    cells : int
        Its side.
    """
    nr = _pow2(h1)
    nc = _pow2(w)
    rows = (y // h1) * (2 * nr + 2 * nc)
    cols = rows + 2 * nr
    r = y % h1
    across = _span(x, x + cells - 1)
    down = _span(r, r + cells - 1)
    for i in range(cells):
        _tree_set(bits, rows, nr, r + i, across)
        _tree_set(bits, cols, nc, x + i, down)


@njit(**JIT_FLAGS)
def _bits_put(bits, h1, w, y, x, cells):
    """Put the ``cells x cells`` block at stacked row ``y``, column ``x`` into the leaves of
    ``bits``, leaving the inner nodes to :func:`_bits_trees`.

    Parameters
    ----------
    bits : uint64[levels * level_words(h1, w)]
        The bitsets, updated.
    h1, w : int
        The rows and columns of a level.
    y, x : int
        The block's top-left cell; ``y // h1`` is its level.
    cells : int
        Its side (a tile: 1 cell on the rectangle, :data:`_TILE_SPAN` on the Mahjong grid).
    """
    nr = _pow2(h1)
    nc = _pow2(w)
    rows = (y // h1) * (2 * nr + 2 * nc)
    cols = rows + 2 * nr
    r = y % h1
    across = _span(x, x + cells - 1)
    down = _span(r, r + cells - 1)
    for i in range(cells):
        bits[rows + nr + r + i] |= across
        bits[cols + nc + x + i] |= down


@njit(**JIT_FLAGS)
def _bits_trees(bits, levels, h1, w):
    """Compute every inner node of the trees of ``bits`` from their leaves.

    Parameters
    ----------
    bits : uint64[levels * level_words(h1, w)]
        The bitsets, updated.
    levels, h1, w : int
        The levels, and the rows and columns of a level.
    """
    nr = _pow2(h1)
    nc = _pow2(w)
    for lev in range(levels):
        rows = lev * (2 * nr + 2 * nc)
        cols = rows + 2 * nr
        for k in range(nr - 1, 0, -1):
            bits[rows + k] = bits[rows + 2 * k] | bits[rows + 2 * k + 1]
        for k in range(nc - 1, 0, -1):
            bits[cols + k] = bits[cols + 2 * k] | bits[cols + 2 * k + 1]


@njit(**JIT_FLAGS)
def _bits_fill(grid, bits, levels, h1, w):
    """Fill ``bits`` with the occupancy of the stacked ``grid``: leaves from the cells,
    then every inner node.

    Parameters
    ----------
    grid : uint8[levels * h1 * w]
        The occupancy, level after level, row by row (1: a tile).
    bits : uint64[levels * level_words(h1, w)]
        Filled.
    levels, h1, w : int
        The levels, and the rows and columns of a level.
    """
    bits[:] = _ZERO
    for y in range(levels * h1):
        for x in range(w):
            if grid[y * w + x] != 0:
                _bits_put(bits, h1, w, y, x, 1)
    _bits_trees(bits, levels, h1, w)


@njit(**JIT_FLAGS)
def _bits_take(bits, h1, w, y, x, cells):
    """Take the ``cells x cells`` block at stacked row ``y``, column ``x`` off ``bits``
    (a tile: 1 cell on the rectangle, :data:`_TILE_SPAN` on the Mahjong grid).

    Parameters
    ----------
    bits : uint64[levels * level_words(h1, w)]
        The bitsets, updated.
    h1, w : int
        The rows and columns of a level.
    y, x : int
        The block's top-left cell; ``y // h1`` is its level.
    cells : int
        Its side.
    """
    nr = _pow2(h1)
    nc = _pow2(w)
    rows = (y // h1) * (2 * nr + 2 * nc)
    cols = rows + 2 * nr
    r = y % h1
    across = _span(x, x + cells - 1)
    down = _span(r, r + cells - 1)
    for i in range(cells):
        _tree_clear(bits, rows, nr, r + i, across)
        _tree_clear(bits, cols, nc, x + i, down)


@njit(**JIT_FLAGS)
def _bits_connect(bits, h, w, ya, xa, yb, xb):
    """The pair test of :func:`mjsat.shisen.connectable` on the bitsets of a rectangle:
    can the tiles on cells ``(ya, xa)`` and ``(yb, xb)`` go together?

    Parameters
    ----------
    bits : uint64[level_words(h, w)]
        The bitsets of the occupancy (not modified).
    h, w : int
        The grid's shape, margin included.
    ya, xa, yb, xb : int
        The two end cells (their own occupancy is ignored).

    Notes
    -----
    Each tile's reach along its row and its column, with both end cells counted empty,
    takes two bit scans. A middle line vertical on column ``x`` joins them iff ``x`` lies
    in both row reaches and the rows strictly between ``ya`` and ``yb`` are empty at
    ``x``: its two end cells lie in the reaches, and no end cell lies strictly between.
    The middle line horizontal is the same on columns. :math:`O(\\log(h + w))`.
    """
    if ya == yb and xa == xb:
        return False
    nr = _pow2(h)
    nc = _pow2(w)
    cols = 2 * nr
    ends_x = (_ONE << np.uint64(xa)) | (_ONE << np.uint64(xb))
    ends_y = (_ONE << np.uint64(ya)) | (_ONE << np.uint64(yb))
    # the rows (and columns) of the two tiles, both end cells counted empty
    row_a = bits[nr + ya] & ~(_ONE << np.uint64(xa))
    row_b = bits[nr + yb] & ~(_ONE << np.uint64(xb))
    if ya == yb:
        row_a &= ~ends_x
        row_b = row_a
    col_a = bits[cols + nc + xa] & ~(_ONE << np.uint64(ya))
    col_b = bits[cols + nc + xb] & ~(_ONE << np.uint64(yb))
    if xa == xb:
        col_a &= ~ends_y
        col_b = col_a
    # middle line vertical: a column both reach along their rows, empty between the rows
    common = _run(row_a, xa, xa, w) & _run(row_b, xb, xb, w)
    if common != _ZERO:
        between = _tree_or(bits, 0, nr, min(ya, yb) + 1, max(ya, yb) - 1)
        if common & ~between != _ZERO:
            return True
    # middle line horizontal: a row both reach along their columns, empty between
    common = _run(col_a, ya, ya, h) & _run(col_b, yb, yb, h)
    if common != _ZERO:
        between = _tree_or(bits, cols, nc, min(xa, xb) + 1, max(xa, xb) - 1)
        if common & ~between != _ZERO:
            return True
    return False


@njit(**JIT_FLAGS)
def _bits_lines(bits, rows, cols, nr, nc, h1, w, ra, ca, rb, cb, same):
    """At most three lines (``same``) or two lines from tile a's cells to tile b's on one
    level of the bitsets, as :func:`mjsat.search.kernels_sh3d._s3_lines` walks them.

    Parameters
    ----------
    bits : uint64[levels * level_words(h1, w)]
        The bitsets (not modified).
    rows, cols : int
        Where the level's row tree and column tree start in ``bits``.
    nr, nc : int
        Their leaves.
    h1, w : int
        The rows and columns of a level.
    ra, ca, rb, cb : int
        The top-left cells of the two tiles (level-local).
    same : bool
        Both tiles lie on this level (else tile a is lower and only reaches it through its
        pillar, so its cells here are not its own).

    Notes
    -----
    For each of a's two columns ``xa`` and b's two columns ``xb``, the rows both reach
    along them are the candidates for a horizontal middle line. Its cells on the rows that
    hold neither tile are read at once from the disjunction of the columns ``xa..xb``
    (that of the tree, tiles included); on the at most four rows of the tiles the row's
    word is tested with the tiles' cells cleared. The vertical middle line is the same
    with rows and columns swapped. :math:`O(\\log(h_1 + w))`.
    """
    a_rows = _span(ra, ra + _TILE_SPAN - 1)
    a_cols = _span(ca, ca + _TILE_SPAN - 1)
    b_rows = _span(rb, rb + _TILE_SPAN - 1)
    b_cols = _span(cb, cb + _TILE_SPAN - 1)
    own_rows = b_rows | a_rows if same else b_rows  # the rows and columns with cells counted empty
    own_cols = b_cols | a_cols if same else b_cols
    last = _TILE_SPAN - 1
    # b's reaches along its two columns (a's cells there counted empty too on a's level)
    line = bits[cols + nc + cb] & ~b_rows
    if same and ca <= cb <= ca + last:
        line &= ~a_rows
    reach_b0 = _run(line, rb, rb + last, h1)
    line = bits[cols + nc + cb + 1] & ~b_rows
    if same and ca <= cb + 1 <= ca + last:
        line &= ~a_rows
    reach_b1 = _run(line, rb, rb + last, h1)
    for i in range(_TILE_SPAN):  # middle line horizontal, on a row y
        xa = ca + i
        reach_a = a_rows
        if same:
            line = bits[cols + nc + xa] & ~a_rows
            if xa == cb or xa == cb + 1:
                line &= ~b_rows
            reach_a = _run(line, ra, ra + _TILE_SPAN - 1, h1)
        for j in range(_TILE_SPAN):
            xb = cb + j
            common = reach_a & (reach_b1 if j else reach_b0)
            if common == _ZERO:
                continue
            lo = min(xa, xb)
            hi = max(xa, xb)
            if common & ~own_rows & ~_tree_or(bits, cols, nc, lo, hi) != _ZERO:
                return True
            span = _span(lo, hi)
            rest = common & own_rows
            while rest != _ZERO:
                y = _lowest_bit(rest)
                rest &= rest - _ONE
                line = bits[rows + nr + y]
                if y == rb or y == rb + 1:
                    line &= ~b_cols
                if same and (y == ra or y == ra + 1):
                    line &= ~a_cols
                if line & span == _ZERO:
                    return True
    # b's reaches along its two rows
    line = bits[rows + nr + rb] & ~b_cols
    if same and ra <= rb <= ra + last:
        line &= ~a_cols
    reach_b0 = _run(line, cb, cb + last, w)
    line = bits[rows + nr + rb + 1] & ~b_cols
    if same and ra <= rb + 1 <= ra + last:
        line &= ~a_cols
    reach_b1 = _run(line, cb, cb + last, w)
    for i in range(_TILE_SPAN):  # middle line vertical, on a column x
        ya = ra + i
        reach_a = a_cols
        if same:
            line = bits[rows + nr + ya] & ~a_cols
            if ya == rb or ya == rb + 1:
                line &= ~b_cols
            reach_a = _run(line, ca, ca + _TILE_SPAN - 1, w)
        for j in range(_TILE_SPAN):
            yb = rb + j
            common = reach_a & (reach_b1 if j else reach_b0)
            if common == _ZERO:
                continue
            lo = min(ya, yb)
            hi = max(ya, yb)
            if common & ~own_cols & ~_tree_or(bits, rows, nr, lo, hi) != _ZERO:
                return True
            span = _span(lo, hi)
            rest = common & own_cols
            while rest != _ZERO:
                x = _lowest_bit(rest)
                rest &= rest - _ONE
                line = bits[cols + nc + x]
                if x == cb or x == cb + 1:
                    line &= ~b_rows
                if same and (x == ca or x == ca + 1):
                    line &= ~a_rows
                if line & span == _ZERO:
                    return True
    return False


@njit(**JIT_FLAGS)
def _bits_connect3d(grid, bits, levels, h1, w, ra, ca, la, rb, cb, lb):
    """The pair test of :func:`mjsat.search.kernels_sh3d.s3_connect` on the bitsets: can the
    tiles with top-left cells ``(ra, ca)`` on level ``la`` and ``(rb, cb)`` on ``lb`` pair now?

    Parameters
    ----------
    grid : uint8[levels * h1 * w]
        The stacked occupancy grid (:mod:`mjsat.search.kernels_sh3d`), read for the pillars
        above the tiles (not modified).
    bits : uint64[levels * level_words(h1, w)]
        Its bitsets (not modified).
    levels, h1, w : int
        Its number of levels, and the height and width of a level.
    ra, ca, la, rb, cb, lb : int
        The top-left cells (level-local rows and columns, margin included) and levels of the
        two tiles.

    Notes
    -----
    The pillars cost :math:`O(\\text{levels})`, the lines :math:`O(\\log(h_1 + w))`
    (:func:`_bits_lines`).
    """
    if la > lb:
        ra, ca, la, rb, cb, lb = rb, cb, lb, ra, ca, la
    if abs(ra - rb) < _TILE_SPAN and abs(ca - cb) < _TILE_SPAN:
        return False  # the same tile, or the higher one lies on the lower one
    for k in range(la + 1, levels):
        i = (k * h1 + ra) * w + ca
        if grid[i] != 0 or grid[i + 1] != 0 or grid[i + w] != 0 or grid[i + w + 1] != 0:
            return False
    for k in range(lb + 1, levels):
        i = (k * h1 + rb) * w + cb
        if grid[i] != 0 or grid[i + 1] != 0 or grid[i + w] != 0 or grid[i + w + 1] != 0:
            return False
    nr = _pow2(h1)
    nc = _pow2(w)
    rows = lb * (2 * nr + 2 * nc)
    return _bits_lines(bits, rows, rows + 2 * nr, nr, nc, h1, w, ra, ca, rb, cb, la == lb)
