"""Replay: the one judge of every claimed solution.

Every solver's answer passes through :func:`replay` before it is printed. It plays the
moves one by one on a fresh copy of the board with the game's rules and names the first
illegal move and why, or the tiles left when the board is not cleared.

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

from mjsat.board import Board, Move, normalize_move

__all__ = ["InvalidSolutionError", "replay", "first_illegal"]


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
        raise InvalidSolutionError(
            None, None, f"board not cleared: {b.remaining()} tiles left after {count} moves"
        )
    return b


def normalize_moves(moves: Iterable[Sequence[int]]) -> list[Move]:
    """Moves as ``(a, b)`` tuples with ``a < b``."""
    return [normalize_move(m[0], m[1]) for m in moves]
