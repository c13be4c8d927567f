"""Stam's blocking value (eqs. 1-3) and the two heuristics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mjsat.board import Layout, MahjongBoard, find_variant
from mjsat.generate import random_small_board
from mjsat.layouts import load_layout
from mjsat.play.heuristics import (
    MaxBlockHeuristic,
    MaxBlockLiteralHeuristic,
    RandomHeuristic,
    UnknownHeuristicError,
    blocking_value,
    horizontal,
    make_heuristic,
    static_blocking_values,
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


def naive_blocking_value(positions, present, t, *, transitive=False, static=False):
    """Eqs. 1-3 from the raw positions; ``transitive``: each stone below adds its own
    blocking value too; ``static``: the chains run through every position of the layout."""
    chain_present = [True] * len(positions) if static else present

    def hor(u):
        return (
            abs(len(naive_chain(positions, chain_present, u, -2)) - len(naive_chain(positions, chain_present, u, 2)))
            // 2
        )

    def ver(u):
        r, c, l = positions[u]
        below = [
            v
            for v, (rv, cv, lv) in enumerate(positions)
            if present[v] and lv == l - 1 and abs(rv - r) < 2 and abs(cv - c) < 2
        ]
        return sum(hor(b) + 1 + (ver(b) if transitive else 0) for b in below) if l > 0 else 0

    return hor(t) + ver(t)


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


def _pile_board():
    """A row of six on the ground (a0..a5), ``b`` on a1, ``c`` on b, and two loose tiles.

    ::

        level 2:        c
        level 1:        b
        level 0:  a0 a1 a2 a3 a4 a5        x  y
    """
    lay = Layout([(0, 2 * i, 0) for i in range(6)] + [(0, 2, 1), (0, 2, 2), (4, 20, 0), (4, 24, 0)])
    # faces: a5 with x, a4 with y, the rest in pairs that do not matter here
    return MahjongBoard(lay, [0, 0, 1, 1, 2, 3, 4, 4, 3, 2])


A0, A1, A2, A3, A4, A5, B, C, X, Y = range(10)


def test_transitive_vertical_counts_the_whole_pile_underneath():
    view = PlayerView(_pile_board())
    # hor(a1) = floor(|1 - 4| / 2) = 1 (a0 on the left; a2..a5 on the right)
    # hor(b) = hor(c) = 0 (alone on their levels)
    assert horizontal(view, A1) == 1 and horizontal(view, B) == 0 and horizontal(view, C) == 0
    # literal eq. 2: ver(b) = hor(a1) + 1 = 2; ver(c) = hor(b) + 1 = 1 -- c, on top of a
    # pile of three, scores less than b
    assert vertical(view, B) == 2 and vertical(view, C) == 1
    assert blocking_value(view, B) == 2 and blocking_value(view, C) == 1
    # transitive: ver(c) = hor(b) + 1 + ver(b) = 0 + 1 + 2 = 3
    assert vertical(view, C, transitive=True) == 3 and blocking_value(view, C, transitive=True) == 3
    assert vertical(view, B, transitive=True) == 2  # one level up: the same as literal
    # before any move the static layout and the present stones agree
    for t in range(10):
        assert blocking_value(view, t, transitive=True, chains="static") == blocking_value(view, t, transitive=True)


def test_static_chains_count_the_stones_already_picked():
    board = _pile_board()
    board.play((A5, 8))  # a5 with x
    board.play((A4, 9))  # a4 with y (free once a5 is gone)
    view = PlayerView(board)
    # present chains of a1: a0 | a2, a3 -> floor(|1 - 2| / 2) = 0
    # static chains of a1: a0 | a2, a3, a4, a5 -> floor(|1 - 4| / 2) = 1
    assert horizontal(view, A1) == 0 and horizontal(view, A1, chains="static") == 1
    # a0: present 0 | 3 -> 1; static 0 | 5 -> 2
    assert horizontal(view, A0) == 1 and horizontal(view, A0, chains="static") == 2
    # c: literal 0 + (0 + 1) = 1; transitive, present: 0 + (0 + 1 + (0 + 1)) = 2;
    # transitive, static: 0 + (0 + 1 + (1 + 1)) = 3 (the maxblock of Table 1)
    assert blocking_value(view, C) == 1
    assert blocking_value(view, C, transitive=True) == 2
    assert blocking_value(view, C, transitive=True, chains="static") == 3
    assert MaxBlockHeuristic().stone_score(view, C) == 3.0
    assert MaxBlockHeuristic(chains="present").stone_score(view, C) == 2.0
    assert MaxBlockLiteralHeuristic().stone_score(view, C) == 1.0
    # b: literal 0 + (0 + 1) = 1; static 0 + (1 + 1) = 2
    assert MaxBlockLiteralHeuristic().stone_score(view, B) == 1.0 and MaxBlockHeuristic().stone_score(view, B) == 2.0


def test_a_stone_under_two_piles_counts_once_per_pile():
    # a0 a1 a2 on the ground, b1 bridging a0-a1, b2 bridging a1-a2, c bridging b1-b2
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 1, 1), (0, 3, 1), (0, 2, 2)])
    view = PlayerView(MahjongBoard(lay, [0, 1, 2, 2, 1, 0]))
    a0, a1, a2, b1, b2, c = range(6)
    # hor: a0 = a2 = floor(2 / 2) = 1, a1 = 0; b1 = b2 = floor(1 / 2) = 0; c = 0
    # ver(b1) = (hor(a0) + 1) + (hor(a1) + 1) = 2 + 1 = 3, ver(b2) = 3 likewise
    assert vertical(view, b1) == 3 and vertical(view, b2) == 3
    # literal: ver(c) = (0 + 1) + (0 + 1) = 2; transitive: (0 + 1 + 3) + (0 + 1 + 3) = 8
    # (a1 lies under both piles and counts in each)
    assert vertical(view, c) == 2 and vertical(view, c, transitive=True) == 8
    assert static_blocking_values(view, transitive=True)[c] == 8.0
    assert static_blocking_values(view, transitive=False)[c] == 2.0


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_every_reading_matches_the_naive_definition(seed):
    rng = np.random.default_rng(seed)
    board = random_small_board(rng, max_tiles=16)
    view = PlayerView(board)
    for _ in range(4):
        present = [view.is_present(t) for t in range(len(board))]
        for transitive in (False, True):
            for chains in ("present", "static"):
                h = MaxBlockHeuristic(transitive=transitive, chains=chains)
                for t in view.present_tiles():
                    want = naive_blocking_value(
                        board.layout.positions, present, t, transitive=transitive, static=chains == "static"
                    )
                    assert blocking_value(view, t, transitive=transitive, chains=chains) == want
                    assert h.stone_score(view, t) == want
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


def test_pair_rule_sum_or_the_better_stone():
    # rows of 8 (tiles 0-7), 2 (8-9) and 6 (10-15); the free pairs are (0, 8) and (10, 15)
    lay = Layout(
        [(0, 2 * i, 0) for i in range(8)] + [(4, 2 * i, 0) for i in range(2)] + [(8, 2 * i, 0) for i in range(6)]
    )
    faces = [0, 1, 2, 3, 3, 4, 4, 1] + [0, 2] + [5, 6, 6, 7, 7, 5]
    view = PlayerView(MahjongBoard(lay, faces))
    assert sorted(view.free_pairs()) == [(0, 8), (10, 15)]
    # hor(0) = floor(|0 - 7| / 2) = 3, hor(8) = floor(|0 - 1| / 2) = 0, hor(10) = hor(15) = floor(5 / 2) = 2
    assert [static_blocking_values(view)[t] for t in (0, 8, 10, 15)] == [3.0, 0.0, 2.0, 2.0]
    rng = np.random.default_rng(0)
    # sum: (0, 8) scores 3, (10, 15) scores 4; max: 3 against 2
    assert MaxBlockHeuristic().best_pair(view, view.free_pairs(), rng) == (10, 15)
    assert MaxBlockHeuristic(pairs="max").best_pair(view, view.free_pairs(), rng) == (0, 8)
    assert MaxBlockHeuristic(pairs="max").name == "maxblock(transitive=True, chains=static, ties=random, pairs=max)"
    with pytest.raises(UnknownHeuristicError):
        MaxBlockHeuristic(pairs="min")


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
    assert make_heuristic("maxblock-literal").name == "maxblock-literal" == make_heuristic("max_block_literal").name
    mb = make_heuristic("maxblock")
    assert mb.transitive and mb.chains == "static"
    assert MaxBlockHeuristic(transitive=False, chains="present").name == "maxblock-literal"
    assert MaxBlockHeuristic(chains="present").name == "maxblock(transitive=True, chains=present, ties=random)"
    assert MaxBlockHeuristic(ties="first").name == "maxblock(transitive=True, chains=static, ties=first)"
    with pytest.raises(UnknownHeuristicError):
        MaxBlockHeuristic(ties="never")
    with pytest.raises(UnknownHeuristicError):
        make_heuristic("minblock")
    with pytest.raises(UnknownHeuristicError):
        MaxBlockHeuristic(chains="sometimes")
    with pytest.raises(ValueError):
        RandomHeuristic().best_pair(None, [], np.random.default_rng(0))


@pytest.mark.parametrize("game", ["mahjong", "mahjong-transposed"])
@pytest.mark.parametrize("name", ["turtle", "rect-6x5"])
def test_the_layouts_table_is_every_stones_static_value(name, game):
    """:meth:`SideTables.blocking` (what the heuristic ``maxblock`` reads) is eq. 3 with
    static chains, stone by stone, in both readings of eq. 2 and with either pair of sides."""
    layout = load_layout(name)
    n = len(layout)
    board = find_variant(game)(layout, [t // 2 for t in range(n)])
    view = PlayerView(board)
    table = layout.side_tables(view.sides)
    for transitive in (False, True):
        want = [blocking_value(view, t, transitive=transitive, chains="static") for t in range(n)]
        got = table.blocking(transitive=transitive)
        assert got.tolist() == want and not got.flags.writeable
    assert max(table.blocking()) > 0
