"""encoders/common.py: Shisen-Sho candidate paths, requirements, the pairing view."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjsat.board import Board, Layout, MahjongBoard, ShisenShoBoard, TransposedMahjongBoard
from mjsat.encoders.common import (
    EncodingError,
    feasible_pairings,
    linearize,
    perfect_matchings,
    requirements,
    shisen_paths,
)
from mjsat.generate import random_grid_board, random_small_board
from mjsat.methods import solve
from mjsat.replay import replay
from mjsat.shisen import connectable


@settings(max_examples=150, deadline=None)
@given(
    h=st.integers(1, 4),
    w=st.integers(1, 5),
    data=st.data(),
)
def test_shisen_paths_agree_with_connectable(h, w, data):
    """Some candidate set is all removed <=> mjsat.shisen.connectable, on every occupancy."""
    cells = [(y, x) for y in range(h) for x in range(w)]
    cells = cells[: len(cells) - len(cells) % 2]
    if len(cells) < 2:
        return
    layout = Layout([(2 * y, 2 * x, 0) for y, x in cells])
    board = ShisenShoBoard(layout, [0] * len(cells))
    a, b = data.draw(st.lists(st.sampled_from(range(len(cells))), min_size=2, max_size=2, unique=True))
    removed = set(data.draw(st.lists(st.sampled_from(range(len(cells))), max_size=len(cells))))
    removed -= {a, b}
    for t in removed:
        board.push((t, t))  # unchecked: only clears the cells
    occ = board.occupancy()
    ref = connectable(occ, board._cell1(a), board._cell1(b))
    alts = shisen_paths(board, a, b)
    assert any(alt <= removed for alt in alts) == ref
    # minimal and without the endpoints
    assert all(a not in s and b not in s for s in alts)
    assert not any(s < o for s, o in itertools.permutations(alts, 2))


def test_requirements_mahjong_sides_and_pruning():
    # a row of three with a tile on top of the middle one
    layout = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 2, 1)])
    board = MahjongBoard(layout, [0, 0, 1, 1])
    req = requirements(board)
    assert req.need[1] == (3,)
    assert req.sides[1] == (frozenset({0}), frozenset({2}))
    assert req.sides[0] == () and req.sides[3] == ()
    assert (0, 1) in req.pairs
    board2 = MahjongBoard(layout, [0, 1, 1, 0])
    # tile 3 covers tile 1: (1, 3) cannot go together; (1, 2) can
    assert (1, 2) in requirements(board2).pairs
    board3 = MahjongBoard(layout, [0, 1, 0, 1])
    req3 = requirements(board3)
    assert (1, 3) not in req3.pairs and req3.impossible == (1, 3)
    assert solve(board3, "sat").status == "unsolvable"


def test_requirements_transposed_uses_front_rear():
    layout = Layout([(0, 0, 0), (2, 0, 0), (4, 0, 0), (0, 2, 0)])
    tb = TransposedMahjongBoard(layout, [0, 0, 1, 1])
    mb = MahjongBoard(layout, [0, 0, 1, 1])
    assert requirements(tb).sides[1] == (frozenset({0}), frozenset({2}))
    assert requirements(mb).sides[1] == ()


def test_requirements_rejects_unknown_game():
    class Odd(Board):
        game = "odd"

    board = Odd(Layout([(0, 0, 0), (0, 2, 0)]), [0, 0])
    with pytest.raises(EncodingError, match="odd"):
        requirements(board)


@pytest.mark.parametrize("k", [2, 4, 6, 8])
def test_perfect_matchings_count(k):
    ms = list(perfect_matchings(list(range(k))))
    assert len(ms) == math.prod(range(k - 1, 0, -2))
    assert len({tuple(m) for m in ms}) == len(ms)
    assert all(sorted(t for p in m for t in p) == list(range(k)) for m in ms)


def test_linearize_and_feasible_pairings_agree_with_ref(rng):
    for i in range(40):
        if i % 2:
            board = random_small_board(rng, max_tiles=10, group_sizes=(2, 4))
        else:
            board = random_grid_board(rng, max_width=4, max_height=3, group_sizes=(2, 4))
        pairings = feasible_pairings(board)
        ref = solve(board, "ref").status
        assert (len(pairings) > 0) == (ref == "solvable")
        for pairing in pairings:
            order = linearize(board, pairing)
            assert order is not None
            replay(board, order)


def test_linearize_none_for_a_blocked_pairing():
    board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 0, 0, 0])
    assert linearize(board, [(0, 1), (2, 3)]) is None  # tile 1 is boxed in by 0 and 2
    assert linearize(board, [(0, 2), (1, 3)]) is None  # 2 and 1 stay boxed in
    assert linearize(board, [(1, 2), (0, 3)]) == [(0, 3), (1, 2)]  # any order of the pairs


def test_requirements_watch_the_deadline_and_the_pair_limit(monkeypatch):
    import time

    from mjsat.board import Layout, ShisenShoBoard
    from mjsat.encoders.common import BuildTimeLimit
    from mjsat.limits import SizeLimitError
    from mjsat.methods import solve

    # a 30 x 30 Shisen-Sho board of six groups: 67,350 candidate pairs with paths
    layout = Layout([(2 * y, 2 * x, 0) for y in range(30) for x in range(30)])
    board = ShisenShoBoard(layout, [t % 6 for t in range(900)])
    with pytest.raises(BuildTimeLimit, match="Shisen-Sho path requirements"):
        requirements(board, deadline=time.perf_counter() - 1)
    start = time.perf_counter()
    got = solve(board, "sat", time_limit=0.5)
    assert got.status == "unknown" and time.perf_counter() - start < 3
    got = solve(board, "cpsat", time_limit=0.5)
    assert got.status == "unknown" and time.perf_counter() - start < 6
    monkeypatch.setenv("MJSAT_MAX_PAIRS", "1000")
    with pytest.raises(SizeLimitError, match="MJSAT_MAX_PAIRS"):
        requirements(board)
    got = solve(board, "auto", time_limit=5)  # a step too big for its limit is refused, not fatal
    assert got.status == "unknown" and any("MJSAT_MAX_PAIRS" in s.get("reason", "") for s in got.stats["steps"])
