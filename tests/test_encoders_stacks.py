"""encoders/stacks.py: the ranks encoding of boards of isolated stacks, against ref and acyclic."""

from __future__ import annotations

import numpy as np
import pytest
from pysat.solvers import Solver

from mjsat.board import Layout, MahjongBoard
from mjsat.encoders.decoding import Decoder
from mjsat.encoders.encodings import decoder_from_json, encode
from mjsat.encoders.errors import EncodingError
from mjsat.encoders.stacks import StacksDecoder, encode_stacks, is_stack_shaped, rank_bits, reduction_edges
from mjsat.generate import exhaustive_boards
from mjsat.methods import solve
from mjsat.reductions.cnf import normalize_3cnf
from mjsat.reductions.families import random_3cnf
from mjsat.reductions.stacks import board_from_stacks, reduce_to_stacks
from mjsat.replay import replay


def _decide(board):
    """The stacks encoding's answer, its moves replayed by the one replay."""
    cnf, dec = encode_stacks(board)
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        if not s.solve():
            return "unsolvable"
        moves = dec.decode(s.get_model()).moves
    replay(board, moves)  # raises on an illegal move or tiles left
    return "solvable"


def test_exhaustive_boards_of_isolated_stacks_agree_with_ref_and_acyclic():
    seen = 0
    for board in exhaustive_boards(8, games=("mahjong",)):
        if not board.layout.is_isolated_stacks():
            continue
        seen += 1
        want = solve(board, "ref").status
        assert solve(board, "sat", encoding="acyclic").status == want
        assert _decide(board) == want
        assert solve(board, "sat", encoding="stacks").status == want
    assert seen > 50


def test_random_stack_boards_of_any_height_agree_with_ref():
    rng = np.random.default_rng(43)
    count = {"solvable": 0, "unsolvable": 0}
    for _ in range(150):
        stacks, height = int(rng.integers(1, 6)), int(rng.integers(1, 5))
        tiles = stacks * height
        if tiles % 2:
            continue
        groups = rng.permutation(np.repeat(np.arange(tiles // 2), 2)).reshape(stacks, height)
        board = board_from_stacks(groups.tolist())
        want = solve(board, "ref").status
        assert _decide(board) == want
        count[want] += 1
    assert min(count.values()) > 10


@pytest.mark.slow
def test_reductions_of_200_small_formulas_agree_with_the_formula():
    rng = np.random.default_rng(4300)
    answers = set()
    for k in range(200):
        n = int(rng.integers(3, 5))
        formula = normalize_3cnf(random_3cnf(n, m=int(rng.integers(1, 4 * n + 3)), rng=rng))
        with Solver(name="minisat22", bootstrap_with=formula.clauses) as s:
            sat = s.solve()
        board = reduce_to_stacks(formula).board
        got = _decide(board)
        assert got == ("solvable" if sat else "unsolvable"), (k, formula.clauses)
        assert solve(board, "sat", encoding="acyclic").status == got
        answers.add(got)
    assert answers == {"solvable", "unsolvable"}


def test_reductions_of_small_formulas_agree_with_the_formula():
    rng = np.random.default_rng(4301)
    for clauses in ([[1, 2, 3]], [[1], [-1]], [[1, -2], [-1, 2], [1, 2]], [[1, 2], [-1, 2], [1, -2], [-1, -2]]):
        formula = normalize_3cnf(clauses)
        with Solver(name="minisat22", bootstrap_with=formula.clauses) as s:
            sat = s.solve()
        assert _decide(reduce_to_stacks(formula).board) == ("solvable" if sat else "unsolvable")
    formula = normalize_3cnf(random_3cnf(4, m=17, rng=rng))
    assert _decide(reduce_to_stacks(formula).board) in ("solvable", "unsolvable")


def test_certify_passes_on_unsolvable_stack_boards():
    certified = 0
    for board in exhaustive_boards(8, games=("mahjong",)):
        if not board.layout.is_isolated_stacks() or solve(board, "ref").status != "unsolvable":
            continue
        res = solve(board, "sat", encoding="stacks", certify=True)
        assert res.status == "unsolvable" and res.certified, res.stats.get("proof")
        certified += 1
        if certified == 20:
            break
    assert certified == 20


def test_other_shapes_are_refused():
    row = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
    assert not is_stack_shaped(row)
    with pytest.raises(EncodingError, match="stacks encoding"):
        encode_stacks(row)


def test_the_decoder_goes_through_a_variable_map():
    board = board_from_stacks([[0, 1], [0, 2], [1, 2]])
    cnf, dec = encode(board, encoding="stacks")
    back = decoder_from_json(dec.to_json())
    assert isinstance(back, StacksDecoder) and back.keys == dec.keys and back.params == dec.params
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        if s.solve():
            assert back.decode(s.get_model()).moves == dec.decode(s.get_model()).moves


def test_reduction_edges_and_bits():
    assert reduction_edges([(), (0,), (0, 1), ()]) == [(0, 1), (1, 2)]
    assert [rank_bits(n) for n in (2, 4, 6, 8, 10)] == [1, 1, 2, 2, 3]
    assert issubclass(StacksDecoder, Decoder)


def test_every_stack_shaped_board_of_crossval_exhaustive_8_agrees_with_ref_and_acyclic():
    """The boards of `mjsat crossval --exhaustive 8` (every game) that the stacks encoding
    takes: its answer equals ref's and the acyclic encoding's, its moves replay."""
    seen: dict[str, int] = {}
    for board in exhaustive_boards(8):
        if not is_stack_shaped(board):
            with pytest.raises(EncodingError):
                encode_stacks(board)
            continue
        seen[board.game] = seen.get(board.game, 0) + 1
        want = solve(board, "ref").status
        res = solve(board, "sat", encoding="stacks")  # solve() replays a solvable answer
        assert res.status == want == solve(board, "sat", encoding="acyclic").status
        if want == "solvable":
            replay(board, res.moves)
    assert seen.get("mahjong", 0) > 50 and seen.get("mahjong-transposed", 0) > 50, seen
    assert set(seen) == {"mahjong", "mahjong-transposed"}


@pytest.mark.slow
def test_certify_passes_on_the_reductions_of_unsatisfiable_formulas():
    """The plans' encoding on stack boards (acyclic) certifies the reductions' unsolvable
    boards. The stacks encoding's proofs are not checked here: on the smallest one, the
    132 tiles of (V1)(-V1), CaDiCaL logs 26,590 lemmas over a core of 3,673 clauses and
    drup's checker had not finished after 400 s of CPU (its certify test is on the
    exhaustive boards above)."""
    rng = np.random.default_rng(4302)
    formulas = [[[1], [-1]], [[1, 2], [-1, 2], [1, -2], [-1, -2]]]
    while len(formulas) < 4:
        clauses = random_3cnf(3, m=13, rng=rng)
        with Solver(name="minisat22", bootstrap_with=clauses) as s:
            if not s.solve():
                formulas.append(clauses)
    for clauses in formulas:
        board = reduce_to_stacks(normalize_3cnf(clauses)).board
        res = solve(board, "sat", encoding="acyclic", certify=True)
        assert res.status == "unsolvable" and res.certified, (clauses, res.stats.get("proof"))
        assert solve(board, "sat", encoding="stacks").status == "unsolvable"
