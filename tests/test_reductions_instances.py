"""The shipped instances: files rebuild identically, expected answers hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mjsat.boardio import load_board
from mjsat.encoders.dimacs import read_dimacs
from mjsat.encoders.solvers import is_satisfiable
from mjsat.methods import solve
from mjsat.reductions.instances import EXAMPLES, build_instances
from mjsat.reductions.targets import reduce_file
from mjsat.reductions.witness import lift, witness

ROOT = Path(__file__).resolve().parents[1] / "instances"
MANIFEST = json.loads((ROOT / "manifest.json").read_text())
ENTRIES = MANIFEST["instances"]


def test_manifest_matches_a_fresh_build(tmp_path):
    fresh = build_instances(tmp_path)
    assert fresh == MANIFEST
    for entry in ENTRIES:
        assert (tmp_path / entry["cnf"]).read_text() == (ROOT / entry["cnf"]).read_text()
        for b in entry["boards"].values():
            assert (tmp_path / b["file"]).read_text() == (ROOT / b["file"]).read_text()
    assert len(ENTRIES) == len(EXAMPLES)
    assert any(e["name"] == "all8-3vars" and not e["satisfiable"] for e in ENTRIES)
    assert {e["satisfiable"] for e in ENTRIES} == {True, False}


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["name"] for e in ENTRIES])
def test_expected_answers(entry):
    clauses = read_dimacs(ROOT / entry["cnf"]).clauses
    sat, model = is_satisfiable(clauses)
    assert sat == entry["satisfiable"]
    for target, info in entry["boards"].items():
        board = load_board(ROOT / info["file"])
        assert len(board) == info["tiles"]
        assert info["expected"] == ("solvable" if sat else "unsolvable")
        red = reduce_file(ROOT / entry["cnf"], target)
        assert board.groups == red.board.groups
        if sat and len(board) <= 600:  # a verified clearing, mapped back to a model
            values = {abs(l): l > 0 for l in model}
            lifted = lift(red, witness(red, values))  # raises on a sequence that does not clear
            assert all(any(lifted[abs(l)] == (l > 0) for l in clause) for clause in clauses)
        if target == "stacks" or len(board) <= (1000 if target == "rows" else 1200):
            result = solve(board, "exact", time_limit=120)
            assert result.status == info["expected"]
