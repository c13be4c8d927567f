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

from mjsat.fileio import InputFileError, read_text, write_text_atomic

__all__ = ["PROOF_SOLVERS", "ProofCheck", "ProofFormatError", "parse_proof", "check_proof", "write_proof", "read_proof"]

PROOF_SOLVERS: tuple[str, ...] = (
    "cadical103",
    "cadical153",
    "cadical195",
    "glucose3",
    "glucose4",
    "glucose42",
    "lingeling",
    "maplechrono",
    "maplecm",
    "maplesat",
)
"""python-sat solvers that can log DRUP proofs (``with_proof=True``)."""


class ProofFormatError(ValueError):
    """A proof line that is not a DRUP lemma or deletion."""


@dataclasses.dataclass(frozen=True)
class ProofCheck:
    """The verdict of the checker on one proof."""

    valid: bool
    lemmas: int
    seconds: float
    message: str


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
        ``valid`` iff the last lemma is the empty clause and every lemma is RUP.

    Notes
    -----
    Reverse unit propagation per lemma: :math:`O(L \\cdot |F|)` in the worst case for
    ``L`` lemmas; the checker is the C core of ``drup``.
    """
    import drup

    start = time.perf_counter()
    lemmas = parse_proof(proof)
    if any(len(c) == 0 for c in clauses):
        return ProofCheck(True, len(lemmas), time.perf_counter() - start, "the formula holds the empty clause")
    if not lemmas or lemmas[-1]:
        return ProofCheck(False, len(lemmas), time.perf_counter() - start, "the proof does not end with the empty clause")
    result = drup.check_proof([list(c) for c in clauses], lemmas)
    ok = result.outcome == drup.Outcome.VALID
    message = "DRUP proof checked" if ok else f"DRUP check failed: {result}"
    return ProofCheck(ok, len(lemmas), time.perf_counter() - start, message)


def write_proof(path: str | os.PathLike[str], proof: Iterable[str]) -> None:
    """Write proof lines to a DRUP file (atomically)."""
    write_text_atomic(path, "".join(f"{line}\n" for line in proof))


def read_proof(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a DRUP file."""
    return read_text(path).splitlines()
