"""Games without peeking on isolated stacks of height two: where they are lost, and how often.

On such boards [dB12]_ a player without peeking sees the top tiles, and a bottom tile once
its top is gone, never the face under a top tile. De Bondt's Theorem 5 player
(:class:`~mjsat.play.strategies.Theorem5Strategy`) goes wrong only when a face has
exactly three free tiles, all off the ground, and four left: one of the three stacks it
may leave can close a blocked cycle (Definition 6) with the hidden fourth tile.
:func:`trace_loss` finds, with peeking, the move that made a solvable position
unsolvable; :func:`measure` plays many boards and counts.

>>> import numpy as np
>>> from mjsat.generate import random_height2_board
>>> from mjsat.play.game import play_game
>>> board = random_height2_board(np.random.default_rng(1), n_tiles=16, group_sizes=(4,))
>>> game = play_game(board, "theorem5", seed=0)
>>> game.cleared or game.tiles_left > 0
True

References
----------
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import numpy as np

from mjsat.board import Board, TileId, normalize_move
from mjsat.play.game import GameRecord, play_game
from mjsat.play.strategies import Decision, RandomMatchStrategy, Strategy, Theorem5Strategy
from mjsat.search.height2 import has_blocked_cycle

__all__ = ["LossTrace", "trace_loss", "measure"]


@dataclasses.dataclass(frozen=True)
class LossTrace:
    """Where a lost game on a solvable board went wrong (found with peeking).

    ``index`` is the 0-based number of the fatal move: before it the position had no
    blocked cycle, after it one. ``alternatives_safe`` lists the tiles the player could
    have left behind instead without creating a blocked cycle.
    """

    index: int
    decision: Decision
    alternatives_safe: tuple[TileId, ...]


def trace_loss(board: Board, game: GameRecord) -> LossTrace:
    """The fatal move of a lost game on a height-two board solvable with peeking.

    ``game`` is the record of a strategy that explains its moves (``game.decisions``).

    Raises
    ------
    ValueError
        The game was won, the board was not solvable to begin with, or the record holds
        no decisions.

    Notes
    -----
    :math:`O(m n)` for ``m`` moves (a blocked-cycle test after each).
    """
    if game.cleared:
        raise ValueError("the game was won: nothing to trace")
    b = board.copy(stack=False)
    if has_blocked_cycle(b):
        raise ValueError("the board holds a blocked cycle from the start: not solvable with peeking")
    if len(game.decisions) != len(game.moves):
        raise ValueError(f"the game of {game.strategy} records no decision for its moves: nothing to trace")
    for i, d in enumerate(game.decisions):
        b.push(d.move)
        if has_blocked_cycle(b):
            b.pop()
            safe: list[TileId] = []
            for t in d.candidates:
                rest = [u for u in d.candidates if u != t]
                if len(rest) != 2 or normalize_move(*rest) == d.move:
                    continue
                b.push(normalize_move(*rest))
                if not has_blocked_cycle(b):
                    safe.append(t)
                b.pop()
            return LossTrace(i, d, tuple(safe))
    raise ValueError("no move created a blocked cycle, yet the game was lost (Theorem 7 says impossible)")


def measure(
    boards: Iterable[Board],
    *,
    seed: int = 0,
    players: dict[str, type[Strategy]] | None = None,
    games_per_board: int = 1,
) -> dict[str, Any]:
    """Play every board without peeking and count, per player, the games cleared among
    boards solvable with peeking, and the losses traced to the three-off-the-ground guess.

    Parameters
    ----------
    boards : iterable of Board
        Height-two boards.
    seed : int
        Seeds the players' generators (one stream per player, shared by its games).
    players : dict, optional
        ``{name: strategy class}`` of strategies that explain their moves; default
        Theorem 5's player (``theorem5``) and the random one (``random``).
    games_per_board : int
        Games per board and player.

    Returns
    -------
    dict
        ``boards``, ``solvable`` (with peeking), and per player ``games``, ``cleared``,
        ``percent``, ``losses``, ``losses_after_guess`` (fatal move was such a guess),
        ``guesses`` (guess moves played) and ``fatal_guess_rate``.

    Notes
    -----
    :math:`O(B \\cdot g \\cdot n^2)` for ``B`` boards.
    """
    players = players or {"theorem5": Theorem5Strategy, "random": RandomMatchStrategy}
    rngs = {name: np.random.default_rng([seed, i]) for i, name in enumerate(players)}
    out: dict[str, Any] = {"boards": 0, "solvable": 0}
    per: dict[str, dict[str, Any]] = {
        name: {"games": 0, "cleared": 0, "losses": 0, "losses_after_guess": 0, "guesses": 0} for name in players
    }
    for board in boards:
        out["boards"] += 1
        if has_blocked_cycle(board):
            continue
        out["solvable"] += 1
        for name, cls in players.items():
            for _ in range(games_per_board):
                game = play_game(board, cls(), rng=rngs[name])
                p = per[name]
                p["games"] += 1
                p["guesses"] += sum(d.guess for d in game.decisions)
                if game.cleared:
                    p["cleared"] += 1
                    continue
                p["losses"] += 1
                if trace_loss(board, game).decision.guess:
                    p["losses_after_guess"] += 1
    for p in per.values():
        p["percent"] = 100.0 * p["cleared"] / p["games"] if p["games"] else None
        p["fatal_guess_rate"] = p["losses_after_guess"] / p["guesses"] if p["guesses"] else None
    out["players"] = per
    return out
