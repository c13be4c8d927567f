"""encoders/cpsat.py: the CP-SAT model agrees with the reference solver."""

from __future__ import annotations

import pytest
from sat_boards import small_boards

from mjsat.board import Layout, MahjongBoard
from mjsat.encoders.cpsat import build_cpsat, solve_cpsat
from mjsat.methods import solve
from mjsat.replay import replay


def test_cpsat_agrees_with_ref():
    counts = {"solvable": 0, "unsolvable": 0}
    for board in small_boards(21, 60):
        ref = solve(board, "ref").status
        counts[ref] += 1
        res = solve(board, "cpsat")
        assert res.status == ref, repr(board)
        if ref == "solvable":
            assert res.verified
            replay(board, res.moves)
    assert counts["solvable"] >= 5 and counts["unsolvable"] >= 5, counts


def test_cpsat_workers_seed_and_stats():
    board = next(small_boards(4, 1))
    res = solve(board, "cpsat", workers=2, seed=3)
    assert res.stats["workers"] == 2
    for key in ("build_seconds", "solve_seconds", "variables", "constraints", "horizon"):
        assert key in res.stats
    with pytest.raises(ValueError, match="workers"):
        solve_cpsat(board, workers=0)


def test_cpsat_model_times_follow_the_rules():
    # two stacks of two: the top pair goes first, at time 0, the bottom pair at time 1
    board = MahjongBoard(Layout([(0, 0, 0), (0, 0, 1), (0, 4, 0), (0, 4, 1)]), [0, 1, 0, 1])
    model, h = build_cpsat(board)
    assert h["horizon"] == 2 and set(h["m"]) == {(0, 2), (1, 3)}
    res = solve(board, "cpsat")
    assert res.moves == [(1, 3), (0, 2)]
    # horizon 1 is too short: infeasible (the method itself always uses the proved bound)
    from ortools.sat.python import cp_model

    model1, _ = build_cpsat(board, horizon=1)
    assert cp_model.CpSolver().Solve(model1) == cp_model.INFEASIBLE
