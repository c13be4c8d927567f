"""de Bondt [dB20]_, Theorems 2.1 and 2.2: isolated-stack Mahjong -> Shisen-Sho, with our gadgets.

The paper's supertile pictures are lost (design note section 6); this module uses a
supertile of our own, found by an exhaustive search over 3 x 3 patterns and proved below
and by machine. Every Mahjong tile of group ``a`` becomes this 3 x 3 block::

    B a C        a   the Mahjong tile (its group is the Mahjong group)
    D B E        B, C, D, E   four extra groups of two tiles, private to the block
    C E D

A stack becomes a column of blocks, its top tile's block on top; columns stand side by
side with their bottoms on one line. ``--to shisen-sho`` leaves an empty column between
neighbouring columns (so it takes any isolated-stack board, of any heights);
``--to shisen-rows`` puts them edge to edge: for the height-3 stacks of Theorem 3 that
is a full rectangle of exactly **9 rows** (Shisen-Sho "with few rows", Theorem 2.2, our
``k = 9``: each ``aab``/``abb`` stack becomes a 3-wide, 9-high tileblock).

Why it works
------------
1. **Lock.** While ``a`` is present, no extra pair of its block can go. With the block
   full, every pair lies on a diagonal of the block, with its two tiles' open sides
   facing away from each other (``B``: one tile is enclosed; ``C``: top-right vs
   bottom-left corner; ``D``: left side vs right/bottom; ``E``: right side vs bottom);
   any path between them must go round the block and needs four segments, even with
   everything outside the block empty. (Checked by :func:`supertile_checks`.) So the first
   tile of a block to go is ``a``.
2. **Unlock.** Once ``a`` is gone, the block clears inside its own 3 x 3 box whatever
   surrounds it: ``B`` (through ``a``'s cell), then ``E``, then ``D``, then ``C``, each
   with at most two segments.
3. **Only tops play.** The cell above ``a`` belongs to the block above (its bottom ``E``),
   locked while that block's ``a`` is present. So ``a`` is sealed on all four sides until
   the Mahjong tile above it is gone. Conversely, once every block above has lost its
   ``a``, their middle columns (``a``, ``B``, ``E``) can be emptied, and ``a`` sees the
   margin above the board: two such tiles join with three segments (up, across the
   margin, down).

So every Shisen-Sho clearing, read on the ``a`` tiles, is a Mahjong clearing of the stack
board, and every Mahjong clearing plays in Shisen-Sho (open the blocks, play the pair,
clear the emptied blocks): the image is solvable iff the stack board is. The tests
check this on thousands of random isolated-stack boards (any heights, groups of 2, 4
and 6 tiles) with the exact solver :func:`solve_shisen_exact` against the reference
solver on the stack board, in both placements.

>>> board, main = shisen_from_stacks([[0], [0]])
>>> board.grid_shape, len(board), main
((3, 7), 18, {(0, 0): 1, (1, 0): 10})
>>> sorted(board.legal_moves)
[(1, 10)]

References
----------
.. [dB20] M. de Bondt, "Solving Shisen-Sho boards", arXiv:2010.09014, 2020.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from mjsat.board import Layout, Move, ShisenShoBoard, TileId
from mjsat.limits import MAX_TILES
from mjsat.reductions.cnf import Formula3
from mjsat.reductions.stacks import StackReduction, _provenance, reduce_to_stacks, stack_sizes
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, SolveResult
from mjsat.shisen import connectable

__all__ = [
    "SUPERTILE",
    "SUPERTILE_A",
    "UNLOCK_ORDER",
    "ShisenReduction",
    "shisen_from_stacks",
    "reduce_to_shisen",
    "solve_shisen_exact",
    "supertile_checks",
]

SUPERTILE: tuple[str, ...] = ("BaC", "DBE", "CED")
"""The 3 x 3 block of one Mahjong tile: ``a`` is the tile, letters are private pairs."""
UNLOCK_ORDER = "BEDC"
"""The order in which a block's extra pairs go once its ``a`` has gone."""
_H = len(SUPERTILE)
_W = len(SUPERTILE[0])
SUPERTILE_A = "".join(SUPERTILE).index("a")
"""Where ``a`` stands in a block's tiles (numbered row by row)."""


def shisen_from_stacks(
    stacks: Sequence[Sequence[int]],
    *,
    gap: int = 1,
    names: dict[int, str] | None = None,
) -> tuple[ShisenShoBoard, dict[tuple[int, int], TileId]]:
    """The Shisen-Sho image of an isolated-stack board (groups top first per stack).

    Parameters
    ----------
    stacks : list of lists of int
    gap : int (default 1)
        Empty grid columns between neighbouring block columns (0: edge to edge).
    names : dict, optional
        Names of the stack board's groups; extra groups are named ``<letter><stack>.<level>``.

    Returns
    -------
    (ShisenShoBoard, dict)
        The board and the tile of each ``(stack, level from the top)``'s ``a``. Tiles are
        numbered block by block (stack order, top block first), row by row in a block.

    Notes
    -----
    :math:`O(9T)` for ``T`` stack tiles.
    """
    if gap < 0:
        raise ValueError(f"gap must be non-negative, got {gap}")
    if not stacks or any(len(s) == 0 for s in stacks):
        raise ValueError("need at least one stack, and no empty stacks")
    height = max(len(s) for s in stacks)
    base = max(int(g) for s in stacks for g in s) + 1
    positions: list[tuple[int, int, int]] = []
    groups: list[int] = []
    main: dict[tuple[int, int], TileId] = {}
    out_names = dict(names or {})
    for s, st in enumerate(stacks):
        x0 = s * (_W + gap)
        for k, g in enumerate(st):
            y0 = (height - len(st) + k) * _H
            extra: dict[str, int] = {}
            for dy, row in enumerate(SUPERTILE):
                for dx, ch in enumerate(row):
                    if ch == "a":
                        main[(s, k)] = len(positions)
                        gg = int(g)
                    else:
                        if ch not in extra:
                            extra[ch] = base
                            out_names[base] = f"{ch}{s}.{k}"
                            base += 1
                        gg = extra[ch]
                    positions.append((2 * (y0 + dy), 2 * (x0 + dx), 0))
                    groups.append(gg)
    board = ShisenShoBoard(Layout(positions, name="supertile-columns"), groups, names=out_names)
    return board, main


@dataclasses.dataclass
class ShisenReduction:
    """The Shisen-Sho image of a formula's Theorem 3 board.

    ``main[(s, k)]`` is the tile standing for tile ``3s + k`` of :attr:`stack`'s board.
    """

    stack: StackReduction
    board: ShisenShoBoard
    main: dict[tuple[int, int], TileId]
    gap: int

    def __post_init__(self) -> None:
        self._inverse = {t: 3 * s + k for (s, k), t in self.main.items()}

    def to_stack_tile(self, t: TileId) -> TileId | None:
        """The stack-board tile that image tile ``t`` stands for (``None`` for extras)."""
        return self._inverse.get(t)

    def source_stack(self, t: TileId) -> int:
        """The stack of :attr:`stack` whose column holds image tile ``t``'s block."""
        size = _H * _W
        return self._inverse[t - t % size + SUPERTILE_A] // 3

    def lift_moves(self, moves: Sequence[Move]) -> list[Move]:
        """The stack-board moves of an image move list (the ``a`` moves, in order)."""
        out: list[Move] = []
        for a, b in moves:
            sa, sb = self.to_stack_tile(a), self.to_stack_tile(b)
            if sa is not None and sb is not None:
                out.append((min(sa, sb), max(sa, sb)))
        return out

    def lower_moves(self, stack_moves: Sequence[Move]) -> list[Move]:
        """Image moves playing ``stack_moves``: after each pair of ``a`` tiles, their two
        blocks are cleared in :data:`UNLOCK_ORDER` (always legal by the unlock property)."""
        out: list[Move] = []
        for a, b in stack_moves:
            ta, tb = self.main[divmod(a, 3)], self.main[divmod(b, 3)]
            out.append((min(ta, tb), max(ta, tb)))
            for t in (ta, tb):
                out.extend(_block_clearing(t))
        return out


def _block_clearing(a_tile: TileId) -> list[Move]:
    """The extra moves of the block whose ``a`` is ``a_tile``, in unlock order."""
    first = a_tile - SUPERTILE[0].index("a")
    cells = [ch for row in SUPERTILE for ch in row]
    out = []
    for ch in UNLOCK_ORDER:
        i, j = (k for k, c in enumerate(cells) if c == ch)
        out.append((first + i, first + j))
    return out


def reduce_to_shisen(formula: Formula3, *, gap: int = 1, meta: dict[str, Any] | None = None) -> ShisenReduction:
    """Build the Shisen-Sho image of a formula's Theorem 3 board.

    Parameters
    ----------
    formula : Formula3
    gap : int
        1 for ``--to shisen-sho`` (block columns apart), 0 for ``--to shisen-rows`` (a full
        rectangle of 9 rows).

    Notes
    -----
    :math:`O(n + m)`; nine tiles per stack tile (``216 + 324n + 324m`` tiles).
    """
    tiles = 9 * stack_sizes(formula.n_vars, formula.n_clauses)["tiles"]
    MAX_TILES.check(tiles, f"the {'shisen-rows' if gap == 0 else 'shisen-sho'} board of this formula")
    st = reduce_to_stacks(formula)
    board, main = shisen_from_stacks(st.stack_groups.tolist(), gap=gap, names=dict(enumerate(st.names)))
    board.layout.name = "3sat-shisen-rows" if gap == 0 else "3sat-shisen"
    board.meta.update(_provenance(formula, "shisen-rows" if gap == 0 else "shisen-sho"))
    board.meta["supertile"] = list(SUPERTILE)
    board.meta.update(meta or {})
    if len(st) <= 3000:
        board.meta["gadgets"] = [
            {
                "label": label,
                "tiles": [t for s in ss for k in range(3) for t in range(main[(s, k)] - 1, main[(s, k)] + 8)],
            }
            for label, ss in st.gadgets()
        ]
    return ShisenReduction(st, board, main, gap)


# --------------------------------------------------------------------------- checks


def supertile_checks() -> dict[str, bool]:
    """Machine checks of the block's three properties on a block alone.

    * ``lock``: on the full block with everything around it empty (the most paths
      possible), no extra pair is joined by a path of at most three segments;
    * ``unlock``: with ``a`` gone and the block walled in on all sides, the extra pairs
      go in :data:`UNLOCK_ORDER`, each joined when its turn comes;
    * ``sealed``: with a blocker tile on ``a``'s top side, ``a`` joins nothing.

    >>> supertile_checks()
    {'lock': True, 'unlock': True, 'sealed': True}
    """
    cells = {(y, x): ch for y, row in enumerate(SUPERTILE) for x, ch in enumerate(row)}
    pairs = {ch: [c for c, v in cells.items() if v == ch] for ch in set(cells.values()) - {"a"}}
    # grid with a margin of one empty cell (the most the rules allow around a board)
    occ = np.zeros((_H + 2, _W + 2), dtype=bool)
    for y, x in cells:
        occ[y + 1, x + 1] = True
    lock = not any(connectable(occ, (p[0][0] + 1, p[0][1] + 1), (p[1][0] + 1, p[1][1] + 1)) for p in pairs.values())
    # walled in: the block in the middle of a full 5 x 5 area, a removed
    walled = np.ones((_H + 4, _W + 4), dtype=bool)
    walled[0, :] = walled[-1, :] = walled[:, 0] = walled[:, -1] = False
    ay, ax = next(c for c, v in cells.items() if v == "a")
    walled[ay + 2, ax + 2] = False
    unlock = True
    for ch in UNLOCK_ORDER:
        (y1, x1), (y2, x2) = pairs[ch]
        if not connectable(walled, (y1 + 2, x1 + 2), (y2 + 2, x2 + 2)):
            unlock = False
            break
        walled[y1 + 2, x1 + 2] = walled[y2 + 2, x2 + 2] = False
    # sealed: block with one tile above a, everything else around empty; a joins no cell
    sealed_grid = np.zeros((_H + 4, _W + 4), dtype=bool)
    for y, x in cells:
        sealed_grid[y + 2, x + 2] = True
    sealed_grid[ay + 1, ax + 2] = True
    free = [(y, x) for y in range(sealed_grid.shape[0]) for x in range(sealed_grid.shape[1]) if not sealed_grid[y, x]]
    sealed = True
    for y, x in free:
        probe = sealed_grid.copy()
        probe[y, x] = True
        if connectable(probe, (ay + 2, ax + 2), (y, x)):
            sealed = False
            break
    return {"lock": lock, "unlock": unlock, "sealed": sealed}


class _Limit(Exception):
    pass


def solve_shisen_exact(
    board: ShisenShoBoard,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    node_limit: int = 1_000_000,
) -> SolveResult:
    """Decide a Shisen-Sho board exactly: depth-first search with safe moves and a memo.

    A group with exactly two tiles left whose tiles are joined is removed at once
    without branching (safe: removing tiles never blocks a path, so moving that pair to
    the front of any clearing keeps it a clearing). The search branches only on groups
    with four or more tiles left and remembers dead positions. On the supertile images
    every extra group is a two-tile group, so the search branches exactly as a Mahjong
    search on the stack board would.

    Parameters
    ----------
    board : ShisenShoBoard
    time_limit : float or None
    seed : int
        Unused (deterministic); for the common interface.
    node_limit : int
        Branching positions to expand before answering ``unknown``.

    Notes
    -----
    Exponential in the worst case: one expansion per reachable position after safe
    moves, each costing :math:`O(G (h + w)^2)` pair tests for ``G`` groups on an
    ``h x w`` grid.
    """
    if board.kind != "grid-path":
        raise ValueError(f"solve_shisen_exact needs a Shisen-Sho board, not {board.game}")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    n = len(board)
    cells = [(y + 1, x + 1) for y, x in board.cells]
    h, w = board.grid_shape
    occ = np.zeros((h + 2, w + 2), dtype=bool)
    for t in range(n):
        occ[cells[t]] = True
    members = [ts for _, ts in sorted(board.group_members().items())]
    present = bytearray(b"\x01") * n
    dead: set[bytes] = set()
    path: list[Move] = []
    nodes = 0

    def joined(a: int, b: int) -> bool:
        return connectable(occ, cells[a], cells[b])

    def remove(a: int, b: int) -> None:
        present[a] = present[b] = 0
        occ[cells[a]] = occ[cells[b]] = False
        path.append((a, b))

    def undo(k: int) -> None:
        for _ in range(k):
            a, b = path.pop()
            present[a] = present[b] = 1
            occ[cells[a]] = occ[cells[b]] = True

    def dfs(left: int) -> bool:
        nonlocal nodes
        done = 0
        changed = True
        while changed:
            changed = False
            for ts in members:
                live = [t for t in ts if present[t]]
                if len(live) == 2 and joined(live[0], live[1]):
                    remove(live[0], live[1])
                    done += 1
                    left -= 2
                    changed = True
        if left == 0:
            return True
        key = bytes(present)
        if key not in dead:
            nodes += 1
            if nodes > node_limit:
                raise _Limit("node limit")
            if deadline is not None and nodes % 64 == 0 and time.monotonic() > deadline:
                raise _Limit("time limit")
            for ts in members:
                live = [t for t in ts if present[t]]
                if len(live) < 4:
                    continue
                for a, b in itertools.combinations(live, 2):
                    if joined(a, b):
                        remove(a, b)
                        if dfs(left - 2):
                            return True
                        undo(1)
            dead.add(key)
        undo(done)
        return False

    try:
        found = dfs(n)
    except _Limit as exc:
        return SolveResult(UNKNOWN, "shisen-exact", reason=str(exc), stats={"nodes": nodes})
    stats = {"nodes": nodes, "dead": len(dead)}
    if found:
        return SolveResult(SOLVABLE, "shisen-exact", moves=list(path), stats=stats)
    return SolveResult(UNSOLVABLE, "shisen-exact", stats=stats)
