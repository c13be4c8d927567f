"""DRUP proofs of unsatisfiability: read, write, and check with an independent checker.

python-sat can log a DRUP proof for several of its solvers (Glucose, CaDiCaL, Lingeling,
the Maple family); the PyPI package ``drup`` is a verified DRUP checker. A board's answer
``unsolvable`` is *certified* only when the proof that its exhaustive CNF is
unsatisfiable ends with the empty clause and ``drup`` accepts it.

>>> check_proof([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0", "0"]).valid
True
>>> check_proof([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["0"]).valid   # not RUP
False
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterable, Sequence

from mjsat.encoders.solvers import PROOF_SOLVERS, open_solver
from mjsat.fileio import InputFileError, read_text, write_text_atomic

__all__ = [
    "ProofCheck",
    "ProofFormatError",
    "parse_proof",
    "check_proof",
    "unsat_core",
    "certify_unsat",
    "write_proof",
    "read_proof",
]


class ProofFormatError(ValueError):
    """A proof line that is not a DRUP lemma or deletion."""


@dataclasses.dataclass(frozen=True)
class ProofCheck:
    """The verdict of the checker on one proof.

    ``core`` is the number of clauses of the formula the proof refutes (a subset of
    the CNF's clauses when :func:`certify_unsat` shrank it first; refuting a subset
    refutes the whole).
    """

    valid: bool
    lemmas: int
    seconds: float
    message: str
    core: int = 0


def parse_proof(lines: Iterable[str], *, path: str = "<proof>") -> list[list[int]]:
    """The lemmas of a DRUP proof (deletions dropped: checking without them is sound).

    Parameters
    ----------
    lines : iterable of str
        Lines such as ``"1 -2 0"``, ``"d 3 4 0"``, ``"0"``; comments ``c ...`` skipped.
    path : str
        Named in errors.

    Raises
    ------
    ProofFormatError
        A line that is not integers ending with ``0``.
    """
    out: list[list[int]] = []
    for i, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("d"):
            continue
        try:
            lits = [int(x) for x in line.split()]
        except ValueError:
            raise ProofFormatError(str(InputFileError(path, i, f"not a DRUP line: {line[:40]!r}"))) from None
        if not lits or lits[-1] != 0 or 0 in lits[:-1]:
            raise ProofFormatError(str(InputFileError(path, i, "a lemma ends with 0 and has no other 0")))
        out.append(lits[:-1])
    return out


def check_proof(clauses: Sequence[Sequence[int]], proof: Iterable[str]) -> ProofCheck:
    """Check a DRUP refutation of ``clauses`` with the ``drup`` package.

    Parameters
    ----------
    clauses : sequence of clauses
        The formula exactly as the solver received it.
    proof : iterable of str
        The proof lines (python-sat's ``get_proof()``, or a file's lines).

    Returns
    -------
    ProofCheck
        ``valid`` iff every lemma, and then the empty clause, is RUP (the empty clause
        is appended when the proof does not end with it).

    Notes
    -----
    Reverse unit propagation per lemma: :math:`O(L \\cdot |F|)` in the worst case for
    ``L`` lemmas; the checker is the C core of ``drup``.
    """
    import drup

    start = time.perf_counter()
    lemmas = parse_proof(proof)
    if any(len(c) == 0 for c in clauses):
        return ProofCheck(
            True, len(lemmas), time.perf_counter() - start, "the formula holds the empty clause", len(clauses)
        )
    if not lemmas or lemmas[-1]:
        # a solver that finds the conflict while loading the clauses logs nothing: the
        # empty clause must then follow by unit propagation, which the checker verifies
        lemmas.append([])
    result = drup.check_proof([list(c) for c in clauses], lemmas)
    ok = result.outcome == drup.Outcome.VALID
    message = "DRUP proof checked" if ok else f"DRUP check failed: {result}"
    return ProofCheck(ok, len(lemmas), time.perf_counter() - start, message, len(clauses))


def unsat_core(clauses: Sequence[Sequence[int]], *, solver: str, rounds: int = 3) -> list[list[int]]:
    """A subset of ``clauses`` that is still unsatisfiable (selector assumptions).

    Each clause gets a fresh selector literal; the solver's final conflict over the
    selectors names a core, which is shrunk again ``rounds - 1`` times. Untrusted: the
    checker verifies the refutation of whatever subset this returns.

    Raises
    ------
    ValueError
        The clauses are satisfiable.

    Notes
    -----
    ``rounds`` SAT calls on the formula with one extra literal per clause.
    """
    core = [list(c) for c in clauses]
    for _ in range(rounds):
        top = max((abs(lit) for c in core for lit in c), default=0)
        sels = list(range(top + 1, top + 1 + len(core)))
        with open_solver([c + [-v] for c, v in zip(core, sels)], solver=solver) as s:
            if s.solve(assumptions=sels) is not False:
                raise ValueError("the clauses are satisfiable: there is no unsatisfiable core")
            used = set(s.get_core() or ())
        smaller = [c for c, v in zip(core, sels) if v in used]
        if len(smaller) == len(core):
            break
        core = smaller
    return core


def certify_unsat(clauses: Sequence[Sequence[int]], *, solver: str) -> ProofCheck:
    """Certify that ``clauses`` are unsatisfiable: shrink, prove, check.

    The formula is first shrunk to an unsatisfiable core (:func:`unsat_core`, a big
    saving: ``drup``'s verified checker costs about :math:`O(|F| \\cdot L)`), then
    ``solver`` refutes the core with DRUP proof logging and ``drup`` checks the proof
    against the core, which is a subset of the original clauses.

    Raises
    ------
    ValueError
        The clauses are satisfiable, or ``solver`` cannot log proofs.
    """
    if solver not in PROOF_SOLVERS:
        raise ValueError(f"solver {solver!r} cannot log a DRUP proof (these can: {', '.join(PROOF_SOLVERS)})")
    if any(len(c) == 0 for c in clauses):
        return check_proof(clauses, ["0"])
    core = unsat_core(clauses, solver=solver)
    with open_solver(core, solver=solver, proof=True) as s:
        if s.solve() is not False:  # pragma: no cover - the core was unsatisfiable a moment ago
            raise ValueError("the core turned out satisfiable")
        proof = s.get_proof()
    return check_proof(core, proof)


def write_proof(path: str | os.PathLike[str], proof: Iterable[str]) -> None:
    """Write proof lines to a DRUP file (atomically)."""
    write_text_atomic(path, "".join(f"{line}\n" for line in proof))


def read_proof(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a DRUP file."""
    return read_text(path).splitlines()
