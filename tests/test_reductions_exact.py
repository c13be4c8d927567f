"""The ``exact`` plan (the reductions' checks) against the reference solver."""

from __future__ import annotations

import numpy as np

from mjsat.generate import random_grid_board, random_small_board
from mjsat.methods import solve
from mjsat.plans import EXACT, plan


def test_exact_plan_on_mahjong_boards_is_sat_acyclic_and_agrees_with_the_reference():
    rng = np.random.default_rng(1)
    kinds = set()
    for _ in range(60):
        b = random_small_board(rng, max_tiles=12)
        got = solve(b, "exact")
        assert got.status == solve(b, "ref").status
        assert got.stats["decided_by"] in ("height2", "sat")
        kinds.add(got.status)
    assert kinds == {"solvable", "unsolvable"}


def test_shisen_boards_get_a_short_search_then_sat_and_agree_with_the_reference():
    rng = np.random.default_rng(5)
    b = random_grid_board(rng, max_width=5, max_height=4)
    assert plan(b, EXACT) == ["search-short", "sat"]
    kinds = set()
    for _ in range(150):
        b = random_grid_board(rng, max_width=5, max_height=4)
        got = solve(b, "exact")
        assert got.status == solve(b, "ref").status
        kinds.add(got.status)
    assert kinds == {"solvable", "unsolvable"}
