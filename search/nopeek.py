"""Playing height-two boards without peeking: the strategy of Theorem 5 (seed 001).

A player without peeking sees the layout and the faces of the tiles that are not covered
(on isolated stacks of height two: the top tiles, and a bottom tile once its top is gone),
never the face under a top tile. Theorem 5's strategy: repeat -- choose an arbitrary group
that has a match; play a match of it with the most tiles *not on the ground*. De Bondt
shows no player without peeking does better, and that this one can go wrong only when a
group of four has exactly three tiles off the ground: it must then leave one of three
stacks that look alike, and one of them may close a blocked cycle (Definition 6) with the
hidden fourth tile.

:class:`View` is all a player gets; :class:`Theorem5Player` and :class:`RandomPlayer` (a
uniformly random visible match, for comparison) choose from it; :func:`play` runs a game
and records every decision; :func:`trace_loss` finds, with peeking, the move that made a
solvable position unsolvable; :func:`measure` counts over many boards.

>>> import numpy as np
>>> from mjsat.search.height2_gen import random_height2_board
>>> board = random_height2_board(np.random.default_rng(1), n_tiles=16, group_sizes=(4,))
>>> game = play(board, Theorem5Player(np.random.default_rng(0)))
>>> game.cleared or game.tiles_left > 0
True
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Iterable
from typing import Any, Protocol

import numpy as np

from mjsat.board import Board, GroupId, Move, TileId, normalize_move
from mjsat.search.height2 import check_height2, has_blocked_cycle

__all__ = [
    "View",
    "Decision",
    "Game",
    "Player",
    "Theorem5Player",
    "RandomPlayer",
    "view_of",
    "play",
    "trace_loss",
    "LossTrace",
    "measure",
]


@dataclasses.dataclass(frozen=True)
class View:
    """What a player without peeking sees of a height-two position.

    ``free`` maps each free tile to its visible group; ``off_ground`` is the set of free
    tiles lying on another tile (level one of a stack of two present tiles); ``hidden`` is
    the set of present tiles whose face cannot be seen (covered). The layout is public.
    """

    free: dict[TileId, GroupId]
    off_ground: frozenset[TileId]
    hidden: frozenset[TileId]

    def matches(self) -> dict[GroupId, list[TileId]]:
        """Visible groups with at least two free tiles, and those tiles (sorted)."""
        return self._matches

    @functools.cached_property
    def _matches(self) -> dict[GroupId, list[TileId]]:
        by: dict[GroupId, list[TileId]] = {}
        for t, g in sorted(self.free.items()):
            by.setdefault(g, []).append(t)
        return {g: ts for g, ts in by.items() if len(ts) >= 2}


def view_of(board: Board, *, stacks: Any = None) -> View:
    """The :class:`View` of ``board``'s current position (covered faces left out).

    ``stacks`` is the result of :func:`~mjsat.search.height2.check_height2` for the full
    deal of this board, when already known (it is checked otherwise).

    Notes
    -----
    :math:`O(n)`.
    """
    st = check_height2(board) if stacks is None else _live(board, stacks)
    free: dict[TileId, GroupId] = {}
    off: set[TileId] = set()
    hidden: set[TileId] = set()
    groups, above, below = board.groups, st.above, st.below
    for t, here in enumerate(board.position_key()):
        if not here:
            continue
        if above[t] >= 0:
            hidden.add(t)
            continue
        free[t] = groups[t]
        if below[t] >= 0:
            off.add(t)
    return View(free, frozenset(off), frozenset(hidden))


def _live(board: Board, stacks: Any) -> Any:
    """The stack relation of the full deal restricted to the present tiles."""
    from mjsat.search.height2 import _Stacks

    present = board.position_key()
    n = len(present)
    below = [-1] * n
    above = [-1] * n
    for top, bot in enumerate(stacks.below):
        if bot >= 0 and present[top] and present[bot]:
            below[top] = bot
            above[bot] = top
    return _Stacks(below, above)


@dataclasses.dataclass(frozen=True)
class Decision:
    """One move of a game and the choice behind it.

    ``guess`` is True when the group had exactly three free tiles off the ground and four
    tiles left, so the player had to leave one of three look-alike stacks (Theorem 5's only
    way to go wrong); ``left_behind`` is then the top tile it left.
    """

    move: Move
    group: GroupId
    candidates: tuple[TileId, ...]
    guess: bool
    left_behind: TileId | None = None


@dataclasses.dataclass
class Game:
    """A finished game: the decisions in order, and whether the board was cleared."""

    decisions: list[Decision]
    cleared: bool
    tiles_left: int

    @property
    def moves(self) -> list[Move]:
        return [d.move for d in self.decisions]


class Player(Protocol):
    """A player without peeking: picks a move from a :class:`View` (and the group sizes
    left, which anyone can count from the public tile set and the moves played)."""

    def choose(self, view: View, left: dict[GroupId, int]) -> Decision: ...


class Theorem5Player:
    """Theorem 5's strategy: an arbitrary (here uniformly random) group with a match, then
    a match of it with the most tiles off the ground (ties broken uniformly at random).

    Parameters
    ----------
    rng : numpy.random.Generator
    """

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, view: View, left: dict[GroupId, int]) -> Decision:
        matches = view.matches()
        groups = sorted(matches)
        g = groups[int(self.rng.integers(len(groups)))]
        tiles = matches[g]
        off = [t for t in tiles if t in view.off_ground]
        ground = [t for t in tiles if t not in view.off_ground]
        if len(off) >= 2:
            pick = [off[i] for i in self.rng.choice(len(off), size=2, replace=False)]
        elif off:
            pick = [off[0], ground[int(self.rng.integers(len(ground)))]]
        else:
            pick = [ground[i] for i in self.rng.choice(len(ground), size=2, replace=False)]
        guess = len(off) == 3 and left[g] == 4
        behind = next((t for t in off if t not in pick), None) if guess else None
        return Decision(normalize_move(*pick), g, tuple(tiles), guess, behind)


class RandomPlayer:
    """A uniformly random visible match (a baseline without Theorem 5's rule)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, view: View, left: dict[GroupId, int]) -> Decision:
        pairs = [
            (g, pair) for g, ts in sorted(view.matches().items()) for pair in itertools.combinations(ts, 2)
        ]
        g, pair = pairs[int(self.rng.integers(len(pairs)))]
        off = [t for t in view.matches()[g] if t in view.off_ground]
        return Decision(normalize_move(*pair), g, tuple(view.matches()[g]), len(off) == 3 and left[g] == 4)


def play(board: Board, player: Player) -> Game:
    """Play ``board`` from its full deal with ``player`` until cleared or stuck.

    Every move is checked by :meth:`~mjsat.board.Board.play` (an illegal choice raises).

    Notes
    -----
    :math:`O(n^2)`: :math:`n/2` moves, each building an :math:`O(n)` view.
    """
    b = board.copy(stack=False)
    full = check_height2(b)
    left: dict[GroupId, int] = {}
    for g in b.groups:
        left[g] = left.get(g, 0) + 1
    decisions: list[Decision] = []
    while True:
        view = view_of(b, stacks=full)
        if not view.matches():
            break
        d = player.choose(view, dict(left))
        b.play(d.move)
        left[d.group] -= 2
        decisions.append(d)
    return Game(decisions, b.is_solved(), b.remaining())


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


def trace_loss(board: Board, game: Game) -> LossTrace:
    """The fatal move of a lost game on a board solvable with peeking.

    Raises
    ------
    ValueError
        The game was won, or the board was not solvable to begin with.

    Notes
    -----
    :math:`O(m n)` for ``m`` moves (a blocked-cycle test after each).
    """
    if game.cleared:
        raise ValueError("the game was won: nothing to trace")
    b = board.copy(stack=False)
    if has_blocked_cycle(b):
        raise ValueError("the board holds a blocked cycle from the start: not solvable with peeking")
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
    boards: Iterable[Board], *, seed: int = 0, players: dict[str, type] | None = None, games_per_board: int = 1
) -> dict[str, Any]:
    """Play every board without peeking and count, per player, the games cleared among
    boards solvable with peeking, and the losses traced to the three-off-the-ground guess.

    Parameters
    ----------
    boards : iterable of Board
        Height-two boards.
    seed : int
        Seeds the players' generators (one per player).
    players : dict, optional
        ``{name: class}``; default Theorem 5's player and the random player.
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
    players = players or {"theorem5": Theorem5Player, "random": RandomPlayer}
    rngs = {name: np.random.default_rng([seed, i]) for i, name in enumerate(players)}
    out: dict[str, Any] = {"boards": 0, "solvable": 0}
    per = {name: {"games": 0, "cleared": 0, "losses": 0, "losses_after_guess": 0, "guesses": 0} for name in players}
    for board in boards:
        out["boards"] += 1
        if has_blocked_cycle(board):
            continue
        out["solvable"] += 1
        for name, cls in players.items():
            for _ in range(games_per_board):
                game = play(board, cls(rngs[name]))
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
