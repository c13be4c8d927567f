"""Difficulty with a measured meaning: how often random play clears a deal.

The *playout share* of a deal is the share of random playouts that clear it: a playout
plays uniformly random legal moves from the start until the board is clear or no legal
move is left (the rules are the board's). A deal is

* ``normal`` when it is proved solvable by an exact method and its share is at least
  the game's ``normal_min`` (:data:`THRESHOLDS`);
* ``hard`` when it is proved solvable and its share is below the game's ``hard_max``:
  random play rarely clears it, yet it can be cleared;
* ``impossible`` when it is a uniform random deal, unchecked: it may have no solution.

:func:`find_deal` deals candidates from a seed until one fits. Every random choice (the
candidates' deals, the playouts, the solver) comes from the seed given. ``impossible``
deals draw their candidates from a stream of their own (``default_rng([seed,
IMPOSSIBLE_STREAM])``), so that the impossible deal of a seed is never the normal or
the hard deal of that seed.

The playouts run compiled (:func:`mjsat.search.random_play.random_playouts`, ``engine=
"compiled"``, the default) and a candidate is dropped as soon as its class is out of
reach: a ``normal`` candidate once more playouts failed than its share allows, a
``hard`` one once it has too many clears; a candidate kept has played all its
playouts, so its share is measured in full. ``engine="python"`` plays them with
:func:`playout_share` instead (the reference, and the only engine for Shisen-Sho on a
Mahjong layout, which the compiled playouts do not cover). The thresholds
come from the distribution of shares of uniform random deals, measured on the turtle and
on a 12 x 8 Shisen-Sho board (benchmarks/README.md); random play clears Shisen-Sho deals
far more often, so each game has its own pair.

>>> from mjsat.layouts import load_layout
>>> deal = find_deal(load_layout("pyramid"), difficulty="normal", seed=1, playouts=20)
>>> deal.difficulty, deal.verdict, deal.share >= THRESHOLDS["mahjong"].normal_min
('normal', 'solvable', True)
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from mjsat.board import Board, Layout, find_variant

__all__ = [
    "DIFFICULTIES",
    "Thresholds",
    "THRESHOLDS",
    "DEFAULT_PLAYOUTS",
    "IMPOSSIBLE_STREAM",
    "NoDealFoundError",
    "Deal",
    "PLAYOUT_ENGINES",
    "playout_share",
    "measure_share",
    "find_deal",
]

DIFFICULTIES = ("normal", "hard", "impossible")


@dataclasses.dataclass(frozen=True)
class Thresholds:
    """A game's bounds: ``normal`` deals have a share of at least ``normal_min``,
    ``hard`` ones below ``hard_max``."""

    normal_min: float
    hard_max: float


THRESHOLDS: dict[str, Thresholds] = {
    "mahjong": Thresholds(normal_min=0.05, hard_max=0.01),
    "mahjong-transposed": Thresholds(normal_min=0.05, hard_max=0.01),
    "shisen-sho-3d": Thresholds(normal_min=0.05, hard_max=0.01),
    "shisen-sho": Thresholds(normal_min=0.50, hard_max=0.10),
}
"""Per game, chosen from the distribution of shares of uniform random deals (section
``game`` of benchmarks/README.md): with 100 playouts, a hard Mahjong deal is one that
no playout cleared, a hard Shisen-Sho deal one that fewer than 10 cleared."""
DEFAULT_PLAYOUTS = 100
"""Playouts per candidate deal."""
PLAYOUT_ENGINES = ("compiled", "python")
"""How :func:`find_deal` plays its playouts."""
IMPOSSIBLE_STREAM = 0x1A7055
"""The second word of the seed of the ``impossible`` deals' stream of candidates."""


class NoDealFoundError(ValueError):
    """No candidate of the difficulty asked for was found within the candidates allowed."""


@dataclasses.dataclass
class Deal:
    """A deal found by :func:`find_deal`, with how it was measured."""

    board: Board
    difficulty: str
    seed: int
    share: float | None
    playouts: int
    verdict: str
    candidates: int
    seconds: float

    def meta(self) -> dict[str, Any]:
        """What a save file keeps of it."""
        return {
            "difficulty": self.difficulty,
            "seed": self.seed,
            "playout_share": self.share,
            "playouts": self.playouts,
            "verdict": self.verdict,
            "candidates": self.candidates,
        }


def playout_share(board: Board, *, playouts: int, seed: int, stop_above: float | None = None) -> tuple[int, int]:
    """Clear ``board``'s deal by random play ``playouts`` times; return ``(cleared, played)``.

    With ``stop_above``, stop as soon as the share of the whole run is sure to reach it
    (``cleared >= stop_above * playouts``).

    Notes
    -----
    Each playout lists the legal moves after every move: :math:`O(n)` moves each costing
    one legal-move listing of the board.
    """
    rng = np.random.default_rng(seed)
    cleared = 0
    for k in range(playouts):
        b = board.copy(stack=False)
        while True:
            moves = list(b.generate_legal_moves())
            if not moves:
                break
            b.push(moves[int(rng.integers(len(moves)))])
        cleared += b.is_solved()
        if stop_above is not None and cleared >= stop_above * playouts:
            return cleared, k + 1
    return cleared, playouts


def measure_share(
    board: Board,
    *,
    playouts: int,
    seed: int,
    engine: str = "compiled",
    stop_clears: int | None = None,
    stop_fails: int | None = None,
) -> tuple[int, int]:
    """``(cleared, played)`` of up to ``playouts`` random playouts of ``board``'s deal,
    stopping at ``stop_clears`` clears or ``stop_fails`` failures (``engine`` ``"compiled"``:
    :func:`~mjsat.search.random_play.random_playouts`, falling back to Python for a rule
    it does not cover; ``"python"``: :func:`playout_share`, which stops on clears only)."""
    from mjsat.result import MethodNotApplicableError
    from mjsat.search.random_play import random_playouts

    if engine not in PLAYOUT_ENGINES:
        raise ValueError(f"unknown playout engine {engine!r} (known: {', '.join(PLAYOUT_ENGINES)})")
    if engine == "compiled":
        try:
            return random_playouts(board, playouts=playouts, seed=seed, stop_clears=stop_clears, stop_fails=stop_fails)
        except MethodNotApplicableError:
            pass
    stop_above = None if stop_clears is None else stop_clears / max(1, playouts)
    return playout_share(board, playouts=playouts, seed=seed, stop_above=stop_above)


def find_deal(
    layout: Layout,
    *,
    difficulty: str,
    seed: int,
    game: str = "mahjong",
    playouts: int = DEFAULT_PLAYOUTS,
    time_limit: float = 10.0,
    max_candidates: int = 500,
    method: str = "auto",
    progress: Callable[[dict[str, Any]], None] | None = None,
    engine: str = "compiled",
) -> Deal:
    """A deal of ``layout`` of the given difficulty (see the module docstring).

    ``progress`` is called after each candidate with ``{"candidates": k, "seconds": s}``.

    Raises
    ------
    ValueError
        Unknown difficulty.
    NoDealFoundError
        No candidate fitted within ``max_candidates``.
    """
    from mjsat.deals import deal_random
    from mjsat.methods import solve

    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (known: {', '.join(DIFFICULTIES)})")
    bounds = THRESHOLDS[find_variant(game).game]
    start = time.perf_counter()
    rng = np.random.default_rng([seed, IMPOSSIBLE_STREAM] if difficulty == "impossible" else seed)
    for k in range(1, max_candidates + 1):
        if progress is not None:
            progress({"candidates": k - 1, "seconds": time.perf_counter() - start})
        cand = int(rng.integers(2**31))
        board = deal_random(layout, seed=cand, game=game)
        if difficulty == "impossible":
            cleared, played = measure_share(board, playouts=playouts, seed=cand, engine=engine)
            return Deal(board, difficulty, cand, cleared / played, played, "unchecked", k, time.perf_counter() - start)
        if difficulty == "hard":  # too many clears: not hard
            need = math.ceil(bounds.hard_max * playouts)
            cleared, played = measure_share(board, playouts=playouts, seed=cand, engine=engine, stop_clears=need)
            if cleared >= need:
                continue
        else:  # too many failures: not normal
            need = math.ceil(bounds.normal_min * playouts)
            fails = playouts - need + 1
            cleared, played = measure_share(board, playouts=playouts, seed=cand, engine=engine, stop_fails=fails)
            if cleared < need:
                continue
        share = cleared / played
        result = solve(board, method, time_limit=time_limit, seed=cand)
        if result.status != "solvable":
            continue
        return Deal(board, difficulty, cand, share, played, "solvable", k, time.perf_counter() - start)
    raise NoDealFoundError(
        f"no {difficulty} deal of layout {layout.name or '?'} ({game}) among {max_candidates} candidates from seed {seed}"
    )
