"""encoders/shisen3d_paths.py: the blocker sets of Shisen-Sho on the Mahjong grid.

The reference is :func:`mjsat.shisen.connectable3d` on the occupancy of random sets of
present tiles: a pair goes exactly when its tiles are candidates, every tile above them
is gone and one of its blocker sets is gone.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mjsat.board import Layout, ShisenShoMahjongBoard
from mjsat.deals import deal_random
from mjsat.encoders.requirements import requirements
from mjsat.encoders.shisen3d_paths import CellLines, footprints_overlap, tiles_above
from mjsat.generate import random_small_board
from mjsat.layouts import load_layout
from mjsat.methods import solve
from mjsat.shisen import connectable3d


def occupancy(board: ShisenShoMahjongBoard, present: np.ndarray) -> np.ndarray:
    occ = np.zeros(board.grid_shape, dtype=bool)
    for t in np.flatnonzero(present):
        r, c, lev = board.cells[t]
        occ[lev, r : r + 2, c : c + 2] = True
    return occ


def check_against_connectable(board: ShisenShoMahjongBoard, rng: np.random.Generator, states: int) -> int:
    """Compare the requirements with the path test on ``states`` random occupancies;
    returns how many pairs could go (so a test can see it was not vacuous)."""
    req = requirements(board)
    assert req.game == "shisen-sho-3d" and not any(req.sides)
    n = len(board)
    candidates = [(a, b) for a, b in itertools.combinations(range(n), 2) if board.groups[a] == board.groups[b]]
    pairs = set(req.pairs)
    legal = 0
    for _ in range(states):
        present = rng.random(n) < rng.uniform(0.05, 1.0)
        occ = occupancy(board, present)
        gone = sum(1 << t for t in range(n) if not present[t])
        for a, b in candidates:
            truth = connectable3d(occ, board.cells[a], board.cells[b])
            ours = (
                (a, b) in pairs
                and all((gone >> o) & 1 for o in req.need[a] + req.need[b])
                and any(s & ~gone == 0 for s in req.path_bits[(a, b)])
            )
            assert truth == ours, (board.layout.positions, board.groups, (a, b), present.tolist())
            legal += truth
    return legal


def test_requirements_match_the_path_test_on_random_small_boards():
    rng = np.random.default_rng(1)
    legal = sum(
        check_against_connectable(random_small_board(rng, game="shisen-sho-3d", max_tiles=16, max_levels=3), rng, 10)
        for _ in range(150)
    )
    assert legal > 1000


@pytest.mark.parametrize("name", ["turtle", "pyramid"])
def test_requirements_match_the_path_test_on_layouts(name):
    board = deal_random(load_layout(name), seed=3, game="shisen-sho-3d")
    assert check_against_connectable(board, np.random.default_rng(2), 30) > 50


def test_tiles_above_and_overlapping_footprints():
    # a tile on two others, half offset: it is above both and pairs with neither
    board = ShisenShoMahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 1, 1), (0, 6, 0)]), [0, 0, 0, 0])
    assert tiles_above(board) == ((2,), (2,), (), ())
    cells = board.cells
    assert footprints_overlap(cells[0], cells[2]) and not footprints_overlap(cells[0], cells[1])
    assert CellLines(board).path_bits(0, 2) == []
    assert (0, 2) not in requirements(board).pairs
    # tiles 0 and 3 on level 0: the way along row 0 passes tile 1, around it is open
    assert CellLines(board).path_bits(0, 3) == [0]


def test_sat_and_cpsat_decide_turtle_deals_like_the_search():
    layout = load_layout("turtle")
    for seed in range(4):
        board = deal_random(layout, seed=seed, game="shisen-sho-3d")
        truth = solve(board, "search", time_limit=60).status
        for method, options in (("sat", {}), ("sat", {"encoding": "acyclic"}), ("cpsat", {})):
            got = solve(board, method, time_limit=60, **options)
            assert got.status in (truth, "unknown"), (seed, method, options, got.status, truth)
