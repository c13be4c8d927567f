"""The ``auto`` portfolio: agrees with the reference solver, names the deciding method, and
works with whatever methods are registered (down to ``ref`` alone)."""

from __future__ import annotations

import numpy as np
import pytest

from mjsat import methods as methods_mod
from mjsat.generate import random_small_board
from mjsat.methods import solve
from mjsat.search.height2_gen import random_height2_board
from mjsat.search.portfolio import DEFAULT_PLAN, UnknownPlanStepError, plan, solve_auto


def test_agrees_with_reference_and_names_the_decider():
    rng = np.random.default_rng(8)
    seen = set()
    for i in range(40):
        board = random_small_board(rng, game="shisen-sho" if i % 4 == 3 else "mahjong", max_tiles=12)
        ours = solve(board, "auto", time_limit=60)
        ref = solve(board, "ref")
        assert ours.status == ref.status
        assert ours.method == "auto"
        decider = ours.stats["decided_by"]
        assert decider in DEFAULT_PLAN
        assert ours.stats["steps"][-1]["step"] == decider
        assert ours.stats["steps"][-1]["status"] == ours.status
        seen.add(decider)
        if ours.status == "solvable":
            assert ours.verified
    assert seen  # at least one step decided


def test_height_two_boards_go_to_height2():
    rng = np.random.default_rng(1)
    for _ in range(10):
        board = random_height2_board(rng, max_tiles=14)
        r = solve(board, "auto")
        assert r.stats["decided_by"] == "height2"
        assert r.status == solve(board, "ref").status


def test_works_with_ref_alone(monkeypatch):
    monkeypatch.setattr(methods_mod, "METHODS", {"ref": "mjsat.ref:solve_ref", "auto": "mjsat.search.portfolio:solve_auto"})
    rng = np.random.default_rng(2)
    for _ in range(10):
        board = random_small_board(rng, max_tiles=10)
        r = solve(board, "auto")
        assert r.stats["decided_by"] == "ref"
        assert r.status == solve(board, "ref").status


def test_broken_and_refusing_methods_are_skipped(monkeypatch, tmp_path):
    (tmp_path / "auto_refuser.py").write_text(
        "from mjsat.result import MethodNotApplicableError\n"
        "def solve_no(board, *, time_limit=None, seed=0, **kw):\n"
        "    raise MethodNotApplicableError('sat', board.game, 'not my kind of board')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(
        methods_mod,
        "METHODS",
        {
            "ref": "mjsat.ref:solve_ref",
            "search": "no_such_module_xyz:solve",  # registered before its module exists
            "sat": "auto_refuser:solve_no",
        },
    )
    board = random_small_board(np.random.default_rng(3), max_tiles=8)
    assert plan(board) == ["sat", "ref"]  # height2 and cpsat absent, search broken
    r = solve_auto(board)
    assert r.stats["decided_by"] == "ref"
    assert any(s["status"] == "refused" and "not my kind" in s["reason"] for s in r.stats["steps"])


def test_plan_override_and_bad_steps():
    board = random_small_board(np.random.default_rng(4), max_tiles=8)
    r = solve(board, "auto", plan_steps="ref")
    assert r.stats["decided_by"] == "ref"
    with pytest.raises(UnknownPlanStepError, match="unknown step 'magic'"):
        solve(board, "auto", plan_steps="magic")
    with pytest.raises(ValueError, match="budget must be positive"):
        solve(board, "auto", node_limit=0)


def test_nothing_registered_answers_unknown(monkeypatch):
    monkeypatch.setattr(methods_mod, "METHODS", {"auto": "mjsat.search.portfolio:solve_auto"})
    board = random_small_board(np.random.default_rng(5), max_tiles=8)
    r = solve_auto(board)
    assert r.status == "unknown" and r.stats["decided_by"] is None
    assert r.reason == "no registered method applies to this board" and r.stats["steps"] == []
