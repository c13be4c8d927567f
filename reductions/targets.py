"""One entry point for every reduction target: ``stacks``, ``rows``, ``shisen-sho``, ``shisen-rows``.

>>> from mjsat.reductions.cnf import normalize_3cnf
>>> red = reduce_formula(normalize_3cnf([[1, -2]]), "rows")
>>> red.board.meta["reduction"], len(red.board)
('rows', 308)
"""

from __future__ import annotations

import os
from typing import Any

from mjsat.board import Board
from mjsat.encoders.dimacs import read_dimacs
from mjsat.encoders.solvers import is_satisfiable
from mjsat.fileio import InputFileError
from mjsat.limits import SizeLimitError
from mjsat.reductions.cnf import Formula3, normalize_3cnf
from mjsat.reductions.rows import reduce_to_rows
from mjsat.reductions.shisen import reduce_to_shisen
from mjsat.reductions.stacks import reduce_to_stacks

__all__ = ["TARGETS", "reduce_formula", "reduce_file", "CNF_BOARD_TARGETS", "cnf_boards"]

TARGETS: tuple[str, ...] = ("stacks", "rows", "shisen-sho", "shisen-rows")
"""The boards a formula can become (``--to``)."""


def reduce_formula(formula: Formula3, target: str = "stacks", *, meta: dict[str, Any] | None = None) -> Any:
    """The reduction object (``.board`` plus the maps) of ``formula`` for ``target``.

    Raises
    ------
    ValueError
        Unknown target (the message lists the known ones).

    Notes
    -----
    :math:`O(n + m)` for ``n`` variables and ``m`` clauses.
    """
    if target == "stacks":
        return reduce_to_stacks(formula, meta=meta)
    if target == "rows":
        return reduce_to_rows(formula, meta=meta)
    if target == "shisen-sho":
        return reduce_to_shisen(formula, gap=1, meta=meta)
    if target == "shisen-rows":
        return reduce_to_shisen(formula, gap=0, meta=meta)
    raise ValueError(f"unknown target {target!r} (known: {', '.join(TARGETS)})")


def reduce_file(path: str | os.PathLike[str], target: str = "stacks", *, meta: dict[str, Any] | None = None) -> Any:
    """Read a DIMACS file, normalise it to three literals per clause, and reduce it.

    The board's ``meta`` records the file name besides the provenance of the reduction.
    """
    cnf = read_dimacs(path)
    formula = normalize_3cnf(cnf)
    extra = {"cnf_file": os.path.basename(str(path))}
    extra.update(meta or {})
    return reduce_formula(formula, target, meta=extra)


CNF_BOARD_TARGETS: tuple[str, ...] = ("stacks", "rows")
"""The targets :func:`cnf_boards` builds (the Mahjong Solitaire reductions)."""


def cnf_boards(
    path: str | os.PathLike[str], targets: tuple[str, ...] = CNF_BOARD_TARGETS
) -> list[tuple[str, Board, bool]]:
    """The boards of a DIMACS file: ``[(target, board, satisfiable), ...]``, one per target.

    ``satisfiable`` is the formula's answer (one SAT call), which each board's
    solvability must equal; :func:`mjsat.generate.boards_from_cnf` hands these boards to
    cross-validation.

    Raises
    ------
    InputFileError
        The file is malformed, or a board would exceed a size limit.

    Notes
    -----
    :math:`O(n + m)` per target, plus one SAT call on the formula.
    """
    formula = normalize_3cnf(read_dimacs(path))
    sat, _ = is_satisfiable(formula.clauses)
    out: list[tuple[str, Board, bool]] = []
    for target in targets:
        try:
            red = reduce_formula(formula, target)
        except SizeLimitError as exc:
            raise InputFileError(path, None, str(exc)) from None
        out.append((target, red.board, bool(sat)))
    return out
