"""The reference solver: exhaustive depth-first search with memoised positions.

Pure Python and deliberately plain, for small boards and as the yardstick of the tests:
it tries every legal move in order, remembers every position proved dead, and answers
``unknown`` at its time or node limit.
"""

from __future__ import annotations

from mjsat import clock
from mjsat.board import Board, Move
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, SolveResult

__all__ = ["solve_ref", "DEFAULT_NODE_LIMIT"]

DEFAULT_NODE_LIMIT = 2_000_000


class _Limit(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


def solve_ref(
    board: Board,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    node_limit: int | None = None,
) -> SolveResult:
    """Decide ``board`` by exhaustive search over move orders with a dead-position memo.

    Parameters
    ----------
    board : Board
        Searched from its current position, and left in it.
    time_limit : float or None
        Seconds before answering ``unknown``.
    seed : int
        Unused (the search is deterministic); accepted for the common interface.
    node_limit : int or None
        Positions to expand before answering ``unknown`` (default 2,000,000).

    Returns
    -------
    SolveResult
        ``solvable`` with the moves, ``unsolvable``, or ``unknown`` with the limit reached.

    Notes
    -----
    Exponential in the worst case: at most one expansion per reachable position
    (:math:`O(2^{n/2})` positions for ``n`` tiles in pairs), each costing
    :math:`O(n d + f^2)` for ``d`` neighbours per tile and ``f`` free tiles.
    """
    limit = DEFAULT_NODE_LIMIT if node_limit is None else int(node_limit)
    deadline = None if time_limit is None else clock.now() + time_limit
    dead: set[bytes] = set()
    path: list[Move] = []
    nodes = 0

    def dfs() -> bool:
        nonlocal nodes
        if board.is_solved():
            return True
        key = board.position_key()
        if key in dead:
            return False
        nodes += 1
        if nodes > limit:
            raise _Limit("node limit")
        if deadline is not None and nodes % 256 == 0 and clock.now() > deadline:
            raise _Limit("time limit")
        for move in list(board.generate_legal_moves()):
            board.push(move)
            path.append(move)
            if dfs():
                return True
            path.pop()
            board.pop()
        dead.add(key)
        return False

    try:
        found = dfs()
    except _Limit as lim:
        return SolveResult(UNKNOWN, "ref", reason=lim.reason, stats={"nodes": nodes, "dead": len(dead)})
    except RecursionError:  # pragma: no cover - boards far beyond this solver's reach
        return SolveResult(UNKNOWN, "ref", reason="recursion limit", stats={"nodes": nodes})
    finally:
        for _ in path:  # leave the board as it was given
            board.pop()
    stats = {"nodes": nodes, "dead": len(dead)}
    if found:
        return SolveResult(SOLVABLE, "ref", moves=list(path), stats=stats)
    return SolveResult(UNSOLVABLE, "ref", stats=stats)
