"""The ``sat`` method: encode a board, run a python-sat solver, decode the moves.

>>> from mjsat.board import Layout, MahjongBoard
>>> board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
>>> res = solve_sat(board, encoding="acyclic", solver="glucose4")
>>> res.status, res.moves
('solvable', [(0, 3), (1, 2)])
"""

from __future__ import annotations

import collections
import itertools
import numbers
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from pysat.formula import CNF, IDPool
from pysat.solvers import Solver, SolverNames

from mjsat.board import Board, ShisenShoBoard
from mjsat.encoders.acyclic import encode_acyclic
from mjsat.encoders.certify import PROOF_SOLVERS, certify_unsat
from mjsat.encoders.common import (
    BuildTimeLimit,
    Decoded,
    Decoder,
    EncodingError,
    check_encodable,
    linearize,
    requirements,
)
from mjsat.encoders.layered import encode_layered, first_steps, step_bound
from mjsat.encoders.order import encode_order
from mjsat.encoders.parity import encode_parity, first_parity_steps
from mjsat.limits import MAX_STEP_CELLS
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, SolveResult

__all__ = [
    "ENCODINGS",
    "DEFAULT_ENCODING",
    "DEFAULT_SOLVER",
    "CERTIFY_SOLVER",
    "SOLVERS",
    "UnknownSolverError",
    "check_sat_options",
    "encode",
    "run_solver",
    "solve_sat",
    "solver_names",
    "enumerate_solutions",
]

ENCODINGS: dict[str, Callable[..., tuple[CNF, Decoder]]] = {
    "layered": encode_layered,
    "parity": encode_parity,
    "order": encode_order,
    "acyclic": encode_acyclic,
}
"""Encoding name -> ``encode_<name>(board, *, vpool=None, ...)``."""

DEFAULT_ENCODING = "acyclic"
"""The single CNF written when none is named: exhaustive and the most compact on the
reduction boards (see ``benchmarks/README.md``). :func:`solve_sat` defaults to
``auto``: parity with a few steps first, then an exhaustive CNF."""
SOLVERS: tuple[str, ...] = ("cadical195", "glucose4", "maplechrono")
"""The python-sat solvers the tests and cross-validation select (CaDiCaL 1.9.5,
Glucose 4, MapleLCMDistChronoBT)."""
WEAK_PATH_CAP = 12
"""Shisen-Sho: candidate paths of more tiles are cut to their two ends in the weaker CNF
that :func:`solve_sat` tries first (:func:`mjsat.encoders.common.requirements`)."""
DEFAULT_SOLVER = "minisat22"
"""MiniSat 2.2: the fastest of python-sat's solvers on dealt boards (1,000 turtle deals,
``auto``: 18.0 ms median CPU for build + solve, against 19.5 ms for Glucose 4 and 24.6 ms
for CaDiCaL 1.9.5; see ``benchmarks/README.md``). It logs no proof: ``certify`` without a named solver uses
:data:`CERTIFY_SOLVER`."""
CERTIFY_SOLVER = "cadical195"
"""CaDiCaL 1.9.5, python-sat's build; it logs DRUP proofs."""


_NO_INTERRUPT = frozenset({"cadical103", "cadical153", "cadical195", "cadical300", "kissat404"})
"""python-sat solvers without ``interrupt()``: time limits run as conflict-budget slices."""
_CONFLICT_SLICE = 1000
AUTO_LAYERED_CONFLICTS = 20_000
AUTO_LAYERED_SECONDS = 0.5
"""Budget of the ``auto`` plan's first attempt (parity encoding, ``ceil(5 sqrt(n) / 3)``
steps), in conflicts and seconds, after which an exhaustive CNF decides: solvable turtle
deals take a few hundred conflicts, while a large unsolvable board is slow to refute
with too few steps."""
class UnknownSolverError(ValueError):
    """A SAT solver name python-sat does not know."""


def solver_names() -> list[str]:
    """The canonical python-sat solver names."""
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def _canonical_solver(name: str | None) -> str:
    if name is None:
        return DEFAULT_SOLVER
    key = name.strip().lower()
    for canon in solver_names():
        if key == canon or key in getattr(SolverNames, canon):
            return canon
    raise UnknownSolverError(f"unknown SAT solver {name!r} (known: {', '.join(solver_names())})")


def encode(
    board: Board,
    *,
    encoding: str | None = None,
    vpool: IDPool | None = None,
    steps: int | None = None,
) -> tuple[CNF, Decoder]:
    """Encode ``board`` with the named encoding (default :data:`DEFAULT_ENCODING`).

    Raises
    ------
    EncodingError
        Unknown encoding, or ``steps`` with an encoding that has no steps.
    SizeLimitError
        ``steps`` times the tiles above :data:`mjsat.limits.MAX_STEP_CELLS`.
    """
    name = DEFAULT_ENCODING if encoding is None else encoding.strip().lower()
    if name not in ENCODINGS:
        raise EncodingError(f"unknown encoding {encoding!r} (known: {', '.join(ENCODINGS)})")
    if steps is not None:
        if name not in ("layered", "parity"):
            raise EncodingError(f"the {name} encoding has no steps (only layered and parity take --steps)")
        MAX_STEP_CELLS.check(int(steps) * len(board), f"{steps} steps on a board of {len(board)} tiles", verb="makes")
        return ENCODINGS[name](board, vpool=vpool, steps=steps)
    return ENCODINGS[name](board, vpool=vpool)


_DIRECT_ADD: dict[str, tuple[str, str]] = {
    "minisat22": ("minisat22_add_cl", "minisat"),
    "glucose3": ("glucose3_add_cl", "glucose"),
    "glucose4": ("glucose41_add_cl", "glucose"),
    "cadical153": ("cadical153_add_cl", "cadical"),
    "cadical195": ("cadical195_add_cl", "cadical"),
}
"""python-sat's C entry point and solver handle per solver, for :func:`load_clauses`."""


def load_clauses(s: Solver, name: str, clauses: list[list[int]]) -> None:
    """Add ``clauses`` to the python-sat solver ``s`` (canonical name ``name``).

    For the solvers of :data:`_DIRECT_ADD` the C function is mapped over the list,
    skipping python-sat's per-clause Python wrapper (about 0.3 us per clause: a third of
    the loading time of a turtle CNF); any other solver, or a python-sat without those
    internals, goes through ``append_formula``.
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


def run_solver(
    cnf: CNF,
    *,
    solver: str | None = None,
    time_limit: float | None = None,
    proof: bool = False,
    conflict_limit: int | None = None,
) -> tuple[bool | None, list[int] | None, list[str] | None]:
    """Run one python-sat solver on ``cnf``.

    Notes
    -----
    The time limit interrupts the solver from a timer thread; python-sat's CaDiCaL and
    Kissat cannot be interrupted, so they run in slices of 1,000 conflicts and the
    clock is checked between slices (the limit may be overrun by one slice).

    Returns
    -------
    sat : bool or None
        ``None`` when the time limit (or ``conflict_limit`` conflicts) stopped the
        solver.
    model : list of int or None
    proof : list of str or None
        The DRUP proof lines when ``proof`` and the answer is unsatisfiable.

    Raises
    ------
    UnknownSolverError
    EncodingError
        ``proof`` asked of a solver that cannot log one.
    """
    name = _canonical_solver(solver)
    if proof and name not in PROOF_SOLVERS:
        raise EncodingError(
            f"solver {name!r} cannot log a DRUP proof (these can: {', '.join(PROOF_SOLVERS)})"
        )
    if time_limit is not None and time_limit <= 0:
        return None, None, None
    with Solver(name=name, with_proof=proof) as s:
        load_clauses(s, name, cnf.clauses)
        if conflict_limit is not None:
            # a conflict budget, in slices so that the clock is checked too
            deadline = None if time_limit is None else time.perf_counter() + time_limit
            sat, spent = None, 0
            while sat is None and spent < conflict_limit and (deadline is None or time.perf_counter() < deadline):
                step = min(_CONFLICT_SLICE, conflict_limit - spent)
                s.conf_budget(step)
                sat = s.solve_limited()
                spent += step
        elif time_limit is None:
            sat = s.solve()
        elif name in _NO_INTERRUPT:
            # python-sat's CaDiCaL cannot be interrupted: solve in conflict-budget slices,
            # checking the clock between them (learnt clauses are kept)
            deadline = time.perf_counter() + time_limit
            sat = None
            while sat is None and time.perf_counter() < deadline:
                s.conf_budget(_CONFLICT_SLICE)
                sat = s.solve_limited()
        else:
            timer = threading.Timer(time_limit, s.interrupt)
            timer.start()
            try:
                sat = s.solve_limited(expect_interrupt=True)
            finally:
                timer.cancel()
        model = s.get_model() if sat else None
        lines = s.get_proof() if (proof and sat is False) else None
    return sat, model, lines


def _checked_options(encoding: Any, solver: Any, certify: Any, steps: Any) -> tuple[str, str]:
    """The encoding's and the solver's canonical names; raise on options that cannot work."""
    if encoding is not None and not isinstance(encoding, str):
        raise EncodingError(f"the encoding is a name (auto, {', '.join(ENCODINGS)}), got {encoding!r}")
    name = "auto" if encoding is None else encoding.strip().lower()
    if name not in ENCODINGS and name != "auto":
        raise EncodingError(f"unknown encoding {encoding!r} (known: auto, {', '.join(ENCODINGS)})")
    if steps is not None:
        if isinstance(steps, bool) or not isinstance(steps, numbers.Integral) or steps < 1:
            raise EncodingError(f"steps must be a positive integer, got {steps!r}")
        if name not in ("layered", "parity", "auto"):
            raise EncodingError(f"the {name} encoding has no steps (only layered and parity take steps)")
    if solver is not None and not isinstance(solver, str):
        raise UnknownSolverError(f"the solver is a python-sat name, got {solver!r}")
    solver_name = _canonical_solver(CERTIFY_SOLVER if (certify and solver is None) else solver)
    if certify and solver_name not in PROOF_SOLVERS:
        raise EncodingError(
            f"solver {solver_name!r} cannot log a DRUP proof (these can: {', '.join(PROOF_SOLVERS)})"
        )
    return name, solver_name


def check_sat_options(
    *,
    encoding: str | None = None,
    solver: str | None = None,
    certify: bool | None = None,
    steps: int | None = None,
) -> None:
    """Check the options of :func:`solve_sat` without a board (registered in
    :attr:`mjsat.methods.MethodInfo.check`, so commands refuse them before any board runs).

    Raises
    ------
    EncodingError
        An unknown encoding, steps that are not a positive integer or given to an
        encoding without steps, or ``certify`` with a solver that logs no proof.
    UnknownSolverError
        A solver name python-sat does not know.

    >>> check_sat_options(encoding="nosuch")
    Traceback (most recent call last):
    ...
    mjsat.encoders.common.EncodingError: unknown encoding 'nosuch' (known: auto, layered, parity, order, acyclic)

    Notes
    -----
    :math:`O(s)` for ``s`` solver names.
    """
    _checked_options(encoding, solver, certify, steps)


def solve_sat(
    board: Board,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    encoding: str | None = None,
    solver: str | None = None,
    certify: bool | None = None,
    steps: int | None = None,
) -> SolveResult:
    """Decide ``board`` with a SAT encoding and a python-sat solver.

    Parameters
    ----------
    board : Board
        Mahjong, transposed Mahjong or Shisen-Sho (solved from its full deal).
    time_limit : float or None
        Seconds for building and solving; ``unknown`` when they run out.
    seed : int
        Unused (python-sat's solvers are deterministic); kept for the common interface.
    encoding : {'auto', 'layered', 'parity', 'order', 'acyclic'}, optional
        ``auto`` (the default) tries the parity encoding with ``ceil(5 sqrt(n) / 3)``
        steps (:func:`mjsat.encoders.parity.first_parity_steps`) for at most :data:`AUTO_LAYERED_CONFLICTS` conflicts and
        :data:`AUTO_LAYERED_SECONDS` seconds (fast on solvable deals), then the
        exhaustive acyclicity encoding (fast proofs of ``unsolvable``: the parity
        encoding at the proved bound, about 70 steps on the turtle, can take seconds to
        refute a deal the acyclicity CNF refutes in 0.1 s). ``layered`` alone tries
        ``ceil(2 sqrt(n))`` steps, ``parity`` alone ``ceil(5 sqrt(n) / 3)``, then
        the proved bound. Shisen-Sho boards with ``auto``, ``acyclic`` or ``order``: a
        weaker CNF first (paths of more than :data:`WEAK_PATH_CAP` tiles cut to their
        end tiles, ``stats['tried']`` ``acyclic-weak``): its ``unsat`` proves
        ``unsolvable``, its pairing is kept only when :func:`linearize` plays it, else
        the exact CNF follows.
    solver : str, optional
        A python-sat solver name or alias (default ``minisat22``; ``cadical195`` when
        certifying).
    certify : bool, optional
        After ``unsolvable``: shrink the CNF to an unsatisfiable core, refute the core
        with ``solver`` logging a DRUP proof, and check the proof with ``drup``
        (:func:`mjsat.encoders.certify.certify_unsat`); the result is ``certified``
        only when the check passed.
    steps : int, optional
        Layered, parity or auto (parity): try exactly this many steps (``unsolvable`` only
        if it is at least the proved bound of :func:`mjsat.encoders.layered.step_bound`,
        else ``unknown``).

    Returns
    -------
    SolveResult
        ``stats`` holds ``encoding``, ``solver``, ``tried`` (the CNFs solved, e.g.
        ``['parity:20', 'acyclic']``), ``variables`` and ``clauses`` (of the last),
        ``build_seconds`` and ``solve_seconds`` (wall, summed), ``build_cpu_seconds``
        and ``solve_cpu_seconds`` (CPU time of this process; build includes the
        requirements), ``step_bound``, and proof figures when certifying.

    Raises
    ------
    EncodingError, UnknownSolverError
        Options that cannot work (see :func:`check_sat_options`).
    MethodNotApplicableError
        A game without an encoding (``shisen-sho-3d``).

    Notes
    -----
    The build is linear in the CNF size (see each encoding's module); the solve is
    exponential in the worst case (the problem is NP-complete).
    """
    name, solver_name = _checked_options(encoding, solver, certify, steps)
    check_encodable(board, "sat")
    if steps is not None:
        MAX_STEP_CELLS.check(int(steps) * len(board), f"{steps} steps on a board of {len(board)} tiles", verb="makes")
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    c0 = time.process_time()
    weak_first = board.kind == "grid-path" and steps is None and name in ("auto", "acyclic", "order")
    stats: dict[str, Any] = {
        "encoding": name,
        "solver": solver_name,
        "build_seconds": 0.0,
        "solve_seconds": 0.0,
        "build_cpu_seconds": 0.0,
        "solve_cpu_seconds": 0.0,
    }
    try:
        req = None if weak_first else requirements(board, deadline=deadline)
    except BuildTimeLimit as exc:
        stats["time_limit_hit"] = str(exc)
        return SolveResult(UNKNOWN, "sat", stats=stats, reason="time limit")
    plan: list[tuple[str, int | None, bool, bool]]  # (encoding, steps, under the first budget, weak)
    if weak_first:
        # Shisen-Sho: the weaker CNF (long paths cut to their ends), then the exact one
        exhaustive = "acyclic" if name == "auto" else name
        plan = [(exhaustive, None, False, True), (exhaustive, None, False, False)]
    elif name in ("layered", "parity", "auto"):
        bound = step_bound(req, board.group_members())
        stats["step_bound"] = bound
        stepped = "parity" if name == "auto" else name
        if steps is not None:
            plan = [(stepped, int(steps), False, False)]
        else:
            first = min((first_steps if name == "layered" else first_parity_steps)(len(board)), bound)
            if name == "auto":
                plan = [("parity", first, True, False), ("acyclic", None, False, False)]
            else:
                plan = [(name, first, False, False)]
                if first < bound:
                    plan.append((name, bound, False, False))
    else:
        plan = [(name, None, False, False)]
    stats["tried"] = []
    last_reason = ""
    for enc, T, limited, weaker in plan:
        t0 = time.perf_counter()
        try:
            if weaker:
                step_req = requirements(board, cap=WEAK_PATH_CAP, deadline=deadline)
            else:
                step_req = req = requirements(board, deadline=deadline) if req is None else req
            if T is not None:
                cnf, dec = ENCODINGS[enc](board, steps=T, req=step_req, deadline=deadline)
            else:
                cnf, dec = ENCODINGS[enc](board, req=step_req, deadline=deadline)
        except BuildTimeLimit as exc:
            stats["build_seconds"] += time.perf_counter() - t0
            stats["time_limit_hit"] = str(exc)  # where: "... (building the <encoding>)"
            return SolveResult(UNKNOWN, "sat", stats=stats, reason="time limit")
        t1 = time.perf_counter()
        c1 = time.process_time()
        stats["build_cpu_seconds"] += c1 - c0
        stats["tried"].append((dec.encoding + ("-weak" if weaker else "")) if T is None else f"{dec.encoding}:{T}")
        stats["build_seconds"] += t1 - t0
        stats["variables"] = cnf.nv
        stats["clauses"] = len(cnf.clauses)
        remaining = None if deadline is None else deadline - time.perf_counter()
        limit = AUTO_LAYERED_CONFLICTS if limited else None
        slot = remaining
        if limit is not None:
            slot = AUTO_LAYERED_SECONDS if remaining is None else min(remaining, AUTO_LAYERED_SECONDS)
        sat, model, _ = run_solver(cnf, solver=solver_name, time_limit=slot, conflict_limit=limit)
        stats["solve_seconds"] += time.perf_counter() - t1
        c0 = time.process_time()
        stats["solve_cpu_seconds"] += c0 - c1
        if sat is None:
            if limit is not None and (deadline is None or time.perf_counter() < deadline):
                last_reason = "the first attempt ran out of its budget"
                continue  # auto: the budget of the first attempt ran out, go on
            return SolveResult(UNKNOWN, "sat", stats=stats, reason="time limit")
        if sat and weaker:
            moves = linearize(board, dec.pairing(model))
            if moves is not None:
                return SolveResult(SOLVABLE, "sat", moves=moves, stats=stats)
            last_reason = "the weaker CNF's pairing does not clear the board"
            continue  # go on with the exact CNF
        if sat:
            return SolveResult(SOLVABLE, "sat", moves=dec.decode(model).moves, stats=stats)
        if dec.params.get("exhaustive"):
            certified = False
            if certify:
                t2 = time.perf_counter()
                check = certify_unsat(cnf.clauses, solver=solver_name)
                certified = check.valid
                stats.update(
                    certify_seconds=time.perf_counter() - t2,
                    proof_core_clauses=check.core,
                    proof_lemmas=check.lemmas,
                    proof_check_seconds=check.seconds,
                    proof=check.message,
                )
            return SolveResult(UNSOLVABLE, "sat", stats=stats, certified=certified)
        last_reason = f"unsatisfiable with {T} steps, below the proved bound {stats['step_bound']}"
    return SolveResult(UNKNOWN, "sat", stats=stats, reason=last_reason)


def enumerate_solutions(
    board: Board,
    *,
    encoding: str | None = None,
    solver: str | None = None,
    limit: int | None = None,
) -> Iterator[Decoded]:
    """Yield one decoded model per feasible pairing of ``board`` (projected enumeration).

    After each model a clause blocking its chosen pairs is added, so every pairing
    comes once whatever the other variables (order, steps, sides) were. With an
    exhaustive encoding (the default steps of layered, order, acyclic) the pairings
    yielded are exactly the pairings some order clears (seed 000's pairing view).

    Parameters
    ----------
    board : Board
    encoding, solver : str, optional
        As in :func:`solve_sat` (not ``parity``: it has no pairing variables; it raises
        :class:`EncodingError`).
    limit : int, optional
        Stop after this many pairings.

    Yields
    ------
    Decoded
        The pairing and the order the model states (replay it to check).

    Notes
    -----
    One incremental SAT call per pairing plus one.
    """
    if encoding is not None and encoding.strip().lower() == "parity":
        raise EncodingError("the parity encoding has no pairing variables to enumerate (use layered, order or acyclic)")
    cnf, dec = encode(board, encoding=encoding)
    name = _canonical_solver(solver)
    count = 0
    with Solver(name=name, bootstrap_with=cnf.clauses) as s:
        while (limit is None or count < limit) and s.solve():
            model = s.get_model()
            decoded = dec.decode(model)
            yield decoded
            count += 1
            block = [-dec.keys[("m", a, b)] for a, b in decoded.pairing]
            if not block:
                return
            s.add_clause(block)
