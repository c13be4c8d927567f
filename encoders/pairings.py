"""The pairing view of a board: a pairing clears it iff some order of its pairs does.

A solution is a pairing (a perfect matching inside every group) plus an order of the
pairs, and once the pairing is fixed the order does not matter [1]_: freeness is
monotone, so a pair that is legal now stays legal. :func:`linearize` orders a pairing
greedily (the ``sat`` method checks the pairing of a weaker CNF with it) and
:func:`feasible_pairings` enumerates every pairing that clears a tiny board (the tests'
brute force).

References
----------
.. [1] P. Gimeno Fortea, "Mahjongg Solitaire Solver", web page, 2005.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence

from mjsat.board import Board, Move, TileId

__all__ = ["linearize", "perfect_matchings", "feasible_pairings"]


def linearize(board: Board, pairing: Iterable[Move]) -> list[Move] | None:
    """An order clearing ``board`` with exactly these pairs, or ``None`` if none exists.

    Greedy: play any pair that is legal now, until none is. By monotonicity of freeness
    (and of Shisen-Sho paths) a pair legal now stays legal, so greedy fails only when no
    order exists.

    Notes
    -----
    :math:`O(q^2 c)` for ``q`` pairs and ``c`` the cost of one legality test.
    """
    b = board.copy(stack=False)
    left = sorted((min(a, b), max(a, b)) for a, b in pairing)
    order: list[Move] = []
    progress = True
    while left and progress:
        progress = False
        for p in list(left):
            if b.is_legal(p):
                b.push(p)
                order.append(p)
                left.remove(p)
                progress = True
    return order if not left else None


def perfect_matchings(tiles: Sequence[TileId]) -> Iterator[list[Move]]:
    """Every perfect matching of a sorted list of tiles (``(k-1)!!`` of them).

    >>> list(perfect_matchings([0, 1, 2, 3]))
    [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]]
    """
    if not tiles:
        yield []
        return
    first, rest = tiles[0], list(tiles[1:])
    for i, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *tail]


def feasible_pairings(board: Board) -> set[tuple[Move, ...]]:
    """Every pairing of ``board`` that some order clears (brute force, tiny boards only).

    Notes
    -----
    :math:`\\prod_g (k_g - 1)!!` pairings, each linearised greedily.
    """
    per_group = [list(perfect_matchings(sorted(ts))) for ts in board.group_members().values()]
    out: set[tuple[Move, ...]] = set()
    for combo in itertools.product(*per_group):
        pairing = tuple(sorted(p for part in combo for p in part))
        if linearize(board, pairing) is not None:
            out.add(pairing)
    return out
