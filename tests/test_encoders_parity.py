"""encoders/parity.py: XOR clauses, same plans as the layered encoding, the layout cache."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mjsat.board import Layout, MahjongBoard
from mjsat.deals import deal_random
from mjsat.encoders.errors import EncodingError
from mjsat.encoders.layered import encode_layered, step_bound
from mjsat.encoders.parity import encode_parity, layout_windows, xor_zero_clauses
from mjsat.encoders.requirements import requirements
from mjsat.encoders.solvers import run_solver
from mjsat.generate import random_small_board
from mjsat.layouts import load_layout
from mjsat.replay import replay


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6, 8])
def test_xor_clauses_accept_exactly_the_even_assignments(k):
    lits = list(range(2, 2 + k))
    clauses, top = xor_zero_clauses(lits, 1 + k)
    aux = list(range(2 + k, top + 1))
    for bits in itertools.product((0, 1), repeat=k):
        assign = {v: bool(b) for v, b in zip(lits, bits)}
        ok = False
        for extra in itertools.product((0, 1), repeat=len(aux)):
            full = {**assign, **{v: bool(b) for v, b in zip(aux, extra)}}
            if all(any(full[abs(x)] == (x > 0) for x in c) for c in clauses):
                ok = True
                break
        assert ok == (sum(bits) % 2 == 0), bits


def test_xor_clauses_fold_constants():
    assert xor_zero_clauses([1, 1], 1)[0] == []  # true ^ true: nothing to say
    assert xor_zero_clauses([1, -1], 1)[0] == [[-1]]  # true ^ false: false
    assert sorted(xor_zero_clauses([1, 5], 5)[0]) == [[5]]  # true ^ x even: x


def test_same_plans_as_the_layered_encoding():
    """For every T, parity is satisfiable iff layered is, and its model replays."""
    rng = np.random.default_rng(17)
    solvable = 0
    for i in range(80):
        game = ("mahjong", "mahjong-transposed")[i % 2]
        board = random_small_board(rng, game=game, max_tiles=14, group_sizes=((2,), (2, 4), (2, 4, 6))[i % 3])
        req = requirements(board)
        bound = step_bound(req, board.group_members())
        for T in range(1, bound + 1):
            want = run_solver(encode_layered(board, steps=T, req=req)[0], solver="glucose4")[0]
            cnf, dec = encode_parity(board, steps=T, req=req)
            sat, model, _ = run_solver(cnf, solver="minisat22")
            assert sat == want, (T, repr(board))
            assert dec.params["exhaustive"] == (T >= bound)
            if sat:
                decoded = dec.decode(model)
                replay(board, decoded.moves)
                assert sorted(decoded.moves) == decoded.pairing
                solvable += 1
    assert solvable > 40


def test_layout_windows_hold_in_every_plan():
    # a stack of three and a free pair: the bottom tile goes at step 2 at the earliest
    layout = Layout([(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 4, 0), (0, 8, 0), (0, 12, 0)])
    board = MahjongBoard(layout, [0, 1, 2, 0, 1, 2])
    early, late = layout_windows(requirements(board), 4)
    assert early[:3] == [2, 1, 0] and late[:3] == [3, 2, 1]
    cnf, dec = encode_parity(board, steps=3)
    sat, model, _ = run_solver(cnf, solver="glucose4")
    assert sat and dec.decode(model).moves == [(2, 5), (1, 4), (0, 3)]
    assert run_solver(encode_parity(board, steps=2)[0], solver="glucose4")[0] is False


def test_the_layout_part_is_cached_once_per_layout_and_steps():
    layout = load_layout("turtle")
    templates = []
    solved = 0
    for seed in range(3):
        board = deal_random(layout, seed=seed)
        cnf, dec = encode_parity(board, steps=24)
        templates.append(layout.memo(("parity-template", "mahjong", 24), lambda: None))
        sat, model, _ = run_solver(cnf, solver="minisat22")
        if sat:
            replay(board, dec.decode(model).moves)
            solved += 1
    assert solved >= 1  # a deal's own part on the cached template decodes to a clearing
    assert templates[0] is not None and all(t is templates[0] for t in templates)
    with pytest.raises(EncodingError, match="at least one step"):
        encode_parity(board, steps=0)


def test_first_parity_steps_and_the_auto_plan():
    from mjsat.encoders.parity import first_parity_steps
    from mjsat.methods import solve

    assert first_parity_steps(144) == 24 and first_parity_steps(4) == 4 and first_parity_steps(0) == 2
    layout = load_layout("turtle")
    res = solve(deal_random(layout, seed=11), "sat")  # unsolvable: parity 24 steps, then acyclic
    assert res.status == "unsolvable" and res.stats["tried"] == ["parity:24", "acyclic"]
    res = solve(deal_random(layout, seed=1), "sat")
    assert res.status == "solvable" and res.verified and res.stats["tried"] == ["parity:24"]
