"""The selection heuristics of Stam [St07]_ (section 3.3): Random and MaxBlock.

A heuristic ranks stones and picks the best of a set of pairs. **Random** answers at
random. **MaxBlock** prefers what blocks most: the *blocking value* of a stone ``S`` is

* ``hor(S) = floor(|#obstructorsLeft(S) - #obstructorsRight(S)| / 2)`` (eq. 1), where
  ``obstructorsLeft(S)`` are the present stones touching ``S`` on the left, the stones
  touching those on the left, and so on (likewise on the right);
* ``ver(S) = sum(hor(b) + 1 for b in B)`` for ``B`` the stones ``S`` lies on, and 0 on the
  bottom level (eq. 2);
* ``blocking_value(S) = hor(S) + ver(S)`` (eq. 3); a pair scores the sum of its two stones.

Everything here reads only the shape of the pile (never a face), as a player may.
Ties are broken at random (the paper does not say how).

>>> from mjsat.board import Layout, MahjongBoard
>>> from mjsat.play.view import PlayerView
>>> row = Layout([(0, 2 * i, 0) for i in range(8)])
>>> view = PlayerView(MahjongBoard(row, [0, 1, 2, 3, 3, 2, 1, 0]))
>>> [horizontal(view, t) for t in (0, 1, 3)]
[3, 2, 0]

References
----------
.. [St07] T. Stam, "Solving Mahjong Solitaire Positions", Leiden University, 2007.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mjsat.board import Move, TileId

__all__ = ["Heuristic", "RandomHeuristic", "MaxBlockHeuristic", "HEURISTICS", "make_heuristic", "horizontal", "vertical", "blocking_value", "UnknownHeuristicError"]


class UnknownHeuristicError(ValueError):
    """No heuristic of that name."""


def horizontal(view, t: TileId) -> int:
    """``hor(S)`` of Stam, eq. 1: half the difference of the two side chains, floored.

    Notes
    -----
    :math:`O(c)` for ``c`` the tiles in the two chains.
    """
    left, right = view.side_chains(t)
    return abs(len(left) - len(right)) // 2


def vertical(view, t: TileId) -> int:
    """``ver(S)`` of Stam, eq. 2: ``sum(hor(b) + 1)`` over the stones under ``S``.

    Notes
    -----
    :math:`O(k c)` for ``k`` stones below (at most four) with chains of ``c`` tiles.
    """
    if view.level(t) == 0:
        return 0
    return sum(horizontal(view, b) + 1 for b in view.below(t))


def blocking_value(view, t: TileId) -> int:
    """The blocking value of Stam, eq. 3: ``hor(S) + ver(S)``.

    Notes
    -----
    :math:`O(c)`, see :func:`horizontal` and :func:`vertical`.
    """
    return horizontal(view, t) + vertical(view, t)


class Heuristic:
    """Ranks stones and picks pairs; subclasses define :meth:`stone_score`."""

    name = ""

    def stone_score(self, view, t: TileId) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def rank(self, view, stones: Sequence[TileId], rng: np.random.Generator) -> list[TileId]:
        """``stones`` best first (``getBest(stones, skipFirst)`` is ``rank(...)[skipFirst]``).

        Notes
        -----
        :math:`O(s \\log s)` plus one score per stone.
        """
        keys = rng.random(len(stones))
        scored = [(-self.stone_score(view, t), float(k), t) for t, k in zip(stones, keys)]
        return [t for _, _, t in sorted(scored)]

    def best_pair(self, view, pairs: Sequence[Move], rng: np.random.Generator) -> Move:
        """The pair of highest combined score (ties at random).

        Notes
        -----
        :math:`O(p)` plus one score per stone named.
        """
        if not pairs:
            raise ValueError("no pair to choose from")
        cache: dict[TileId, float] = {}

        def score(t: TileId) -> float:
            if t not in cache:
                cache[t] = self.stone_score(view, t)
            return cache[t]

        values = [score(a) + score(b) for a, b in pairs]
        top = max(values)
        best = [p for p, v in zip(pairs, values) if v == top]
        return best[int(rng.integers(len(best)))] if len(best) > 1 else best[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomHeuristic(Heuristic):
    """The "fake heuristic": every stone and every pair equally good (a random choice)."""

    name = "random"

    def stone_score(self, view, t: TileId) -> float:
        return 0.0


class MaxBlockHeuristic(Heuristic):
    """Prefer the stone or pair with the highest blocking value (:func:`blocking_value`)."""

    name = "maxblock"

    def stone_score(self, view, t: TileId) -> float:
        return float(blocking_value(view, t))


HEURISTICS: dict[str, type[Heuristic]] = {"random": RandomHeuristic, "maxblock": MaxBlockHeuristic}
"""The heuristics by name."""


def make_heuristic(name: str | Heuristic) -> Heuristic:
    """A heuristic by name (``random``, ``maxblock``; ``max-block`` also works)."""
    if isinstance(name, Heuristic):
        return name
    key = str(name).strip().lower().replace("-", "").replace("_", "")
    if key not in HEURISTICS:
        raise UnknownHeuristicError(f"unknown heuristic {name!r} (known: {', '.join(HEURISTICS)})")
    return HEURISTICS[key]()
