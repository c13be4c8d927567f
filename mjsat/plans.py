"""Named plans: the methods tried in turn on a board, as data, and the one runner of them.

A *plan* is a sequence of :class:`Step`: a registered method with options, the kinds of
boards it is tried on (:attr:`mjsat.board.Board.kind`), a size bound and a share of the
time. :func:`run_plan` tries the steps in order until one decides; a step that refuses
the board (:class:`~mjsat.result.MethodNotApplicableError`, or a size limit of
:mod:`mjsat.limits`) is skipped and listed, any other exception is an error. Two plans
are registered as methods in :data:`mjsat.methods.METHODS`:

* ``auto`` (:data:`AUTO`), the default of ``mjsat solve``: ``height2`` where it applies,
  the pairing search under a small node and time budget, then the SAT model, then
  ``cpsat``, the search without a budget, and ``ref`` on small boards;
* ``exact`` (:data:`EXACT`), the plan the reductions' checks use on boards of hundreds or
  thousands of tiles: ``sat`` with its ``acyclic`` encoding (and on Shisen-Sho boards a
  short search without random playouts first; on the 3-D game the search).

Every step is an exact method, so a plan's ``unsolvable`` is always a proof; a plan
answers ``unknown`` when every step ran out of time or refused.

>>> from mjsat.board import Layout, MahjongBoard
>>> from mjsat.methods import solve
>>> r = solve(MahjongBoard(Layout([(0, 0, 0), (0, 3, 0)]), [0, 0]), "auto")
>>> r.status, r.method, r.stats["decided_by"]
('solvable', 'auto', 'height2')
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from typing import Any

from mjsat import clock
from mjsat.board import Board
from mjsat.limits import SizeLimitError
from mjsat.result import UNKNOWN, MethodNotApplicableError, SolveResult

__all__ = [
    "Step",
    "AUTO",
    "EXACT",
    "PLANS",
    "DEFAULT_NODE_BUDGET",
    "DEFAULT_SEARCH_SECONDS",
    "REF_MAX_TILES",
    "UnknownPlanStepError",
    "PlanOptionError",
    "check_auto_options",
    "plan",
    "run_plan",
    "solve_auto",
    "solve_exact",
]


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of a plan.

    Attributes
    ----------
    label : str
        The step's name in ``stats["steps"]`` and ``stats["decided_by"]``.
    method : str
        A method of :data:`mjsat.methods.METHODS`.
    options : mapping
        Options passed to the method.
    kinds : tuple of str or None
        Tried only on boards of these kinds (:attr:`mjsat.board.Board.kind`); ``None``: all.
    max_tiles : int or None
        Tried only on boards of at most this many tiles.
    budget : mapping
        Options that bound the step (a node limit), passed only when a later step follows:
        the last step tried gets everything.
    seconds : float or None
        Likewise: the step's time is at most this, and at most ``share`` of what is left
        under a time limit, unless it is the last step tried; ``None``: all that is left.
    share : float
        See ``seconds``.
    stacks : bool or None
        ``True``: tried only on Mahjong boards of isolated stacks
        (:meth:`mjsat.layout.Layout.is_isolated_stacks`); ``False``: only on other boards;
        ``None``: on both.
    slice : float or None
        A step of a *race*: consecutive steps with a slice take turns, each running for its
        slice, then for twice as long, and so on, until one decides or the time is up.
        A method with a resumable run (:attr:`mjsat.methods.MethodInfo.run`, the search)
        continues from turn to turn, so its slices add up; any other starts afresh each
        turn. A race thus costs its fastest member's time plus the others' slices so far
        (the slices double), and a step that is losing on a board hands the time to the
        others instead of holding it to the limit.
    """

    label: str
    method: str
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    kinds: tuple[str, ...] | None = None
    max_tiles: int | None = None
    budget: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    seconds: float | None = None
    share: float = 1.0
    slice: float | None = None
    stacks: bool | None = None

    def applies(self, board: Board) -> bool:
        """Whether the step is tried on ``board`` (its kind, shape and size)."""
        if self.kinds is not None and board.kind not in self.kinds:
            return False
        if self.stacks is not None and self.stacks != (board.kind == "sides" and board.layout.is_isolated_stacks()):
            return False
        return self.max_tiles is None or len(board) <= self.max_tiles


DEFAULT_NODE_BUDGET = 150
"""Search nodes of ``auto``'s budgeted search step (``search-budget``); the figures behind
the choice are in benchmarks/README.md."""
DEFAULT_SEARCH_SECONDS = 0.25
"""Seconds of ``auto``'s budgeted search step (the search decides most deals in a fraction
of this; the rest go to SAT)."""
SEARCH_BUDGET_SHARE = 0.25
"""With a time limit, ``auto``'s budgeted search gets at most this share of what is left."""
REF_MAX_TILES = 24
"""``ref`` is a step of ``auto`` only on boards this small (it is exponential)."""
SHISEN_SHORT_SEARCH_MAX_TILES = 3000
"""The ``exact`` plan's short search runs on Shisen-Sho boards of at most this many tiles
(a node costs more than the whole SAT call on larger reduction images)."""

RACE_SEARCH_SECONDS = 1.0
"""Shisen-Sho: the first slice of the search in ``auto``'s race (then 2, 4, ... seconds)."""
RACE_SAT_SECONDS = 0.5
"""Shisen-Sho: the first slice of ``sat`` in ``auto``'s race (then 1, 2, ... seconds)."""

AUTO: tuple[Step, ...] = (
    Step("height2", "height2", kinds=("sides",)),
    Step("sat-stacks", "sat", {"encoding": "acyclic"}, kinds=("sides",), stacks=True),
    Step("sat-stacks-ranks", "sat", {"encoding": "stacks"}, kinds=("sides",), stacks=True),
    Step(
        "search-budget", "search", kinds=("sides",), budget={"node_limit": DEFAULT_NODE_BUDGET},
        seconds=DEFAULT_SEARCH_SECONDS, share=SEARCH_BUDGET_SHARE, stacks=False,
    ),
    Step("sat", "sat", kinds=("sides",), stacks=False),
    Step("cpsat", "cpsat", kinds=("sides",)),
    Step("search-race", "search", kinds=("grid-path",), slice=RACE_SEARCH_SECONDS),
    Step("sat-race", "sat", kinds=("grid-path",), slice=RACE_SAT_SECONDS),
    Step("search", "search", kinds=("sides", "cell-path")),
    Step("ref", "ref", max_tiles=REF_MAX_TILES),
)  # fmt: skip
"""The ``auto`` plan, per kind of board (:attr:`mjsat.board.Board.kind`):

* Mahjong (``"sides"``): ``height2`` (polynomial on isolated stacks of height at most
  two); on higher isolated stacks (the Theorem 3 boards) straight to ``sat`` with the
  ``acyclic`` encoding, then, when that CNF is above the memory bound
  (:data:`mjsat.encoders.errors.MAX_BUILD_LITERALS`), the linear ``stacks`` encoding
  (the search's budget is spent in vain there: see ``benchmarks/README.md``, the
  reductions); on other boards the pairing search under a budget (most deals are cleared by its playouts or
  decided in a few hundred nodes), the SAT model for the deals whose proof needs many
  groups, then ``cpsat`` and the search without a budget;
* Shisen-Sho (``"grid-path"``): the search and ``sat`` in a race of doubling slices: the
  search decides random deals of groups of four (where ``sat`` refutes only locked ones),
  ``sat`` refutes boards made mostly of pairs; neither holds the time the other needs,
  and the search continues from slice to slice (a budgeted search first would only repeat
  the race's first slice);
* Shisen-Sho on the Mahjong grid (``"cell-path"``): the search;
* every kind: ``ref`` on boards of at most :data:`REF_MAX_TILES` tiles.

The figures behind the budgets are in benchmarks/README.md."""

EXACT: tuple[Step, ...] = (
    Step("height2", "height2", kinds=("sides",)),
    Step(
        "search-short", "search", {"attempts": 0, "node_limit": 200},
        kinds=("grid-path",), max_tiles=SHISEN_SHORT_SEARCH_MAX_TILES,
    ),
    Step("sat", "sat", {"encoding": "acyclic"}, kinds=("sides", "grid-path")),
    Step("sat-stacks-ranks", "sat", {"encoding": "stacks"}, kinds=("sides",), stacks=True),
    Step("search", "search", kinds=("cell-path",)),
)  # fmt: skip
"""The ``exact`` plan for the boards of the reductions: the ``acyclic`` encoding refutes the
boards of unsatisfiable formulas where the search would walk the whole stack board's tree
(on isolated stacks whose acyclic CNF is above the memory bound, the linear ``stacks``
encoding follows);
on the Shisen-Sho images a 200-node search without playouts clears the images of
satisfiable formulas in a few nodes first."""

PLANS: dict[str, tuple[Step, ...]] = {"auto": AUTO, "exact": EXACT}
"""The named plans."""


class UnknownPlanStepError(ValueError):
    """A plan override names a step that is neither a step label nor a method."""


class PlanOptionError(ValueError):
    """A budget of the ``auto`` plan that is not positive."""


def _steps_named(names: Sequence[str], base: Sequence[Step]) -> tuple[Step, ...]:
    from mjsat.methods import METHODS

    by_label = {s.label: s for s in base}
    out = []
    for name in names:
        if name in by_label:
            out.append(by_label[name])
        elif name in METHODS and name not in PLANS:
            out.append(Step(name, name))
        else:
            known = sorted(set(by_label) | (set(METHODS) - set(PLANS)))
            raise UnknownPlanStepError(f"auto: unknown step {name!r} (known: {', '.join(known)})")
    return tuple(out)


def check_auto_options(
    *,
    node_limit: int | None = None,
    search_seconds: float | None = None,
    plan_steps: str | None = None,
) -> tuple[Step, ...]:
    """Check the options of :func:`solve_auto` without a board and return its steps.

    Raises
    ------
    PlanOptionError
        A budget that is not positive.
    UnknownPlanStepError
        ``plan_steps`` names an unknown step.

    Notes
    -----
    :math:`O(s)` for ``s`` steps.
    """
    for label, value in (("node_limit", node_limit), ("search_seconds", search_seconds)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise PlanOptionError(f"auto: the search budget must be positive ({label}={value!r})")
    if plan_steps is not None and not isinstance(plan_steps, str):
        raise UnknownPlanStepError(f"auto: plan_steps is a comma-separated list of steps, got {plan_steps!r}")
    if node_limit is None and search_seconds is None and not plan_steps:
        return AUTO
    steps = AUTO
    if plan_steps:
        steps = _steps_named([s.strip() for s in plan_steps.split(",") if s.strip()], AUTO)
    out = []
    for step in steps:
        if step.label == "search-budget":
            budget = dict(step.budget)
            if node_limit is not None:
                budget["node_limit"] = int(node_limit)
            seconds = float(search_seconds) if search_seconds is not None else step.seconds
            step = dataclasses.replace(step, budget=budget, seconds=seconds)
        out.append(step)
    return tuple(out)


def plan(board: Board, steps: Sequence[Step] = AUTO) -> list[str]:
    """The labels of the steps of ``steps`` tried on ``board`` (kind and size), in order.

    Notes
    -----
    :math:`O(s)`.
    """
    return [s.label for s in steps if s.applies(board)]


def run_plan(
    board: Board,
    steps: Sequence[Step],
    *,
    name: str,
    time_limit: float | None = None,
    seed: int = 0,
) -> SolveResult:
    """Try ``steps`` on ``board`` in turn until one decides.

    Parameters
    ----------
    board : Board
        A deal (no moves pushed); every step reads it and leaves it as it was.
    steps : sequence of Step
    name : str
        The plan's method name (the result's ``method``).
    time_limit : float or None
        Seconds for the whole plan.
    seed : int
        Passed to every step.

    Returns
    -------
    SolveResult
        ``stats["decided_by"]`` is the deciding step's label (or ``None``),
        ``stats["steps"]`` lists ``{"step", "status", "seconds", "reason"}`` of every step
        tried, ``stats["inner"]`` the deciding method's own stats, ``stats["seconds_prepare"]``
        and ``stats["cpu_seconds_prepare"]`` the wall and CPU seconds spent preparing steps
        (:func:`mjsat.methods.prepare`, just before each step), which neither the time limit
        nor :attr:`SolveResult.seconds` and :attr:`SolveResult.cpu_seconds` count.

    Raises
    ------
    UnknownMethodError
        A step's method is not registered; a method whose module fails to import raises
        its import error (a broken part is an error, never a skipped step).

    Notes
    -----
    The cost of the steps run.
    """
    from mjsat.methods import check_covers, get_method, prepare, start_run

    todo = [s for s in steps if s.applies(board)]
    start = clock.now()
    prepared = 0.0  # seconds spent preparing steps (loading kernels): not on the plan's clock
    prep_wall = prep_cpu = 0.0  # the same time on both clocks, for solve()'s two figures
    tried: list[dict[str, Any]] = []
    unknown_reasons: list[str] = []

    def left() -> float | None:
        return None if time_limit is None else time_limit - (clock.now() - start - prepared)

    def prepare_step(step: Step, limit: float | None, options: dict[str, Any]) -> None:
        """The step's method prepared for this board (its kernels loaded) off the clock."""
        nonlocal prepared, prep_wall, prep_cpu
        t, wall, cpu = clock.now(), time.perf_counter(), time.process_time()
        try:
            check_covers(step.method, board)
        except MethodNotApplicableError:
            return  # refused in attempt()
        prepare(step.method, options, board, limit)
        prepared += clock.now() - t
        prep_wall += time.perf_counter() - wall
        prep_cpu += time.process_time() - cpu

    def attempt(step: Step, limit: float | None, options: dict[str, Any], run: Any = None) -> SolveResult | None:
        """Run one step (or the next slice of its resumable ``run``); ``None`` when it
        refused the board."""
        t0 = time.perf_counter()
        try:
            check_covers(step.method, board)
            if run is None:
                res: SolveResult = get_method(step.method)(board, time_limit=limit, seed=seed, **options)
            else:
                res = run.advance(limit)
        except (MethodNotApplicableError, SizeLimitError) as exc:  # refused: not covered, or too big for it
            tried.append(
                {"step": step.label, "status": "refused", "seconds": time.perf_counter() - t0, "reason": str(exc)}
            )
            return None
        row = {"step": step.label, "status": res.status, "seconds": time.perf_counter() - t0, "reason": res.reason}
        if step.slice is not None:
            row["slice"] = limit
        tried.append(row)
        if res.status == UNKNOWN:
            unknown_reasons.append(f"{step.label}: {res.reason or 'unknown'}")
        return res

    def decided(step: Step, res: SolveResult) -> SolveResult:
        stats = {
            "decided_by": step.label,
            "steps": tried,
            "inner": res.stats,
            "seconds_prepare": prep_wall,
            "cpu_seconds_prepare": prep_cpu,
        }
        return SolveResult(res.status, name, moves=res.moves, stats=stats, certified=res.certified, reason=res.reason)

    i = 0
    out_of_time = False
    while i < len(todo):
        step = todo[i]
        if step.slice is None:
            rest = left()
            if rest is not None and rest <= 0:
                out_of_time = True
                break
            limit = rest
            options = dict(step.options)
            if i < len(todo) - 1:  # a budgeted step; the last step gets all that is left
                options.update(step.budget)
                if step.seconds is not None:
                    limit = step.seconds if rest is None else max(min(step.seconds, rest * step.share), 1e-3)
            prepare_step(step, limit, options)
            res = attempt(step, limit, options)
            if res is not None and res.status != UNKNOWN:
                return decided(step, res)
            i += 1
            continue
        race = []
        while i < len(todo) and todo[i].slice is not None:
            race.append(todo[i])
            i += 1
        runs: dict[str, Any] = {}
        started: set[str] = set()
        factor = 1.0
        while race and not out_of_time:
            for member in list(race):
                if member.label not in started:  # prepared and started just before its first slice
                    started.add(member.label)
                    prepare_step(member, None, dict(member.options))
                    run = start_run(member.method, board, seed=seed, **member.options)
                    if run is not None:  # a resumable method continues from slice to slice
                        runs[member.label] = run
                rest = left()
                if rest is not None and rest <= 0:
                    out_of_time = True
                    break
                limit = member.slice * factor  # type: ignore[operator]
                run = runs.get(member.label)
                res = attempt(member, limit if rest is None else min(limit, rest), dict(member.options), run)
                if res is None:
                    race.remove(member)
                elif res.status != UNKNOWN:
                    return decided(member, res)
                elif run is not None and res.reason != "time limit":  # a run stopped for good (a node limit)
                    race.remove(member)
            factor *= 2
        if out_of_time:
            break
    if not todo:
        reason = "no step of the plan applies to this board"
    elif out_of_time or (time_limit is not None and left() is not None and left() <= 0):  # type: ignore[operator]
        reason = "time limit"
    else:
        reason = "; ".join(unknown_reasons) or "every step refused the board"
    stats = {"decided_by": None, "steps": tried, "seconds_prepare": prep_wall, "cpu_seconds_prepare": prep_cpu}
    return SolveResult(UNKNOWN, name, stats=stats, reason=reason)


def solve_auto(
    board: Board,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    node_limit: int | None = None,
    search_seconds: float | None = None,
    plan_steps: str | None = None,
) -> SolveResult:
    """Decide ``board`` with the :data:`AUTO` plan (the method ``auto``).

    Parameters
    ----------
    board : Board
        Any board of any game.
    time_limit : float or None
        Seconds for the whole plan; ``unknown`` when every step ran out.
    seed : int
        Passed to every step.
    node_limit : int or None
        Node budget of the budgeted search step (default :data:`DEFAULT_NODE_BUDGET`).
    search_seconds : float or None
        Time budget of the budgeted search step (default :data:`DEFAULT_SEARCH_SECONDS`;
        at most :data:`SEARCH_BUDGET_SHARE` of the time left).
    plan_steps : str or None
        Comma-separated step labels or method names replacing the plan (for
        measurements), e.g. ``"search-budget,sat"``.

    Returns
    -------
    SolveResult
        ``method`` is ``"auto"``; see :func:`run_plan` for ``stats``.

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
    return run_plan(board, steps, name="auto", time_limit=time_limit, seed=seed)


def solve_exact(board: Board, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
    """Decide ``board`` with the :data:`EXACT` plan (the method ``exact``).

    Notes
    -----
    Exponential in the worst case, as every exact method.
    """
    return run_plan(board, EXACT, name="exact", time_limit=time_limit, seed=seed)
