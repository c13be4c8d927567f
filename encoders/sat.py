"""The ``sat`` method: encode a board, run a python-sat solver, decode the moves.

>>> from mjsat.board import Layout, MahjongBoard
>>> board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
>>> res = solve_sat(board, encoding="acyclic", solver="glucose4")
>>> res.status, res.moves
('solvable', [(0, 3), (1, 2)])
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Iterator
from typing import Any

from mjsat import clock
from mjsat.board import Board
from mjsat.encoders.certify import certify_unsat
from mjsat.encoders.clauses import gc_paused
from mjsat.encoders.decoding import Decoded
from mjsat.encoders.encodings import ENCODINGS, encode, get_encoding
from mjsat.encoders.errors import BuildTimeLimit, EncodingError
from mjsat.encoders.layered import step_bound
from mjsat.encoders.pairings import linearize
from mjsat.encoders.requirements import Requirements, check_encodable, requirements
from mjsat.encoders.solvers import (
    CERTIFY_SOLVER,
    PROOF_SOLVERS,
    SOLVERS,
    SolverLimitError,
    UnknownSolverError,
    can_stop,
    canonical_solver,
    open_solver,
    run_solver,
)
from mjsat.encoders.stacks import is_stack_shaped
from mjsat.limits import MAX_STEP_CELLS
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, MethodNotApplicableError, SolveResult

__all__ = [
    "ENCODINGS",
    "SOLVERS",
    "AUTO_FIRST",
    "AUTO_EXHAUSTIVE",
    "AUTO_FIRST_CONFLICTS",
    "AUTO_FIRST_SECONDS",
    "WEAK_PATH_CAP",
    "QUICK_REFUTE_SECONDS",
    "check_sat_options",
    "solve_sat",
    "enumerate_solutions",
]

AUTO_FIRST = "parity"
"""The encoding the ``auto`` plan tries first, with its first number of steps, under a
budget (:data:`AUTO_FIRST_CONFLICTS`, :data:`AUTO_FIRST_SECONDS`)."""
AUTO_EXHAUSTIVE = "acyclic"
"""The exhaustive encoding that decides after the first attempt of the ``auto`` plan."""
AUTO_FIRST_CONFLICTS = 20_000
AUTO_FIRST_SECONDS = 0.5
"""Budget of the ``auto`` plan's first attempt, in conflicts and seconds: a solvable deal
is usually cleared within it, while an unsolvable board is slow to refute with too few
steps and goes on to :data:`AUTO_EXHAUSTIVE`."""
QUICK_REFUTE_SECONDS = 0.2
"""Shisen-Sho: the build budget of the exact requirements that :func:`solve_sat` tries
before the weaker CNF, for a refutation by the locked core alone."""
WEAK_PATH_CAP = 12
"""Shisen-Sho: candidate paths of more tiles are cut to their two ends in the weaker CNF
that :func:`solve_sat` tries first (:func:`mjsat.encoders.requirements.requirements`)."""


def _quick_refutation(board: Board, deadline: float | None) -> Requirements | None:
    """Shisen-Sho: the exact requirements without the held-tile rule, built within
    :data:`QUICK_REFUTE_SECONDS`, when they refute the board (no candidate pair is
    left: the locked core of :mod:`mjsat.encoders.necessary`); else ``None``.

    The weaker CNF's sets are subsets of the exact ones, so a locked core of the exact
    sets can be none of the weak ones, and the weak CNF would spend the whole limit
    on what the exact requirements settle at once."""
    quick = clock.now() + QUICK_REFUTE_SECONDS
    try:
        req = requirements(board, held=False, deadline=quick if deadline is None else min(deadline, quick))
    except BuildTimeLimit:
        if deadline is not None and clock.now() > deadline:
            raise
        return None
    return req if len(board) and not req.pairs else None


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
        if name != "auto" and not ENCODINGS[name].stepped:
            stepped = " and ".join(n for n, e in ENCODINGS.items() if e.stepped)
            raise EncodingError(f"the {name} encoding has no steps (only {stepped} take steps)")
    if solver is not None and not isinstance(solver, str):
        raise UnknownSolverError(f"the solver is a python-sat name, got {solver!r}")
    solver_name = canonical_solver(CERTIFY_SOLVER if (certify and solver is None) else solver)
    if certify and solver_name not in PROOF_SOLVERS:
        raise EncodingError(f"solver {solver_name!r} cannot log a DRUP proof (these can: {', '.join(PROOF_SOLVERS)})")
    return name, solver_name


def check_sat_options(
    *,
    encoding: str | None = None,
    solver: str | None = None,
    certify: bool | None = None,
    steps: int | None = None,
    time_limit: float | None = None,
) -> None:
    """Check the options of :func:`solve_sat` without a board (registered in
    :attr:`mjsat.methods.MethodInfo.check`, so commands refuse them before any board runs),
    with the time limit the boards will have, if any.

    Raises
    ------
    EncodingError
        An unknown encoding, steps that are not a positive integer or given to an
        encoding without steps, or ``certify`` with a solver that logs no proof.
    UnknownSolverError
        A solver name python-sat does not know.
    SolverLimitError
        A ``time_limit`` for a solver that cannot stop at one.

    >>> check_sat_options(encoding="nosuch")
    Traceback (most recent call last):
    ...
    mjsat.encoders.errors.EncodingError: unknown encoding 'nosuch' (known: auto, layered, parity, order, acyclic, stacks)

    Notes
    -----
    :math:`O(s)` for ``s`` solver names.
    """
    _, solver_name = _checked_options(encoding, solver, certify, steps)
    if time_limit is not None and not can_stop(solver_name):
        raise SolverLimitError(solver_name)


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
        ``auto`` (the default) tries the parity encoding with ``ceil(2 sqrt(n))``
        steps (:func:`mjsat.encoders.parity.first_parity_steps`) for at most
        :data:`AUTO_FIRST_CONFLICTS` conflicts and :data:`AUTO_FIRST_SECONDS` seconds
        (fast on solvable deals), then the exhaustive acyclicity encoding (fast proofs of
        ``unsolvable``: a stepped encoding at the proved bound is far slower to refute a
        deal than the acyclicity CNF; a solver that cannot stop at a conflict budget,
        :func:`~mjsat.encoders.solvers.can_stop`, goes to the acyclicity CNF at once).
        ``layered`` alone tries
        ``ceil(2 sqrt(n))`` steps, ``parity`` alone ``ceil(2 sqrt(n))`` too, then
        the proved bound. Shisen-Sho boards with ``auto``, ``acyclic`` or ``order``: the
        exact requirements without the held-tile rule within
        :data:`QUICK_REFUTE_SECONDS` (their locked core may refute the board at once), then a
        weaker CNF first (paths of more than :data:`WEAK_PATH_CAP` tiles cut to their
        end tiles, ``stats['tried']`` ``acyclic-weak``): its ``unsat`` proves
        ``unsolvable``, its pairing is kept only when
        :func:`~mjsat.encoders.pairings.linearize` plays it, else the exact CNF follows.
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
        ``['parity:24', 'acyclic']``), ``variables`` and ``clauses`` (of the last),
        ``build_seconds`` and ``solve_seconds`` (wall, summed), ``build_cpu_seconds``
        and ``solve_cpu_seconds`` (CPU time of this process; build includes the
        requirements), ``step_bound``, and proof figures when certifying.

    Raises
    ------
    EncodingError, UnknownSolverError
        Options that cannot work (see :func:`check_sat_options`).
    MethodNotApplicableError
        A game without an encoding (none of :data:`mjsat.board.GAMES`), or the ``stacks``
        encoding on a board not of isolated stacks
        (:func:`mjsat.encoders.stacks.is_stack_shaped`).
    SolverLimitError
        A ``time_limit`` for a solver that cannot stop at one.

    Notes
    -----
    The build is linear in the CNF size (see each encoding's module); the solve is
    exponential in the worst case (the problem is NP-complete).
    """
    name, solver_name = _checked_options(encoding, solver, certify, steps)
    check_encodable(board, "sat")
    if name == "stacks" and not is_stack_shaped(board):
        raise MethodNotApplicableError("sat", board.game, "the stacks encoding takes boards of isolated stacks")
    if time_limit is not None and not can_stop(solver_name):
        raise SolverLimitError(solver_name)
    if steps is not None:
        MAX_STEP_CELLS.check(int(steps) * len(board), f"{steps} steps on a board of {len(board)} tiles", verb="makes")
    deadline = None if time_limit is None else clock.now() + time_limit
    c0 = time.process_time()
    exhaustive = AUTO_EXHAUSTIVE if name == "auto" else name
    weak_first = board.kind == "grid-path" and steps is None and not ENCODINGS[exhaustive].stepped
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
        if weak_first:
            req = _quick_refutation(board, deadline)
    except BuildTimeLimit as exc:
        stats["time_limit_hit"] = str(exc)
        return SolveResult(UNKNOWN, "sat", stats=stats, reason=exc.reason)
    plan: list[tuple[str, int | None, bool, bool]]  # (encoding, steps, under the first budget, weak)
    if weak_first and req is not None:
        plan = [(exhaustive, None, False, False)]  # the locked core refuted it: an empty CNF
    elif weak_first:
        # Shisen-Sho: the weaker CNF (long paths cut to their ends), then the exact one
        plan = [(exhaustive, None, False, True), (exhaustive, None, False, False)]
    elif name == "auto" or ENCODINGS[name].stepped:
        assert req is not None
        bound = step_bound(req, board.group_members())
        stats["step_bound"] = bound
        stepped = AUTO_FIRST if name == "auto" else name
        if steps is not None:
            plan = [(stepped, int(steps), False, False)]
        else:
            first_steps = ENCODINGS[stepped].first_steps
            assert first_steps is not None, "a stepped encoding has a first number of steps"
            first = min(first_steps(len(board)), bound)
            if name == "auto" and not can_stop(solver_name):  # no conflict budget: the exhaustive CNF
                plan = [(AUTO_EXHAUSTIVE, None, False, False)]
            elif name == "auto":
                plan = [(AUTO_FIRST, first, True, False), (AUTO_EXHAUSTIVE, None, False, False)]
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
            with gc_paused():  # a CNF: tens of thousands of small lists
                if T is not None:
                    cnf, dec = ENCODINGS[enc].encode(board, steps=T, req=step_req, deadline=deadline)
                else:
                    cnf, dec = ENCODINGS[enc].encode(board, req=step_req, deadline=deadline)
        except BuildTimeLimit as exc:
            stats["build_seconds"] += time.perf_counter() - t0
            stats["time_limit_hit"] = str(exc)  # where: "... (building the <encoding>)"
            return SolveResult(UNKNOWN, "sat", stats=stats, reason=exc.reason)
        t1 = time.perf_counter()
        c1 = time.process_time()
        stats["build_cpu_seconds"] += c1 - c0
        stats["tried"].append((dec.encoding + ("-weak" if weaker else "")) if T is None else f"{dec.encoding}:{T}")
        stats["build_seconds"] += t1 - t0
        stats["variables"] = cnf.nv
        stats["clauses"] = len(cnf.clauses)
        remaining = None if deadline is None else deadline - clock.now()
        limit = AUTO_FIRST_CONFLICTS if limited else None
        slot = remaining
        if limit is not None:
            slot = AUTO_FIRST_SECONDS if remaining is None else min(remaining, AUTO_FIRST_SECONDS)
        counts: dict[str, int] = {}
        sat, model, _ = run_solver(cnf, solver=solver_name, time_limit=slot, conflict_limit=limit, counts=counts)
        stats["conflicts"] = stats.get("conflicts", 0) + counts.get("conflicts", 0)
        stats["solve_seconds"] += time.perf_counter() - t1
        c0 = time.process_time()
        stats["solve_cpu_seconds"] += c0 - c1
        if sat is None:
            if limit is not None and (deadline is None or clock.now() < deadline):
                last_reason = "the first attempt ran out of its budget"
                continue  # auto: the budget of the first attempt ran out, go on
            return SolveResult(UNKNOWN, "sat", stats=stats, reason="time limit")
        if sat:
            assert model is not None, "run_solver returns the model of a satisfiable answer"
            if not weaker:
                return SolveResult(SOLVABLE, "sat", moves=dec.decode(model).moves, stats=stats)
            moves = linearize(board, dec.pairing(model))
            if moves is not None:
                return SolveResult(SOLVABLE, "sat", moves=moves, stats=stats)
            last_reason = "the weaker CNF's pairing does not clear the board"
            continue  # go on with the exact CNF
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
    yielded are exactly the pairings some order clears (the pairing view of
    :mod:`mjsat.encoders.pairings`).

    Parameters
    ----------
    board : Board
    encoding, solver : str, optional
        As in :func:`solve_sat`, an encoding with pairing variables (not ``parity``,
        which raises :class:`~mjsat.encoders.errors.EncodingError`).
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
    enc = get_encoding(encoding)
    if not enc.pairing_variables:
        usable = ", ".join(n for n, e in ENCODINGS.items() if e.pairing_variables)
        raise EncodingError(f"the {enc.name} encoding has no pairing variables to enumerate (use {usable})")
    cnf, dec = encode(board, encoding=enc.name)
    count = 0
    with open_solver(cnf.clauses, solver=solver) as s:
        while (limit is None or count < limit) and s.solve():
            model = s.get_model()
            decoded = dec.decode(model)
            yield decoded
            count += 1
            block = [-dec.keys[("m", a, b)] for a, b in decoded.pairing]
            if not block:
                return
            s.add_clause(block)
