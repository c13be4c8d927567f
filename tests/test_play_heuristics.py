"""Stam's blocking value (eqs. 1-3) and the two heuristics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjsat.board import Layout, MahjongBoard
from mjsat.generate import random_small_board
from mjsat.layouts import load_layout
from mjsat.play.heuristics import (
    MaxBlockHeuristic,
    RandomHeuristic,
    UnknownHeuristicError,
    blocking_value,
    horizontal,
    make_heuristic,
    vertical,
)
from mjsat.play.view import PlayerView


def naive_chain(positions, present, t, step):
    """Tiles reached from ``t`` by repeatedly stepping to a same-level tile touching the
    given side (step -2: left, +2: right), from the raw positions."""
    out, frontier = set(), [t]
    while frontier:
        nxt = []
        for u in frontier:
            ru, cu, lu = positions[u]
            for v, (rv, cv, lv) in enumerate(positions):
                if present[v] and v != t and v not in out and lv == lu and abs(rv - ru) < 2 and cv == cu + step:
                    out.add(v)
                    nxt.append(v)
        frontier = nxt
    return out


def naive_blocking_value(positions, present, t):
    def hor(u):
        return abs(len(naive_chain(positions, present, u, -2)) - len(naive_chain(positions, present, u, 2))) // 2

    r, c, l = positions[t]
    below = [u for u, (ru, cu, lu) in enumerate(positions) if present[u] and lu == l - 1 and abs(ru - r) < 2 and abs(cu - c) < 2]
    return hor(t) + (sum(hor(b) + 1 for b in below) if l > 0 else 0)


def test_the_papers_example_four_left_seven_right():
    # stone 79 of Figure 2: 4 obstructors on the left, 7 on the right -> hor = 1
    row = Layout([(0, 2 * i, 0) for i in range(12)])
    view = PlayerView(MahjongBoard(row, [i // 4 for i in range(12)]))
    assert [len(c) for c in view.side_chains(4)] == [4, 7]
    assert horizontal(view, 4) == 1 and vertical(view, 4) == 0 and blocking_value(view, 4) == 1
    assert blocking_value(view, 0) == 5  # floor(11 / 2)


def test_vertical_component_sums_over_the_stones_below():
    # a tile bridging two tiles of a row of three, one tile on the bridge
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 1, 1), (0, 8, 0), (0, 10, 0)])
    view = PlayerView(MahjongBoard(lay, [0, 0, 1, 1, 2, 2]))
    # below tile 3: tiles 0 (hor |0-2|//2 = 1) and 1 (hor 0) -> ver = (1+1) + (0+1)
    assert vertical(view, 3) == 3 and horizontal(view, 3) == 0
    assert blocking_value(view, 3) == 3


def test_turtle_top_stone():
    turtle = load_layout("turtle")
    view = PlayerView(MahjongBoard(turtle, [t // 4 for t in range(144)]))
    top = max(range(144), key=lambda t: turtle.positions[t][2])
    # it lies on the 2x2 block of level 3, each of which has one neighbour on one side
    assert len(view.below(top)) == 4 and vertical(view, top) == 4


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_blocking_value_matches_the_naive_definition(seed):
    rng = np.random.default_rng(seed)
    board = random_small_board(rng, max_tiles=16)
    view = PlayerView(board)
    for _ in range(3):
        present = [view.is_present(t) for t in range(len(board))]
        for t in view.present_tiles():
            assert blocking_value(view, t) == naive_blocking_value(board.layout.positions, present, t)
        pairs = view.free_pairs()
        if not pairs:
            break
        view._apply(pairs[int(rng.integers(len(pairs)))])


def test_maxblock_picks_the_highest_combined_value():
    row = Layout([(0, 2 * i, 0) for i in range(8)] + [(4, 0, 0), (4, 2, 0)])
    # the ends of the long row block most; the two-tile row blocks little
    view = PlayerView(MahjongBoard(row, [0, 1, 2, 3, 3, 2, 1, 0, 0, 0]))
    pairs = view.free_pairs()
    assert (0, 7) in pairs and (8, 9) in pairs
    h = MaxBlockHeuristic()
    rng = np.random.default_rng(0)
    assert all(h.best_pair(view, pairs, rng) == (0, 7) for _ in range(5))
    assert h.rank(view, [8, 0, 9, 7], rng)[:2] in ([0, 7], [7, 0])


def test_ties_and_the_random_heuristic_use_the_rng():
    row = Layout([(0, 2 * i, 0) for i in range(4)] + [(4, 2 * i, 0) for i in range(4)])
    view = PlayerView(MahjongBoard(row, [0, 1, 1, 0, 0, 1, 1, 0]))
    pairs = view.free_pairs()  # (0, 3), (0, 4), (0, 7), (3, 4), ... all with equal value
    for h in (MaxBlockHeuristic(), RandomHeuristic()):
        seen = {h.best_pair(view, pairs, np.random.default_rng(s)) for s in range(40)}
        assert len(seen) == len(pairs)
        again = [h.best_pair(view, pairs, np.random.default_rng(7)) for _ in range(3)]
        assert len(set(again)) == 1


def test_names():
    assert make_heuristic("max-block").name == "maxblock" and make_heuristic("Random").name == "random"
    with pytest.raises(UnknownHeuristicError):
        make_heuristic("minblock")
    with pytest.raises(ValueError):
        RandomHeuristic().best_pair(None, [], np.random.default_rng(0))
