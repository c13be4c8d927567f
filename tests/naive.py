"""Slow, obviously-correct references for the tests (stumpy's tests/naive.py).

Nothing here uses the layout tables of mjsat.board: freeness is recomputed from the raw
positions, and Shisen-Sho paths are found by breadth-first search over (cell, direction,
turns) states.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import numpy as np

Pos = tuple[int, int, int]


def naive_free(positions: Sequence[Pos], present: Sequence[bool], t: int, *, transposed: bool = False) -> bool:
    r, c, l = positions[t]
    one = two = False
    for u, (ru, cu, lu) in enumerate(positions):
        if u == t or not present[u]:
            continue
        if lu == l + 1 and abs(ru - r) < 2 and abs(cu - c) < 2:
            return False
        if lu != l:
            continue
        if not transposed:
            if abs(ru - r) < 2 and cu == c - 2:
                one = True
            if abs(ru - r) < 2 and cu == c + 2:
                two = True
        else:
            if abs(cu - c) < 2 and ru == r - 2:
                one = True
            if abs(cu - c) < 2 and ru == r + 2:
                two = True
    return not (one and two)


def naive_mahjong_moves(positions, groups, present, *, transposed=False):
    free = [t for t in range(len(positions)) if present[t] and naive_free(positions, present, t, transposed=transposed)]
    return [(a, b) for i, a in enumerate(free) for b in free[i + 1 :] if groups[a] == groups[b]]


def bfs_connectable(occ: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """At most two turns through empty cells from a to b (occ includes the margin)."""
    h, w = occ.shape
    dirs = ((0, 1), (1, 0), (0, -1), (-1, 0))
    best: dict[tuple[int, int, int], int] = {}
    queue: deque[tuple[int, int, int, int]] = deque()
    for d in range(4):
        queue.append((a[0], a[1], d, 0))
        best[(a[0], a[1], d)] = 0
    while queue:
        y, x, d, turns = queue.popleft()
        for nd in range(4):
            nt = turns + (nd != d)
            if nt > 2:
                continue
            ny, nx = y + dirs[nd][0], x + dirs[nd][1]
            if not (0 <= ny < h and 0 <= nx < w):
                continue
            if (ny, nx) == b:
                return True
            if occ[ny, nx]:
                continue
            if best.get((ny, nx, nd), 99) <= nt:
                continue
            best[(ny, nx, nd)] = nt
            queue.append((ny, nx, nd, nt))
    return False


def brute_force_solvable(board) -> tuple[bool, list[tuple[int, int]]]:
    """Try every move order (no memo), with moves from the naive rules."""
    positions = board.layout.positions
    groups = board.groups
    n = len(positions)
    present = [True] * n
    game = board.game
    path: list[tuple[int, int]] = []

    def moves():
        if game == "shisen-sho":
            occ = np.zeros((board.grid_shape[0] + 2, board.grid_shape[1] + 2), dtype=bool)
            for t, (y, x) in enumerate(board.cells):
                if present[t]:
                    occ[y + 1, x + 1] = True
            live = [t for t in range(n) if present[t]]
            return [
                (a, b)
                for i, a in enumerate(live)
                for b in live[i + 1 :]
                if groups[a] == groups[b]
                and bfs_connectable(
                    occ, (board.cells[a][0] + 1, board.cells[a][1] + 1), (board.cells[b][0] + 1, board.cells[b][1] + 1)
                )
            ]
        return naive_mahjong_moves(positions, groups, present, transposed=game == "mahjong-transposed")

    def rec(left: int) -> bool:
        if left == 0:
            return True
        for a, b in moves():
            present[a] = present[b] = False
            path.append((a, b))
            if rec(left - 2):
                return True
            path.pop()
            present[a] = present[b] = True
        return False

    ok = rec(n)
    return ok, list(path)


def naive_moves(board, present) -> set[tuple[int, int]]:
    """The moves ``(a, b)``, ``a < b``, playable on ``board`` with the tiles ``present``
    (Mahjong, transposed Mahjong, rectangular Shisen-Sho), by the naive rules above."""
    present = [bool(v) for v in present]
    n = len(present)
    groups = board.groups
    if board.game == "shisen-sho":
        occ = np.zeros((board.grid_shape[0] + 2, board.grid_shape[1] + 2), dtype=bool)
        cell = [(y + 1, x + 1) for y, x in board.cells]
        for t in range(n):
            if present[t]:
                occ[cell[t]] = True
        live = [t for t in range(n) if present[t]]
        return {
            (a, b)
            for i, a in enumerate(live)
            for b in live[i + 1 :]
            if groups[a] == groups[b] and bfs_connectable(occ, cell[a], cell[b])
        }
    pairs = naive_mahjong_moves(board.layout.positions, groups, present, transposed=board.game == "mahjong-transposed")
    return {(min(a, b), max(a, b)) for a, b in pairs}


def naive_xorshift(x: int) -> int:
    """One step of the 64-bit xorshift generator (13, 7, 17) of the random playouts."""
    mask = (1 << 64) - 1
    x ^= (x << 13) & mask
    x ^= x >> 7
    x ^= (x << 17) & mask
    return x


class NaiveBitsets:
    """The bitset pair test of de Bondt (2020), Theorems 3.2 and 3.3, in plain Python ints:
    the reference of :mod:`mjsat.search.kernels_bits`.

    One level of occupancy ``occ`` (``h x w`` bool, margin included) as a word per row and
    per column, and a disjunction tree over each (heap numbering: node ``k`` has children
    ``2k`` and ``2k + 1``, line ``i`` is leaf ``N + i``).
    """

    def __init__(self, occ: np.ndarray) -> None:
        self.h, self.w = occ.shape
        self.rows = [sum(1 << x for x in range(self.w) if occ[y, x]) for y in range(self.h)]
        self.cols = [sum(1 << y for y in range(self.h) if occ[y, x]) for x in range(self.w)]
        self.row_tree = self._tree(self.rows)
        self.col_tree = self._tree(self.cols)

    @staticmethod
    def _tree(lines: list[int]) -> list[int]:
        leaves = 1 << max(0, len(lines) - 1).bit_length()
        tree = [0] * (2 * leaves)
        tree[leaves : leaves + len(lines)] = lines
        for k in range(leaves - 1, 0, -1):
            tree[k] = tree[2 * k] | tree[2 * k + 1]
        return tree

    @staticmethod
    def _or(tree: list[int], lo: int, hi: int) -> int:
        """Disjunction of the lines ``lo..hi`` read from the tree's nodes, bottom-up."""
        leaves = len(tree) // 2
        acc, left, right = 0, lo + leaves, hi + leaves + 1
        while left < right:
            if left & 1:
                acc |= tree[left]
                left += 1
            if right & 1:
                right -= 1
                acc |= tree[right]
            left, right = left // 2, right // 2
        return acc

    @staticmethod
    def _span(lo: int, hi: int) -> int:
        return ((1 << (hi + 1)) - (1 << lo)) if lo <= hi else 0

    @classmethod
    def _run(cls, line: int, lo: int, hi: int, length: int) -> int:
        """The empty run through cells ``lo..hi`` (clear in ``line``), by bit scans."""
        start = (line & ((1 << lo) - 1)).bit_length()
        above = line >> (hi + 1)
        end = length - 1 if above == 0 else hi + (above & -above).bit_length() - 1
        return cls._span(start, end)

    def connect(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """The rectangle's pair test of cells ``a`` and ``b`` (their own occupancy ignored)."""
        if a == b:
            return False
        (ya, xa), (yb, xb) = a, b
        row_a = self.rows[ya] & ~(1 << xa) & ~((1 << xb) if ya == yb else 0)
        row_b = self.rows[yb] & ~(1 << xb) & ~((1 << xa) if ya == yb else 0)
        col_a = self.cols[xa] & ~(1 << ya) & ~((1 << yb) if xa == xb else 0)
        col_b = self.cols[xb] & ~(1 << yb) & ~((1 << ya) if xa == xb else 0)
        common = self._run(row_a, xa, xa, self.w) & self._run(row_b, xb, xb, self.w)
        if common & ~self._or(self.row_tree, min(ya, yb) + 1, max(ya, yb) - 1):
            return True
        common = self._run(col_a, ya, ya, self.h) & self._run(col_b, yb, yb, self.h)
        return bool(common & ~self._or(self.col_tree, min(xa, xb) + 1, max(xa, xb) - 1))

    def lines3d(self, a: tuple[int, int], b: tuple[int, int], same: bool) -> bool:
        """The Mahjong grid's lines on this level between tiles with top-left cells ``a``
        and ``b`` (``same``: both on it, else ``a`` comes up its pillar)."""
        (ra, ca), (rb, cb) = a, b
        a_rows, a_cols, b_rows, b_cols = (self._span(v, v + 1) for v in (ra, ca, rb, cb))
        for words, other, tree, length, (pa, qa), (pb, qb), mine_a, mine_b, across_a, across_b in (
            (self.cols, self.rows, self.col_tree, self.h, (ra, ca), (rb, cb), a_rows, b_rows, a_cols, b_cols),
            (self.rows, self.cols, self.row_tree, self.w, (ca, ra), (cb, rb), a_cols, b_cols, a_rows, b_rows),
        ):
            # lines along a's and b's two columns (first) or rows; the middle line across them
            own = mine_b | (mine_a if same else 0)
            for xa in (qa, qa + 1):
                reach_a = mine_a
                if same:
                    line = words[xa] & ~mine_a & ~(mine_b if xa in (qb, qb + 1) else 0)
                    reach_a = self._run(line, pa, pa + 1, length)
                for xb in (qb, qb + 1):
                    line = words[xb] & ~mine_b & ~(mine_a if same and xb in (qa, qa + 1) else 0)
                    common = reach_a & self._run(line, pb, pb + 1, length)
                    lo, hi = min(xa, xb), max(xa, xb)
                    if common & ~own & ~self._or(tree, lo, hi):
                        return True
                    for y in range(length):
                        if common & own & (1 << y):
                            cells = other[y] & ~(across_b if y in (pb, pb + 1) else 0)
                            cells &= ~(across_a if same and y in (pa, pa + 1) else 0)
                            if not cells & self._span(lo, hi):
                                return True
        return False


def naive_bits_connect3d(occ: np.ndarray, a: Pos, b: Pos) -> bool:
    """:func:`mjsat.shisen.connectable3d` with :class:`NaiveBitsets` for the lines (``occ``:
    levels x rows x columns, margin included; ``a``, ``b``: top-left cells and levels)."""
    if a[2] > b[2]:
        a, b = b, a
    (ra, ca, la), (rb, cb, lb) = a, b
    if abs(ra - rb) < 2 and abs(ca - cb) < 2:
        return False
    for r, c, l in (a, b):
        if occ[l + 1 :, r : r + 2, c : c + 2].any():
            return False
    return NaiveBitsets(occ[lb]).lines3d((ra, ca), (rb, cb), la == lb)
