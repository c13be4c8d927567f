"""Corollary 4 of de Bondt (2012): one-level Mahjong Solitaire (isolated rows) is NP-complete.

Every stack ``[p, q, r]`` (top first) of the Theorem 3 board becomes an isolated
horizontal row of seven tiles ``p q r c c c c`` on level 0, where ``c`` is a fresh group
of four tiles for that row (named ``c<k>`` after the row). A tile of a row is free iff it
is the leftmost or the rightmost tile left in its row, so the ``c`` block keeps the right
end busy until ``p``, ``q`` and ``r`` have gone from the left in stack order; then
``c c c c`` clears itself as two end pairs. Hence the rows board is solvable iff the
stack board is, iff the formula is satisfiable.

Sizes: ``8 + 12n + 12m`` rows, ``56 + 84n + 84m`` tiles, ``14 + 21n + 21m`` groups.

>>> from mjsat.reductions.cnf import normalize_3cnf
>>> red = reduce_to_rows(normalize_3cnf([[1]]))
>>> len(red.board), len(red.board.group_sizes())
(224, 56)
>>> [red.board.group_label(red.board.groups[t]) for t in range(7)]
['x1', 'x1', 'x2', 'c0', 'c0', 'c0', 'c0']

References
----------
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from mjsat.board import Layout, MahjongBoard, Move, TileId
from mjsat.encoders.clauses import gc_paused
from mjsat.limits import MAX_TILES
from mjsat.reductions.cnf import Formula3
from mjsat.reductions.stacks import StackReduction, _provenance, flow_positions, reduce_to_stacks

__all__ = ["RowReduction", "reduce_to_rows", "row_sizes", "rows_from_stacks"]

ROW = 7


def row_sizes(n: int, m: int) -> dict[str, int]:
    """Rows, tiles and groups of the Corollary 4 board.

    >>> row_sizes(3, 8)
    {'rows': 140, 'tiles': 980, 'groups': 245}
    """
    s = 8 + 12 * n + 12 * m
    return {"rows": s, "tiles": ROW * s, "groups": s + (6 + 9 * n + 9 * m)}


@dataclasses.dataclass
class RowReduction:
    """The rows board of a formula and its stack board.

    Row ``k`` holds tiles ``7k .. 7k+6``; tiles ``7k, 7k+1, 7k+2`` are the top, middle and
    bottom tile of stack ``k`` of :attr:`stack` (tiles ``3k, 3k+1, 3k+2`` there).
    """

    stack: StackReduction
    board: MahjongBoard

    def to_stack_tile(self, t: TileId) -> TileId | None:
        """The stack-board tile a rows-board tile stands for (``None`` for ``c`` tiles)."""
        k, i = divmod(t, ROW)
        return 3 * k + i if i < 3 else None

    def source_stack(self, t: TileId) -> int:
        """The stack of :attr:`stack` that rows-board tile ``t``'s row stands for."""
        return t // ROW

    def lift_moves(self, moves: Sequence[Move]) -> list[Move]:
        """The stack-board moves of a rows-board move list (``c`` moves dropped)."""
        out: list[Move] = []
        for a, b in moves:
            sa, sb = self.to_stack_tile(a), self.to_stack_tile(b)
            if (sa is None) != (sb is None):
                raise ValueError(f"move ({a}, {b}) pairs a c tile with a stack tile")
            if sa is not None and sb is not None:
                out.append((min(sa, sb), max(sa, sb)))
        return out

    def lower_moves(self, stack_moves: Sequence[Move]) -> list[Move]:
        """Rows-board moves playing ``stack_moves``; each row's ``c`` block goes as soon
        as its three stack tiles have gone."""
        return _lower(stack_moves, 3)


def _lower(stack_moves: Sequence[Move], height: int) -> list[Move]:
    gone: dict[int, int] = {}
    out: list[Move] = []
    for a, b in stack_moves:
        ka, ia = divmod(a, height)
        kb, ib = divmod(b, height)
        out.append((ROW * ka + ia, ROW * kb + ib) if a < b else (ROW * kb + ib, ROW * ka + ia))
        for k in (ka, kb):
            gone[k] = gone.get(k, 0) + 1
            if gone[k] == height:
                out.append((ROW * k + 3, ROW * k + 6))
                out.append((ROW * k + 4, ROW * k + 5))
    return out


def rows_from_stacks(
    stacks: Sequence[Sequence[int]] | np.ndarray,
    *,
    names: dict[int, str] | None = None,
    positions: Sequence[tuple[int, int]] | np.ndarray | None = None,
) -> MahjongBoard:
    """The one-level rows board of a list of height-3 stacks (groups top first).

    Row ``k`` is ``p q r c c c c`` with a fresh group ``c`` numbered after the stacks'
    groups. Rows stand 16 half-units apart in lines 4 half-units apart, so none touch.
    ``stacks`` may be a list of lists or an ``(S, 3)`` integer array.

    >>> b = rows_from_stacks([[0, 0, 1], [1, 0, 0]])
    >>> len(b), [b.group_label(g) for g in b.groups[:7]]
    (14, ['0', '0', '1', 'c0', 'c0', 'c0', 'c0'])

    Notes
    -----
    :math:`O(T)` for ``T`` tiles (numpy), plus the board's own checks.
    """
    if isinstance(stacks, np.ndarray) and stacks.ndim == 2 and stacks.shape[1] == 3:
        arr = stacks.astype(np.int64)
    elif all(len(st) == 3 for st in stacks):
        arr = np.asarray([list(st) for st in stacks], dtype=np.int64).reshape(-1, 3)
    else:
        raise ValueError("rows_from_stacks needs stacks of height 3")
    if positions is None:
        positions = flow_positions([len(arr)], item_width=2 * ROW + 2, line_height=4)
    pos_rc = np.asarray(positions, dtype=np.int64).reshape(-1, 2)[: len(arr)]
    arr = arr[: len(pos_rc)]
    n_rows = len(arr)
    base = int(arr.max()) + 1 if n_rows else 0
    groups = np.empty((n_rows, ROW), dtype=np.int64)
    groups[:, :3] = arr
    groups[:, 3:] = (base + np.arange(n_rows, dtype=np.int64))[:, None]
    pos = np.zeros((n_rows, ROW, 3), dtype=np.int64)
    pos[:, :, 0] = pos_rc[:, 0, None]
    pos[:, :, 1] = pos_rc[:, 1, None] + 2 * np.arange(ROW, dtype=np.int64)
    out_names = dict(names or {})
    out_names.update({base + k: f"c{k}" for k in range(n_rows)})
    with gc_paused():
        layout = Layout(pos.reshape(-1, 3), name="isolated-rows")
        return MahjongBoard(layout, groups.reshape(-1), names=out_names)


def reduce_to_rows(formula: Formula3, *, meta: dict[str, Any] | None = None) -> RowReduction:
    """Build the Corollary 4 rows board of a formula with three literals per clause.

    The stack reduction underneath keeps its arrays; its own board is built only if a
    witness map asks for it.

    Notes
    -----
    :math:`O(n + m)`. Solvable iff the formula is satisfiable (de Bondt (2012), Corollary 4).
    """
    MAX_TILES.check(row_sizes(formula.n_vars, formula.n_clauses)["tiles"], "the rows board of this formula")
    st = reduce_to_stacks(formula)
    positions = flow_positions(np.diff(st.gadget_starts), item_width=2 * ROW + 2, line_height=4)
    board = rows_from_stacks(st.stack_groups, names=dict(enumerate(st.names)), positions=positions)
    board.layout.name = "3sat-rows"
    board.meta.update(_provenance(formula, "rows"))
    board.meta.update(meta or {})
    if len(st) <= 3000:
        board.meta["gadgets"] = st.gadget_tiles(ROW)
    return RowReduction(st, board)
