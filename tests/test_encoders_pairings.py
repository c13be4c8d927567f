"""encoders/pairings.py: a pairing clears a board iff some order of its pairs does."""

from __future__ import annotations

import math

import pytest

from mjsat.board import Layout, MahjongBoard
from mjsat.encoders.pairings import feasible_pairings, linearize, perfect_matchings
from mjsat.generate import random_grid_board, random_small_board
from mjsat.methods import solve
from mjsat.replay import replay


@pytest.mark.parametrize("k", [2, 4, 6, 8])
def test_perfect_matchings_count(k):
    ms = list(perfect_matchings(list(range(k))))
    assert len(ms) == math.prod(range(k - 1, 0, -2))
    assert len({tuple(m) for m in ms}) == len(ms)
    assert all(sorted(t for p in m for t in p) == list(range(k)) for m in ms)


def test_linearize_and_feasible_pairings_agree_with_ref(rng):
    statuses = {"solvable": 0, "unsolvable": 0}
    for i in range(40):
        if i % 2:
            board = random_small_board(rng, max_tiles=10, group_sizes=(2, 4))
        else:
            board = random_grid_board(rng, max_width=4, max_height=3, group_sizes=(2, 4))
        pairings = feasible_pairings(board)
        ref = solve(board, "ref").status
        statuses[ref] += 1
        assert (len(pairings) > 0) == (ref == "solvable")
        for pairing in pairings:
            order = linearize(board, pairing)
            assert order is not None
            replay(board, order)
    assert statuses["solvable"] >= 10 and statuses["unsolvable"] >= 2, statuses  # both answers occur


def test_linearize_none_for_a_blocked_pairing():
    board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 0, 0, 0])
    assert linearize(board, [(0, 1), (2, 3)]) is None  # tile 1 is boxed in by 0 and 2
    assert linearize(board, [(0, 2), (1, 3)]) is None  # 2 and 1 stay boxed in
    assert linearize(board, [(1, 2), (0, 3)]) == [(0, 3), (1, 2)]  # any order of the pairs
