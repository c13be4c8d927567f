"""The fatal move: the remaining board, the binary search against a linear scan."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st
from naive import brute_force_solvable

from mjsat.board import Layout, MahjongBoard
from mjsat.deals import deal_solvable
from mjsat.generate import random_small_board
from mjsat.layouts import load_layout
from mjsat.methods import solve
from mjsat.play.fatal import (
    FatalMove,
    fatal_histogram,
    fatal_move,
    position_after,
)
from mjsat.play.game import play_game


def test_position_after_maps_tiles_back():
    board = deal_solvable(load_layout("pyramid"), seed=3)[0]
    rec = play_game(board, "random", "random", seed=1)
    k = len(rec.moves) // 2
    sub, back = position_after(board, rec.moves[:k])
    assert len(sub) == len(board) - 2 * k
    assert [board.layout.positions[t] for t in back] == list(sub.layout.positions)
    assert [board.groups[t] for t in back] == list(sub.groups)
    # the same moves are legal in both numberings
    played = board.copy(stack=False)
    for m in rec.moves[:k]:
        played.push(m)
    inverse = {t: i for i, t in enumerate(back)}
    assert sorted(played.generate_legal_moves()) == sorted((back[a], back[b]) for a, b in sub.generate_legal_moves())
    assert all(inverse[a] < inverse[b] for a, b in played.generate_legal_moves())


def _linear_fatal(board, moves):
    """The first k whose position cannot be cleared, by brute force on every prefix."""
    for k in range(len(moves) + 1):
        sub, _ = position_after(board, moves[:k])
        if not brute_force_solvable(sub)[0]:
            return k
    return None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["random", "greedy", "multiple-first"]))
def test_binary_search_agrees_with_a_linear_scan(seed, strategy):
    rng = np.random.default_rng(seed)
    board = random_small_board(rng, max_tiles=12)
    rec = play_game(board, strategy, "random", seed=seed)
    expected = _linear_fatal(board, rec.moves)
    got = fatal_move(board, rec.moves, method="ref")
    if rec.cleared:
        assert got.status == "cleared" and expected is None
    elif expected == 0:
        assert got.status == "dealt-unsolvable" and got.move == 0
    else:
        assert got.status == "found" and got.move == expected
        assert got.lo == expected - 1 and got.hi == expected


def test_start_solvable_skips_the_first_solve():
    stack = MahjongBoard(Layout([(0, 0, 0), (0, 0, 1), (0, 4, 0), (0, 8, 0)]), [0, 0, 0, 0])
    a = fatal_move(stack, [(2, 3)], method="ref")
    b = fatal_move(stack, [(2, 3)], method="ref", start_solvable=True)
    assert a.move == b.move == 1 and b.solves < a.solves


def test_limits_answer_unknown_with_bounds():
    board = deal_solvable(load_layout("turtle"), seed=11)[0]
    for seed in range(20):
        rec = play_game(board, "random", "random", seed=seed)
        if not rec.cleared:
            break
    assert not rec.cleared
    got = fatal_move(board, rec.moves, method="ref", time_limit=0.001, start_solvable=True)
    assert got.status in ("found", "unknown")
    assert 0 <= got.lo < got.hi <= len(rec.moves)
    if got.status == "unknown":
        assert got.move is None and got.unknown
    else:  # every position tried was decided in time: the bounds are tight
        assert got.hi == got.lo + 1 == got.move


def test_histogram_and_method_choice():
    results = [
        FatalMove("found", 3, 2, 3, "ref"),
        FatalMove("found", 3, 2, 3, "ref"),
        FatalMove("found", 1, 0, 1, "ref"),
        FatalMove("unknown", None, 0, 9, "ref"),
        FatalMove("cleared", None, 5, 5, "ref"),
    ]
    assert fatal_histogram(results) == {"1": 1, "3": 2, "unknown": 1}


def test_solvers_agree_on_a_position_after_a_few_moves():
    board = deal_solvable(load_layout("pyramid"), seed=8)[0]
    rec = play_game(board, "greedy", "maxblock", seed=8)
    sub, _ = position_after(board, rec.moves[:3])
    methods = ["ref", "auto", "exact", "search"]
    statuses = {solve(sub, m, time_limit=30).status for m in methods}
    assert statuses == {"solvable" if brute_force_solvable(sub)[0] else "unsolvable"}
