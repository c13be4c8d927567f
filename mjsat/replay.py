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

import itertools
import sys
import threading
from collections.abc import Iterable, Sequence
from types import ModuleType

import numpy as np

from mjsat.board import Board, Move, normalize_move
from mjsat.shisen import connectable_masks

__all__ = ["InvalidSolutionError", "replay", "first_illegal", "check_solution", "COMPILED_AFTER"]

COMPILED_AFTER = 8
"""The table checks run compiled (:mod:`mjsat.replay_kernels`) once numba is loaded and this
process has checked this many solutions: a process that checks one answer does not pay for
loading them, one that checks many pays a few microseconds a check instead of tens."""


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
    _CHECKED[0] += 1
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


_CHECKED = [0]
"""Solutions checked by this process (a list: one counter, no lock needed for an estimate)."""
_KERNELS: list[ModuleType] = []
_KERNELS_LOCK = threading.Lock()


def _compiled() -> ModuleType | None:
    """:mod:`mjsat.replay_kernels` once numba is loaded and :data:`COMPILED_AFTER` solutions
    were checked (see there), else ``None``."""
    if _KERNELS:
        return _KERNELS[0]
    if _CHECKED[0] <= COMPILED_AFTER or "numba" not in sys.modules:
        return None
    with _KERNELS_LOCK:
        if not _KERNELS:
            from mjsat import replay_kernels

            _KERNELS.append(replay_kernels)
    return _KERNELS[0]


def _move_array(moves: Sequence[Sequence[int]], n: int) -> np.ndarray | None:
    """``moves`` as an ``int64[n // 2, 2]`` array, or ``None`` when they are not ``n // 2``
    pairs of integers (the tiles are not checked here)."""
    try:
        if len(moves) != n // 2 or 2 * len(moves) != n or set(map(len, moves)) - {2}:
            return None
        flat = list(itertools.chain.from_iterable(moves))
    except TypeError:  # not a sequence of pairs: replay names the move
        return None
    if any(t is bool or not issubclass(t, (int, np.integer)) for t in set(map(type, flat))):
        return None
    return np.fromiter(flat, dtype=np.int64, count=n).reshape(-1, 2)


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
    if n == 0:
        return len(moves) == 0
    arr = _move_array(moves, n)
    if arr is None:
        return False
    fast = _compiled()
    if fast is not None:
        return bool(fast._clears_sides(np.array(board.groups, dtype=np.int64), arr, board.rule_tables().csr))
    flat = arr.reshape(-1).astype(np.intp)
    if flat.min() < 0 or flat.max() >= n or (np.bincount(flat, minlength=n) != 1).any():
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
    fast = _compiled() if n and len(full_rows) <= _MAX_MASK_CELLS and len(full_cols) <= _MAX_MASK_CELLS else None
    if fast is not None:
        arr = _move_array(moves, n)
        if arr is None:
            return False
        rows_cols = board.layout.memo(("replay-grid-masks", board.kind), lambda: _mask_arrays(tables.masks))
        return bool(fast._clears_grid(np.array(groups, dtype=np.int64), arr, *tables.cell_arrays, *rows_cols))
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


_MAX_MASK_CELLS = 62
"""As :data:`mjsat.replay_kernels.MAX_MASK_CELLS` (not imported: that module loads numba)."""


def _mask_arrays(masks: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """The grid masks of :attr:`mjsat.board.GridTables.masks` as ``int64`` arrays."""
    rows, cols = masks
    return np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64)


TABLE_CHECKS = {"sides": _clears_sides, "grid-path": _clears_grid}
"""The table checks of :func:`check_solution` by :attr:`~mjsat.board.Board.kind`."""


def normalize_moves(moves: Iterable[Sequence[int]]) -> list[Move]:
    """Moves as ``(a, b)`` tuples with ``a < b``."""
    return [normalize_move(m[0], m[1]) for m in moves]
