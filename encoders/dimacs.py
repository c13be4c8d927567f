"""DIMACS CNF in and out, and the answers of SAT solvers: the CNF plumbing of mjsat.

The encoders (``mjsat encode``, ``mjsat decode``) and the reductions (``mjsat reduce``,
the shipped instances, the formula families) read and write CNF files here:

* :func:`parse_dimacs` and :func:`read_dimacs` read DIMACS strictly, naming the file and
  the line of a problem;
* :func:`dimacs_text` is the one writer: its first comment line names mjsat, its
  version and what made the formula (provenance), then any other comments;
* :func:`parse_solver_output` reads what a SAT solver printed: SAT-competition ``s``/``v``
  lines, or MiniSat's result file (``SAT`` then the literals).

The python-sat solvers themselves are in :mod:`mjsat.encoders.solvers`.

>>> print(dimacs_text([[1, -2], [2]], 2, source="an example", comments=["two clauses"]), end="")  # doctest: +ELLIPSIS
c mjsat ...: an example
c two clauses
p cnf 2 2
1 -2 0
2 0
>>> parse_dimacs(dimacs_text([[1, -2], [2]], 2, source="an example")).clauses
[[1, -2], [2]]
>>> parse_solver_output("s SATISFIABLE\\nv 1 -2 3 0\\n")
('sat', [1, -2, 3])
>>> parse_solver_output("UNSAT\\n")
('unsat', [])
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence

from pysat.formula import CNF

from mjsat import __version__
from mjsat.encoders.clauses import cnf_of
from mjsat.fileio import MAX_DIGITS, InputFileError, parse_decimal, read_text, text_lines
from mjsat.limits import MAX_CNF_VARS

__all__ = ["parse_dimacs", "read_dimacs", "dimacs_text", "parse_solver_output", "LITERAL", "LITERALS"]

PathLike = str | os.PathLike[str]

# `%` keeps the regular expressions' own braces readable (an f-string would double them).
LITERAL = re.compile(r"[+-]?[0-9]{1,%d}" % MAX_DIGITS)  # noqa: UP031
"""One literal: an integer of at most :data:`mjsat.fileio.MAX_DIGITS` digits."""
LITERALS = re.compile(r"[+-]?[0-9]{1,%d}(?:\s+[+-]?[0-9]{1,%d})*" % (MAX_DIGITS, MAX_DIGITS))  # noqa: UP031
"""A line of literals separated by white space."""


def parse_dimacs(text: str, path: PathLike = "<dimacs>") -> CNF:
    """Parse DIMACS CNF text into a :class:`pysat.formula.CNF`, strictly.

    Parameters
    ----------
    text : str
        The file's text: ``c`` comment lines, one ``p cnf VARS CLAUSES`` header, then
        literals, each clause ended by ``0`` (a last clause without its ``0`` is accepted;
        a line ``%`` ends the formula, as in the SATLIB files).
    path : path-like
        Named in error messages.

    Raises
    ------
    mjsat.fileio.InputFileError
        One line naming the file, the line and the problem: missing or malformed header,
        a token that is not an integer, a variable above the declared count, a clause
        count that differs from the header, more declared variables than
        :data:`mjsat.limits.MAX_CNF_VARS` (``MJSAT_MAX_CNF_VARIABLES``).

    Notes
    -----
    :math:`O(L)` for ``L`` characters.
    """
    header: tuple[int, int, int] | None = None  # (vars, clauses, line)
    clauses: list[list[int]] = []
    current: list[int] = []
    comments: list[str] = []
    last_line = 0
    for lineno, raw in enumerate(text_lines(text), 1):
        line = raw.strip()
        last_line = lineno
        if not line or line.startswith("c"):
            if line.startswith("c"):
                comments.append(line)
            continue
        if line.startswith("%"):
            break
        if line.startswith("p"):
            if header is not None:
                raise InputFileError(path, lineno, "a second 'p cnf' header")
            fields = line.split()
            if len(fields) != 4 or fields[1] != "cnf":
                raise InputFileError(path, lineno, f"expected the header 'p cnf VARIABLES CLAUSES', got {line[:60]!r}")
            nv = parse_decimal(path, lineno, fields[2], "header: variables", 0)
            nc = parse_decimal(path, lineno, fields[3], "header: clauses", 0)
            header = (nv, nc, lineno)
            continue
        if header is None:
            raise InputFileError(path, lineno, "clause before the 'p cnf VARIABLES CLAUSES' header")
        if not LITERALS.fullmatch(line):
            bad = next((t for t in line.split() if not LITERAL.fullmatch(t)), line)
            raise InputFileError(path, lineno, f"not an integer literal: {bad[:40]!r}")
        for lit in map(int, line.split()):
            if lit == 0:
                clauses.append(current)
                current = []
                continue
            if abs(lit) > header[0]:
                raise InputFileError(
                    path, lineno, f"literal {lit}: variable {abs(lit)} exceeds the {header[0]} declared in the header"
                )
            current.append(lit)
    if header is None:
        raise InputFileError(path, last_line or None, "no 'p cnf VARIABLES CLAUSES' header")
    message = MAX_CNF_VARS.exceeded(header[0], "the header", verb="declares")
    if message is not None:
        used = max((abs(lit) for c in [*clauses, current] for lit in c), default=0)
        raise InputFileError(path, header[2], f"{message}; the clauses use {used:,}")
    if current:
        clauses.append(current)
    if len(clauses) != header[1]:
        raise InputFileError(path, header[2], f"the header declares {header[1]} clauses, the file has {len(clauses)}")
    cnf = cnf_of(clauses)
    cnf.nv = max(cnf.nv, header[0])
    cnf.comments = comments
    return cnf


def read_dimacs(path: PathLike) -> CNF:
    """Read a DIMACS CNF file (see :func:`parse_dimacs`); file errors name file and line."""
    return parse_dimacs(read_text(path), path)


def dimacs_text(clauses: Iterable[Sequence[int]], n_vars: int, *, source: str, comments: Sequence[str] = ()) -> str:
    """DIMACS text of a formula with its provenance.

    Parameters
    ----------
    clauses : iterable of clauses
        Lists of non-zero literals; an empty clause is written as ``0``.
    n_vars : int
        The number of variables the header declares (at least the largest used).
    source : str
        What made the formula; the first line is ``c mjsat VERSION: SOURCE``.
    comments : sequence of str
        Further ``c`` lines, after the first.

    Notes
    -----
    Linear in the number of literals.
    """
    body = [" ".join(map(str, c)) + " 0" if c else "0" for c in clauses]
    lines = [f"c mjsat {__version__}: {source}", *(f"c {c}" for c in comments), f"p cnf {n_vars} {len(body)}"]
    return "\n".join(lines + body) + "\n"


def parse_solver_output(
    text: str, path: str | os.PathLike[str] = "<solver output>", *, n_vars: int | None = None
) -> tuple[str, list[int]]:
    """The answer and the model in a solver's output.

    Parameters
    ----------
    text : str
        SAT-competition output (``s SATISFIABLE`` / ``s UNSATISFIABLE`` /
        ``s UNKNOWN`` and ``v`` lines), MiniSat's result file (``SAT`` or ``UNSAT``
        first, then the literals), or bare literal lines ending with ``0``.
    path : str
        Named in errors.
    n_vars : int, optional
        The CNF's number of variables: a literal beyond it is an error.

    Returns
    -------
    status : {'sat', 'unsat', 'unknown'}
    model : list of int
        The literals (empty unless ``sat``).

    Raises
    ------
    InputFileError
        A ``v`` line with a non-integer or a literal beyond ``n_vars``, or no answer at all.
    """
    status: str | None = None
    model: list[int] = []
    for i, raw in enumerate(text_lines(text), 1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        word = line.split()[0]
        if word == "s":
            answer = line[1:].strip().upper()
            status = {"SATISFIABLE": "sat", "UNSATISFIABLE": "unsat"}.get(answer, "unknown")
            continue
        if word in ("SAT", "SATISFIABLE"):
            status = "sat"
            continue
        if word in ("UNSAT", "UNSATISFIABLE"):
            status = "unsat"
            continue
        if word in ("INDET", "UNKNOWN"):
            status = "unknown"
            continue
        body = line[1:].strip() if word == "v" else line
        if body and not LITERALS.fullmatch(body):
            raise InputFileError(path, i, f"expected literals, got {line[:40]!r}")
        lits = [int(x) for x in body.split()]
        if n_vars is not None:
            bad = next((x for x in lits if abs(x) > n_vars), None)
            if bad is not None:
                raise InputFileError(path, i, f"literal {bad}: the CNF has variables 1..{n_vars}")
        model.extend(x for x in lits if x != 0)
        if status is None:
            status = "sat"
    if status is None:
        raise InputFileError(path, None, "no answer found (no `s` line, no SAT/UNSAT line, no literals)")
    return status, (model if status == "sat" else [])
