"""The CP-SAT removal-time fallback against the reference solver, and the method choice."""

from __future__ import annotations

import numpy as np

from mjsat.generate import random_grid_board, random_small_board
from mjsat.methods import METHODS, solve
from mjsat.reductions.exact import decide, exact_method, exact_plan, solve_timed_cpsat
from mjsat.replay import replay


def test_timed_cpsat_agrees_with_the_reference_on_random_small_boards():
    rng = np.random.default_rng(4)
    kinds = set()
    for _ in range(60):
        b = random_small_board(rng, max_tiles=12)
        ours = solve_timed_cpsat(b)
        if ours.status == "solvable":
            replay(b, ours.moves)
        assert ours.status == solve(b, "ref").status
        kinds.add(ours.status)
    assert kinds == {"solvable", "unsolvable"}


def test_exact_method_prefers_a_registered_exhaustive_method():
    choice = exact_method()
    if "sat" in METHODS:
        assert choice[0] == "sat" and choice[1].get("encoding") == "acyclic"
    elif choice is None:
        assert not {"cpsat", "search"} & set(METHODS)
    b = random_small_board(np.random.default_rng(1), max_tiles=10)
    assert decide(b).status == solve(b, "ref").status
    assert decide(b, method="ref").status == solve(b, "ref").status


def test_shisen_boards_get_a_short_search_then_sat_and_agree_with_the_reference():
    rng = np.random.default_rng(5)
    b = random_grid_board(rng, max_width=5, max_height=4)
    if {"search", "sat"} <= set(METHODS):
        assert exact_plan(b) == [("search", {"attempts": 0, "node_limit": 200}), ("sat", {"encoding": "acyclic"})]
        assert exact_method(b) == exact_plan(b)[0]
    kinds = set()
    for _ in range(150):
        b = random_grid_board(rng, max_width=5, max_height=4)
        got = decide(b)
        assert got.status == solve(b, "ref").status
        kinds.add(got.status)
    assert kinds == {"solvable", "unsolvable"}
