"""Witness maps both ways: the playbook (assignment -> clearing) and the lift (clearing ->
assignment), checked against python-sat on the formula and an exact method on the board."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mjsat.encoders.solvers import is_satisfiable
from mjsat.methods import solve
from mjsat.reductions.cnf import normalize_3cnf, satisfies
from mjsat.reductions.families import all_small_formulas, complete_cnf, planted_3cnf, random_3cnf
from mjsat.reductions.stacks import reduce_to_stacks
from mjsat.reductions.targets import reduce_formula
from mjsat.reductions.witness import LiftError, WitnessError, extend_assignment, lift, playbook_moves, witness
from mjsat.replay import replay

SHISEN = ["shisen-sho", "shisen-rows"]


def check_equivalence(clauses, n_vars, target):
    """Board solvable (exact method) iff formula satisfiable (python-sat); on satisfiable
    formulas both witness maps are verified, on the playbook's and on the solver's moves.
    Returns ``sat``."""
    f = normalize_3cnf(clauses, n_vars=n_vars)
    red = reduce_formula(f, target)
    sat, model = is_satisfiable(clauses)
    result = solve(red.board, "exact")
    assert result.status == ("solvable" if sat else "unsolvable"), (clauses, target, result.status)
    if sat:
        values = {abs(l): l > 0 for l in model if abs(l) <= n_vars}
        moves = witness(red, values)
        replay(red.board, moves)
        assert satisfies(lift(red, moves), clauses)
        assert satisfies(lift(red, result.moves), clauses)  # any clearing encodes a model
    return sat


def _sample(k, seed, unsat_share=3):
    """``k`` small formulas, ``k // unsat_share`` of them unsatisfiable (most small formulas
    are not; ``unsat_share=0``: satisfiable ones only)."""
    n_unsat = k // unsat_share if unsat_share else 0
    formulas = all_small_formulas()
    rng = np.random.default_rng(seed)
    sat, unsat = [], []
    for i in rng.permutation(len(formulas)):
        kind = sat if is_satisfiable(formulas[i])[0] else unsat
        kind.append(formulas[i])
        if len(sat) >= k - n_unsat and len(unsat) >= n_unsat:
            break
    return sat[: k - n_unsat] + unsat[:n_unsat]


def test_playbook_in_random_orders_clears_from_every_satisfying_assignment_and_sticks_otherwise():
    for clauses in ([[1, -2, 3], [-1, 2], [2, -3]], complete_cnf(3)[:7], [[1, 2], [-1, -2]]):
        f = normalize_3cnf(clauses, n_vars=3)
        red = reduce_to_stacks(f)
        for bits in itertools.product((False, True), repeat=3):
            a = dict(zip((1, 2, 3), bits))
            for seed in range(3):
                if satisfies(a, clauses):
                    replay(red.board, playbook_moves(red, a, rng=seed))
                else:
                    with pytest.raises(WitnessError, match="stuck"):
                        playbook_moves(red, a, rng=seed)


def test_witness_rejects_a_falsifying_assignment():
    red = reduce_to_stacks(normalize_3cnf([[1, 2], [-1]]))
    with pytest.raises(WitnessError, match="falsifies clause 2"):
        witness(red, {1: True, 2: True})


def test_witness_for_long_clauses_extends_to_fresh_variables():
    clauses = [[1, 2, 3, 4, 5], [-1], [-2], [-3, 4]]
    f = normalize_3cnf(clauses, n_vars=5)
    a = {1: False, 2: False, 3: False, 4: True, 5: False}
    full = extend_assignment(f, a)
    assert satisfies(full, f.clauses) and all(full[v] == a[v] for v in a)
    for target in ("stacks", "rows"):
        red = reduce_formula(f, target)
        assert lift(red, witness(red, a)) == a


def test_lift_rejects_moves_that_do_not_clear():
    red = reduce_to_stacks(normalize_3cnf([[1]]))
    moves = witness(red, {1: True})
    with pytest.raises(LiftError, match="not a clearing sequence"):
        lift(red, moves[:-1])
    with pytest.raises(LiftError, match="not a clearing sequence"):
        lift(red, list(reversed(moves)))


@pytest.mark.parametrize("target", ["stacks", "rows"])
def test_small_formula_sample_board_solvable_iff_satisfiable(target):
    k = 45 if target == "stacks" else 15
    answers = [check_equivalence(c, 3, target) for c in _sample(k, seed=7 if target == "stacks" else 8)]
    assert answers.count(False) == k // 3


@pytest.mark.parametrize("target", ["stacks", "rows"])
def test_classic_cases(target):
    assert check_equivalence([], 0, target)
    assert not check_equivalence([[1], [-1]], 1, target)
    assert not check_equivalence([[-1, -2, -3], [1], [2], [3]], 3, target)
    assert check_equivalence([[-1, -2, -3], [1], [2]], 3, target)


def test_all_eight_clauses_board_is_proved_unsolvable():
    assert not check_equivalence(complete_cnf(3), 3, "stacks")


def test_random_3cnf_sample():
    rng = np.random.default_rng(11)
    for _ in range(6):
        n = int(rng.integers(3, 6))
        m = int(rng.integers(1, 4 * n))
        check_equivalence(random_3cnf(n, m=m, rng=rng), n, "stacks")


@pytest.mark.slow
@pytest.mark.parametrize("target", ["stacks", "rows", *SHISEN])
def test_every_small_formula(target):
    """All 2,952 formulas over at most three variables, at most three clauses. Shisen-Sho:
    images of 864 to 2,160 tiles, about 2,830 cleared with both witness maps verified, the
    others proved unsolvable; about an hour of CPU per target (0.6 to 5 s per image)."""
    for clauses in all_small_formulas():
        check_equivalence(clauses, 3, target)


@pytest.mark.slow
@pytest.mark.parametrize("target", ["stacks", "rows", *SHISEN])
def test_300_random_3cnf_up_to_five_variables(target):
    """300 random 3-CNF (270 satisfiable), decided exactly, both witness maps verified on
    the satisfiable ones. Shisen-Sho: many hours of CPU (images of 1,800 to 11,600 tiles)."""
    rng = np.random.default_rng(300)
    kinds = []
    for _ in range(300):
        n = int(rng.integers(3, 6))
        m = int(rng.integers(1, 6 * n))
        kinds.append(check_equivalence(random_3cnf(n, m=m, rng=rng), n, target))
    assert sum(kinds) > 30 and kinds.count(False) > 20  # both answers occur (270 / 30 here)


def test_progress_hears_the_playbook_and_the_replays(monkeypatch):
    from mjsat.reductions import witness as W

    monkeypatch.setattr(W, "_EVERY", 16)
    clauses, hidden = planted_3cnf(12, m=40, rng=3)
    red = reduce_formula(normalize_3cnf(clauses, n_vars=12), "rows")
    calls = []
    moves = witness(red, hidden, progress=lambda phase, done, total: calls.append((phase, done, total)))
    phases = [c[0] for c in calls]
    assert phases[0] == "playbook" and phases[-1] == "replay"
    assert calls[-1] == ("replay", len(moves), len(moves))
    assert all(c[2] == len(red.stack.board) // 2 for c in calls if c[0] == "playbook")
    assert [c[1] for c in calls if c[0] == "replay"] == sorted(c[1] for c in calls if c[0] == "replay")
    calls.clear()
    assert satisfies(lift(red, moves, progress=lambda *c: calls.append(c)), clauses)
    assert calls[-1][0] == "replay (stacks)" and ("replay", len(moves), len(moves)) in calls


# --------------------------------------------------------------------------- Shisen-Sho images
# The exact plan on Shisen-Sho boards (the exact plan, mjsat.plans.EXACT): the pairing search
# without random attempts for 200 nodes (it clears the images of satisfiable formulas in
# about 20 nodes), then the sat method's acyclic encoding, whose requirements keep only the
# paths that can matter (encoders.necessary) and which refutes a weaker CNF first: the
# images of unsatisfiable formulas (1,188 to 3,780 tiles here) are proved unsolvable in
# 2 to 13 s.


@pytest.mark.parametrize("target", SHISEN)
def test_small_formula_sample_shisen_images_decided_and_witnessed(target):
    answers = [
        check_equivalence(c, 3, target) for c in _sample(4, seed=21 if target == "shisen-sho" else 22, unsat_share=4)
    ]
    assert answers.count(False) == 1 and answers.count(True) == 3


@pytest.mark.parametrize("target", SHISEN)
def test_classic_cases_shisen(target):
    assert check_equivalence([], 0, target)
    assert check_equivalence([[-1, -2, -3], [1], [2]], 3, target)
    assert check_equivalence([[1], [-1]], 1, target) is False


def test_all_eight_clauses_shisen_image_is_proved_unsolvable():
    # 3,780 tiles, about 8 s CPU
    assert check_equivalence(complete_cnf(3), 3, "shisen-sho") is False


@pytest.mark.slow
@pytest.mark.parametrize("target", SHISEN)
def test_unsatisfiable_small_formulas_shisen(target):
    """The unsatisfiable ones alone (the part the search cannot do): every image proved
    unsolvable."""
    unsat = [c for c in all_small_formulas() if not is_satisfiable(c)[0]]
    assert len(unsat) > 50
    for clauses in unsat:
        assert check_equivalence(clauses, 3, target) is False


@pytest.mark.parametrize("target", ["stacks", "rows", "shisen-sho"])
def test_assignment_at_first_sat_reads_the_choice_off_a_prefix(target):
    from mjsat.reductions.witness import assignment_at_first_sat
    from mjsat.replay import InvalidSolutionError

    clauses = [[1, -2, 3], [-1, 2], [2, -3], [4, 5, 6, -1]]  # a long clause: fresh variables
    red = reduce_formula(normalize_3cnf(clauses, n_vars=6), target)
    st = red if target == "stacks" else red.stack
    sat_group = st.board.groups[st.roles[("sat", 0)]]
    for bits in [(True, True, True, False, True, False), (False, False, False, True, False, False)]:
        values = dict(zip(range(1, 7), bits))
        if not satisfies(values, clauses):
            continue
        moves = witness(red, values)
        stack_moves = moves if red is st else red.lift_moves(moves)
        first = next(k for k, (a, b) in enumerate(stack_moves) if st.board.groups[a] == sat_group)
        k = next(i for i, (a, b) in enumerate(moves, 1) if red.to_stack_tile(a) in stack_moves[first])
        assert assignment_at_first_sat(red, moves[: k - 1]) is None
        got = assignment_at_first_sat(red, moves[:k])
        assert got["move"] == k and got["values"] == values == lift(red, moves)
        assert got["assignment"] == [v if values[v] else -v for v in range(1, 7)]
        assert set(got["heads"].values()) <= {"true", "false"}
        assert got["satisfied"] and got["clauses"] == [True] * 4
        assert assignment_at_first_sat(red, moves)["values"] == values  # the whole play reads the same
    with pytest.raises(InvalidSolutionError, match=r"^move 1 "):  # a move that is not legal there
        assignment_at_first_sat(red, [moves[1]])
