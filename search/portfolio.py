"""The ``auto`` method: a portfolio that lets each exact method do what it is best at.

The plan, for a board:

1. ``height2`` when the board is isolated stacks of height one and two with groups of two
   and four (polynomial, always decides);
2. ``search`` (the numba pairing search) under a small node budget: most deals are
   decided in a few hundred nodes, by a random attempt or a pruning scan;
3. ``sat`` with its default (best) encoding and solver, for the heavy tail of deals
   whose proof needs many groups, where the direct search blows up;
4. then, only when a step above is missing or refused the board: ``cpsat``, ``search``
   without a node budget, and ``ref`` on boards small enough.

Every method is looked up in :data:`mjsat.methods.METHODS` at run time and skipped when
it is not registered (or fails to import), so ``auto`` works with whatever exists, down
to ``ref`` alone. The result names the method that decided in ``stats["decided_by"]``
and lists every step tried in ``stats["steps"]``.

>>> from mjsat.board import Layout, MahjongBoard
>>> from mjsat.methods import solve
>>> r = solve(MahjongBoard(Layout([(0, 0, 0), (0, 3, 0)]), [0, 0]), "auto")
>>> r.status, r.method, r.stats["decided_by"]
('solvable', 'auto', 'height2')
"""

from __future__ import annotations

import time
from typing import Any

from mjsat.board import Board
from mjsat.limits import SizeLimitError
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, MethodNotApplicableError, SolveResult

__all__ = [
    "DEFAULT_NODE_BUDGET",
    "DEFAULT_SEARCH_SECONDS",
    "DEFAULT_PLAN",
    "REF_MAX_TILES",
    "AutoOptionError",
    "UnknownPlanStepError",
    "check_auto_options",
    "plan",
    "solve_auto",
]

DEFAULT_NODE_BUDGET = 150
"""Search nodes of the first, budgeted search step. On 1,000 seeded turtle deals (22 Nov
2026, plain then scan-guided playouts) 87.5 % are cleared by the playouts, 7.8 % by search
nodes within this budget, 2.4 % refuted by the search and 2.3 % left to SAT; budgets of 40
and 300 nodes gave higher means (19.4 and 16.6 ms against 13.9 ms, CPU)."""
DEFAULT_SEARCH_SECONDS = 0.25
"""Seconds of the first, budgeted search step (the numba search decides most deals in a
fraction of this; the rest go to SAT)."""
DEFAULT_PLAN = ("height2", "search-budget", "sat", "cpsat", "search", "ref")
"""The steps in order (``search-budget`` is ``search`` under the node budget)."""
REF_MAX_TILES = 24
"""``ref`` is a step only on boards this small (it is exponential)."""
SEARCH_BUDGET_SHARE = 0.25
"""With a time limit, the budgeted search gets at most this share of what is left."""


class UnknownPlanStepError(ValueError):
    """A plan names a step that is not a method (nor ``search-budget``)."""


def _registered(name: str) -> Any | None:
    """The method function registered as ``name``, or ``None`` when absent or broken."""
    from mjsat.methods import METHODS, get_method

    if name not in METHODS:
        return None
    try:
        return get_method(name)
    except Exception:  # a part being written: auto goes on with the others
        return None


def plan(board: Board, *, steps: tuple[str, ...] | list[str] = DEFAULT_PLAN) -> list[str]:
    """The steps ``auto`` would try on ``board``, in order, with what is registered now.

    Raises
    ------
    UnknownPlanStepError
        A step is neither a registered-or-known method nor ``search-budget``.

    Notes
    -----
    :math:`O(n)` (the height-two check).
    """
    from mjsat.methods import METHODS

    known = set(METHODS) | set(DEFAULT_PLAN)
    out: list[str] = []
    for step in steps:
        if step not in known or step == "auto":
            raise UnknownPlanStepError(
                f"auto: unknown step {step!r} (known: {', '.join(sorted(known - {'auto'}))})"
            )
        method = "search" if step == "search-budget" else step
        if _registered(method) is None:
            continue
        if step == "height2":
            from mjsat.search.height2 import applies

            if not applies(board):
                continue
        if step == "ref" and len(board) > REF_MAX_TILES and any(s != "ref" for s in out):
            continue
        out.append(step)
    return out


class AutoOptionError(ValueError):
    """A search budget of the ``auto`` method that is not positive."""


def check_auto_options(
    *,
    node_limit: int | None = None,
    search_seconds: float | None = None,
    plan_steps: str | None = None,
) -> tuple[str, ...]:
    """Check the options of :func:`solve_auto` without a board (registered in
    :data:`mjsat.methods.OPTION_CHECKS`) and return the plan's steps.

    Raises
    ------
    AutoOptionError
        A budget that is not positive.
    UnknownPlanStepError
        ``plan_steps`` names an unknown step.

    Notes
    -----
    :math:`O(s)` for ``s`` steps.
    """
    from mjsat.methods import METHODS

    for label, value in (("node_limit", node_limit), ("search_seconds", search_seconds)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise AutoOptionError(f"auto: the search budget must be positive ({label}={value!r})")
    if plan_steps is not None and not isinstance(plan_steps, str):
        raise UnknownPlanStepError(f"auto: plan_steps is a comma-separated list of steps, got {plan_steps!r}")
    steps = tuple(s.strip() for s in plan_steps.split(",") if s.strip()) if plan_steps else DEFAULT_PLAN
    known = set(METHODS) | set(DEFAULT_PLAN)
    for step in steps:
        if step not in known or step == "auto":
            raise UnknownPlanStepError(f"auto: unknown step {step!r} (known: {', '.join(sorted(known - {'auto'}))})")
    return steps


def solve_auto(
    board: Board,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    node_limit: int | None = None,
    search_seconds: float | None = None,
    plan_steps: str | None = None,
) -> SolveResult:
    """Decide ``board`` with the portfolio of the module docstring (the method ``auto``).

    Parameters
    ----------
    board : Board
        Any board of any game.
    time_limit : float or None
        Seconds for the whole portfolio; ``unknown`` when every step ran out.
    seed : int
        Passed to every step.
    node_limit : int or None
        Node budget of the first search step (default :data:`DEFAULT_NODE_BUDGET`).
    search_seconds : float or None
        Time budget of the first search step (default :data:`DEFAULT_SEARCH_SECONDS`;
        at most :data:`SEARCH_BUDGET_SHARE` of the time left).
    plan_steps : str or None
        Comma-separated steps overriding :data:`DEFAULT_PLAN` (for measurements), e.g.
        ``"search-budget,sat"``.

    Returns
    -------
    SolveResult
        ``method`` is ``"auto"``; ``stats["decided_by"]`` names the step that decided (or
        ``None``), ``stats["steps"]`` lists ``{"step", "status", "seconds", "reason"}`` of
        every step tried, ``stats["inner"]`` the deciding method's own stats.

    Raises
    ------
    UnknownPlanStepError
        ``plan_steps`` names an unknown step.

    Notes
    -----
    The cost of the steps run: polynomial for height-two boards, else the budgeted search
    (:math:`O(\\text{budget} \\cdot (n + e))`) and then the SAT solver's (exponential in
    the worst case; the problem is NP-complete).
    """
    steps = check_auto_options(node_limit=node_limit, search_seconds=search_seconds, plan_steps=plan_steps)
    todo = plan(board, steps=steps)
    budget = DEFAULT_NODE_BUDGET if node_limit is None else int(node_limit)
    slice_s = DEFAULT_SEARCH_SECONDS if search_seconds is None else float(search_seconds)
    start = time.monotonic()
    tried: list[dict[str, Any]] = []
    unknown_reasons: list[str] = []
    for step in todo:
        left = None if time_limit is None else time_limit - (time.monotonic() - start)
        if left is not None and left <= 0:
            break
        method = "search" if step == "search-budget" else step
        fn = _registered(method)
        opts: dict[str, Any] = {}
        limit = left
        if step == "search-budget" and todo[-1] != step:  # the last step gets all that is left
            opts["node_limit"] = budget
            limit = slice_s if left is None else max(min(slice_s, left * SEARCH_BUDGET_SHARE), 1e-3)
        t0 = time.perf_counter()
        try:
            res: SolveResult = fn(board.copy(stack=False), time_limit=limit, seed=seed, **opts)
        except (MethodNotApplicableError, SizeLimitError) as exc:  # refused: not covered, or too big for it
            tried.append({"step": step, "status": "refused", "seconds": time.perf_counter() - t0, "reason": str(exc)})
            continue
        tried.append({"step": step, "status": res.status, "seconds": time.perf_counter() - t0, "reason": res.reason})
        if res.status in (SOLVABLE, UNSOLVABLE):
            stats = {"decided_by": step, "steps": tried, "inner": res.stats}
            return SolveResult(
                res.status, "auto", moves=list(res.moves), stats=stats,
                certified=res.certified, reason=res.reason,
            )
        unknown_reasons.append(f"{step}: {res.reason or 'unknown'}")
    if not todo:
        reason = "no registered method applies to this board"
    elif not tried or len(tried) < len(todo):
        reason = "time limit"
    else:
        reason = "; ".join(unknown_reasons) or "every step refused the board"
    return SolveResult(UNKNOWN, "auto", stats={"decided_by": None, "steps": tried}, reason=reason)
