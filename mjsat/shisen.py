"""The Shisen-Sho connection tests: on a grid of whole tiles, and on the Mahjong grid.

Two tiles can be removed together when a path of at most three axis-parallel segments
(at most two turns) through empty cells joins them. The grid given here already carries a
margin of one empty cell all round, so the path may run one cell outside the board.

:func:`connectable` is the rectangular game (one cell per tile); :func:`connectable3d`
is de Bondt (2020)'s Shisen-Sho in three dimensions on the half-tile grid of Mahjong layouts
(see :class:`mjsat.board.ShisenShoMahjongBoard` for the rules and why they reduce to the
rectangular game).

>>> import numpy as np
>>> occ = np.zeros((4, 5), dtype=bool)      # a 2 x 3 board with its margin
>>> occ[1, 1] = occ[1, 3] = occ[1, 2] = True
>>> connectable(occ, (1, 1), (1, 3))          # around the top, through the margin
True

References
----------
.. [dB20] M. de Bondt, "Solving Shisen-Sho boards", arXiv:2010.09014, 2020.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

__all__ = ["connectable", "connectable_masks", "connectable3d", "connecting_path", "connecting_path3d"]


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


def _clear_run(mask: int, p: int, size: int) -> tuple[int, int]:
    """The run ``lo..hi`` of clear bits of ``mask`` (bits ``0..size-1``) around its clear bit ``p``."""
    high = mask >> p
    hi = p + (high & -high).bit_length() - 2 if high else size - 1
    return (mask & ((1 << p) - 1)).bit_length(), hi


def connectable_masks(rows: Sequence[int], cols: Sequence[int], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """:func:`connectable` on the grid as bit masks, which a caller playing many moves on a
    small grid keeps and updates itself.

    Parameters
    ----------
    rows : sequence of int
        ``rows[y]`` has bit ``x`` set iff cell ``(y, x)`` is occupied (margin included).
    cols : sequence of int
        ``cols[x]`` has bit ``y`` set iff cell ``(y, x)`` is occupied.
    a, b : (y, x)
        The two tiles' cells, **already cleared** in ``rows`` and ``cols`` (the move
        removes them; the path may pass through neither but may end on both).

    Notes
    -----
    The middle segment lies on a row both tiles reach along their columns, or on a column
    both reach along their rows; each candidate is one mask test, so :math:`O(h + w)`
    integer operations.

    Examples
    --------
    >>> rows, cols = [0, 0b0100, 0], [0, 0, 0b010, 0, 0]   # a 1 x 3 board, tile in the middle
    >>> connectable_masks(rows, cols, (1, 1), (1, 3))       # over the middle tile, via the margin
    True
    """
    if a == b:
        return False
    (ya, xa), (yb, xb) = a, b
    h, w = len(rows), len(cols)
    ua, da = _clear_run(cols[xa], ya, h)
    ub, db = _clear_run(cols[xb], yb, h)
    x0, x1 = (xa, xb) if xa <= xb else (xb, xa)
    span = ((2 << (x1 - x0)) - 1) << x0
    for y in range(max(ua, ub), min(da, db) + 1):  # middle segment on row y
        if not rows[y] & span:
            return True
    la, ra = _clear_run(rows[ya], xa, w)
    lb, rb = _clear_run(rows[yb], xb, w)
    y0, y1 = (ya, yb) if ya <= yb else (yb, ya)
    span = ((2 << (y1 - y0)) - 1) << y0
    for x in range(max(la, lb), min(ra, rb) + 1):  # middle segment on column x
        if not cols[x] & span:
            return True
    return False


def _run(line: np.ndarray, lo: int, hi: int) -> tuple[int, int]:
    """Extend the cells ``lo..hi`` of a 1-D ``line`` through empty cells both ways."""
    while lo > 0 and not line[lo - 1]:
        lo -= 1
    while hi < line.shape[0] - 1 and not line[hi + 1]:
        hi += 1
    return lo, hi


def connectable3d(occ: np.ndarray, a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """True iff tiles ``a`` and ``b`` of the Mahjong grid form a Shisen-Sho pair (de Bondt (2020), 4.1).

    Parameters
    ----------
    occ : ndarray of bool, shape (levels, h, w)
        Occupied half-tile cells of each level, with an empty margin of one cell all
        round (not modified).
    a, b : (row, col, lev)
        The two tiles' top-left cells in ``occ`` coordinates (each tile covers
        ``row..row+1`` x ``col..col+1`` of its level). They need not be present: their own
        cells count as empty, and a tile lying on the other one never pairs with it.

    Returns
    -------
    bool
        Both tiles have nothing above them, and a chain of edge-adjacent half-cells with
        at most two turns (tiles on one level) or at most one turn (different levels; the
        pillar line from the lower tile up is the third line) runs through empty cells of
        the higher tile's level from a cell of the lower tile (or of its column of cells
        on the higher level) to a cell of the higher tile.

    Examples
    --------
    >>> occ = np.zeros((2, 4, 8), dtype=bool)   # 2 levels, 2 x 6 half-cells + margin
    >>> occ[0, 1:3, 1:7] = True                  # three tiles side by side on level 0
    >>> connectable3d(occ, (1, 1, 0), (1, 5, 0))   # around, through the margin
    True
    >>> occ[1, 1:3, 3:5] = True                  # a tile on the middle one
    >>> connectable3d(occ, (1, 1, 0), (1, 3, 1))   # up the pillar, then along level 1
    True
    >>> connectable3d(occ, (1, 1, 0), (1, 3, 0))   # the middle tile is covered
    False

    Notes
    -----
    Every such chain has a middle segment, horizontal or vertical, whose ends are reached
    from each tile by a straight run along one of the tile's two rows or two columns (for
    the lower of two tiles on different levels, a run of length zero). Scanning the
    reaches and testing each candidate middle segment takes :math:`O((h + w)^2)` time,
    plus :math:`O(\\text{levels})` for the two pillars.
    """
    if a[2] > b[2]:
        a, b = b, a
    (ra, ca, la), (rb, cb, lb) = a, b
    if abs(ra - rb) < 2 and abs(ca - cb) < 2:
        return False  # the same tile, or the higher one lies on the lower one
    for r, c, l in (a, b):
        if occ[l + 1 :, r : r + 2, c : c + 2].any():
            return False
    g = occ[lb].copy()
    g[rb : rb + 2, cb : cb + 2] = False
    same = la == lb
    if same:
        g[ra : ra + 2, ca : ca + 2] = False
    # middle segment horizontal, on row y: a goes down/up its column xa, b its column xb
    b_runs = [_run(g[:, xb], rb, rb + 1) for xb in (cb, cb + 1)]
    for xa in (ca, ca + 1):
        a0, a1 = _run(g[:, xa], ra, ra + 1) if same else (ra, ra + 1)
        for xb, (b0, b1) in zip((cb, cb + 1), b_runs):
            lo, hi = min(xa, xb), max(xa, xb)
            for y in range(max(a0, b0), min(a1, b1) + 1):
                if not g[y, lo : hi + 1].any():
                    return True
    # middle segment vertical, on column x
    b_runs = [_run(g[yb, :], cb, cb + 1) for yb in (rb, rb + 1)]
    for ya in (ra, ra + 1):
        a0, a1 = _run(g[ya, :], ca, ca + 1) if same else (ca, ca + 1)
        for yb, (b0, b1) in zip((rb, rb + 1), b_runs):
            lo, hi = min(ya, yb), max(ya, yb)
            for x in range(max(a0, b0), min(a1, b1) + 1):
                if not g[lo : hi + 1, x].any():
                    return True
    return False


def _fewest_turns(candidates: Sequence[Sequence[tuple[float, ...]]]) -> list[tuple[float, ...]] | None:
    """The candidate polyline with the fewest corners, then the shortest (repeated points
    and points inside a straight piece dropped)."""

    def axis(p: tuple[float, ...], q: tuple[float, ...]) -> int:
        diff = [k for k in range(len(p)) if p[k] != q[k]]
        return diff[0] if len(diff) == 1 else -1

    best: tuple[tuple[int, float], list[tuple[float, ...]]] | None = None
    for cand in candidates:
        pts: list[tuple[float, ...]] = []
        for p in cand:
            if pts and pts[-1] == p:
                continue
            if len(pts) >= 2 and axis(pts[-2], pts[-1]) == axis(pts[-1], p) != -1:
                pts[-1] = p
                continue
            pts.append(p)
        length = sum(sum(abs(u - v) for u, v in zip(p, q)) for p, q in itertools.pairwise(pts))
        key = (len(pts), length)
        if best is None or key < best[0]:
            best = (key, pts)
    return None if best is None else best[1]


def connecting_path(occ: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]] | None:
    """The cells where a path of at most three segments between ``a`` and ``b`` turns.

    The same test as :func:`connectable`; the answer is the polyline ``[a, ..., b]`` of
    grid cells (two to four points, consecutive points on one row or one column), the
    one with the fewest turns and then the shortest, or ``None`` when no path exists.

    >>> occ = np.zeros((4, 5), dtype=bool)
    >>> occ[1, 1] = occ[1, 3] = occ[1, 2] = True
    >>> connecting_path(occ, (1, 1), (1, 3))
    [(1, 1), (0, 1), (0, 3), (1, 3)]
    """
    if a == b:
        return None
    a_cols, a_rows = _reach(occ, a[0], a[1], b)
    b_cols, b_rows = _reach(occ, b[0], b[1], a)
    (ya, xa), (yb, xb) = a, b
    found: list[list[tuple[float, ...]]] = []
    lo, hi = min(xa, xb), max(xa, xb)
    for y in set(a_rows) & set(b_rows):
        if _clear(occ[y, lo : hi + 1], (y == ya) + (y == yb)):
            found.append([(ya, xa), (y, xa), (y, xb), (yb, xb)])
    lo, hi = min(ya, yb), max(ya, yb)
    for x in set(a_cols) & set(b_cols):
        if _clear(occ[lo : hi + 1, x], (x == xa) + (x == xb)):
            found.append([(ya, xa), (ya, x), (yb, x), (yb, xb)])
    best = _fewest_turns(found)
    return None if best is None else [(int(p[0]), int(p[1])) for p in best]


def connecting_path3d(
    occ: np.ndarray, a: tuple[int, int, int], b: tuple[int, int, int]
) -> list[tuple[float, float, int]] | None:
    """The polyline of a Shisen-Sho pair on the Mahjong grid, or ``None``.

    The same test as :func:`connectable3d`. Points are ``(row, col, lev)`` in ``occ``
    coordinates of half-cell centres (``row + 0.5``), except the two ends, which lie on
    the middle line of each tile (``row + 1`` or ``col + 1``) so that every piece is
    axis-parallel; a pillar line is a piece with one ``(row, col)`` and two levels.
    """
    if a[2] > b[2]:
        a, b = b, a
    (ra, ca, la), (rb, cb, lb) = a, b
    if abs(ra - rb) < 2 and abs(ca - cb) < 2:
        return None
    for r, c, l in (a, b):
        if occ[l + 1 :, r : r + 2, c : c + 2].any():
            return None
    g = occ[lb].copy()
    g[rb : rb + 2, cb : cb + 2] = False
    same = la == lb
    if same:
        g[ra : ra + 2, ca : ca + 2] = False
    found: list[list[tuple[float, float, int]]] = []
    b_runs = [_run(g[:, xb], rb, rb + 1) for xb in (cb, cb + 1)]
    for xa in (ca, ca + 1):
        a0, a1 = _run(g[:, xa], ra, ra + 1) if same else (ra, ra + 1)
        for xb, (b0, b1) in zip((cb, cb + 1), b_runs):
            lo, hi = min(xa, xb), max(xa, xb)
            for y in range(max(a0, b0), min(a1, b1) + 1):
                if not g[y, lo : hi + 1].any():
                    start = [(ra + 1.0, xa + 0.5, la)] if same else [(y + 0.5, xa + 0.5, la)]
                    found.append(start + [(y + 0.5, xa + 0.5, lb), (y + 0.5, xb + 0.5, lb), (rb + 1.0, xb + 0.5, lb)])
    b_runs = [_run(g[yb, :], cb, cb + 1) for yb in (rb, rb + 1)]
    for ya in (ra, ra + 1):
        a0, a1 = _run(g[ya, :], ca, ca + 1) if same else (ca, ca + 1)
        for yb, (b0, b1) in zip((rb, rb + 1), b_runs):
            lo, hi = min(ya, yb), max(ya, yb)
            for x in range(max(a0, b0), min(a1, b1) + 1):
                if not g[lo : hi + 1, x].any():
                    start = [(ya + 0.5, ca + 1.0, la)] if same else [(ya + 0.5, x + 0.5, la)]
                    found.append(start + [(ya + 0.5, x + 0.5, lb), (yb + 0.5, x + 0.5, lb), (yb + 0.5, cb + 1.0, lb)])
    best = _fewest_turns(found)
    return None if best is None else [(float(p[0]), float(p[1]), int(p[2])) for p in best]
