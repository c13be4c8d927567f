"""encoders/layered.py: the step bound, the documented size, step semantics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mjsat.encoders.layered import encode_layered, first_steps, step_bound, step_windows
from mjsat.encoders.requirements import requirements
from mjsat.encoders.solvers import run_solver
from mjsat.generate import random_grid_board, random_small_board
from mjsat.methods import solve


def parallel_rounds(board, pairing) -> int:
    """Rounds of 'remove every pair of the pairing that is legal now' (ASAP)."""
    b = board.copy(stack=False)
    left = list(pairing)
    rounds = 0
    while left:
        now = [p for p in left if b.is_legal(p)]
        assert now, "the pairing is not feasible"
        for p in now:
            b.push(p)
            left.remove(p)
        rounds += 1
    return rounds


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), game=st.sampled_from(["mahjong", "mahjong-transposed", "shisen-sho"]))
def test_step_bound_covers_the_asap_schedule_of_every_solution(seed, game):
    rng = np.random.default_rng(seed)
    if game == "shisen-sho":
        board = random_grid_board(rng, max_width=5, max_height=4, group_sizes=(2, 4, 6))
    else:
        board = random_small_board(rng, game=game, max_tiles=16, group_sizes=(2, 4, 6))
    req = requirements(board)
    bound = step_bound(req, board.group_members())
    assert 1 <= bound <= len(board) // 2
    res = solve(board, "ref")
    if res.status == "solvable":
        assert parallel_rounds(board, res.moves) <= bound
        # and the layered CNF with the ASAP number of steps is satisfiable
        cnf, _ = encode_layered(board, steps=parallel_rounds(board, res.moves))
        assert run_solver(cnf, solver="glucose4")[0] is True


def test_size_matches_the_docstring_for_pairs_on_mahjong():
    rng = np.random.default_rng(5)
    for _ in range(20):
        board = random_small_board(rng, max_tiles=14, group_sizes=(2,))
        req = requirements(board)
        T = 4
        cnf, dec = encode_layered(board, steps=T)
        n, P = len(board), len(req.pairs)
        waiting = sum(1 for t in range(n) if req.need[t] or req.sides[t])
        above = sum(len(req.need[t]) for t in range(n))
        sides = sum(len(s) for t in range(n) for s in req.sides[t])
        expect = n * (T - 1) + n + 2 * P * T + waiting + (T - 1) * (above + sides) + n
        assert len(cnf.clauses) == expect
        n_sides = sum(1 for t in range(n) if req.sides[t])
        assert cnf.nv == n * T + P + n_sides
        assert dec.params == {
            "steps": T,
            "bound": step_bound(req, board.group_members()),
            "exhaustive": T >= dec.params["bound"],
        }


def test_decoded_steps_respect_the_rules():
    rng = np.random.default_rng(9)
    checked = 0
    for _ in range(30):
        board = random_small_board(rng, max_tiles=16, group_sizes=(2, 4))
        req = requirements(board)
        cnf, dec = encode_layered(board)
        sat, model, _ = run_solver(cnf, solver="cadical195")
        if not sat:
            continue
        on = {v for v in model if v > 0}
        step = {t: min(s for s in range(dec.params["steps"]) if dec.keys[("r", t, s)] in on) for t in range(len(board))}
        for a, b in dec.pairing(model):
            assert step[a] == step[b]
        for t in range(len(board)):
            assert all(step[o] < step[t] for o in req.need[t])
            if req.sides[t]:
                assert any(all(step[o] < step[t] for o in side) for side in req.sides[t])
        checked += 1
    assert checked >= 10


def test_first_steps_grows_like_a_square_root():
    assert first_steps(144) == 24 and first_steps(4) == 4 and first_steps(0) == 2


def test_step_windows_are_sound():
    """The window units never cut a plan: with them the answer is still the reference's."""
    rng = np.random.default_rng(13)
    solvable = 0
    for i in range(40):
        if i % 3 == 2:
            board = random_grid_board(rng, max_width=5, max_height=4, group_sizes=(2, 4))
        else:
            board = random_small_board(rng, max_tiles=16, group_sizes=(2, 4, 6))
        req = requirements(board)
        res = solve(board, "ref")
        bound = step_bound(req, board.group_members())
        cnf, _ = encode_layered(board, req=req, windows=True)
        assert run_solver(cnf, solver="glucose4")[0] == (res.status == "solvable")
        if res.status == "solvable":
            T = parallel_rounds(board, res.moves)
            early, late = step_windows(req, T)
            assert all(e <= l for e, l in zip(early, late))
            cnf, _ = encode_layered(board, req=req, steps=T, windows=True)
            assert run_solver(cnf, solver="glucose4")[0] is True
            assert bound >= T
            solvable += 1
    assert solvable >= 10  # the windows were checked on plans


def test_the_stepped_encodings_count_their_literals_first_and_stop_at_the_memory_bound(monkeypatch):
    from mjsat.encoders.errors import BuildSizeLimit
    from mjsat.encoders.layered import stepped_literals
    from mjsat.encoders.parity import encode_parity
    from mjsat.encoders.requirements import requirements
    from mjsat.reductions.cnf import normalize_3cnf
    from mjsat.reductions.families import random_3cnf
    from mjsat.reductions.stacks import reduce_to_stacks

    board = reduce_to_stacks(normalize_3cnf(random_3cnf(3, rng=1), n_vars=3)).board
    req = requirements(board)
    cnf, dec = encode_layered(board, steps=40)
    built = sum(map(len, cnf.clauses))
    assert abs(stepped_literals(req, 40) - built) <= 0.01 * built
    monkeypatch.setenv("MJSAT_MAX_CNF_LITERALS", str(stepped_literals(req, 40) - 1))
    for encoder in (encode_layered, encode_parity):
        with pytest.raises(BuildSizeLimit, match="memory bound"):
            encoder(board, steps=40)
        encoder(board, steps=20)  # half the steps fit
