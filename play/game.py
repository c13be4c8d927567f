"""One game loop: a strategy plays a board through a :class:`~mjsat.play.view.PlayerView`.

:class:`Game` asks the strategy for one move at a time and plays it with the board's
checked ``play``, until the board is clear or no free pair is left. Every strategy of
:mod:`mjsat.play.strategies` (Stam's four, de Bondt's Theorem 5 player and the random
baseline) plays through it, so one record describes every game.

>>> from mjsat.board import Layout, MahjongBoard
>>> lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0), (0, 2, 1), (0, 4, 1)])
>>> rec = play_game(MahjongBoard(lay, [0, 1, 2, 2, 1, 0]), "random", "random", seed=1)
>>> 2 * len(rec.moves) + rec.tiles_left
6
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from mjsat.board import Board, Move
from mjsat.play.view import PlayerView

__all__ = ["StrategyError", "Game", "GameRecord", "play_game", "PLAY_SEED_OFFSET", "play_seed"]

PLAY_SEED_OFFSET = 1_000_000_007
"""Added to a deal's seed to seed the play on it, so deal and play draw unrelated streams."""


class StrategyError(RuntimeError):
    """A strategy broke the rules of play (an illegal move, or giving up with a free pair left)."""


@dataclasses.dataclass
class GameRecord:
    """One game: who played, on which seed, the moves, and how it ended.

    ``decisions`` holds the choices behind the moves for a strategy that explains them
    (:class:`~mjsat.play.strategies.Decision`; empty otherwise); they are not part of
    :meth:`to_dict`.
    """

    strategy: str
    heuristic: str
    seed: int
    moves: list[Move]
    cleared: bool
    tiles_left: int
    decisions: list[Any] = dataclasses.field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "heuristic": self.heuristic,
            "seed": self.seed,
            "cleared": self.cleared,
            "tiles_left": self.tiles_left,
            "moves": [list(m) for m in self.moves],
        }


class Game:
    """One strategy playing one board without peeking and without undo.

    Parameters
    ----------
    board : Board
        The deal (a Mahjong Solitaire board); it is not changed.
    strategy : str or strategy object
        A name of :data:`mjsat.play.strategies.STRATEGIES` or an instance.
    heuristic : str or heuristic object
        A name of :data:`mjsat.play.heuristics.HEURISTICS` or an instance (ignored when
        ``strategy`` is an instance).
    seed : int
        Seed of every random choice of the strategy and the heuristic.
    rng : numpy.random.Generator, optional
        The generator to draw from instead of one made from ``seed`` (several games may
        then share one stream).

    Notes
    -----
    Each :meth:`step` asks the strategy for one move through the view and plays it
    with the board's checked ``play``; an illegal move raises :class:`StrategyError`.
    The game ends when the board is clear or no free pair is left; a strategy that
    gives up while a free pair is left raises :class:`StrategyError` too.
    """

    def __init__(
        self,
        board: Board,
        strategy: Any = "random",
        heuristic: Any = "random",
        *,
        seed: int = 0,
        rng: np.random.Generator | None = None,
    ) -> None:
        from mjsat.play.strategies import make_strategy

        self.view = PlayerView(board)
        self.strategy = make_strategy(strategy, heuristic) if isinstance(strategy, str) else strategy
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed) if rng is None else rng
        self.over = False
        self._first_decision = len(self.strategy.decisions)

    def step(self) -> Move | None:
        """Play one move and return it; ``None`` when the game is over."""
        if self.over:
            return None
        view = self.view
        if view.is_cleared():
            self.over = True
            return None
        move = self.strategy.choose(view, self.rng)
        if move is None:
            if view.free_pairs():
                raise StrategyError(f"{self.strategy.name} gave up with free pairs left: {view.free_pairs()[:3]}")
            self.over = True
            return None
        try:
            return view._apply(move)
        except ValueError as exc:
            raise StrategyError(f"{self.strategy.name} played an illegal move: {exc}") from exc

    def run(self) -> GameRecord:
        """Play to the end and return the record."""
        while self.step() is not None:
            pass
        return self.record()

    def record(self) -> GameRecord:
        view = self.view
        return GameRecord(
            strategy=self.strategy.name,
            heuristic=self.strategy.heuristic.name,
            seed=self.seed,
            moves=list(view.moves),
            cleared=view.is_cleared(),
            tiles_left=view.remaining(),
            decisions=list(self.strategy.decisions[self._first_decision :]),
        )


def play_game(
    board: Board,
    strategy: Any = "random",
    heuristic: Any = "random",
    *,
    seed: int = 0,
    rng: np.random.Generator | None = None,
) -> GameRecord:
    """Play ``board`` with a strategy and a heuristic; the same seed gives the same game.

    Notes
    -----
    At most ``n/2`` moves; each costs what the strategy's choice costs (see
    :mod:`mjsat.play.strategies`) plus :math:`O(d)` for the view's update.
    """
    return Game(board, strategy, heuristic, seed=seed, rng=rng).run()


def play_seed(deal_seed: int) -> int:
    """The seed of the play on the deal made from ``deal_seed``."""
    return int(deal_seed) + PLAY_SEED_OFFSET
