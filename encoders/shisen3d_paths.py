"""Shisen-Sho on the Mahjong grid: the tiles that must be gone for two tiles to be joined.

The rules are those of :class:`mjsat.board.ShisenShoMahjongBoard` (seed 002, section 4.1):
a tile is playable when nothing lies above it, and two equal playable tiles go together
when a chain of empty half-tile cells of the higher tile's level joins them, with at most
two turns on one level, or at most one turn after the pillar line up from the lower tile.
Whether such a chain is open depends only on which tiles are gone, so, as for the flat
game (:mod:`mjsat.encoders.shisen_paths`), each candidate chain is a set of tiles (those
of the higher level covering its cells), and the pair can go once its tiles are playable
and one of these sets is gone.

:class:`CellLines` gives the inclusion-minimal sets of every pair; :func:`tiles_above`
the tiles that must be gone before a tile is playable. Sets are Python ints used as
bitsets (bit ``t`` for tile ``t``), as in the requirements.
"""

from __future__ import annotations

from mjsat.board import ShisenShoMahjongBoard, TileId

__all__ = ["CellLines", "tiles_above", "footprints_overlap"]


def footprints_overlap(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """Whether two tiles' 2 x 2 footprints (top-left cells ``(row, col, lev)``) overlap:
    the same position or one tile lying on the other, a pair that never goes.

    >>> footprints_overlap((1, 1, 0), (2, 2, 1)), footprints_overlap((1, 1, 0), (1, 3, 1))
    (True, False)
    """
    return abs(a[0] - b[0]) < 2 and abs(a[1] - b[1]) < 2


def tiles_above(board: ShisenShoMahjongBoard) -> tuple[tuple[TileId, ...], ...]:
    """For every tile, the tiles on higher levels that overlap it (all of them, not only
    the next level): it is playable exactly when these are gone.

    Notes
    -----
    :math:`O(n L)` dictionary look-ups for ``L`` levels.
    """
    cells = board.cells
    at: dict[tuple[int, int, int], TileId] = {}
    for t, (r, c, lev) in enumerate(cells):
        for dr in (0, 1):
            for dc in (0, 1):
                at[(lev, r + dr, c + dc)] = t
    levels = board.grid_shape[0]
    out = []
    for r, c, lev in cells:
        above = {
            at[key]
            for up in range(lev + 1, levels)
            for dr in (0, 1)
            for dc in (0, 1)
            if (key := (up, r + dr, c + dc)) in at
        }
        out.append(tuple(sorted(above)))
    return tuple(out)


class CellLines:
    """Tiles along the rows and columns of half-tile cells of every level.

    A tile covers two consecutive cells of each of its two rows and two columns, so the
    tiles covering the cells ``lo..hi`` of a line are those whose first cell on it lies in
    ``lo - 1..hi``: ``starts[lev][y][x]`` is the set of the tiles of level ``lev`` whose
    top-left cell is on row ``y`` or ``y - 1`` at a column ``< x`` (likewise down the
    columns), and a segment is the difference of two of these prefixes.
    """

    def __init__(self, board: ShisenShoMahjongBoard) -> None:
        self.levels, self.h, self.w = board.grid_shape
        self.cells = board.cells
        L, h, w = self.levels, self.h, self.w
        row_start = [[[0] * w for _ in range(h)] for _ in range(L)]
        col_start = [[[0] * h for _ in range(w)] for _ in range(L)]
        for t, (r, c, lev) in enumerate(self.cells):
            for dr in (0, 1):
                row_start[lev][r + dr][c] |= 1 << t
            for dc in (0, 1):
                col_start[lev][c + dc][r] |= 1 << t
        self.rows = [[self._prefixes(line) for line in row_start[lev]] for lev in range(L)]
        self.cols = [[self._prefixes(line) for line in col_start[lev]] for lev in range(L)]

    @staticmethod
    def _prefixes(line: list[int]) -> list[int]:
        acc, pre = 0, [0]
        for bits in line:
            acc |= bits
            pre.append(acc)
        return pre

    def row(self, lev: int, y: int, x0: int, x1: int) -> int:
        """Tiles of level ``lev`` covering a cell of row ``y`` between columns ``x0`` and ``x1``."""
        lo, hi = (x0, x1) if x0 <= x1 else (x1, x0)
        pre = self.rows[lev][y]
        return pre[hi + 1] & ~pre[max(lo - 1, 0)]

    def col(self, lev: int, x: int, y0: int, y1: int) -> int:
        """Tiles of level ``lev`` covering a cell of column ``x`` between rows ``y0`` and ``y1``."""
        lo, hi = (y0, y1) if y0 <= y1 else (y1, y0)
        pre = self.cols[lev][x]
        return pre[hi + 1] & ~pre[max(lo - 1, 0)]

    def path_bits(self, a: TileId, b: TileId) -> list[int]:
        """The minimal tile sets (bitsets, without ``a`` and ``b``) whose removal opens a
        chain joining ``a`` and ``b``, smallest first; ``[]`` when the two never pair
        (overlapping footprints).

        Notes
        -----
        Mirrors :func:`mjsat.shisen.connectable3d`: every chain has a middle segment on a
        row (or column) of the higher level, reached from each tile along one of its two
        columns (rows); from the lower of two tiles on different levels the reach has
        length zero (the middle segment starts above it). That is at most
        :math:`8 (h + w)` candidates of three segments each, plus the minimality filter.
        """
        ca, cb = self.cells[a], self.cells[b]
        if ca[2] > cb[2]:
            ca, cb = cb, ca
        if footprints_overlap(ca, cb):
            return []
        (ra, xa0, la), (rb, xb0, lb) = ca, cb
        same = la == lb
        drop = ~((1 << a) | (1 << b))
        sets: set[int] = set()

        def reach(lo: int, z: int) -> tuple[int, int]:
            """The cells from a tile's rows (cols) ``lo, lo + 1`` to ``z``, outside the tile."""
            if z < lo:
                return z, lo - 1
            if z > lo + 1:
                return lo + 2, z
            return -1, -1

        # middle segment on row y: a's column xa, row y from xa to xb, b's column xb
        ys = range(self.h) if same else (ra, ra + 1)
        for xa in (xa0, xa0 + 1):
            for xb in (xb0, xb0 + 1):
                for y in ys:
                    c = self.row(lb, y, xa, xb)
                    if same:
                        lo, hi = reach(ra, y)
                        if lo >= 0:
                            c |= self.col(lb, xa, lo, hi)
                    lo, hi = reach(rb, y)
                    if lo >= 0:
                        c |= self.col(lb, xb, lo, hi)
                    sets.add(c & drop)
        # middle segment on column x
        xs = range(self.w) if same else (xa0, xa0 + 1)
        for ya in (ra, ra + 1):
            for yb in (rb, rb + 1):
                for x in xs:
                    c = self.col(lb, x, ya, yb)
                    if same:
                        lo, hi = reach(xa0, x)
                        if lo >= 0:
                            c |= self.row(lb, ya, lo, hi)
                    lo, hi = reach(xb0, x)
                    if lo >= 0:
                        c |= self.row(lb, yb, lo, hi)
                    sets.add(c & drop)
        minimal: list[int] = []
        for s in sorted(sets, key=lambda m: (m.bit_count(), m)):
            if not any(m & ~s == 0 for m in minimal):
                minimal.append(s)
        return minimal
