"""Formula families for experiments, all seeded through ``numpy.random.default_rng``.

:func:`random_3cnf` at a clause/variable ratio, :func:`planted_3cnf` (satisfiable by
construction), and the classic unsatisfiable families :func:`complete_cnf` (all ``2^k``
clauses over ``k`` variables) and :func:`pigeonhole_cnf` (built by cnfgen);
:func:`all_small_formulas` lists every small formula (the exhaustive tests' set).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from mjsat.limits import MAX_CNF_CLAUSES, MAX_CNF_VARS, SizeLimitError
from mjsat.reductions.cnf import satisfies

__all__ = ["random_3cnf", "planted_3cnf", "complete_cnf", "pigeonhole_cnf", "all_small_formulas"]


def _check_int(value: int, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return int(value)


def _check_size(n_vars: int, n_clauses: int, what: str) -> None:
    """Refuse a formula above :data:`~mjsat.limits.MAX_CNF_VARS` or
    :data:`~mjsat.limits.MAX_CNF_CLAUSES` before any of it is built."""
    MAX_CNF_VARS.check(n_vars, what)
    limit = MAX_CNF_CLAUSES.value
    message = MAX_CNF_CLAUSES.exceeded(min(n_clauses, limit + 1), what, at_least=n_clauses > limit)
    if message is not None:
        raise SizeLimitError(message)


def _clause_count(n: int, ratio: float, m: int | None) -> int:
    if m is not None:
        return _check_int(m, "m", 0)
    if not (isinstance(ratio, (int, float)) and math.isfinite(ratio) and ratio > 0):
        raise ValueError(f"ratio must be a positive number, got {ratio}")
    count = ratio * n
    _check_size(0, math.ceil(min(count, 2.0**64)), "the formula")
    return int(round(count))


def random_3cnf(
    n: int, *, ratio: float = 4.26, m: int | None = None, rng: np.random.Generator | int | None = None
) -> list[list[int]]:
    """A uniform random 3-CNF: ``m = round(ratio * n)`` clauses, each over three distinct
    variables with random signs.

    Raises
    ------
    mjsat.limits.SizeLimitError
        ``n`` or ``m`` above :data:`~mjsat.limits.MAX_CNF_VARS` or
        :data:`~mjsat.limits.MAX_CNF_CLAUSES` (every family checks its size first).

    >>> random_3cnf(5, m=2, rng=1)
    [[-2, 3, 4], [1, -2, -5]]

    Notes
    -----
    :math:`O(m)`.
    """
    n = _check_int(n, "n", 3)
    m = _clause_count(n, ratio, m)
    _check_size(n, m, "the formula")
    rng = np.random.default_rng(rng)
    out = []
    for _ in range(m):
        vs = np.sort(rng.choice(n, size=3, replace=False)) + 1
        signs = rng.integers(0, 2, size=3) * 2 - 1
        out.append([int(v * s) for v, s in zip(vs, signs)])
    return out


def planted_3cnf(
    n: int, *, ratio: float = 4.26, m: int | None = None, rng: np.random.Generator | int | None = None
) -> tuple[list[list[int]], dict[int, bool]]:
    """A random 3-CNF satisfied by a hidden random assignment; returns ``(clauses, assignment)``.

    Clauses are drawn as in :func:`random_3cnf` and rejected when the planted assignment
    falsifies them (1 in 8 on average).

    Notes
    -----
    Expected :math:`O(m)`.
    """
    n = _check_int(n, "n", 3)
    m = _clause_count(n, ratio, m)
    _check_size(n, m, "the formula")
    rng = np.random.default_rng(rng)
    hidden = {v: bool(b) for v, b in zip(range(1, n + 1), rng.integers(0, 2, size=n))}
    out: list[list[int]] = []
    while len(out) < m:
        c = random_3cnf(n, m=1, rng=rng)[0]
        if satisfies(hidden, [c]):
            out.append(c)
    return out, hidden


def complete_cnf(k: int) -> list[list[int]]:
    """All ``2^k`` clauses over ``k`` variables: the smallest unsatisfiable k-CNF.

    >>> complete_cnf(2)
    [[1, 2], [1, -2], [-1, 2], [-1, -2]]
    """
    k = _check_int(k, "k", 1)
    _check_size(k, 2 ** min(k, 64), f"the complete formula over {k} variables")
    return [
        [v if s else -v for v, s in zip(range(1, k + 1), signs)] for signs in itertools.product((True, False), repeat=k)
    ]


def pigeonhole_cnf(holes: int) -> tuple[list[list[int]], int]:
    """The pigeonhole principle with ``holes + 1`` pigeons (unsatisfiable), via cnfgen;
    returns ``(clauses, n_vars)``. Its clauses are long and get split by :func:`normalize_3cnf`."""
    import cnfgen

    holes = _check_int(holes, "holes", 1)
    _check_size(
        holes * (holes + 1), holes + 1 + holes * holes * (holes + 1) // 2, f"the pigeonhole formula of {holes} holes"
    )
    F = cnfgen.PigeonholePrinciple(holes + 1, holes)
    return [list(c) for c in F.clauses()], F.number_of_variables()


def all_small_formulas(*, max_vars: int = 3, max_clauses: int = 3, max_len: int = 3) -> list[list[list[int]]]:
    """Every CNF over variables ``1..max_vars`` with at most ``max_clauses`` clauses of
    ``1..max_len`` literals over distinct variables, no clause twice, up to clause order.

    For the defaults there are 2,952 formulas (the empty one included).

    Notes
    -----
    :math:`O(C^k)` for ``C`` possible clauses and ``k = max_clauses``.
    """
    clauses: list[list[int]] = []
    for size in range(1, max_len + 1):
        for vs in itertools.combinations(range(1, max_vars + 1), size):
            for signs in itertools.product((1, -1), repeat=size):
                clauses.append([v * s for v, s in zip(vs, signs)])
    out: list[list[list[int]]] = []
    for k in range(max_clauses + 1):
        for combo in itertools.combinations(range(len(clauses)), k):
            out.append([list(clauses[i]) for i in combo])
    return out
