"""A small exact decision procedure for the reduction boards, and the choice of method.

The tests of the reductions need an exact method on boards of hundreds of tiles, far
beyond the reference solver. The project's own exact methods (``search``, ``sat``,
``cpsat``) are preferred when they are registered in :data:`mjsat.methods.METHODS`;
:func:`exact_method` picks one at run time. This module keeps a compact fallback,
:func:`solve_timed_cpsat`, a CP-SAT model of Mahjong Solitaire by removal times (the
model the design note used to check Theorem 3 and Corollary 4):

* every tile ``t`` gets a removal time ``T[t]``; the tiles of a group are matched in
  pairs (one boolean per possible pair, each tile in exactly one chosen pair) and
  matched tiles share their time;
* a tile is removed strictly after every tile covering it;
* a tile with neighbours on both sides is removed strictly after all its left
  neighbours or strictly after all its right neighbours.

Any feasible assignment, sorted by time, is a legal clearing sequence (ties between
different pairs are harmless: neither may wait for the other), so ``solvable`` answers
come with moves that :func:`mjsat.methods.solve`-style replay checks.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from mjsat.board import Board, MahjongBoard, ShisenShoBoard, TransposedMahjongBoard
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, SolveResult

__all__ = ["solve_timed_cpsat", "exact_plan", "exact_method", "decide"]


def solve_timed_cpsat(board: Board, *, time_limit: float | None = None, seed: int = 0, workers: int = 1) -> SolveResult:
    """Decide a Mahjong board with the CP-SAT removal-time model (see the module docstring).

    Parameters
    ----------
    board : MahjongBoard or TransposedMahjongBoard
    time_limit : float or None
        Seconds before answering ``unknown``.
    seed : int
        CP-SAT's random seed.
    workers : int
        CP-SAT search workers (1 keeps the shared test machine calm).

    Returns
    -------
    SolveResult
        ``solvable`` with moves, ``unsolvable`` (infeasible model), or ``unknown``.

    Notes
    -----
    :math:`O(n + \\sum_g k_g^2)` variables for ``n`` tiles and groups of ``k_g`` tiles,
    :math:`O(n d)` constraints; solving is exponential in the worst case.
    """
    from ortools.sat.python import cp_model

    if board.kind != "sides":
        raise ValueError(f"the removal-time model is for Mahjong boards, not {board.game}")
    n = len(board)
    lay = board.layout
    tables = board.rule_tables()
    one, two = tables.one, tables.two
    model = cp_model.CpModel()
    horizon = n // 2
    T = [model.NewIntVar(0, horizon, f"T{t}") for t in range(n)]
    pairs: list[tuple[int, int, object]] = []
    for members in board.group_members().values():
        if len(members) == 2:
            a, b = members
            model.Add(T[a] == T[b])
            pairs.append((a, b, None))
            continue
        lits: dict[int, list[object]] = {t: [] for t in members}
        for a, b in itertools.combinations(members, 2):
            x = model.NewBoolVar(f"p{a}_{b}")
            model.Add(T[a] == T[b]).OnlyEnforceIf(x)
            lits[a].append(x)
            lits[b].append(x)
            pairs.append((a, b, x))
        for t in members:
            model.AddExactlyOne(lits[t])
    for t in range(n):
        for o in lay.above[t]:
            model.Add(T[t] > T[o])
        if one[t] and two[t]:
            side = model.NewBoolVar(f"s{t}")
            for o in one[t]:
                model.Add(T[t] > T[o]).OnlyEnforceIf(side)
            for o in two[t]:
                model.Add(T[t] > T[o]).OnlyEnforceIf(side.Not())
    solver = cp_model.CpSolver()
    solver.parameters.num_search_workers = max(1, int(workers))
    solver.parameters.random_seed = int(seed)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    status = solver.Solve(model)
    stats = {"variables": len(model.Proto().variables), "constraints": len(model.Proto().constraints)}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen = [(a, b) for a, b, x in pairs if x is None or solver.Value(x)]
        chosen.sort(key=lambda ab: (solver.Value(T[ab[0]]), ab))
        return SolveResult(SOLVABLE, "timed-cpsat", moves=chosen, stats=stats)
    if status == cp_model.INFEASIBLE:
        return SolveResult(UNSOLVABLE, "timed-cpsat", stats=stats)
    return SolveResult(UNKNOWN, "timed-cpsat", reason="time limit", stats=stats)


_PREFERENCE: tuple[tuple[str, dict[str, Any]], ...] = (
    ("sat", {"encoding": "acyclic"}),
    ("cpsat", {}),
    ("search", {}),
)


_SHISEN_PREFERENCE: tuple[tuple[str, dict[str, Any]], ...] = (
    ("search", {"attempts": 0, "node_limit": 200}),
    ("sat", {"encoding": "acyclic"}),
)
"""Shisen-Sho: a short search first (it clears the supertile images of satisfiable
formulas in about 20 nodes, 0.6 s on 2,160 tiles, where ``sat`` takes 2.7 to 4.3 s),
then the ``acyclic`` encoding, which refutes the images of unsatisfiable formulas (the
search would need the stack board's tree, up to a million nodes)."""

SHISEN_SEARCH_MAX_TILES = 3000
"""Above this many tiles the short search is skipped: a node costs about 0.7 s on an
8,964-tile image, so 200 nodes cost 140 s; ``sat`` decided that image in 42 s."""


def exact_plan(board: Board | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The registered exact methods :func:`decide` tries on ``board``, in order, with options.

    Mahjong boards: one method, ``sat`` with its ``acyclic`` encoding (under a second
    on the 420-tile all-eight-clauses board), else ``cpsat``, else ``search`` (whichever
    another part of the toolkit has registered in :data:`mjsat.methods.METHODS`).

    Shisen-Sho boards: ``search`` without random attempts for at most 200 nodes (on
    boards of at most :data:`SHISEN_SEARCH_MAX_TILES` tiles), then ``sat`` ``acyclic``
    (see :data:`_SHISEN_PREFERENCE`). Its requirements drop the
    paths that cannot matter (:mod:`mjsat.encoders.necessary`) and it solves a weaker CNF
    first, so the 3,780-tile image of the all-eight-clauses formula is refuted in 6 s
    (with empty lanes) or 11 s (edge to edge), where the raw encoding needed 35 million
    clauses for the 1,188-tile image of ``(x)(-x)``.
    """
    from mjsat.methods import METHODS, method_options

    plan = []
    for name, options in _SHISEN_PREFERENCE if isinstance(board, ShisenShoBoard) else _PREFERENCE:
        if name == "search" and isinstance(board, ShisenShoBoard) and len(board) > SHISEN_SEARCH_MAX_TILES:
            continue
        if name in METHODS:
            plan.append((name, {k: v for k, v in options.items() if k in method_options(name)}))
            if not isinstance(board, ShisenShoBoard):
                break
    return plan


def exact_method(board: Board | None = None) -> tuple[str, dict[str, Any]] | None:
    """The first method of :func:`exact_plan`, or ``None`` when no exact method is registered."""
    plan = exact_plan(board)
    return plan[0] if plan else None


def decide(
    board: Board, *, time_limit: float | None = None, method: str | None = None, node_limit: int | None = None
) -> SolveResult:
    """Decide ``board`` exactly: with ``method``, else the methods of :func:`exact_plan` in
    turn until one answers (a budgeted search answers ``unknown`` when its nodes run out),
    else the fallback :func:`solve_timed_cpsat`; every ``solvable`` answer is replayed.
    ``node_limit`` caps a ``search``.

    Notes
    -----
    Exponential in the worst case, as every exact method.
    """
    from mjsat.methods import solve
    from mjsat.replay import replay

    plan = [(method, {})] if method else exact_plan(board)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    result: SolveResult | None = None
    for name, options in plan:
        options = dict(options)
        if node_limit is not None and name == "search":
            options["node_limit"] = min(int(node_limit), options.get("node_limit", int(node_limit)))
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        result = solve(board, name, time_limit=left, **options)
        if result.status != UNKNOWN or (deadline is not None and time.perf_counter() >= deadline):
            return result
    if result is not None:
        return result
    start = time.perf_counter()
    result = solve_timed_cpsat(board.copy(stack=False), time_limit=time_limit)
    result.seconds = time.perf_counter() - start
    if result.status == SOLVABLE:
        replay(board, result.moves)
        result.verified = True
    return result
