"""reductions/families.py: seeded families with their promised answers."""

from __future__ import annotations

from mjsat.encoders.solvers import is_satisfiable
from mjsat.reductions import families as F
from mjsat.reductions.cnf import satisfies


def test_families_are_seeded_and_have_their_promised_answers():
    assert F.random_3cnf(10, rng=3) == F.random_3cnf(10, rng=3)
    assert F.random_3cnf(10, rng=3) != F.random_3cnf(10, rng=4)
    r = F.random_3cnf(20, ratio=4.26, rng=1)
    assert len(r) == 85 and all(len({abs(l) for l in c}) == 3 for c in r)
    clauses, hidden = F.planted_3cnf(15, rng=2)
    assert len(clauses) == 64 and satisfies(hidden, clauses)
    assert not is_satisfiable(F.complete_cnf(3))[0]
    assert len(F.complete_cnf(3)) == 8
    php, nv = F.pigeonhole_cnf(2)
    assert nv == 6 and not is_satisfiable(php)[0]
    assert len(F.all_small_formulas()) == 2952
