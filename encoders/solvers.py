"""SAT solvers: python-sat's solvers by name, and the one place that makes and runs them.

Every python-sat solver of mjsat comes from :func:`open_solver`, which loads the clauses;
:func:`run_solver` runs one with a time or conflict limit (the ``sat`` method's call) and
:func:`is_satisfiable` decides a formula (the reductions' call). The proof checker
(:mod:`mjsat.encoders.certify`) and the enumeration of pairings
(:func:`mjsat.encoders.sat.enumerate_solutions`) open solvers here too.

>>> is_satisfiable([[1, 2], [-1], [-2, 3]])
(True, [-1, 2, 3])
>>> is_satisfiable([[1], [-1]])
(False, None)
"""

from __future__ import annotations

import collections
import contextlib
import functools
import itertools
from collections.abc import Iterable, Iterator, Sequence

from pysat.formula import CNF
from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from mjsat import clock
from mjsat.encoders.errors import EncodingError

__all__ = [
    "SOLVERS",
    "DEFAULT_SOLVER",
    "CERTIFY_SOLVER",
    "PROOF_SOLVERS",
    "UnknownSolverError",
    "SolverLimitError",
    "solver_names",
    "can_stop",
    "canonical_solver",
    "open_solver",
    "run_solver",
    "is_satisfiable",
]

SOLVERS: tuple[str, ...] = ("cadical195", "glucose4", "maplechrono")
"""The python-sat solvers the tests and cross-validation select (CaDiCaL 1.9.5,
Glucose 4, MapleLCMDistChronoBT)."""
DEFAULT_SOLVER = "minisat22"
"""MiniSat 2.2: the fastest of python-sat's solvers on dealt boards (``benchmarks/README.md``
compares them). It logs no proof: certifying without a named solver uses
:data:`CERTIFY_SOLVER`."""
CERTIFY_SOLVER = "cadical195"
"""CaDiCaL 1.9.5, python-sat's build; it logs DRUP proofs."""
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

_NO_INTERRUPT = frozenset({"cadical103", "cadical153", "cadical195", "cadical300", "kissat404"})
"""python-sat solvers without ``interrupt()``: time limits run as conflict-budget slices."""
_NO_LIMIT = frozenset({"lingeling"})
"""python-sat solvers with neither ``interrupt()`` nor a conflict budget: they cannot stop
at a limit."""
_CONFLICT_SLICE = 1000


class UnknownSolverError(ValueError):
    """A SAT solver name python-sat does not know, or one its build does not include."""


class SolverLimitError(ValueError):
    """A time or conflict limit asked of a solver that cannot stop at one.

    Attributes
    ----------
    solver : str
        The solver's canonical name.
    """

    def __init__(self, solver: str, what: str = "a time limit") -> None:
        self.solver = solver
        stoppable = ", ".join(n for n in solver_names() if can_stop(n))
        super().__init__(
            f"SAT solver {solver!r} cannot stop at {what} (python-sat gives it no interrupt and no"
            f" conflict budget): run it without one, or use one of {stoppable}"
        )


def _names() -> list[str]:
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


@functools.cache
def _built(name: str) -> bool:
    """Whether this build of python-sat makes solver ``name`` (some are optional)."""
    try:
        with Solver(name=name):
            return True
    except NoSuchSolverError:
        return False


def solver_names() -> list[str]:
    """The canonical names of the python-sat solvers this build of python-sat makes.

    Notes
    -----
    Each solver is made once per process to see that it exists (a few milliseconds in all).
    """
    return [k for k in _names() if _built(k)]


def can_stop(name: str) -> bool:
    """Whether the solver of canonical name ``name`` can stop at a time or conflict limit."""
    return name not in _NO_LIMIT


@functools.lru_cache(maxsize=64)
def _canonical(key: str) -> str | None:
    for canon in _names():
        if key == canon or key in getattr(SolverNames, canon):
            return canon
    return None


def canonical_solver(name: str | None) -> str:
    """The canonical python-sat name of a solver name or alias (``None``: :data:`DEFAULT_SOLVER`).

    >>> canonical_solver("g4"), canonical_solver(None)
    ('glucose4', 'minisat22')

    Raises
    ------
    UnknownSolverError
    """
    if name is None:
        return DEFAULT_SOLVER
    canon = _canonical(name.strip().lower())
    if canon is None:
        raise UnknownSolverError(f"unknown SAT solver {name!r} (known: {', '.join(solver_names())})")
    if not _built(canon):
        raise UnknownSolverError(
            f"SAT solver {name!r} is not in this build of python-sat (it has: {', '.join(solver_names())})"
        )
    return canon


_DIRECT_ADD: dict[str, tuple[str, str]] = {
    "minisat22": ("minisat22_add_cl", "minisat"),
    "glucose3": ("glucose3_add_cl", "glucose"),
    "glucose4": ("glucose41_add_cl", "glucose"),
    "cadical153": ("cadical153_add_cl", "cadical"),
    "cadical195": ("cadical195_add_cl", "cadical"),
}
"""python-sat's C entry point and solver handle per solver, for :func:`_load_clauses`."""


def _load_clauses(s: Solver, name: str, clauses: Iterable[Sequence[int]]) -> None:
    """Add ``clauses`` to the python-sat solver ``s`` (canonical name ``name``).

    For the solvers of :data:`_DIRECT_ADD` python-sat's C function is mapped over the
    clauses, skipping its per-clause Python wrapper (``append_formula`` calls
    ``add_clause`` once per clause); any other solver, or a python-sat without those
    internals, goes through the public ``append_formula``.
    """
    entry = _DIRECT_ADD.get(name)
    if entry is not None:
        try:
            import pysolvers

            add = getattr(pysolvers, entry[0])
            handle = getattr(s.solver, entry[1])
        except (ImportError, AttributeError):
            entry = None
        else:
            if handle is not None:
                collections.deque(map(add, itertools.repeat(handle), clauses), maxlen=0)
                return
    s.append_formula(clauses)


def _check_proof_solver(name: str) -> None:
    if name not in PROOF_SOLVERS:
        raise EncodingError(f"solver {name!r} cannot log a DRUP proof (these can: {', '.join(PROOF_SOLVERS)})")


@contextlib.contextmanager
def open_solver(
    clauses: Iterable[Sequence[int]], *, solver: str | None = None, proof: bool = False
) -> Iterator[Solver]:
    """A python-sat solver loaded with ``clauses``, deleted on exit.

    Parameters
    ----------
    clauses : iterable of clauses
    solver : str, optional
        A python-sat name or alias (default :data:`DEFAULT_SOLVER`).
    proof : bool
        Log a DRUP proof (``get_proof()`` after an unsatisfiable ``solve()``).

    Raises
    ------
    UnknownSolverError
    EncodingError
        ``proof`` asked of a solver that cannot log one.

    Notes
    -----
    Linear in the number of literals.
    """
    name = canonical_solver(solver)
    if proof:
        _check_proof_solver(name)
    with Solver(name=name, with_proof=proof) as s:
        _load_clauses(s, name, clauses)
        yield s


def run_solver(
    cnf: CNF | Sequence[Sequence[int]],
    *,
    solver: str | None = None,
    time_limit: float | None = None,
    proof: bool = False,
    conflict_limit: int | None = None,
    counts: dict[str, int] | None = None,
) -> tuple[bool | None, list[int] | None, list[str] | None]:
    """Run one python-sat solver on ``cnf`` (a :class:`pysat.formula.CNF` or its clauses).

    Returns
    -------
    sat : bool or None
        ``None`` when the time limit (or ``conflict_limit`` conflicts) stopped the
        solver.
    model : list of int or None
    proof : list of str or None
        The DRUP proof lines when ``proof`` and the answer is unsatisfiable.

    ``counts``, when given, has the solver's counters (``conflicts``, ``decisions``,
    ``propagations``, ``restarts``) added to it.

    Raises
    ------
    UnknownSolverError
    SolverLimitError
        A limit asked of a solver that cannot stop at one (:func:`can_stop`).
    EncodingError
        ``proof`` asked of a solver that cannot log one.

    Notes
    -----
    The time limit (on :mod:`mjsat.clock`'s clock) interrupts the solver from another
    thread (:func:`mjsat.clock.interrupt_at`); python-sat's CaDiCaL and
    Kissat cannot be interrupted, so they run in slices of 1,000 conflicts and the
    clock is checked between slices (the limit may be overrun by one slice).
    """
    name = canonical_solver(solver)
    if proof:
        _check_proof_solver(name)
    if not can_stop(name) and (time_limit is not None or conflict_limit is not None):
        raise SolverLimitError(name, "a time limit" if conflict_limit is None else "a conflict limit")
    if time_limit is not None and time_limit <= 0:
        return None, None, None
    clauses = cnf.clauses if isinstance(cnf, CNF) else cnf
    with open_solver(clauses, solver=name, proof=proof) as s:
        if conflict_limit is not None:
            # a conflict budget, in slices so that the clock is checked too
            deadline = None if time_limit is None else clock.now() + time_limit
            sat, spent = None, 0
            while sat is None and spent < conflict_limit and (deadline is None or clock.now() < deadline):
                step = min(_CONFLICT_SLICE, conflict_limit - spent)
                s.conf_budget(step)
                sat = s.solve_limited()
                spent += step
        elif time_limit is None:
            sat = s.solve()
        elif name in _NO_INTERRUPT:
            # python-sat's CaDiCaL cannot be interrupted: solve in conflict-budget slices,
            # checking the clock between them (learnt clauses are kept)
            deadline = clock.now() + time_limit
            sat = None
            while sat is None and clock.now() < deadline:
                s.conf_budget(_CONFLICT_SLICE)
                sat = s.solve_limited()
        else:
            with clock.interrupt_at(clock.now() + time_limit, s.interrupt):
                sat = s.solve_limited(expect_interrupt=True)
        if counts is not None:  # the solver's own counters (conflicts, decisions, propagations, restarts)
            for key, value in (s.accum_stats() or {}).items():
                counts[key] = counts.get(key, 0) + int(value)
        model = s.get_model() if sat else None
        lines = s.get_proof() if (proof and sat is False) else None
    return sat, model, lines


def is_satisfiable(clauses: Iterable[Sequence[int]], *, solver: str = "cadical153") -> tuple[bool, list[int] | None]:
    """Decide a CNF (its clauses) with a python-sat solver; returns ``(sat, model)``.

    Notes
    -----
    Exponential in the worst case (CDCL).
    """
    cls = [list(c) for c in clauses]
    if any(len(c) == 0 for c in cls):
        return False, None
    sat, model, _ = run_solver(cls, solver=solver)
    return bool(sat), model
