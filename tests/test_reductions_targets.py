"""The target table: every name builds its board, unknown names are refused."""

from __future__ import annotations

import pytest

from mjsat.reductions.cnf import normalize_3cnf
from mjsat.reductions.targets import TARGETS, reduce_file, reduce_formula


def test_every_target_builds_with_provenance(tmp_path):
    f = normalize_3cnf([[1, -2]])
    sizes = {t: len(reduce_formula(f, t).board) for t in TARGETS}
    assert sizes == {"stacks": 132, "rows": 308, "shisen-sho": 1188, "shisen-rows": 1188}
    p = tmp_path / "g.cnf"
    p.write_text("p cnf 2 1\n1 -2 0\n")
    red = reduce_file(p, "rows", meta={"seed": 5})
    assert red.board.meta["cnf_file"] == "g.cnf" and red.board.meta["seed"] == 5
    assert red.board.meta["formula_hash"] == reduce_formula(f, "stacks").board.meta["formula_hash"]


def test_unknown_target():
    with pytest.raises(ValueError, match="known: stacks, rows"):
        reduce_formula(normalize_3cnf([[1]]), "hexagons")
