"""encoders/sat.py: the sat method agrees with the reference solver on random boards."""

from __future__ import annotations

import pytest
from sat_boards import small_boards

from mjsat.board import Layout, MahjongBoard
from mjsat.encoders.errors import EncodingError
from mjsat.encoders.pairings import feasible_pairings
from mjsat.encoders.sat import enumerate_solutions, solve_sat
from mjsat.encoders.solvers import UnknownSolverError
from mjsat.methods import solve
from mjsat.replay import replay

ENCODINGS = ["layered", "parity", "order", "acyclic"]
PAIRING_ENCODINGS = ["layered", "order", "acyclic"]
METHOD_ENCODINGS = ["auto", *ENCODINGS]
SOLVERS = ["glucose4", "cadical195", "maplechrono"]


def check_agreement(boards, encodings, solvers):
    statuses = {"solvable": 0, "unsolvable": 0}
    for board in boards:
        ref = solve(board, "ref").status
        statuses[ref] += 1
        for encoding in encodings:
            for solver in solvers:
                res = solve(board, "sat", encoding=encoding, solver=solver)
                assert res.status == ref, (encoding, solver, repr(board))
                if ref == "solvable":
                    assert res.verified
                    replay(board, res.moves)
    return statuses


@pytest.mark.parametrize("encoding", METHOD_ENCODINGS)
def test_every_encoding_and_solver_agrees_with_ref(encoding):
    statuses = check_agreement(small_boards(11, 90), [encoding], SOLVERS)
    assert statuses["solvable"] >= 5 and statuses["unsolvable"] >= 5, statuses


@pytest.mark.slow
def test_sweep_500_boards_every_encoding_every_solver_and_cpsat():
    boards = list(small_boards(500, 500, max_tiles=16))
    statuses = check_agreement(boards, METHOD_ENCODINGS, SOLVERS)
    assert statuses["solvable"] >= 50 and statuses["unsolvable"] >= 50, statuses
    for board in boards:
        assert solve(board, "cpsat").status == solve(board, "ref").status


@pytest.mark.parametrize("encoding", PAIRING_ENCODINGS)
def test_enumerated_pairings_are_exactly_the_feasible_ones(encoding):
    """Models projected on the pairing variables <-> brute force over all pairings."""
    total = 0
    for board in small_boards(7, 60, max_tiles=10):
        want = feasible_pairings(board)
        got = []
        for decoded in enumerate_solutions(board, encoding=encoding, solver="glucose4"):
            replay(board, decoded.moves)  # the encoding's own order clears the board
            assert sorted(decoded.moves) == decoded.pairing
            got.append(tuple(decoded.pairing))
        assert len(got) == len(set(got))
        assert set(got) == want, repr(board)
        total += len(want)
    assert total > 30


def test_layered_steps_below_need_answers_unknown_not_unsolvable():
    # two stacks of two: the bottom pair can only go after the top pair
    layout = Layout([(0, 0, 0), (0, 0, 1), (0, 4, 0), (0, 4, 1)])
    board = MahjongBoard(layout, [0, 1, 0, 1])
    assert solve_sat(board, steps=1).status == "unknown"
    res = solve(board, "sat", steps=2)
    assert res.status == "solvable" and res.moves == [(1, 3), (0, 2)]
    assert solve(board, "sat").stats["step_bound"] == 2


def test_time_limit_answers_unknown():
    board = next(small_boards(3, 1))
    res = solve_sat(board, time_limit=1e-9)
    assert res.status == "unknown" and res.reason == "time limit"


def test_stats_and_errors():
    board = next(small_boards(5, 1))
    res = solve(board, "sat", encoding="acyclic", solver="g4")
    for key in ("encoding", "solver", "variables", "clauses", "build_seconds", "solve_seconds"):
        assert key in res.stats
    assert res.stats["solver"] == "glucose4"
    with pytest.raises(UnknownSolverError, match="unknown SAT solver"):
        solve_sat(board, solver="nosuch")
    with pytest.raises(EncodingError, match="cannot log a DRUP proof"):
        solve_sat(board, solver="minisat22", certify=True)
    with pytest.raises(EncodingError, match="unknown encoding"):
        solve_sat(board, encoding="nosuch")
    with pytest.raises(EncodingError, match="no steps"):
        solve_sat(board, encoding="order", steps=3)
    assert solve(board, "sat").stats["tried"][0].startswith("parity:")
    with pytest.raises(EncodingError, match="no pairing variables"):
        next(enumerate_solutions(board, encoding="parity"))
    with pytest.raises(ValueError, match="takes no option 'node_limit'"):
        solve(board, "sat", node_limit=5)


def test_a_solver_without_limits_runs_only_without_one(tmp_path):
    """Lingeling (no interrupt, no conflict budget in python-sat): ``auto`` skips its
    conflict-limited first CNF and answers from the exhaustive one, the same verdicts as
    MiniSat, moves replayed; with a time limit it is refused in one line (exit 2)."""
    from click.testing import CliRunner

    from mjsat.boardio import board_to_json
    from mjsat.cli import cli
    from mjsat.encoders.solvers import SolverLimitError

    for board in small_boards(7, 6):
        res = solve(board, "sat", solver="lingeling")
        assert not any(t.startswith("parity") for t in res.stats["tried"])
        assert res.status == solve(board, "sat").status
        if res.status == "solvable":
            replay(board, res.moves)
    with pytest.raises(SolverLimitError, match="cannot stop at a time limit"):
        solve(board, "sat", solver="lingeling", time_limit=5.0)
    path = tmp_path / "b.json"
    path.write_text(board_to_json(board))
    out = CliRunner().invoke(cli, ["solve", str(path), "--method", "sat", "--solver", "lingeling", "--time-limit", "5"])
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert out.output.count("\n") == 1 and "'lingeling' cannot stop at a time limit" in out.output


def test_building_formulas_leaves_python_sat_s_process_wide_pool_alone(tmp_path):
    """Every encoding, the DIMACS reader and the formula parser build their CNFs without
    python-sat's process-wide variable pool: each formula recorded there grows a list that
    is sorted on every later record, and a long process (sample, crossval, a test run over
    172,487 boards) slowed down in proportion to the formulas it had built."""
    import numpy as np
    from pysat.formula import Formula

    from mjsat.encoders.dimacs import read_dimacs
    from mjsat.encoders.sat import ENCODINGS
    from mjsat.encoders.stacks import is_stack_shaped
    from mjsat.generate import random_grid_board
    from mjsat.reductions.cnf import parse_formula

    pool = Formula._vpool[Formula._context]  # python-sat's own: no public view of its size
    before = (len(pool._occupied), pool.top)
    boards = list(small_boards(5, 12)) + [random_grid_board(np.random.default_rng(s), max_tiles=10) for s in range(12)]
    for board in boards:
        for name in ENCODINGS:
            if name == "stacks" and not is_stack_shaped(board):
                continue  # refused: MethodNotApplicableError
            assert solve(board, "sat", encoding=name).status in ("solvable", "unsolvable")
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 3 2\n1 -3 0\n2 0\n")
    assert read_dimacs(path).nv == 3
    assert parse_formula("(x1 | -x2) & (x2 | x3)").nv == 3
    assert (len(pool._occupied), pool.top) == before
