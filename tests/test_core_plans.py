"""The plans (``auto``, ``exact``): agree with the reference solver, name the deciding step,
skip steps that refuse a board, and treat a broken method as an error."""

from __future__ import annotations

import numpy as np
import pytest

from mjsat import methods as methods_mod
from mjsat.generate import random_small_board
from mjsat.methods import solve
from mjsat.generate import random_height2_board
from mjsat.methods import MethodInfo
from mjsat.plans import AUTO, UnknownPlanStepError, plan, run_plan, solve_auto

DEFAULT_PLAN = tuple(s.label for s in AUTO)


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
    rng = np.random.default_rng(2)
    for _ in range(10):
        board = random_small_board(rng, max_tiles=10)
        r = solve(board, "auto", plan_steps="ref")
        assert r.stats["decided_by"] == "ref"
        assert r.status == solve(board, "ref").status


def test_refusing_methods_are_skipped_and_broken_ones_are_errors(monkeypatch, tmp_path):
    (tmp_path / "auto_refuser.py").write_text(
        "from mjsat.result import MethodNotApplicableError\n"
        "def solve_no(board, *, time_limit=None, seed=0, **kw):\n"
        "    raise MethodNotApplicableError('refuser', board.game, 'not my kind of board')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = dict(methods_mod.METHODS)
    registry["refuser"] = MethodInfo("refuser", "auto_refuser:solve_no", ("sides", "grid-path", "cell-path"), True, "")
    registry["broken"] = MethodInfo("broken", "no_such_module_xyz:solve", ("sides",), True, "")
    monkeypatch.setattr(methods_mod, "METHODS", registry)
    board = random_small_board(np.random.default_rng(3), max_tiles=8)
    r = solve_auto(board, plan_steps="refuser,ref")
    assert r.stats["decided_by"] == "ref"
    assert any(s["status"] == "refused" and "not my kind" in s["reason"] for s in r.stats["steps"])
    with pytest.raises(ModuleNotFoundError, match="no_such_module_xyz"):
        solve_auto(board, plan_steps="broken,ref")


def test_a_step_outside_the_methods_kinds_is_refused_not_run():
    from mjsat.generate import random_grid_board

    board = random_grid_board(np.random.default_rng(6), max_width=3, max_height=3)
    r = solve_auto(board, plan_steps="height2,ref")
    assert r.stats["decided_by"] == "ref" and [s["step"] for s in r.stats["steps"]] == ["ref"]
    assert plan(board) == ["search-budget", "sat", "cpsat", "search", "ref"]


def test_plan_override_and_bad_steps():
    board = random_small_board(np.random.default_rng(4), max_tiles=8)
    r = solve(board, "auto", plan_steps="ref")
    assert r.stats["decided_by"] == "ref"
    with pytest.raises(UnknownPlanStepError, match="unknown step 'magic'"):
        solve(board, "auto", plan_steps="magic")
    with pytest.raises(ValueError, match="budget must be positive"):
        solve(board, "auto", node_limit=0)


def test_no_step_that_applies_answers_unknown():
    from mjsat.plans import Step

    board = random_small_board(np.random.default_rng(5), max_tiles=8)
    r = run_plan(board, [Step("h", "height2", kinds=("grid-path",))], name="test")
    assert r.status == "unknown" and r.stats["decided_by"] is None
    assert r.reason == "no step of the plan applies to this board" and r.stats["steps"] == []
