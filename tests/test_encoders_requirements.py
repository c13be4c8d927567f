"""encoders/requirements.py: the rules of each game as precedence data."""

from __future__ import annotations

import pytest

from mjsat.board import Board, Layout, MahjongBoard, ShisenShoBoard, TransposedMahjongBoard
from mjsat.encoders.errors import BuildTimeLimit, EncodingError
from mjsat.encoders.requirements import requirements
from mjsat.methods import solve


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


def test_requirements_watch_the_deadline_and_the_pair_limit(monkeypatch):
    import time

    from mjsat.limits import SizeLimitError

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
