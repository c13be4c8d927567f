"""encoders/certify.py: certified unsolvable boards, and tampered proofs rejected."""

from __future__ import annotations

import numpy as np
import pytest
from pysat.solvers import Solver

from mjsat.board import Layout, MahjongBoard
from mjsat.encoders.certify import (
    ProofFormatError,
    certify_unsat,
    check_proof,
    parse_proof,
    read_proof,
    unsat_core,
    write_proof,
)
from mjsat.encoders.encodings import encode
from mjsat.generate import random_grid_board, random_small_board
from mjsat.methods import solve


def unsolvable_boards(count: int):
    """Seeded random small boards that the reference solver proves unsolvable, and
    whose CNF unit propagation alone does not refute (so proofs have work to do)."""
    rng = np.random.default_rng(99)
    found = 0
    for attempt in range(20_000):
        if found == count:
            return
        if attempt % 2:
            board = random_grid_board(rng, max_width=4, max_height=4, group_sizes=(2,))
        else:
            board = random_small_board(rng, max_tiles=12, group_sizes=(2, 4))
        if solve(board, "ref").status != "unsolvable":
            continue
        cnf, _ = encode(board, encoding="acyclic")
        with Solver(name="glucose4", bootstrap_with=cnf.clauses) as s:
            if not s.propagate()[0]:
                continue  # refuted while loading: not an interesting proof
        found += 1
        yield board
    # Shisen-Sho boards this small are now mostly refuted while loading (the locked core
    # of mjsat.encoders.necessary); the Mahjong ones still give proofs with work to do
    raise AssertionError(f"only {found} of {count} unsolvable boards whose CNF propagation does not refute")


@pytest.mark.parametrize("encoding", ["layered", "parity", "order", "acyclic"])
@pytest.mark.parametrize("solver", ["glucose4", "cadical195"])
def test_unsolvable_boards_are_certified(encoding, solver):
    for board in unsolvable_boards(3):
        res = solve(board, "sat", encoding=encoding, solver=solver, certify=True)
        assert res.status == "unsolvable" and res.certified, res.stats
        assert res.label == "unsolvable (certified)"
        assert res.stats["proof"] == "DRUP proof checked"
        assert 0 < res.stats["proof_core_clauses"] <= res.stats["clauses"]


def test_tampered_proofs_are_rejected():
    board = next(unsolvable_boards(1))
    cnf, _ = encode(board, encoding="acyclic")
    with Solver(name="glucose4", bootstrap_with=cnf.clauses, with_proof=True) as s:
        assert s.solve() is False
        proof = s.get_proof()
    assert check_proof(cnf.clauses, proof).valid
    lemmas = [line for line in proof if not line.startswith("d")]
    assert len(lemmas) >= 2
    # the bare empty clause: unit propagation does not refute this formula
    assert not check_proof(cnf.clauses, ["0"]).valid
    # forged unit lemmas that do not follow by unit propagation
    forged = [f"{lit} 0" for lit in range(1, 6)] + ["0"]
    assert not check_proof(cnf.clauses, forged).valid
    # the proof against a weaker, satisfiable formula: the clauses that do not mention
    # the first variable whose clauses, dropped, leave a satisfiable formula
    for v in range(1, cnf.nv + 1):
        weaker = [c for c in cnf.clauses if v not in c and -v not in c]
        with Solver(name="glucose4", bootstrap_with=weaker) as s:
            if s.solve():
                break
    else:
        pytest.fail("every variable's clauses dropped leave an unsatisfiable formula")
    assert not check_proof(weaker, proof).valid


def test_certified_only_when_the_check_passes(monkeypatch):
    import mjsat.encoders.sat as sat_mod
    from mjsat.encoders.certify import ProofCheck

    board = next(unsolvable_boards(1))
    monkeypatch.setattr(
        sat_mod, "certify_unsat", lambda clauses, solver: ProofCheck(False, 3, 0.0, "DRUP check failed", 7)
    )
    res = solve(board, "sat", certify=True)
    assert res.status == "unsolvable" and not res.certified
    assert res.label == "unsolvable"


def test_unsat_core_is_an_unsatisfiable_subset():
    board = next(unsolvable_boards(1))
    cnf, _ = encode(board, encoding="layered")
    core = unsat_core(cnf.clauses, solver="cadical195")
    assert 0 < len(core) < len(cnf.clauses)
    originals = {tuple(c) for c in cnf.clauses}
    assert all(tuple(c) in originals for c in core)
    with Solver(name="glucose4", bootstrap_with=core) as s:
        assert s.solve() is False
    assert certify_unsat(cnf.clauses, solver="glucose4").valid
    with pytest.raises(ValueError, match="satisfiable"):
        unsat_core([[1, 2], [-1]], solver="glucose4")
    with pytest.raises(ValueError, match="cannot log"):
        certify_unsat(cnf.clauses, solver="minisat22")


def test_parse_write_read_proof(tmp_path):
    lines = ["c comment", "1 -2 0", "d 1 -2 0", "0"]
    assert parse_proof(lines) == [[1, -2], []]
    path = tmp_path / "p.drup"
    write_proof(path, lines)
    assert read_proof(path) == lines
    with pytest.raises(ProofFormatError, match=r"p.drup:2"):
        parse_proof(["1 0", "1 x 0"], path="p.drup")
    with pytest.raises(ProofFormatError, match="ends with 0"):
        parse_proof(["1 2"])


def test_satisfiable_formula_is_never_certified():
    assert not check_proof([[1, 2], [-1]], ["0"]).valid
    assert not check_proof([[1, 2], [-1]], ["2 0", "0"]).valid
    board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0)]), [0, 0])
    assert solve(board, "sat", certify=True).status == "solvable"
