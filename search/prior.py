"""Gimeno Fortea's prior analysis of a Mahjong deal: a group that no pairing can remove,
by the cover order alone, refutes the deal before any search ([GF05]_).

References
----------
.. [GF05] P. Gimeno Fortea, "Mahjongg Solitaire Solver", web page, 2005.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mjsat.board import Board
from mjsat.search.pairing import MAHJONG, Geometry, geometry, pairings

__all__ = ["prior_conflict", "stacked_pairs"]


def _pairing_ok(tiles: tuple[int, ...], pairing: Any, desc: Sequence[int]) -> bool:
    pairs = [(tiles[i], tiles[j]) for i, j in pairing]
    masks = []
    for a, b in pairs:
        if desc[a] >> b & 1 or desc[b] >> a & 1:
            return False
        masks.append(((1 << a) | (1 << b), desc[a] | desc[b]))
    # pair i must go before pair j when a tile of i lies on a tile of j: no cycle allowed
    k = len(pairs)
    succ = [[j for j in range(k) if j != i and masks[i][1] & masks[j][0]] for i in range(k)]
    indeg = [0] * k
    for i in range(k):
        for j in succ[i]:
            indeg[j] += 1
    stack = [i for i in range(k) if indeg[i] == 0]
    seen = 0
    while stack:
        i = stack.pop()
        seen += 1
        for j in succ[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                stack.append(j)
    return seen == k


def prior_conflict(board: Board, geo: Geometry | None = None) -> int | None:
    """A group (renumbered as in :func:`~mjsat.search.pairing.geometry`) that no pairing can
    remove, by the cover order alone; ``None`` when there is none.

    A tile lying (directly or through other tiles) on another one must go strictly
    before it. A pairing of a group is impossible when it pairs two such tiles, or when
    its pairs must go before one another in a cycle ([GF05]_: a tile on two tiles of its
    group stacked on each other, or on three tiles of its group). Groups of more than
    eight tiles are not checked.

    Notes
    -----
    :math:`O(n \\cdot e)` bit operations once per layout, then :math:`O(r \\cdot (r-1)!!)`
    per group of ``r`` tiles.
    """
    geo = geo or geometry(board)
    if geo.kind != MAHJONG:
        return None
    layout = board.layout
    top, under = layout.memo(("search", "stacked-pairs"), lambda: stacked_pairs(layout.descendants))
    if not len(top):
        return None
    group = np.asarray(geo.group)
    same = group[top] == group[under]
    if not same.any():
        return None  # no tile lies on a tile of its own group: every pairing is fine
    desc = layout.descendants
    for g in sorted(set(group[top[same]].tolist())):
        tiles = geo.members[g]
        if len(tiles) <= 8 and not any(_pairing_ok(tiles, p, desc) for p in pairings(len(tiles))):
            return g
    return None


def stacked_pairs(desc: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``(top, under)``: every pair of tiles where ``under`` lies below ``top``, directly or
    through other tiles (the bits of ``desc[top]``), as two int arrays."""
    top, under = [], []
    for t, mask in enumerate(desc):
        u = 0
        while mask:
            if mask & 1:
                top.append(t)
                under.append(u)
            mask >>= 1
            u += 1
    return np.array(top, dtype=np.intp), np.array(under, dtype=np.intp)
