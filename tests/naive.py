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
