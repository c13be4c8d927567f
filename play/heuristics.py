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

from collections.abc import Callable, Sequence

import numpy as np

from mjsat.board import Move, TileId

__all__ = [
    "Heuristic",
    "RandomHeuristic",
    "MaxBlockHeuristic",
    "MaxBlockLiteralHeuristic",
    "HEURISTICS",
    "CHAIN_READINGS",
    "TIE_RULES",
    "PAIR_RULES",
    "make_heuristic",
    "horizontal",
    "vertical",
    "blocking_value",
    "static_blocking_values",
    "UnknownHeuristicError",
]


class UnknownHeuristicError(ValueError):
    """No heuristic of that name."""


def horizontal(view, t: TileId, *, chains: str = "present") -> int:
    """``hor(S)`` of Stam, eq. 1: half the difference of the two side chains, floored.

    Parameters
    ----------
    view : PlayerView
    t : int
        The stone.
    chains : {"present", "static"}
        ``present``: the chains run through the stones still on the board (a gap ends
        them); ``static``: through every stone of the layout, picked or not.

    Notes
    -----
    :math:`O(c)` for ``c`` the tiles in the two chains.
    """
    left, right = view.side_chains(t, static=_is_static(chains))
    return abs(len(left) - len(right)) // 2


def vertical(view, t: TileId, *, transitive: bool = False, chains: str = "present") -> int:
    """``ver(S)`` of Stam, eq. 2, over the stones ``B`` under ``S`` (0 on the bottom level).

    Parameters
    ----------
    view : PlayerView
    t : int
        The stone.
    transitive : bool
        False (the literal eq. 2): ``sum(hor(b) + 1 for b in B)``. True: every stone of
        the pile underneath counts, each with its own blocking value,
        ``sum(hor(b) + ver(b) + 1 for b in B)`` with ``ver(b)`` read the same way; a stone
        reached along two piles (a tile bridging two others) counts once per pile.
    chains : {"present", "static"}
        The side chains of ``hor`` (see :func:`horizontal`).

    Notes
    -----
    :math:`O(k c)` for ``k`` stones in the pile underneath with chains of ``c`` tiles.
    """
    if view.level(t) == 0:
        return 0
    total = 0
    for b in view.below(t):
        total += horizontal(view, b, chains=chains) + 1
        if transitive:
            total += vertical(view, b, transitive=True, chains=chains)
    return total


def blocking_value(view, t: TileId, *, transitive: bool = False, chains: str = "present") -> int:
    """The blocking value of Stam, eq. 3: ``hor(S) + ver(S)``.

    The keywords choose the reading (see :func:`vertical` and :func:`horizontal`); the
    defaults are the literal equations.

    Notes
    -----
    :math:`O(k c)`, see :func:`horizontal` and :func:`vertical`.
    """
    return horizontal(view, t, chains=chains) + vertical(view, t, transitive=transitive, chains=chains)


CHAIN_READINGS: tuple[str, ...] = ("present", "static")
"""How the side chains of eq. 1 are read: through the present stones, or the whole layout."""


def _is_static(chains: str) -> bool:
    if chains not in CHAIN_READINGS:
        raise UnknownHeuristicError(f"unknown chain reading {chains!r} (known: {', '.join(CHAIN_READINGS)})")
    return chains == "static"


class Heuristic:
    """Ranks stones and picks pairs; subclasses define :meth:`stone_score`.

    ``ties`` (one of :data:`TIE_RULES`) breaks ties between equal scores: ``random``,
    or the ``first`` / ``last`` in the order given (tile order for the strategies).
    ``pairs`` (one of :data:`PAIR_RULES`) scores a pair from its two stones: their
    ``sum``, or the ``max`` (the better stone).
    """

    name = ""
    ties = "random"
    pairs = "sum"
    random_choice = False
    """Whether the heuristic is a random draw with no values to rank by (the "fake
    heuristic"): a strategy that breaks ties its own way keeps its draw."""

    def stone_score(self, view, t: TileId) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def rank(
        self, view, stones: Sequence[TileId], rng: np.random.Generator, *, ties: str | None = None
    ) -> list[TileId]:
        """``stones`` best first (``getBest(stones, skipFirst)`` is ``rank(...)[skipFirst]``).

        ``ties`` (one of :data:`TIE_RULES`) overrides the heuristic's own tie rule.

        Notes
        -----
        :math:`O(s \\log s)` plus one score per stone.
        """
        keys = _TIE_KEYS[self.ties if ties is None else ties](rng, len(stones))
        scored = [(-self.stone_score(view, t), float(k), t) for t, k in zip(stones, keys)]
        return [t for _, _, t in sorted(scored)]

    def best_pair(self, view, pairs: Sequence[Move], rng: np.random.Generator) -> Move:
        """The pair of highest score, by the pair rule (ties by the tie rule).

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

        combine = _PAIR_SCORE[self.pairs]
        values = [combine(score(a), score(b)) for a, b in pairs]
        top = max(values)
        best = [p for p, v in zip(pairs, values) if v == top]
        return best[_TIE_PICK[self.ties](rng, len(best))] if len(best) > 1 else best[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


TIE_RULES: tuple[str, ...] = ("random", "first", "last")
"""How a heuristic breaks ties: at random, or the first or last in the order given."""

_TIE_KEYS = {
    "random": lambda rng, n: rng.random(n),
    "first": lambda rng, n: range(n),
    "last": lambda rng, n: range(0, -n, -1),
}
_TIE_PICK = {
    "random": lambda rng, n: int(rng.integers(n)),
    "first": lambda rng, n: 0,
    "last": lambda rng, n: n - 1,
}


PAIR_RULES: tuple[str, ...] = ("sum", "max")
"""How a heuristic scores a pair: the sum of its two stones' scores, or the larger one."""


def _pair_sum(a: float, b: float) -> float:
    return a + b


def _pair_max(a: float, b: float) -> float:
    return max(a, b)


_PAIR_SCORE: dict[str, Callable[[float, float], float]] = {"sum": _pair_sum, "max": _pair_max}


class RandomHeuristic(Heuristic):
    """The "fake heuristic": every stone and every pair equally good (a random choice)."""

    name = "random"
    random_choice = True

    def stone_score(self, view, t: TileId) -> float:
        return 0.0


class MaxBlockHeuristic(Heuristic):
    """Prefer the stone or pair with the highest blocking value (:func:`blocking_value`).

    Parameters
    ----------
    transitive : bool, optional (default=True)
        Read eq. 2 transitively: every stone of the pile underneath counts, each with its
        own horizontal and vertical value (see :func:`vertical`).
    chains : {"static", "present"}, optional (default="static")
        Count the side chains of eq. 1 on the static layout (every stone, picked or not)
        or through the present stones only (see :func:`horizontal`).
    ties : {"random", "first", "last"}, optional (default="random")
        Which of equally valued stones or pairs wins (see :class:`Heuristic`).
    pairs : {"sum", "max"}, optional (default="sum")
        A pair's value: the sum of its two stones' blocking values, or the larger one
        (section 3.3 says only "the stone or pair with the highest (combined) blocking
        value").

    Notes
    -----
    With static chains the blocking value of a stone never changes (the stones under a
    present stone are all present), so the values are computed once per layout and a
    score costs :math:`O(1)`; with present chains each score costs what
    :func:`blocking_value` costs.
    """

    def __init__(
        self, *, transitive: bool = True, chains: str = "static", ties: str = "random", pairs: str = "sum"
    ) -> None:
        self.static = _is_static(chains)
        if ties not in TIE_RULES:
            raise UnknownHeuristicError(f"unknown tie rule {ties!r} (known: {', '.join(TIE_RULES)})")
        if pairs not in PAIR_RULES:
            raise UnknownHeuristicError(f"unknown pair rule {pairs!r} (known: {', '.join(PAIR_RULES)})")
        self.transitive = bool(transitive)
        self.chains = chains
        self.ties = ties
        self.pairs = pairs
        known = _MAXBLOCK_NAMES.get((self.transitive, chains)) if (ties, pairs) == ("random", "sum") else None
        extra = "" if pairs == "sum" else f", pairs={pairs}"
        self.name = known or f"maxblock(transitive={self.transitive}, chains={chains}, ties={ties}{extra})"

    def stone_score(self, view, t: TileId) -> float:
        if self.static:
            return static_blocking_values(view, transitive=self.transitive)[t]
        return float(blocking_value(view, t, transitive=self.transitive, chains=self.chains))

    def __repr__(self) -> str:
        return (
            f"MaxBlockHeuristic(transitive={self.transitive}, chains={self.chains!r}, ties={self.ties!r}, "
            f"pairs={self.pairs!r})"
        )


class MaxBlockLiteralHeuristic(MaxBlockHeuristic):
    """MaxBlock read literally: eq. 2 over the stones directly below, chains of present stones."""

    def __init__(self) -> None:
        super().__init__(transitive=False, chains="present")


_MAXBLOCK_NAMES: dict[tuple[bool, str], str] = {(True, "static"): "maxblock", (False, "present"): "maxblock-literal"}


def static_blocking_values(view, *, transitive: bool = True) -> tuple[float, ...]:
    """Every stone's blocking value with the chains counted on the static layout: the
    layout's table :meth:`mjsat.layout.SideTables.blocking` (with static chains a stone's
    value depends on the layout only), as floats.

    Notes
    -----
    :math:`O(n c)` to build, once per layout, sides and reading, for ``n`` stones and chains
    of ``c`` tiles; :math:`O(1)` after.
    """
    layout = view.layout

    def build() -> tuple[float, ...]:
        return tuple(float(v) for v in layout.side_tables(view.sides).blocking(transitive=transitive))

    return layout.memo(("maxblock-static", view.sides, bool(transitive)), build)


HEURISTICS: dict[str, type[Heuristic]] = {
    "random": RandomHeuristic,
    "maxblock": MaxBlockHeuristic,
    "maxblock-literal": MaxBlockLiteralHeuristic,
}
"""The heuristics by name: ``maxblock`` is Stam's MaxBlock read transitively with static
chains, ``maxblock-literal`` the equations read literally (see :class:`MaxBlockHeuristic`)."""


def make_heuristic(name: str | Heuristic) -> Heuristic:
    """A heuristic by name (``random``, ``maxblock``, ``maxblock-literal``; ``max-block``
    and ``max_block_literal`` also work)."""
    if isinstance(name, Heuristic):
        return name
    by_key = {k.replace("-", ""): cls for k, cls in HEURISTICS.items()}
    key = str(name).strip().lower().replace("-", "").replace("_", "")
    if key not in by_key:
        raise UnknownHeuristicError(f"unknown heuristic {name!r} (known: {', '.join(HEURISTICS)})")
    return by_key[key]()
