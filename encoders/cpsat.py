"""The ``cpsat`` method: a CP-SAT model (OR-Tools) with a removal time per tile.

Model (``n`` tiles, ``P`` candidate pairs, horizon ``H`` = the proved step bound of
:func:`mjsat.encoders.layered.step_bound`, at most ``n/2``):

* an integer ``time[t]`` in ``0..H-1`` per tile: the parallel step it goes in;
* a Boolean ``m[a, b]`` per candidate pair, ``AddExactlyOne`` over the pairs of each
  tile (the matching), and ``time[a] == time[b]`` enforced by ``m[a, b]``;
* Mahjong: ``time[o] < time[t]`` for every tile ``o`` above ``t``; a Boolean side choice
  per tile with both sides occupied, enforcing ``time[o] < time[t]`` on that side;
* Shisen-Sho: a Boolean per candidate path of a pair, one of them when the pair is
  chosen, each enforcing ``time[o] < time[a]`` for the tiles on the path.

Size: ``n`` integer and :math:`P + n + \\sum_p |paths_p|` Boolean variables;
:math:`n + P + \\sum_t (|above_t| + |left_t| + |right_t|)` constraints (Mahjong). Any
solution scheduled as early as possible fits the horizon, so infeasible means
unsolvable.
"""

from __future__ import annotations

import numbers
import time
from typing import Any

from mjsat import clock
from mjsat.board import Board, Move
from mjsat.encoders.errors import BuildTimeLimit
from mjsat.encoders.layered import step_bound
from mjsat.encoders.requirements import Requirements, check_encodable, requirements
from mjsat.encoders.shisen_paths import bits_members
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, SolveResult

__all__ = ["CpsatOptionError", "build_cpsat", "check_cpsat_options", "solve_cpsat"]


class CpsatOptionError(ValueError):
    """An option of the ``cpsat`` method that cannot work (``workers`` below one)."""


def check_cpsat_options(*, workers: int = 1) -> None:
    """Check the options of :func:`solve_cpsat` without a board (registered in
    :attr:`mjsat.methods.MethodInfo.check`).

    Raises
    ------
    CpsatOptionError
        ``workers`` is not an integer of at least 1.

    Notes
    -----
    :math:`O(1)`.
    """
    if isinstance(workers, bool) or not isinstance(workers, numbers.Integral) or workers < 1:
        raise CpsatOptionError(f"workers must be an integer of at least 1, got {workers!r}")


def build_cpsat(
    board: Board, *, req: Requirements | None = None, horizon: int | None = None, deadline: float | None = None
) -> tuple[Any, dict]:
    """The CP-SAT model of ``board`` and its handles.

    Parameters
    ----------
    board : Board
    req : Requirements, optional
    horizon : int, optional
        Number of steps (default: the proved bound, which makes the model exhaustive).
    deadline : float, optional
        A :func:`mjsat.clock.now` value; past it the build raises
        :class:`~mjsat.encoders.errors.BuildTimeLimit`.

    Returns
    -------
    model : ortools.sat.python.cp_model.CpModel
    handles : dict
        ``time`` (list of IntVar), ``m`` (dict pair -> BoolVar), ``horizon``.

    Notes
    -----
    Linear in the size given in the module docstring.
    """
    from ortools.sat.python import cp_model

    req = requirements(board, deadline=deadline) if req is None else req
    H = step_bound(req, board.group_members()) if horizon is None else int(horizon)
    model = cp_model.CpModel()
    n = req.n
    tm = [model.new_int_var(0, max(H - 1, 0), f"time{t}") for t in range(n)]
    m = {p: model.new_bool_var(f"m{p[0]}_{p[1]}") for p in req.pairs}
    inc = req.incident()
    for t in range(n):
        if inc[t]:
            model.add_exactly_one(m[p] for p in inc[t])
        else:
            model.add_bool_or([])  # no partner: infeasible
    for (a, b), mv in m.items():
        model.add(tm[a] == tm[b]).only_enforce_if(mv)
    for t in range(n):
        for o in req.need[t]:
            model.add(tm[o] < tm[t])
        if req.sides[t]:
            c = model.new_bool_var(f"side{t}")
            s0, s1 = req.sides[t]
            for o in sorted(s0):
                model.add(tm[o] < tm[t]).only_enforce_if(c)
            for o in sorted(s1):
                model.add(tm[o] < tm[t]).only_enforce_if(c.negated())
    for p, alts in req.path_bits.items():
        if not alts or 0 in alts:
            continue
        a = p[0]
        ks = [model.new_bool_var(f"path{p[0]}_{p[1]}_{j}") for j in range(len(alts))]
        model.add_bool_or(ks).only_enforce_if(m[p])
        for k, alt in zip(ks, alts):
            for o in bits_members(alt):
                model.add(tm[o] < tm[a]).only_enforce_if(k)
    return model, {"time": tm, "m": m, "horizon": H}


def solve_cpsat(
    board: Board,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    workers: int = 1,
) -> SolveResult:
    """Decide ``board`` with the CP-SAT model of the module docstring.

    Parameters
    ----------
    board : Board
        Mahjong, transposed Mahjong or Shisen-Sho.
    time_limit : float or None
        Seconds of :mod:`mjsat.clock`'s clock (wall: ``max_time_in_seconds``; CPU: stopped
        from a thread watching the process's CPU time); ``unknown`` when reached.
    seed : int
        CP-SAT's ``random_seed``.
    workers : int
        ``num_workers`` (default 1: deterministic, and the benchmark's one core).

    Returns
    -------
    SolveResult
        Moves ordered by time; ``stats`` holds ``build_seconds``, ``solve_seconds``,
        ``variables``, ``constraints``, ``horizon``, ``workers``.

    Raises
    ------
    CpsatOptionError
        ``workers`` is not a positive integer.
    MethodNotApplicableError
        A game without an encoding (none of :data:`mjsat.board.GAMES`).

    Notes
    -----
    Exponential in the worst case; see the module docstring for the model size.
    """
    from ortools.sat.python import cp_model

    check_cpsat_options(workers=workers)
    check_encodable(board, "cpsat")
    t0 = time.perf_counter()
    deadline = None if time_limit is None else clock.now() + time_limit
    try:
        model, h = build_cpsat(board, deadline=deadline)
    except BuildTimeLimit as exc:
        stats0 = {"build_seconds": time.perf_counter() - t0, "time_limit_hit": str(exc)}
        return SolveResult(UNKNOWN, "cpsat", stats=stats0, reason=exc.reason)
    t1 = time.perf_counter()
    proto = model.Proto()
    stats: dict[str, Any] = {
        "build_seconds": t1 - t0,
        "variables": len(proto.variables),
        "constraints": len(proto.constraints),
        "horizon": h["horizon"],
        "workers": int(workers),
    }
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = int(seed)
    if deadline is not None and clock.kind() == "wall":
        solver.parameters.max_time_in_seconds = max(deadline - clock.now(), 0.01)
        status = solver.Solve(model)
    else:  # a CPU-time limit: CP-SAT's own limit is wall time, so a thread stops it
        with clock.interrupt_at(deadline, solver.stop_search):
            status = solver.Solve(model)
    stats["solve_seconds"] = time.perf_counter() - t1
    stats["cp_status"] = solver.StatusName(status)
    stats["conflicts"], stats["branches"] = int(solver.num_conflicts), int(solver.num_branches)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        pairs: list[Move] = [p for p, v in h["m"].items() if solver.Value(v)]
        times = {p: solver.Value(h["time"][p[0]]) for p in pairs}
        moves = sorted(pairs, key=lambda p: (times[p], p))
        return SolveResult(SOLVABLE, "cpsat", moves=moves, stats=stats)
    if status == cp_model.INFEASIBLE:
        return SolveResult(UNSOLVABLE, "cpsat", stats=stats)
    if status == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in build_cpsat
        raise RuntimeError(f"CP-SAT rejected the model: {model.Validate()}")
    return SolveResult(UNKNOWN, "cpsat", stats=stats, reason="time limit")
