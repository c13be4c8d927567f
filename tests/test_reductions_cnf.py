"""reductions/cnf.py: normalisation to three literals, assignments, the infix form."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from mjsat.encoders.dimacs import dimacs_text
from mjsat.encoders.solvers import is_satisfiable
from mjsat.fileio import InputFileError
from mjsat.reductions import cnf as C


def test_normalisation_reports_what_it_did():
    f = C.normalize_3cnf([[1], [1, -2], [1, 2, 3], [1, 2, 3, 4, 5, 6], []], n_vars=6)
    assert all(len(c) == 3 for c in f.clauses)
    r = f.report
    assert (r.padded, r.split, r.empty) == (4, 1, 1)  # two pads, and (z) (-z) padded twice
    assert r.fresh_vars == 3 + 1
    assert f.n_vars == 10
    assert "padded" in r.describe() and "split" in r.describe() and "empty" in r.describe()
    assert not C.normalize_3cnf([[1, 2, 3]]).report.changed
    assert f.origin == [0, 1, 2, 3, 3, 3, 3, 4, 4]


@settings(max_examples=100, deadline=None)
@given(
    clauses=st.lists(st.lists(st.integers(1, 4).flatmap(lambda v: st.sampled_from([v, -v])), max_size=7), max_size=6)
)
def test_each_normal_clause_knows_its_original(clauses):
    """Each original clause is, on its variables, the clauses that name it as origin with
    the fresh variables resolved away: the same literals, or (z)(-z) for the empty one."""
    f = C.normalize_3cnf(clauses, n_vars=4)
    assert len(f.origin) == len(f.clauses) and f.origin == sorted(f.origin)
    for k, c in enumerate(clauses):
        mine = [f.clauses[j] for j in range(len(f.clauses)) if f.origin[j] == k]
        assert mine, k
        assert {l for d in mine for l in d if abs(l) <= 4} == set(c)


clause_st = st.lists(st.integers(1, 5).flatmap(lambda v: st.sampled_from([v, -v])), min_size=0, max_size=7)


@settings(max_examples=150, deadline=None)
@given(clauses=st.lists(clause_st, min_size=0, max_size=6))
def test_normalisation_keeps_satisfiability_and_extends_every_model(clauses):
    f = C.normalize_3cnf(clauses, n_vars=5)
    assert all(len(c) == 3 for c in f.clauses)
    sat, _ = is_satisfiable(clauses)
    sat3, model3 = is_satisfiable(f.clauses)
    assert sat == sat3
    if sat3:  # a model of the normal form restricts to a model of the original
        assert C.satisfies([l for l in model3 if abs(l) <= 5], clauses)
    # every satisfying assignment of the original extends to the normal form
    from mjsat.reductions.witness import extend_assignment

    models = 0
    for bits in itertools.product((False, True), repeat=5):
        a = dict(zip(range(1, 6), bits))
        if C.satisfies(a, clauses):
            full = extend_assignment(f, a)
            assert C.satisfies(full, f.clauses)
            models += 1
    assert (models > 0) == sat


def test_parse_assignment_forms(tmp_path):
    assert C.parse_assignment("1 -2 3 0", n_vars=3) == {1: True, 2: False, 3: True}
    assert C.parse_assignment("s SATISFIABLE\nv -1 2 0\n", n_vars=3) == {1: False, 2: True, 3: False}
    assert C.parse_assignment("101", n_vars=3) == {1: True, 2: False, 3: True}
    assert C.parse_assignment("[1, -3]", n_vars=3) == {1: True, 2: False, 3: False}
    with pytest.raises(InputFileError, match=r"variables 1..3"):
        C.parse_assignment("4", n_vars=3)
    with pytest.raises(InputFileError, match="both signs"):
        C.parse_assignment("1 -1", n_vars=3)
    p = tmp_path / "a.txt"
    p.write_text("-1\n2 x\n")
    with pytest.raises(InputFileError) as err:
        C.read_assignment(str(p), n_vars=3)
    assert err.value.line == 2


@pytest.mark.parametrize(
    "text, clauses",
    [
        ("(x1 | -x2) & (x2 | ~x3) & x1", [[1, -2], [2, -3], [1]]),
        ("x1 | x2 & x3", [[1, 2], [3]]),
        ("¬V1 ∨ v2 ∧ !!X3", [[-1, 2], [3]]),
        ("(1 || -2) && (2 \\/ 3) /\\ -1", [[1, -2], [2, 3], [-1]]),
        ("(x1 | x2)\n & (-x1)\n", [[1, 2], [-1]]),
        ("--x4", [[4]]),
    ],
)
def test_infix_formulas_parse(text, clauses):
    cnf = C.parse_infix(text)
    assert cnf.clauses == clauses
    assert cnf.nv == max(abs(l) for c in clauses for l in c)
    assert C.parse_formula(text).clauses == clauses


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("", 1, 1, "the formula is empty"),
        ("   \n", 1, 1, "the formula is empty"),
        ("(x1 | ", 1, 6, "expected a literal (like x1 or -x2), got the end of the formula"),
        ("(x1 x2)", 1, 5, "expected '|' or the ')' that closes the '(' at position 1, got 'x2'"),
        ("x1 & & x2", 1, 6, "expected a literal (like x1 or -x2), got '&'"),
        ("()", 1, 2, "empty clause"),
        ("(x1) & x0", 1, 8, "no variable 0"),
        ("(x1 | x2", 1, 9, "closes the '(' at position 1, got the end of the formula"),
        ("x1 | x2)", 1, 8, "expected '&' or the end of the formula, got ')'"),
        ("(x1) (x2)", 1, 6, "expected '&' between two clauses, got '('"),
        ("x1 # x2", 1, 4, "unexpected character '#'"),
        ("(x1)\n& (x2 |\n", 2, 8, "got the end of the formula"),
        ("(x1 |\n x2\n& x3)", 3, 1, "closes the '(' at line 1, position 1, got '&'"),
        ("x99999999999", 1, 1, "above the limit of 10,000,000 variables (set MJSAT_MAX_CNF_VARIABLES"),
        ("y1 | x2", 1, 1, "unexpected character 'y'"),
    ],
)
def test_malformed_infix_names_line_and_position(text, line, column, words):
    with pytest.raises(C.FormulaSyntaxError) as err:
        C.parse_formula(text, "typed")
    e = err.value
    assert (e.line, e.column) == (line, column)
    assert str(e).startswith(f"typed:{line}: position {column}: ")
    assert words in str(e) and "\n" not in str(e)
    assert isinstance(e, InputFileError)


def test_parse_formula_tells_dimacs_from_infix(tmp_path):
    assert C.parse_formula("c a comment\np cnf 3 1\n1 -3 0\n").nv == 3
    assert C.parse_formula("p cnf 2 1\n1 -2 0").clauses == C.parse_formula("x1 | -x2").clauses
    with pytest.raises(InputFileError, match="before the 'p cnf"):
        C.parse_formula("1 -2 0\n")  # DIMACS without its header: DIMACS's own error
    path = tmp_path / "f.txt"
    path.write_text("(x1 | -x2) & x2\n")
    assert C.read_formula(path).clauses == [[1, -2], [2]]
    path.write_text("(x1 | -x2) &\n")
    with pytest.raises(C.FormulaSyntaxError, match=f"^{path}:1: position 13: expected a literal"):
        C.read_formula(path)


@given(st.lists(st.lists(st.integers(-9, 9).filter(bool), min_size=1, max_size=4), min_size=1, max_size=6))
@settings(max_examples=60, deadline=None)
def test_infix_and_dimacs_agree(clauses):
    infix = " & ".join("(" + " | ".join(f"{'-' if l < 0 else ''}x{abs(l)}" for l in c) + ")" for c in clauses)
    nv = max(abs(l) for c in clauses for l in c)
    dimacs = dimacs_text(clauses, nv, source="a test")
    assert C.parse_formula(infix).clauses == C.parse_formula(dimacs).clauses == clauses
