"""Theorem 5's player without peeking: legal, blind to covered faces, reproducible, and
every loss on a solvable board traced to the three-off-the-ground guess."""

from __future__ import annotations

import numpy as np
import pytest

from mjsat.generate import random_height2_board
from mjsat.play.game import play_game
from mjsat.play.height2 import measure, trace_loss
from mjsat.play.strategies import Theorem5Strategy
from mjsat.play.view import PlayerView
from mjsat.ref import solve_ref
from mjsat.replay import replay
from mjsat.search.height2 import has_blocked_cycle


def play(board, rng):
    """Theorem 5's player on ``board``, drawing from ``rng``."""
    return play_game(board, Theorem5Strategy(), rng=rng)


def choose(board, rng):
    """Theorem 5's first decision on ``board`` (what it sees through the view)."""
    player = Theorem5Strategy()
    player.choose(PlayerView(board), rng)
    return player.decisions[-1]


def _boards(seed, count, **kw):
    rng = np.random.default_rng(seed)
    return [random_height2_board(rng, **kw) for _ in range(count)]


def _groups_of_four(seed, count, max_groups=8):
    rng = np.random.default_rng(seed)
    return [
        random_height2_board(rng, n_tiles=4 * int(rng.integers(1, max_groups + 1)), group_sizes=(4,))
        for _ in range(count)
    ]


def test_every_loss_is_the_three_off_the_ground_guess():
    boards = _groups_of_four(1, 250) + _boards(2, 250, max_tiles=24)
    losses = 0
    for i, board in enumerate(boards):
        if has_blocked_cycle(board):
            continue
        game = play(board, np.random.default_rng(i))
        if game.cleared:
            replay(board, game.moves)
            continue
        losses += 1
        trace = trace_loss(board, game)
        d = trace.decision
        assert d.guess, (board, trace)
        # exactly three free tiles, all off the ground: the fourth was hidden under a stack
        assert len(d.candidates) == 3
        # a peeking player would have left one of the two other stacks (at most one is bad)
        assert len(trace.alternatives_safe) == 2 and d.left_behind not in trace.alternatives_safe
        if len(board) <= 16:  # the exact reference solver confirms the fatal move
            before = board.copy(stack=False)
            for m in game.moves[: trace.index]:
                before.push(m)
            assert solve_ref(before.copy()).status == "solvable"
            before.push(d.move)
            assert solve_ref(before.copy()).status == "unsolvable"
    assert losses >= 5  # the test saw real losses


def test_no_guess_no_loss():
    for i, board in enumerate(_groups_of_four(3, 150)):
        game = play(board, np.random.default_rng(i))
        if not any(d.guess for d in game.decisions):
            assert game.cleared


def test_player_never_reads_a_covered_face():
    rng = np.random.default_rng(4)
    checked = 0
    for i, board in enumerate(_groups_of_four(5, 80)):
        hidden = sorted(PlayerView(board).seen().hidden)
        pairs = [(a, b) for a in hidden for b in hidden if a < b and board.groups[a] != board.groups[b]]
        if not pairs:
            continue
        a, b = pairs[int(rng.integers(len(pairs)))]
        groups = list(board.groups)
        groups[a], groups[b] = groups[b], groups[a]
        other = board.with_groups(groups)
        assert PlayerView(other).seen() == PlayerView(board).seen()
        d1 = choose(board, np.random.default_rng(i))
        d2 = choose(other, np.random.default_rng(i))
        assert d1 == d2
        checked += 1
    assert checked > 30


def test_reproducible_and_better_than_random():
    boards = _groups_of_four(6, 120)
    a = [play(b, np.random.default_rng(7)).moves for b in boards[:10]]
    b = [play(b, np.random.default_rng(7)).moves for b in boards[:10]]
    assert a == b
    m = measure(boards, seed=3)
    t5, rnd = m["players"]["theorem5"], m["players"]["random"]
    assert m["solvable"] == 120  # groups of four: always solvable with peeking (Theorem 5)
    assert t5["losses"] == t5["losses_after_guess"]
    assert t5["percent"] > rnd["percent"]
    assert t5["fatal_guess_rate"] <= 1 / 3 + 0.1


def test_trace_loss_refuses_won_and_unsolvable_games():
    from mjsat.generate import planted_cycle_board

    won = next((b, g) for b in _groups_of_four(8, 20) for g in [play(b, np.random.default_rng(0))] if g.cleared)
    with pytest.raises(ValueError, match="won"):
        trace_loss(*won)
    planted = planted_cycle_board(np.random.default_rng(1), n_tiles=12)
    lost = play(planted, np.random.default_rng(0))
    assert not lost.cleared
    with pytest.raises(ValueError, match="blocked cycle from the start"):
        trace_loss(planted, lost)
