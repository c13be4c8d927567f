"""encoders/dimacs.py: DIMACS in (strict, errors naming file and line) and out (with
provenance), and the answers of SAT solvers."""

from __future__ import annotations

import pytest
from pysat.formula import CNF

from mjsat import __version__
from mjsat.encoders.dimacs import dimacs_text, parse_dimacs, parse_solver_output, read_dimacs
from mjsat.fileio import InputFileError


def test_parse_dimacs_reads_clauses_comments_and_percent_end():
    cnf = parse_dimacs("c hello\np cnf 3 2\n1 -2\n 0 2 3 -1 0\n%\n0\n")
    assert cnf.clauses == [[1, -2], [2, 3, -1]]
    assert cnf.nv == 3


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("p cnf 2 1\n1 x 0\n", 2, "not an integer"),
        ("1 2 0\n", 1, "before the 'p cnf"),
        ("p cnf 2\n1 0\n", 1, "expected the header"),
        ("p cnf 2 1\n1 3 0\n", 2, "exceeds the 2 declared"),
        ("p cnf 2 2\n1 2 0\n", 1, "declares 2 clauses, the file has 1"),
        ("p cnf 2 1\np cnf 2 1\n", 2, "second 'p cnf'"),
        ("c only a comment\n", 1, "no 'p cnf"),
    ],
)
def test_malformed_dimacs_names_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "bad.cnf"
    path.write_text(text)
    with pytest.raises(InputFileError) as err:
        read_dimacs(path)
    assert err.value.line == line
    assert words in str(err.value)
    assert str(err.value).startswith(f"{path}:{line}: ")
    assert "\n" not in str(err.value)


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputFileError, match="no such file"):
        read_dimacs(tmp_path / "nope.cnf")


def test_dimacs_text_round_trips_with_its_provenance():
    clauses = [[1, -2, 3], [-1], [2, 3]]
    text = dimacs_text(clauses, 4, source="a test", comments=["x"])
    again = parse_dimacs(text)
    assert again.clauses == clauses and again.nv == 4
    assert text.splitlines()[:2] == [f"c mjsat {__version__}: a test", "c x"]
    assert again.comments == [f"c mjsat {__version__}: a test", "c x"]


# ---------------------------------------------------------------- the infix form


def test_dimacs_text_is_what_python_sat_reads(tmp_path):
    clauses = [[1, -2], [3, 4, -5], [-3]]
    path = tmp_path / "x.cnf"
    path.write_text(dimacs_text(clauses, 5, source="a test"))
    back = CNF(from_file=str(path))
    assert back.clauses == clauses and back.nv == 5
    assert dimacs_text([[1, -2], []], 2, source="hi") == f"c mjsat {__version__}: hi\np cnf 2 2\n1 -2 0\n0\n"


def test_parse_solver_output_formats():
    assert parse_solver_output("c x\ns SATISFIABLE\nv 1 -2\nv 3 0\n") == ("sat", [1, -2, 3])
    assert parse_solver_output("s UNSATISFIABLE\n") == ("unsat", [])
    assert parse_solver_output("s UNKNOWN\n") == ("unknown", [])
    assert parse_solver_output("SAT\n1 -2 3 0\n") == ("sat", [1, -2, 3])
    assert parse_solver_output("UNSAT\n") == ("unsat", [])
    assert parse_solver_output("INDET\n") == ("unknown", [])
    assert parse_solver_output("-1 2 0\n") == ("sat", [-1, 2])
    with pytest.raises(InputFileError, match=r"out.txt:2: expected literals"):
        parse_solver_output("s SATISFIABLE\nv 1 x 0\n", "out.txt")
    with pytest.raises(InputFileError, match="no answer"):
        parse_solver_output("c nothing\n", "out.txt")
