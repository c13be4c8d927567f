"""The formulas the reductions take: reading them (DIMACS or infix), normalising them to
exactly three literals per clause, and assignments.

The reductions of de Bondt [1]_ need every clause to have exactly three literals. Any CNF
is accepted here and normalised, and the normalisation says what it did:

* a clause with one or two literals is **padded** by repeating its last literal
  (``(1 -2)`` becomes ``(1 -2 -2)``), which keeps the formula equivalent;
* a clause with more than three literals is **split** with fresh variables
  (``(1 2 3 4 5)`` becomes ``(1 2 y1) (-y1 3 y2) (-y2 4 5)``), which keeps satisfiability
  and every satisfying assignment of the original variables extends to the new ones;
* an **empty** clause (the formula is unsatisfiable) becomes ``(z) (-z)`` with a fresh
  ``z``, each then padded.

>>> formula = normalize_3cnf([[1, -2], [1, 2, 3, 4]], n_vars=4)
>>> formula.clauses
[[1, -2, -2], [1, 2, 5], [-5, 3, 4]]
>>> formula.report.padded, formula.report.split, formula.n_vars
(1, 1, 5)
>>> formula.origin
[0, 1, 1]

DIMACS files are read and written by :mod:`mjsat.encoders.dimacs`, formulas decided by
:mod:`mjsat.encoders.solvers`; the formula families are in
:mod:`mjsat.reductions.families`.

References
----------
.. [1] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from typing import Any

from pysat.formula import CNF

from mjsat.encoders.clauses import cnf_of
from mjsat.encoders.dimacs import LITERAL, LITERALS, parse_dimacs
from mjsat.fileio import MAX_DIGITS, InputFileError, parse_json, read_text, text_lines
from mjsat.limits import MAX_CNF_VARS

__all__ = [
    "NormalizationReport",
    "Formula3",
    "FormulaSyntaxError",
    "parse_infix",
    "parse_formula",
    "read_formula",
    "normalize_3cnf",
    "formula_hash",
    "satisfies",
    "parse_assignment",
    "read_assignment",
]

PathLike = str | os.PathLike[str]


class FormulaSyntaxError(InputFileError):
    """A formula in infix form that does not parse; ``str()`` is one line naming the
    source, the line and the position (column, from 1) of the problem.

    >>> print(FormulaSyntaxError("formula", 1, 9, "expected a literal, got '&'"))
    formula:1: position 9: expected a literal, got '&'
    """

    def __init__(self, path: PathLike, line: int, column: int, message: str) -> None:
        self.column = column
        super().__init__(path, line, f"position {column}: {message}")


_INFIX_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<and>&&?|∧|/\\)|(?P<or>\|\|?|∨|\\/)|(?P<not>[-~!¬])"
    r"|(?P<open>\()|(?P<close>\))|(?P<var>[xXvV]?[0-9]+)"
)
_INFIX_SHOW = {"and": "'&'", "or": "'|'", "open": "'('", "close": "')'"}


def parse_infix(text: str, path: PathLike = "formula") -> CNF:
    """Parse a CNF written as ``(x1 | -x2) & (x2 | x3) & -x1``.

    Clauses are joined by ``&`` (or ``&&``, ``∧``, ``/\\``); a clause is a disjunction of
    literals joined by ``|`` (or ``||``, ``∨``, ``\\/``), in parentheses or not (``&``
    binds looser than ``|``); a literal is a variable ``x7`` (or ``X7``, ``v7``, ``V7``,
    ``7``) after any number of negations ``-``, ``~``, ``!`` or ``¬``. Spaces and line
    breaks are ignored. Variables are numbered from 1; the formula has as many variables
    as its highest number.

    >>> parse_infix("(x1 | -x2) & (x2 | ~x3) & x1").clauses
    [[1, -2], [2, -3], [1]]

    Raises
    ------
    FormulaSyntaxError
        One line naming the line and the position of the problem: an unexpected
        character or token, a missing literal, an unclosed or unopened parenthesis, an
        empty clause, variable 0, a variable above the limit of
        ``MJSAT_MAX_CNF_VARIABLES``, or no clause at all.

    Notes
    -----
    :math:`O(L)` for ``L`` characters.
    """
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def where(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(starts, offset) - 1
        return line + 1, offset - starts[line] + 1

    def fail(offset: int, message: str) -> FormulaSyntaxError:
        return FormulaSyntaxError(path, *where(offset), message)

    tokens: list[tuple[str, str, int]] = []
    k = 0
    while k < len(text):
        m = _INFIX_TOKEN.match(text, k)
        if m is None:
            raise fail(k, f"unexpected character {text[k]!r} (write clauses like (x1 | -x2) & (x2 | x3))")
        if m.lastgroup != "space":
            tokens.append((m.lastgroup or "", m.group(), k))
        k = m.end()
    if not tokens:
        raise fail(0, "the formula is empty: write clauses like (x1 | -x2) & (x2 | x3)")
    tokens.append(("end", "", len(text.rstrip())))

    def show(tok: tuple[str, str, int]) -> str:
        return "the end of the formula" if tok[0] == "end" else repr(tok[1])

    clauses: list[list[int]] = []
    i = 0
    while True:
        opened = tokens[i] if tokens[i][0] == "open" else None
        i += opened is not None
        clause: list[int] = []
        while True:
            sign = 1
            while tokens[i][0] == "not":
                sign, i = -sign, i + 1
            tok = tokens[i]
            if tok[0] != "var":
                if opened and tok[0] == "close" and not clause:
                    raise fail(tok[2], "empty clause (): a clause needs at least one literal")
                raise fail(tok[2], f"expected a literal (like x1 or -x2), got {show(tok)}")
            digits = tok[1].lstrip("xXvV")
            if len(digits) > MAX_DIGITS:
                raise fail(tok[2], f"a variable number of {len(digits)} digits")
            var = int(digits)
            if var == 0:
                raise fail(tok[2], "variables are numbered from 1: there is no variable 0")
            if var > MAX_CNF_VARS.value:
                raise fail(
                    tok[2],
                    f"variable {var:,} is above the limit of {MAX_CNF_VARS.value:,} variables "
                    f"(set {MAX_CNF_VARS.env} to lift it)",
                )
            clause.append(sign * var)
            i += 1
            if tokens[i][0] != "or":
                break
            i += 1
        tok = tokens[i]
        if opened:
            if tok[0] != "close":
                line, col = where(opened[2])
                at = f"position {col}" if line == where(tok[2])[0] else f"line {line}, position {col}"
                raise fail(tok[2], f"expected '|' or the ')' that closes the '(' at {at}, got {show(tok)}")
            i += 1
            tok = tokens[i]
        clauses.append(clause)
        if tok[0] == "end":
            break
        if tok[0] != "and":
            expected = (
                "'&' between two clauses" if tok[0] in ("open", "var", "not") else "'&' or the end of the formula"
            )
            raise fail(tok[2], f"expected {expected}, got {show(tok)}")
        i += 1
    return cnf_of(clauses)


_DIMACS_FIRST = re.compile(r"c(\s.*)?|p\s.*|%.*")


def parse_formula(text: str, path: PathLike = "formula") -> CNF:
    """A CNF from DIMACS text (:func:`parse_dimacs`) or from the infix form
    (:func:`parse_infix`): the text is DIMACS when its first line that is not blank is a
    comment (``c ...``), a header (``p ...``) or a line of integers.

    >>> parse_formula("p cnf 2 1\\n1 -2 0\\n").clauses == parse_formula("x1 | -x2").clauses
    True
    """
    first = next((line.strip() for line in text_lines(text) if line.strip()), "")
    if _DIMACS_FIRST.fullmatch(first) or LITERALS.fullmatch(first):
        return parse_dimacs(text, path)
    return parse_infix(text, path)


def read_formula(path: PathLike) -> CNF:
    """Read a formula file, DIMACS or infix (see :func:`parse_formula`)."""
    return parse_formula(read_text(path), path)


@dataclasses.dataclass
class NormalizationReport:
    """What :func:`normalize_3cnf` did to reach exactly three literals per clause."""

    original_vars: int
    original_clauses: int
    padded: int = 0
    """Clauses of one or two literals padded by repeating a literal."""
    split: int = 0
    """Clauses of more than three literals split with fresh variables."""
    empty: int = 0
    """Empty clauses replaced by ``(z) (-z)`` with a fresh variable."""
    fresh_vars: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.padded or self.split or self.empty)

    def describe(self) -> str:
        """One line for humans, e.g. ``padded 2 clauses, split 1 (1 fresh variable)``."""
        if not self.changed:
            return "already exactly 3 literals per clause"
        parts = []
        if self.padded:
            parts.append(f"padded {self.padded} short clause{'s' * (self.padded != 1)} by repeating a literal")
        if self.split:
            parts.append(f"split {self.split} long clause{'s' * (self.split != 1)}")
        if self.empty:
            parts.append(f"replaced {self.empty} empty clause{'s' * (self.empty != 1)} by (z) and (-z)")
        if self.fresh_vars:
            parts.append(f"{self.fresh_vars} fresh variable{'s' * (self.fresh_vars != 1)}")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["summary"] = self.describe()
        return d


@dataclasses.dataclass
class Formula3:
    """A CNF with exactly three literals per clause, and how it was obtained.

    Variables ``1..original_vars`` are those of the input; higher ones are fresh.
    """

    n_vars: int
    clauses: list[list[int]]
    original: list[list[int]]
    original_vars: int
    report: NormalizationReport
    origin: list[int] = dataclasses.field(default_factory=list)
    """For each clause, the index (0-based) of the clause of :attr:`original` it comes from."""

    @property
    def n_clauses(self) -> int:
        return len(self.clauses)

    def hash(self) -> str:
        """:func:`formula_hash` of the original formula."""
        return formula_hash(self.original, self.original_vars)


def normalize_3cnf(clauses: Iterable[Sequence[int]] | CNF, *, n_vars: int | None = None) -> Formula3:
    """Bring a CNF to exactly three literals per clause (see the module docstring).

    Parameters
    ----------
    clauses : CNF or iterable of clauses
        Clauses as lists of non-zero ints.
    n_vars : int, optional
        Number of variables (default: ``cnf.nv`` or the largest variable used). Unused
        variables keep their gadgets in the reductions.

    Returns
    -------
    Formula3

    Notes
    -----
    :math:`O(L)` for ``L`` literals; a clause of ``k > 3`` literals becomes ``k - 2``
    clauses with ``k - 3`` fresh variables.
    """
    if isinstance(clauses, CNF):
        nv = clauses.nv if n_vars is None else n_vars
        src = [list(c) for c in clauses.clauses]
    else:
        src = [[int(l) for l in c] for c in clauses]
        nv = n_vars if n_vars is not None else max((abs(l) for c in src for l in c), default=0)
    for c in src:
        for l in c:
            if l == 0 or abs(l) > nv:
                raise ValueError(f"literal {l} is not a variable of 1..{nv}")
    report = NormalizationReport(original_vars=nv, original_clauses=len(src))
    top = nv
    out: list[list[int]] = []
    origin: list[int] = []
    for k, c in enumerate(src):
        if len(c) == 3:
            out.append(list(c))
        elif len(c) == 0:
            top += 1
            report.empty += 1
            report.padded += 2
            out.append([top, top, top])
            out.append([-top, -top, -top])
        elif len(c) < 3:
            report.padded += 1
            out.append(list(c) + [c[-1]] * (3 - len(c)))
        else:
            report.split += 1
            top += 1
            out.append([c[0], c[1], top])
            for lit in c[2:-2]:
                out.append([-top, lit, top + 1])
                top += 1
            out.append([-top, c[-2], c[-1]])
        origin.extend([k] * (len(out) - len(origin)))
    report.fresh_vars = top - nv
    return Formula3(n_vars=top, clauses=out, original=src, original_vars=nv, report=report, origin=origin)


def formula_hash(clauses: Iterable[Sequence[int]], n_vars: int) -> str:
    """A short stable hash (sha256, 16 hex digits) of a formula's DIMACS text."""
    text = f"p cnf {n_vars} " + ";".join(" ".join(map(str, c)) for c in clauses)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def satisfies(assignment: dict[int, bool] | Sequence[int], clauses: Iterable[Sequence[int]]) -> bool:
    """True iff the assignment (a dict ``var -> bool`` or a list of signed literals) makes
    every clause true; unassigned variables count as false."""
    if not isinstance(assignment, dict):
        assignment = {abs(l): l > 0 for l in assignment}
    return all(any(assignment.get(abs(l), False) == (l > 0) for l in c) for c in clauses)


def parse_assignment(text: str, path: PathLike = "<assignment>", *, n_vars: int) -> dict[int, bool]:
    """Parse an assignment: signed literals (``1 -2 3``, a ``v`` line of a SAT solver's
    output, an optional trailing ``0``) or a 0/1 string (``101``), or JSON ``[1, -2, 3]``.

    Variables not mentioned are false. Raises :class:`InputFileError` naming the line.
    """
    s = text.strip()
    if s.startswith("["):
        lits = parse_json(s, path)
        if not isinstance(lits, list) or not all(isinstance(l, int) and not isinstance(l, bool) for l in lits):
            raise InputFileError(path, 1, "expected a JSON list of signed variable numbers")
        lines = [(1, [str(l) for l in lits])]
    elif s and set(s) <= {"0", "1"} and len(s) == n_vars and n_vars > 1:
        return {i + 1: ch == "1" for i, ch in enumerate(s)}
    else:
        lines = []
        for lineno, raw in enumerate(text_lines(text), 1):
            line = raw.split("#", 1)[0].strip()
            if not line or line.startswith(("c", "s ")):
                continue
            if line.startswith("v"):
                line = line[1:]
            lines.append((lineno, line.replace(",", " ").split()))
    out: dict[int, bool] = {}
    for lineno, toks in lines:
        for tok in toks:
            if not LITERAL.fullmatch(tok):
                raise InputFileError(path, lineno, f"not a literal: {tok[:40]!r}")
            lit = int(tok)
            if lit == 0:
                continue
            if abs(lit) > n_vars:
                raise InputFileError(path, lineno, f"literal {lit}: the formula has variables 1..{n_vars}")
            if out.get(abs(lit), lit > 0) != (lit > 0):
                raise InputFileError(path, lineno, f"variable {abs(lit)} given both signs")
            out[abs(lit)] = lit > 0
    for v in range(1, n_vars + 1):
        out.setdefault(v, False)
    return out


def read_assignment(spec: str, *, n_vars: int) -> dict[int, bool]:
    """An assignment from a file name, or from the text itself when no such file exists
    (so ``mjsat reduce witness f.cnf "1 -2 3"`` works)."""
    if os.path.exists(spec):
        return parse_assignment(read_text(spec), spec, n_vars=n_vars)
    return parse_assignment(spec, "<assignment>", n_vars=n_vars)
