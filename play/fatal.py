"""Where a strategy went wrong: the fatal move of a game that was not cleared.

A game starts from a position that can be cleared (with peeking) and ends stuck. Since
a position reachable from an unsolvable one is unsolvable too, there is one *fatal
move*: the first after which the position can no longer be cleared. :func:`fatal_move`
finds it by binary search over the game, deciding each position with an exact solver
(:func:`mjsat.methods.solve`) on a board of the tiles still present
(:func:`position_after`); a limit reached makes the answer ``unknown`` with the bounds
known so far.

>>> from mjsat.board import Layout, MahjongBoard
>>> sub, back = position_after(MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (2, 0, 0), (2, 2, 0)]), [0, 0, 1, 1]), [(0, 1)])
>>> len(sub), back
(2, [2, 3])
>>> stack = MahjongBoard(Layout([(0, 0, 0), (0, 0, 1), (0, 4, 0), (0, 8, 0)]), [0, 0, 0, 0])
>>> fatal_move(stack, [(2, 3)], method="ref").move  # tile 1 had to go with 2 or 3
1
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from mjsat.board import Board, Move, TileId
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE

__all__ = ["FatalMove", "position_after", "fatal_move", "fatal_histogram"]


def position_after(board: Board, moves: Sequence[Sequence[int]]) -> tuple[Board, list[TileId]]:
    """The position after ``moves`` as a new board, and its map back to ``board``'s tiles
    (:meth:`mjsat.board.Board.position_board` of the board with ``moves`` pushed)."""
    played = board.copy(stack=False)
    for m in moves:
        played.push(m)
    return played.position_board()


@dataclasses.dataclass
class FatalMove:
    """The fatal move of a game, or what is known about it.

    ``status`` is ``found`` (``move`` is the 1-based number of the fatal move: the
    position after ``move - 1`` moves can be cleared, the one after ``move`` cannot),
    ``cleared`` (the game was won: no fatal move), ``unknown`` (a limit was reached:
    the fatal move lies in ``lo + 1 .. hi``), or ``dealt-unsolvable`` (``move`` 0: the
    deal itself cannot be cleared).
    """

    status: str
    move: int | None
    lo: int
    hi: int
    method: str
    solves: int = 0
    unknown: list[int] = dataclasses.field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _decide(board: Board, moves: Sequence[Move], k: int, method: str, time_limit: float | None) -> str:
    from mjsat.methods import solve

    sub, back = position_after(board, moves[:k])
    if len(sub) == 0:
        return SOLVABLE
    if not any(True for _ in sub.generate_legal_moves()):
        return UNSOLVABLE  # stuck: no solver needed
    result = solve(sub, method, time_limit=time_limit)
    if result.status == SOLVABLE:  # the solver's moves, in the original numbering, must clear it
        check = board.copy(stack=False)
        for m in moves[:k]:
            check.push(m)
        for a, b in result.moves:
            check.play((back[a], back[b]))
        if not check.is_solved():  # pragma: no cover - solve() replays; this checks the map back
            raise RuntimeError("the solution of the remaining board does not clear the original")
    return result.status


def fatal_move(
    board: Board,
    moves: Sequence[Sequence[int]],
    *,
    method: str = "auto",
    time_limit: float | None = 10.0,
    start_solvable: bool = False,
) -> FatalMove:
    """The first move of ``moves`` after which ``board`` can no longer be cleared.

    Parameters
    ----------
    board : Board
        The deal the game started from.
    moves : sequence of (a, b)
        The game's moves (legal from the start).
    method : str
        An exact method of :data:`mjsat.methods.METHODS` (default ``auto``).
    time_limit : float or None
        Seconds per position; a position the solver leaves ``unknown`` is skipped and
        the search goes on around it.
    start_solvable : bool
        The deal is known to be solvable (by construction): do not solve it again.

    Returns
    -------
    FatalMove

    Notes
    -----
    Solvability is monotone along a game, so a binary search needs
    :math:`O(\\log m)` exact solves for ``m`` moves (each exponential in the worst
    case); a final position without a legal move is decided without a solver. When a
    position's answer is ``unknown``, the search tries the positions between it and the
    known unsolvable end first (smaller, easier boards).
    """
    mv: list[Move] = [(a, b) for a, b in moves]
    m = len(mv)
    solves = 0
    if m * 2 == len(board):
        return FatalMove("cleared", None, m, m, method)
    status_end = _decide(board, mv, m, method, time_limit)
    solves += 1
    if status_end == SOLVABLE:
        return FatalMove("cleared", None, m, m, method, solves)  # not stuck: nothing fatal yet
    if status_end == UNKNOWN:
        return FatalMove(UNKNOWN, None, 0, m, method, solves, [m])
    if not start_solvable:
        st = _decide(board, mv, 0, method, time_limit)
        solves += 1
        if st == UNSOLVABLE:
            return FatalMove("dealt-unsolvable", 0, 0, 0, method, solves)
        if st == UNKNOWN:
            return FatalMove(UNKNOWN, None, 0, m, method, solves, [0])
    lo, hi = 0, m  # position lo can be cleared, position hi cannot
    unknown: list[int] = []
    while hi - lo > 1:
        candidates = [k for k in range(lo + 1, hi) if k not in unknown]
        if not candidates:
            return FatalMove(UNKNOWN, None, lo, hi, method, solves, sorted(unknown))
        mid = (lo + hi) // 2
        if mid in unknown:  # go toward the smaller boards near hi
            mid = min((k for k in candidates if k > mid), default=max(candidates))
        st = _decide(board, mv, mid, method, time_limit)
        solves += 1
        if st == SOLVABLE:
            lo = mid
        elif st == UNSOLVABLE:
            hi = mid
        else:
            unknown.append(mid)
    return FatalMove("found", hi, lo, hi, method, solves, sorted(unknown))


def fatal_histogram(results: Sequence[FatalMove]) -> dict[str, int]:
    """Count fatal moves by move number (``"unknown"`` for the undecided), sorted."""
    hist: dict[str, int] = {}
    for r in results:
        if r.status == "cleared":
            continue
        key = str(r.move) if r.status in ("found", "dealt-unsolvable") else UNKNOWN
        hist[key] = hist.get(key, 0) + 1
    return dict(sorted(hist.items(), key=lambda kv: (kv[0] == UNKNOWN, int(kv[0]) if kv[0] != UNKNOWN else 0)))
