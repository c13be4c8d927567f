"""Shisen-Sho path sets: the tiles that must be gone for two tiles to be joined.

Two tiles of a Shisen-Sho board are joined by a path of at most three axis-parallel
segments through empty cells, which may run one cell outside the board. Whether such a
path is open depends only on which tiles are gone, so each candidate path is a set of
tiles, and the pair can go once one of these sets is gone. :func:`shisen_paths` gives the
inclusion-minimal sets of a pair; :class:`ShisenLines` computes them for every pair of a
board with prefix bitsets of its rows and columns.

Sets are Python ints used as bitsets (bit ``t`` for tile ``t``) from here through the
requirements (:mod:`mjsat.encoders.requirements`) and their simplification
(:mod:`mjsat.encoders.necessary`) to the clauses; :func:`bits_members` lists a set's tiles.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

import numpy as np

from mjsat.board import ShisenShoBoard, TileId

__all__ = ["bits_members", "ShisenLines", "shisen_paths"]


def shisen_paths(board: ShisenShoBoard, a: TileId, b: TileId) -> tuple[frozenset[TileId], ...]:
    """The minimal tile sets whose removal opens a path of at most three segments.

    Parameters
    ----------
    board : ShisenShoBoard
    a, b : int
        Two tiles (any groups).

    Returns
    -------
    tuple of frozenset
        Distinct, inclusion-minimal sets of tiles (not ``a`` or ``b``) lying on one
        candidate path; the empty set when a path is open on the full board.

    Notes
    -----
    Every path of at most three segments has a middle segment on some row (or column)
    of the grid with its margin, so there are :math:`h + w + 4` candidates. Each is the
    union of three segments, and a segment's tiles are the difference of two prefix
    bitsets of its row or column (:class:`ShisenLines`), so a candidate costs three
    big-integer operations on ``n``-bit integers: :math:`O((h + w) n / 64)` in all, plus
    the minimality filter. Agrees with :func:`mjsat.shisen.connectable` on every
    occupancy (tested).
    """
    lines = ShisenLines(board)
    return tuple(frozenset(bits_members(m)) for m in lines.path_bits(a, b))


def bits_members(x: int) -> list[int]:
    """The members of the bitset ``x`` (a non-negative Python int), smallest first.

    >>> bits_members(0b101001)
    [0, 3, 5]
    """
    if x.bit_count() <= 48:  # sparse: peel the highest bit (cheap even on long ints)
        out: list[int] = []
        while x:
            t = x.bit_length() - 1
            out.append(t)
            x ^= 1 << t
        out.reverse()
        return out
    raw = np.frombuffer(x.to_bytes((x.bit_length() + 7) // 8, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little")).tolist()


class ShisenLines:
    """Prefix bitsets of every row and column of a Shisen-Sho board with its margin.

    ``rows[y][x]`` is the set (a Python int, bit ``t`` for tile ``t``) of the tiles in
    row ``y`` at columns ``< x`` (margin coordinates: the board's cell ``(r, c)`` is
    ``(r + 1, c + 1)``); ``cols[x][y]`` likewise down a column. The tiles of a segment
    are the difference of two prefixes.
    """

    def __init__(self, board: ShisenShoBoard) -> None:
        h, w = board.grid_shape
        self.h, self.w = h + 2, w + 2
        self.grid = grid = [[-1] * self.w for _ in range(self.h)]
        self.cells = [(y + 1, x + 1) for y, x in board.cells]
        for t, (y, x) in enumerate(self.cells):
            grid[y][x] = t
        self.row_xs = [[x for x in range(self.w) if grid[y][x] >= 0] for y in range(self.h)]
        self.col_ys = [[y for y in range(self.h) if grid[y][x] >= 0] for x in range(self.w)]
        self.rows = [self._prefixes([grid[y][x] for x in range(self.w)]) for y in range(self.h)]
        self.cols = [self._prefixes([grid[y][x] for y in range(self.h)]) for x in range(self.w)]

    @staticmethod
    def _prefixes(line: list[int]) -> list[int]:
        """Prefix bitsets of one row or column (``-1`` marks an empty cell)."""
        acc, pre = 0, [0]
        for t in line:
            if t >= 0:
                acc |= 1 << t
            pre.append(acc)
        return pre

    def row(self, y: int, x0: int, x1: int) -> int:
        """Tiles of row ``y`` between columns ``x0`` and ``x1`` (both included)."""
        lo, hi = (x0, x1) if x0 <= x1 else (x1, x0)
        pre = self.rows[y]
        return pre[hi + 1] & ~pre[lo]

    def col(self, x: int, y0: int, y1: int) -> int:
        """Tiles of column ``x`` between rows ``y0`` and ``y1`` (both included)."""
        lo, hi = (y0, y1) if y0 <= y1 else (y1, y0)
        pre = self.cols[x]
        return pre[hi + 1] & ~pre[lo]

    def path_bits(self, a: TileId, b: TileId, *, cap: int | None = None) -> list[int]:
        """The minimal blocker sets of :func:`shisen_paths` as bitsets, smallest first.

        With ``cap``, a candidate path of more than ``cap`` tiles is replaced by its two
        *ends*: the first tile on it seen from ``a`` and the first seen from ``b`` (a
        subset of it). The sets are then weaker than the rules: every clearing still
        meets them (every path holds one of them), but meeting them does not make a
        clearing. The outward cut then also stops at a weak set inside the arms.
        """
        ya, xa = self.cells[a]
        yb, xb = self.cells[b]
        drop = ~((1 << a) | (1 << b))
        sets: set[int] = set()
        small: list[int] = []  # the smallest sets so far, for the outward cut
        # Weak sets only: columns z between the two tiles, past the first tile of a's row
        # towards b and past the first of b's row towards a, give paths that start and end
        # with those two tiles (one set for all of them, found once).
        span, same = (1, 0), 0
        if cap is not None and xa != xb:
            ta = self._first([(False, ya, xa, xb)], a, b)
            tb = self._first([(False, yb, xb, xa)], a, b)
            if ta >= 0 and tb >= 0:
                za, zb = self.cells[ta][1], self.cells[tb][1]
                if (za <= zb) if xa < xb else (za >= zb):
                    span, same = (min(za, zb), max(za, zb)), (1 << ta) | (1 << tb)

        def sweep(mids: Iterable[int], along_rows: bool, outward: bool) -> None:
            for z in mids:
                in_span = not along_rows and span[0] <= z <= span[1]
                if in_span and self._count_row(ya, xa, z) + self._count_row(yb, z, xb) > cap + 3:  # type: ignore[operator]
                    sets.add(same)  # long anyway: no need to build it
                    continue
                if along_rows:  # vertical, horizontal on row z, vertical
                    arms = self.col(xa, ya, z) | self.col(xb, z, yb)
                    c = arms | self.row(z, xa, xb)
                else:  # horizontal, vertical on column z, horizontal
                    arms = self.row(ya, xa, z) | self.row(yb, z, xb)
                    c = arms | self.col(z, ya, yb)
                arms &= drop
                if outward and any(m & ~arms == 0 for m in small):
                    return  # farther out the arms only grow: every later path holds a set found
                c &= drop
                if cap is not None and c.bit_count() > cap:
                    c = same if in_span else self._ends(a, b, along_rows, z)
                if c not in sets:
                    sets.add(c)
                    if len(small) < 8 or c.bit_count() < small[-1].bit_count():
                        small.append(c)
                        small.sort(key=int.bit_count)
                        del small[8:]

        for lo, hi, along_rows in ((min(ya, yb), max(ya, yb), True), (min(xa, xb), max(xa, xb), False)):
            size = self.h if along_rows else self.w
            sweep(range(lo, hi + 1), along_rows, False)
            sweep(range(lo - 1, -1, -1), along_rows, True)
            sweep(range(hi + 1, size), along_rows, True)
        minimal: list[int] = []
        for s in sorted(sets, key=lambda m: (m.bit_count(), m)):
            if not any(m & ~s == 0 for m in minimal):
                minimal.append(s)
        return minimal

    def _count_row(self, y: int, x0: int, x1: int) -> int:
        """How many tiles row ``y`` has between columns ``x0`` and ``x1`` (both included)."""
        lo, hi = (x0, x1) if x0 <= x1 else (x1, x0)
        line = self.row_xs[y]
        return bisect.bisect_right(line, hi) - bisect.bisect_left(line, lo)

    def _ends(self, a: TileId, b: TileId, along_rows: bool, z: int) -> int:
        """The first tile from each end of a candidate path (bitset; the path has tiles)."""
        (ya, xa), (yb, xb) = self.cells[a], self.cells[b]
        if along_rows:  # (vertical?, fixed coordinate, from, to) per segment, from a to b
            segs = [(True, xa, ya, z), (False, z, xa, xb), (True, xb, z, yb)]
        else:
            segs = [(False, ya, xa, z), (True, z, ya, yb), (False, yb, z, xb)]
        first = self._first(segs, a, b)
        last = self._first([(v, k, hi, lo) for v, k, lo, hi in reversed(segs)], a, b)
        assert first >= 0 and last >= 0, "a path with tiles has a first and a last tile"
        return (1 << first) | (1 << last)

    def _first(self, segs: list[tuple[bool, int, int, int]], a: TileId, b: TileId) -> TileId:
        """The first tile other than ``a``, ``b`` along the segments (each from its start,
        excluded, to its end, included), or -1."""
        for vertical, k, u, v in segs:
            line = self.col_ys[k] if vertical else self.row_xs[k]
            if v >= u:
                hits = line[bisect.bisect_right(line, u) : bisect.bisect_right(line, v)]
            else:
                hits = line[bisect.bisect_left(line, v) : bisect.bisect_left(line, u)][::-1]
            for pos in hits:
                t = self.grid[pos][k] if vertical else self.grid[k][pos]
                if t != a and t != b:
                    return t
        return -1
