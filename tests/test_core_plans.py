"""The plans (``auto``, ``exact``): agree with the reference solver, name the deciding step,
skip steps that refuse a board, and treat a broken method as an error."""

from __future__ import annotations

import numpy as np
import pytest

from mjsat import methods as methods_mod
from mjsat.deals import deal_random
from mjsat.generate import random_height2_board, random_small_board
from mjsat.methods import MethodInfo, solve
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
    assert plan(board) == ["search-race", "sat-race", "ref"]


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


def test_a_race_alternates_doubling_slices_until_one_decides(monkeypatch, tmp_path):
    """A step that never decides hands its time to the next: the slices double."""
    from mjsat.plans import Step

    (tmp_path / "race_fakes.py").write_text(
        "import time\n"
        "from mjsat.result import SolveResult\n"
        "calls = []\n"
        "def never(board, *, time_limit=None, seed=0):\n"
        "    calls.append(('never', time_limit))\n"
        "    time.sleep(time_limit)\n"
        "    return SolveResult('unknown', 'never', reason='time limit')\n"
        "def slow(board, *, time_limit=None, seed=0):\n"
        "    calls.append(('slow', time_limit))\n"
        "    from mjsat.methods import solve\n"
        "    if time_limit < 0.35:\n"
        "        time.sleep(time_limit)\n"
        "        return SolveResult('unknown', 'slow', reason='time limit')\n"
        "    return solve(board, 'ref')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = dict(methods_mod.METHODS)
    for name in ("never", "slow"):
        registry[name] = MethodInfo(name, f"race_fakes:{name}", ("sides", "grid-path", "cell-path"), True, "")
    monkeypatch.setattr(methods_mod, "METHODS", registry)
    import race_fakes

    board = random_small_board(np.random.default_rng(7), max_tiles=8)
    steps = [Step("never", "never", slice=0.05), Step("slow", "slow", slice=0.1)]
    r = run_plan(board, steps, name="race")
    assert r.status == solve(board, "ref").status and r.stats["decided_by"] == "slow"
    assert race_fakes.calls == [
        ("never", 0.05),
        ("slow", 0.1),
        ("never", 0.1),
        ("slow", 0.2),
        ("never", 0.2),
        ("slow", 0.4),
    ]
    race_fakes.calls.clear()
    r = run_plan(board, steps, name="race", time_limit=0.5)
    assert r.status == "unknown" and r.reason == "time limit"
    # each turn asks for at most what is left and takes at least what it asked: the limit holds
    assert sum(t for _, t in race_fakes.calls) <= 0.5 + 1e-6
    assert [name for name, _ in race_fakes.calls][:2] == ["never", "slow"]


def test_a_race_continues_a_resumable_search_instead_of_starting_it_again():
    """The search in a race runs in slices that add up: with slices far shorter than one
    chunk of nodes it still finishes, after exactly the nodes of one uninterrupted run."""
    from mjsat.layouts import load_layout
    from mjsat.plans import Step

    board = deal_random(load_layout("turtle"), seed=139)  # refuted in about 1,200 nodes
    options = {"attempts": 0, "guided": 0}
    whole = solve(board, "search", **options)
    steps = [Step("search-race", "search", options, slice=1e-6), Step("sat-race", "sat", slice=1e-6)]
    r = run_plan(board, steps, name="race")
    assert r.status == whole.status == solve(board, "sat").status
    assert r.stats["decided_by"] == "search-race"
    turns = [row for row in r.stats["steps"] if row["step"] == "search-race"]
    # at least one chunk of 200 nodes per turn, never a chunk done twice (started afresh,
    # the search would decide only once a slice had grown to the whole run's time)
    assert 2 <= len(turns) <= whole.stats["nodes"] // 200 + 1
    assert all(row["reason"] == "time limit" for row in turns[:-1])
    assert r.stats["inner"]["nodes"] == whole.stats["nodes"]


def test_auto_goes_straight_to_sat_on_isolated_stacks():
    from mjsat.methods import solve
    from mjsat.plans import AUTO, EXACT, plan
    from mjsat.reductions.cnf import normalize_3cnf
    from mjsat.reductions.stacks import reduce_to_stacks

    for clauses, want in (([[1, 2, -3]], "solvable"), ([[1], [-1]], "unsolvable")):
        board = reduce_to_stacks(normalize_3cnf(clauses)).board
        assert plan(board, AUTO)[:3] == ["height2", "sat-stacks", "sat-stacks-ranks"]
        assert "search-budget" not in plan(board, AUTO) and "sat-stacks-ranks" in plan(board, EXACT)
        res = solve(board, "auto")
        assert res.status == want and res.stats["decided_by"] == "sat-stacks"


def test_the_memory_bound_answers_unknown(monkeypatch):
    from mjsat.methods import solve
    from mjsat.reductions.cnf import normalize_3cnf
    from mjsat.reductions.stacks import reduce_to_stacks

    board = reduce_to_stacks(normalize_3cnf([[1, 2, -3], [-1, 2, 3]])).board
    monkeypatch.setenv("MJSAT_MAX_CNF_LITERALS", "1000")
    res = solve(board, "sat", encoding="acyclic")
    assert res.status == "unknown" and res.reason == "memory bound"
    assert "MJSAT_MAX_CNF_LITERALS" in res.stats["time_limit_hit"]
    assert solve(board, "exact").status == "unknown"
