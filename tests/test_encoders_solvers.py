"""encoders/solvers.py: solver names, the one place solvers are opened, limits, is_satisfiable."""

from __future__ import annotations

import time

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from mjsat.encoders import solvers as solvers_module
from mjsat.encoders.errors import EncodingError
from mjsat.encoders.solvers import (
    PROOF_SOLVERS,
    SOLVERS,
    SolverLimitError,
    UnknownSolverError,
    can_stop,
    canonical_solver,
    is_satisfiable,
    open_solver,
    run_solver,
    solver_names,
)
from mjsat.reductions.families import complete_cnf, pigeonhole_cnf, planted_3cnf, random_3cnf


def pigeonhole(holes: int) -> list[list[int]]:
    """``holes + 1`` pigeons in ``holes`` holes: unsatisfiable, and hard for CDCL."""
    var = lambda p, h: p * holes + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p in range(holes + 1):
            for q in range(p + 1, holes + 1):
                clauses.append([-var(p, h), -var(q, h)])
    return clauses


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_run_solver_time_limit_on_a_hard_formula(solver):
    """Pigeonhole 11 -> 10 is far beyond a second of CDCL: the limit must answer None."""
    clauses = pigeonhole(10)
    start = time.perf_counter()
    sat, model, _ = run_solver(CNF(from_clauses=clauses), solver=solver, time_limit=0.3)
    assert sat is None and model is None
    assert time.perf_counter() - start < 20  # one conflict slice at most past the limit
    sat, _, _ = run_solver(CNF(from_clauses=clauses), solver=solver, conflict_limit=300)
    assert sat is None


def test_solver_names_and_aliases():
    assert set(SOLVERS) <= set(solver_names()) and set(PROOF_SOLVERS) <= set(solver_names())
    assert canonical_solver(" G4 ") == "glucose4" and canonical_solver("cd195") == "cadical195"
    assert canonical_solver(None) == "minisat22"
    with pytest.raises(UnknownSolverError, match="unknown SAT solver 'nosuch'"):
        canonical_solver("nosuch")
    with pytest.raises(EncodingError, match="cannot log a DRUP proof"):
        run_solver([[1]], solver="minisat22", proof=True)


def test_solver_names_are_the_solvers_this_python_sat_makes(monkeypatch):
    """Every listed name opens a solver that answers; a name python-sat knows but its build
    lacks is refused by name, before any clause is loaded."""
    for name in solver_names():
        with open_solver([[1, 2], [-1]], solver=name) as s:
            assert s.solve() and s.get_model()[:2] == [-1, 2]
    monkeypatch.setattr(solvers_module, "_built", lambda name: name != "glucose3")
    assert "glucose3" not in solver_names() and "glucose4" in solver_names()
    with pytest.raises(UnknownSolverError, match="'g3' is not in this build of python-sat"):
        canonical_solver("g3")


def test_a_solver_that_cannot_stop_refuses_limits():
    """python-sat's Lingeling has neither an interrupt nor a conflict budget: a limit is
    refused with :class:`SolverLimitError` (a ValueError: one line from the CLI), not left to
    python-sat's NotImplementedError; without one it solves."""
    assert not can_stop("lingeling") and all(can_stop(n) for n in SOLVERS)
    for kw in ({"time_limit": 5.0}, {"conflict_limit": 100}):
        with pytest.raises(SolverLimitError, match="'lingeling' cannot stop at a") as err:
            run_solver([[1, 2], [-1]], solver="lingeling", **kw)
        assert err.value.solver == "lingeling" and "minisat22" in str(err.value)
    assert run_solver([[1, 2], [-1]], solver="lingeling")[:2] == (True, [-1, 2])


@pytest.mark.parametrize(
    "solver", ["minisat22", "glucose3", "glucose4", "cadical153", "cadical195", "maplechrono", "lingeling"]
)
def test_open_solver_loads_every_clause_as_python_sat_does(solver):
    """The loaded solver has the formula python-sat's own loading gives: the same answer
    on seeded random 3-CNF near the threshold, models that satisfy every clause, and the
    empty clause refuting at once."""
    answers = []
    for seed in range(12):
        clauses = random_3cnf(30, ratio=4.26, rng=seed)
        with open_solver(clauses, solver=solver) as s, Solver(name=solver, bootstrap_with=clauses) as ref:
            got = s.solve()
            assert got == ref.solve() and s.nof_clauses() == ref.nof_clauses()
            if got:
                model = set(s.get_model())
                assert all(any(lit in model for lit in c) for c in clauses)
        answers.append(got)
    assert True in answers and False in answers
    assert run_solver([[1, 2], [], [-1]], solver=solver)[0] is False


def test_run_solver_proof_and_model():
    sat, model, proof = run_solver(complete_cnf(3), solver="cadical195", proof=True)
    assert sat is False and model is None and proof is not None
    sat, model, proof = run_solver([[1, -2], [2]], solver="glucose4", proof=True)
    assert sat is True and set(model) == {1, 2} and proof is None
    assert run_solver([[1]], time_limit=0) == (None, None, None)


def test_is_satisfiable_on_families_with_known_answers():
    clauses, hidden = planted_3cnf(15, rng=2)
    sat, model = is_satisfiable(clauses)
    assert sat and all(any((lit in model) for lit in c) for c in clauses)
    assert is_satisfiable(complete_cnf(3)) == (False, None)
    assert is_satisfiable(pigeonhole_cnf(2)[0], solver="glucose4") == (False, None)
    assert is_satisfiable([[1, 2], []]) == (False, None)
    assert is_satisfiable([]) == (True, [])
