"""Replay: the one judge of every claimed solution.

Every solver's answer passes through :func:`check_solution` before it is printed: the
moves played on the layout's tables by the game's rules (counters of the tiles above and
beside each tile for Mahjong, :func:`mjsat.shisen.connectable_masks` for Shisen-Sho), and
:func:`replay` for the other games and for any move list the table check rejects.
:func:`replay` plays the moves one by one on a fresh copy of the board with the board's
rules and names the first illegal move and why, or the tiles left when the board is not
cleared.

>>> from mjsat.board import Layout, MahjongBoard
>>> board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
>>> replay(board, [(1, 2)])
Traceback (most recent call last):
...
mjsat.replay.InvalidSolutionError: move 1 (1, 2): tile 1 is blocked: tile 0 on its left, tile 2 on its right
>>> replay(board, [(0, 3), (1, 2)]).is_solved()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from mjsat.board import Board, Move, normalize_move
from mjsat.shisen import connectable_masks

__all__ = ["InvalidSolutionError", "replay", "first_illegal", "check_solution"]


class InvalidSolutionError(ValueError):
    """A move list that does not clear the board.

    Attributes
    ----------
    index : int or None
        0-based index of the first illegal move; ``None`` when every move was legal but
        tiles are left.
    move : tuple or None
    reason : str
    """

    def __init__(self, index: int | None, move: Sequence[int] | None, reason: str) -> None:
        self.index = index
        self.move = tuple(move) if move is not None else None
        self.reason = reason
        if index is None:
            super().__init__(reason)
        else:
            super().__init__(f"move {index + 1} {self.move}: {reason}")


def first_illegal(board: Board, moves: Iterable[Sequence[int]]) -> tuple[int, tuple[int, ...], str] | None:
    """``(index, move, reason)`` of the first illegal move from the board's start, or ``None``."""
    b = board.copy(stack=False)
    for i, m in enumerate(moves):
        reason = b.illegal_reason(m)
        if reason is not None:
            return i, tuple(m), reason
        b.push(m)
    return None


def replay(board: Board, moves: Iterable[Sequence[int]], *, require_clear: bool = True) -> Board:
    """Play ``moves`` from the start position of ``board`` and return the final board.

    Parameters
    ----------
    board : Board
        The deal (its current move stack is ignored; play starts from the full deal).
    moves : iterable of (a, b)
        Tile indices in the order the tiles stand in the board file.
    require_clear : bool, optional (default=True)
        Raise when tiles are left after the last move.

    Raises
    ------
    InvalidSolutionError
        At the first illegal move (tile blocked, groups differ, tile already gone, no
        Shisen-Sho path, unknown tile), or when the board is not cleared.

    Notes
    -----
    :math:`O(m \\cdot d)` for ``m`` moves and ``d`` the largest number of neighbours of a
    tile (Mahjong); a Shisen-Sho move costs :math:`O(hw)` for the grid copy.
    """
    b = board.copy(stack=False)
    count = 0
    for i, m in enumerate(moves):
        m = tuple(m)
        reason = b.illegal_reason(m)
        if reason is not None:
            raise InvalidSolutionError(i, m, reason)
        b.push(m)
        count += 1
    if require_clear and not b.is_solved():
        raise InvalidSolutionError(None, None, f"board not cleared: {b.remaining()} tiles left after {count} moves")
    return b


def check_solution(board: Board, moves: Sequence[Sequence[int]]) -> None:
    """Check that ``moves`` clear ``board`` from its full deal, as :func:`replay` does.

    The games whose rules have a table check (:data:`TABLE_CHECKS`, by
    :attr:`~mjsat.board.Board.kind`) play the moves on the layout's tables (the same
    relations the board's rules read) without building a board; a move list they reject,
    and every other game, goes through :func:`replay`, which names the first illegal move.

    Raises
    ------
    InvalidSolutionError
        As :func:`replay`.

    Notes
    -----
    ``"sides"`` games: :math:`O(m + e)` for ``m`` moves and ``e`` entries of the layout's
    relations; ``"grid-path"``: :math:`O(m (h + w)^2)`.
    """
    check = TABLE_CHECKS.get(board.kind)
    if check is not None and check(board, moves):
        return
    replay(board, moves)
    if check is not None:
        raise InvalidSolutionError(None, None, "the table check of the rules rejects a move list that replay accepts")


def _padded(ptr: np.ndarray, idx: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A CSR relation with tile ``n`` (a sentinel) put first in every row: ``(starts,
    idx)`` for ``numpy.maximum.reduceat``, which needs no empty rows."""
    return (ptr[:-1] + np.arange(n)).astype(np.intp), np.insert(idx, ptr[:-1], n).astype(np.intp)


def _sides_tables(board: Board) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The relations ``above``, ``one`` and ``two`` of :func:`_clears_sides`, padded
    (:func:`_padded`), kept by the layout."""
    tables = board.rule_tables()

    def build() -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        csr = tables.csr
        n = len(tables.above)
        return tuple(_padded(csr[2 * k], csr[2 * k + 1], n) for k in range(3))

    return board.layout.memo(("replay-sides", tables.sides), build)


def _clears_sides(board: Board, moves: Sequence[Sequence[int]]) -> bool:
    """Whether ``moves`` clear a ``"sides"`` board: every tile goes once, each move's two
    tiles are of one group, and when a tile goes at step ``i`` every tile above it went
    before ``i`` and so did every tile on one of its sides (tiles going at ``i`` or later
    are present at ``i``).

    Notes
    -----
    :math:`O(n + e)` array operations for ``n`` tiles and ``e`` entries of the layout's
    relations: each tile's step, then the latest step over each tile's relations.
    """
    n = len(board.groups)
    try:
        arr = np.asarray(moves)
    except (TypeError, ValueError):  # ragged or not numbers: replay names the move
        return False
    if n == 0:
        return arr.size == 0
    if arr.shape != (n // 2, 2) or 2 * len(arr) != n or arr.dtype.kind not in "iu":
        return False
    flat = arr.reshape(-1).astype(np.intp)
    if flat.min() < 0 or flat.max() >= n:
        return False
    if (np.bincount(flat, minlength=n) != 1).any():
        return False
    groups = np.asarray(board.groups)
    if (groups[flat[0::2]] != groups[flat[1::2]]).any():
        return False
    step = np.empty(n + 1, dtype=np.intp)
    step[n] = -1  # the sentinel of the padded relations
    step[flat] = np.repeat(np.arange(len(arr)), 2)
    mine = step[:n]
    (sa, ia), (so, io), (st, it) = _sides_tables(board)
    above = np.maximum.reduceat(step[ia], sa) < mine
    one = np.maximum.reduceat(step[io], so) < mine
    two = np.maximum.reduceat(step[it], st) < mine
    return bool((above & (one | two)).all())


def _present_pair(m: Sequence[int], present: bytearray) -> tuple[int, int] | None:
    """The two tiles of move ``m`` when it names two distinct present tiles, else ``None``."""
    if len(m) != 2:
        return None
    try:
        a, b = int(m[0]), int(m[1])
    except (TypeError, ValueError):
        return None
    n = len(present)
    if not (0 <= a < n and 0 <= b < n) or a == b or not (present[a] and present[b]):
        return None
    return a, b


def _clears_grid(board: Board, moves: Sequence[Sequence[int]]) -> bool:
    """Whether ``moves`` clear a ``"grid-path"`` board (Shisen-Sho): each move names two
    present tiles of one group joined by :func:`mjsat.shisen.connectable_masks` on the
    occupancy grid with its margin (the masks of the layout's grid tables)."""
    tables = board.rule_tables()
    cells = tables.cells
    groups = board.groups
    n = len(groups)
    full_rows, full_cols = tables.masks
    rows, cols = list(full_rows), list(full_cols)
    present = bytearray(b"\x01") * n
    for m in moves:
        ab = _present_pair(m, present)
        if ab is None or groups[ab[0]] != groups[ab[1]]:
            return False
        a, b = ab
        (ya, xa), (yb, xb) = cells[a], cells[b]
        rows[ya] &= ~(1 << xa)
        rows[yb] &= ~(1 << xb)
        cols[xa] &= ~(1 << ya)
        cols[xb] &= ~(1 << yb)
        if not connectable_masks(rows, cols, (ya, xa), (yb, xb)):
            return False
        present[a] = present[b] = 0
    return not any(present)


TABLE_CHECKS = {"sides": _clears_sides, "grid-path": _clears_grid}
"""The table checks of :func:`check_solution` by :attr:`~mjsat.board.Board.kind`."""


def normalize_moves(moves: Iterable[Sequence[int]]) -> list[Move]:
    """Moves as ``(a, b)`` tuples with ``a < b``."""
    return [normalize_move(m[0], m[1]) for m in moves]
