"""The Shisen-Sho connection test on a grid with an empty margin.

Two tiles can be removed together when a path of at most three axis-parallel segments
(at most two turns) through empty cells joins them. The grid given here already carries a
margin of one empty cell all round, so the path may run one cell outside the board.

>>> import numpy as np
>>> occ = np.zeros((4, 5), dtype=bool)      # a 2 x 3 board with its margin
>>> occ[1, 1] = occ[1, 3] = occ[1, 2] = True
>>> connectable(occ, (1, 1), (1, 3))          # around the top, through the margin
True
"""

from __future__ import annotations

import numpy as np

__all__ = ["connectable"]


def _reach(occ: np.ndarray, y: int, x: int, other: tuple[int, int]) -> tuple[list[int], list[int]]:
    """Columns reachable along row ``y`` and rows along column ``x`` from (y, x) through
    empty cells (``other``, the partner tile, counts as empty)."""
    h, w = occ.shape

    def empty(r: int, c: int) -> bool:
        return not occ[r, c] or (r, c) == other

    cols = [x]
    c = x - 1
    while c >= 0 and empty(y, c):
        cols.append(c)
        c -= 1
    c = x + 1
    while c < w and empty(y, c):
        cols.append(c)
        c += 1
    rows = [y]
    r = y - 1
    while r >= 0 and empty(r, x):
        rows.append(r)
        r -= 1
    r = y + 1
    while r < h and empty(r, x):
        rows.append(r)
        r += 1
    return cols, rows


def _clear(segment: np.ndarray, inside: int) -> bool:
    """True iff the occupied cells of ``segment`` are only the ``inside`` endpoint tiles."""
    return int(np.count_nonzero(segment)) == inside


def connectable(occ: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True iff cells ``a`` and ``b`` are joined by a path of at most three segments.

    Parameters
    ----------
    occ : ndarray of bool, shape (h, w)
        Occupied cells, including the empty margin ring (not modified).
    a, b : (row, col)
        The two tiles' cells (occupied, distinct).

    Notes
    -----
    Every such path has one middle segment, horizontal or vertical, whose ends are
    reached from ``a`` and from ``b`` by straight empty runs. Scanning the reaches of both
    tiles and testing each candidate middle segment takes :math:`O((h + w)^2)` time and
    no copy of the grid.
    """
    if a == b:
        return False
    a_cols, a_rows = _reach(occ, a[0], a[1], b)
    b_cols, b_rows = _reach(occ, b[0], b[1], a)
    (ya, xa), (yb, xb) = a, b
    # middle segment horizontal, on row y: a goes vertically to (y, xa), b to (y, xb)
    b_row_set = set(b_rows)
    lo, hi = min(xa, xb), max(xa, xb)
    for y in a_rows:
        if y in b_row_set:
            inside = (y == ya) + (y == yb)
            if _clear(occ[y, lo : hi + 1], inside):
                return True
    # middle segment vertical, on column x
    b_col_set = set(b_cols)
    lo, hi = min(ya, yb), max(ya, yb)
    for x in a_cols:
        if x in b_col_set:
            inside = (x == xa) + (x == xb)
            if _clear(occ[lo : hi + 1, x], inside):
                return True
    return False
