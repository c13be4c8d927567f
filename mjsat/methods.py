"""The registry of solving methods and :func:`solve`, the one way to run any of them.

A method is a function ``fn(board, *, time_limit, seed, **options) -> SolveResult`` living
in its own part of the toolkit. The registry (:data:`METHODS`) holds a :class:`MethodInfo`
per name: where the function is (imported on first use, so ``mjsat solve --method ref``
never pays for numba or OR-Tools; a part that fails to import is an error), the kinds of
boards it decides, whether it is exhaustive, how its options are checked and which option
values cross-validation runs. The plans that try several methods in turn (``auto``,
``exact``) are data in :mod:`mjsat.plans` and registered here as methods too. Every
``solvable`` answer is replayed here before anyone sees it
(:func:`~mjsat.replay.check_solution`: the moves played by the game's rules on the layout's
tables); an answer that fails replay is a bug and raises :class:`~mjsat.result.SolverError`. A method that does not cover a board
(a game it has no model for, a shape outside its theorem) raises
:class:`~mjsat.result.MethodNotApplicableError`, and nothing else for that; its options
are checked without a board by :func:`check_options` (its :attr:`MethodInfo.check`), so
commands refuse an unknown encoding or solver name before the first board.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from mjsat import clock as clocks
from mjsat.board import KINDS, VARIANTS, Board
from mjsat.replay import InvalidSolutionError, check_solution
from mjsat.result import SOLVABLE, MethodNotApplicableError, SolverError, SolveResult

__all__ = [
    "MethodInfo",
    "METHODS",
    "axis_values",
    "check_covers",
    "UnknownMethodError",
    "MethodOptionError",
    "get_method",
    "method_options",
    "check_options",
    "prepare",
    "start_run",
    "solve",
]


@dataclasses.dataclass(frozen=True)
class MethodInfo:
    """What the method layer knows of a method.

    Attributes
    ----------
    name : str
    target : str
        ``"module:function"`` of the solving function (imported on first use).
    kinds : tuple of str
        The kinds of boards it decides (:attr:`mjsat.board.Board.kind`); on others it
        raises :class:`~mjsat.result.MethodNotApplicableError`. A method may refuse a board
        of its kinds too (``height2`` needs isolated stacks of height at most two).
    exhaustive : bool
        Its ``unsolvable`` is a proof (every method registered here; a heuristic player is
        not a method).
    summary : str
        One line for ``mjsat methods``.
    check : str or None
        ``"module:function"`` of ``check(**options)``, raising a ``ValueError`` subclass for
        options that cannot work (an unknown encoding or solver name), without a board.
    axes : tuple of (str, str)
        Options whose values cross-validation runs one by one: ``(option,
        "module:ATTRIBUTE")`` naming the sequence (or dict) of its values.
    plan : str or None
        The name of the plan of :data:`mjsat.plans.PLANS` the method runs, if it is one.
    prepare : str or None
        ``"module:function"`` of ``prepare(board=None, *, time_limit=None, **options)``, run
        by :func:`solve` before the method's clock starts (a plan prepares the method of
        each step before the step, outside its clock): work done once per process that a
        time limit should not count, such as loading numba kernels; given the board, only
        what a call on that board needs.
    run : str or None
        ``"module:Class"`` of the method's resumable form: ``Class(board, *, seed,
        **options)`` whose ``advance(time_limit)`` returns a :class:`SolveResult` and, after
        an ``unknown`` at the time limit, continues where it stopped when called again
        (:func:`start_run`). The plans' races run such a method in slices that add up
        instead of starting afresh each turn.
    options : str or None
        ``"module:Class"`` of the frozen dataclass of the method's options (the search's
        :class:`mjsat.search.options.SearchOptions`): its fields are the option names.
        ``None``: the keyword-only parameters of the function are.
    """

    name: str
    target: str
    kinds: tuple[str, ...]
    exhaustive: bool
    summary: str
    check: str | None = None
    axes: tuple[tuple[str, str], ...] = ()
    plan: str | None = None
    prepare: str | None = None
    run: str | None = None
    options: str | None = None

    @property
    def games(self) -> tuple[str, ...]:
        """The games (:data:`mjsat.board.GAMES`) of the method's kinds."""
        return tuple(g for g, cls in VARIANTS.items() if cls.kind in self.kinds)


_ALL_KINDS = KINDS

METHODS: dict[str, MethodInfo] = {
    info.name: info
    for info in (
        MethodInfo(
            "auto", "mjsat.plans:solve_auto", _ALL_KINDS, True,
            "the default plan: height2, a budgeted search, sat, then the rest (mjsat.plans.AUTO)",
            check="mjsat.plans:check_auto_options", plan="auto",
        ),
        MethodInfo(
            "exact", "mjsat.plans:solve_exact", _ALL_KINDS, True,
            "the plan for reduction boards: sat acyclic, a short search first on Shisen-Sho (mjsat.plans.EXACT)",
            plan="exact",
        ),
        MethodInfo("ref", "mjsat.ref:solve_ref", _ALL_KINDS, True, "exhaustive search with memoised positions (small boards)"),
        MethodInfo(
            "search", "mjsat.search.solver:solve_search", _ALL_KINDS, True,
            "the pairing-set search (numba), with playouts and pruning scans",
            check="mjsat.search.options:check_search_options", prepare="mjsat.search.solver:prepare_search",
            run="mjsat.search.solver:SearchRun", options="mjsat.search.options:SearchOptions",
        ),
        MethodInfo(
            "height2", "mjsat.search.height2:solve_height2", ("sides",), True,
            "polynomial, for isolated stacks of height at most two (de Bondt, Theorem 7)",
        ),
        MethodInfo(
            "sat", "mjsat.encoders.sat:solve_sat", ("sides", "grid-path", "cell-path"), True,
            "a SAT encoding (python-sat) decoded into moves",
            check="mjsat.encoders.sat:check_sat_options",
            axes=(("encoding", "mjsat.encoders.sat:ENCODINGS"), ("solver", "mjsat.encoders.sat:SOLVERS")),
        ),
        MethodInfo(
            "cpsat", "mjsat.encoders.cpsat:solve_cpsat", ("sides", "grid-path", "cell-path"), True,
            "a CP-SAT model (OR-Tools) with a removal step per tile",
            check="mjsat.encoders.cpsat:check_cpsat_options",
        ),
    )
}  # fmt: skip
"""The registered methods by name. Each part's method has one entry here."""


def _resolve(target: str) -> Any:
    """The object ``"module:attribute"`` names (the module is imported on first use; later
    calls read it from ``sys.modules`` without the import machinery)."""
    module, _, attr = target.partition(":")
    mod = sys.modules.get(module)
    if mod is None:
        mod = importlib.import_module(module)
    return getattr(mod, attr)


class UnknownMethodError(ValueError):
    """A method name that is not registered in :data:`METHODS`."""


class MethodOptionError(ValueError):
    """An option a method does not take."""


def get_method(name: str) -> Callable[..., SolveResult]:
    """The solving function registered under ``name``.

    Raises
    ------
    UnknownMethodError
        ``name`` is not registered.
    """
    return _resolve(_info(name).target)


def _info(name: str) -> MethodInfo:
    try:
        return METHODS[name]
    except (KeyError, TypeError):
        raise UnknownMethodError(f"unknown method {name!r} (known: {', '.join(sorted(METHODS))})") from None


def check_covers(name: str, board: Board) -> None:
    """Raise :class:`~mjsat.result.MethodNotApplicableError` when the method ``name`` does not
    decide boards of ``board``'s kind (:attr:`MethodInfo.kinds`)."""
    info = METHODS[name]
    if board.kind not in info.kinds:
        raise MethodNotApplicableError(
            name, board.game, f"no model of {board.game} boards (it covers {', '.join(info.games)})"
        )


def axis_values(name: str, option: str) -> list[str]:
    """The values of a method's option that cross-validation runs (its :attr:`MethodInfo.axes`)."""
    target = dict(METHODS[name].axes)[option]
    return [str(v) for v in _resolve(target)]


def _check_time_limit(time_limit: Any) -> None:
    """Refuse a time limit that is not a positive, finite number of seconds (``nan``,
    ``inf``, ``0``, text)."""
    if time_limit is None:
        return
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 < time_limit < math.inf:
        raise ValueError(f"time limit must be positive, a finite number of seconds, got {time_limit!r}")


def check_options(
    method: str, options: dict[str, Any] | None = None, *, time_limit: float | None = None
) -> dict[str, Any]:
    """Check a method name and its options once, before any board is solved.

    Parameters
    ----------
    method : str
        A key of :data:`METHODS`.
    options : dict, optional
        The options as :func:`solve` takes them; ``None`` values stand for the defaults.
    time_limit : float or None
        The time limit the boards will be solved with: passed to a check that takes one
        (an option that cannot work under a limit, such as a SAT solver that cannot stop).

    Returns
    -------
    dict
        ``options`` without the ``None`` values.

    Raises
    ------
    UnknownMethodError
        ``method`` is not registered.
    MethodOptionError
        An option the method does not take.
    ValueError
        A subclass raised by the method's :attr:`MethodInfo.check` (an unknown
        encoding or solver name, ...), or a time limit that is not a positive, finite
        number of seconds.

    Notes
    -----
    Imports the method's module; then :math:`O(k)` for ``k`` options plus the check.
    """
    _check_time_limit(time_limit)
    fn = get_method(method)
    given = {k: v for k, v in options.items() if v is not None} if options else {}
    accepted = _accepted(method, fn) if given else frozenset()
    extra = sorted(set(given) - accepted)
    if extra:
        raise MethodOptionError(
            f"method {method!r} takes no option {extra[0]!r}"
            + (f" (it takes: {', '.join(sorted(accepted))})" if accepted else "")
        )
    target = METHODS[method].check
    if target is not None:
        check = _resolve(target)
        if time_limit is not None and "time_limit" in inspect.signature(check).parameters:
            check(**given, time_limit=time_limit)
        else:
            check(**given)
    return given


def prepare(
    method: str,
    options: dict[str, Any] | None = None,
    board: Board | None = None,
    time_limit: float | None = None,
) -> None:
    """Run the :attr:`MethodInfo.prepare` of ``method`` for ``board`` (without a board: for
    any board; for a plan without a board: each step's).

    A plan given a board prepares nothing here: its runner (:func:`mjsat.plans.run_plan`)
    prepares each step just before the step runs, outside the plan's clock, so that a call
    loads only what the steps it reaches need.

    Notes
    -----
    Once per process in practice: a prepare function returns at once when it has nothing
    left to do.
    """
    info = METHODS[method]
    if info.plan is not None:
        if board is None:
            for target, step_options in _plan_prepares(info.plan):
                _resolve(target)(**step_options)
        return
    if info.prepare is not None:
        if board is None:
            _resolve(info.prepare)(**(options or {}))
        else:
            _resolve(info.prepare)(board, time_limit=time_limit, **(options or {}))


@functools.cache
def _plan_prepares(plan: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The distinct ``(prepare target, options)`` of the plan's steps, in order."""
    from mjsat.plans import PLANS

    done: list[tuple[str, dict[str, Any]]] = []
    for step in PLANS[plan]:
        sub = METHODS[step.method]
        if sub.plan is None and sub.prepare is not None and (sub.prepare, step.options) not in done:
            done.append((sub.prepare, dict(step.options)))
    return tuple(done)


def start_run(name: str, board: Board, *, seed: int = 0, **options: Any) -> Any | None:
    """The resumable run of the method ``name`` on ``board`` (:attr:`MethodInfo.run`), or
    ``None`` when the method has none.

    The caller replays what the run claims, as :func:`solve` does (a plan's runner returns
    its result to :func:`solve`).

    Raises
    ------
    UnknownMethodError
        ``name`` is not registered.
    """
    target = _info(name).run
    if target is None:
        return None
    return _resolve(target)(board, seed=seed, **options)


def method_options(name: str) -> frozenset[str]:
    """Names of the keyword options a method accepts beyond ``time_limit`` and ``seed``
    (the fields of its :attr:`MethodInfo.options`, else its keyword-only parameters)."""
    return _accepted(name, get_method(name))


def _accepted(name: str, fn: Callable[..., Any]) -> frozenset[str]:
    target = METHODS[name].options
    if target is not None:
        return frozenset(f.name for f in dataclasses.fields(_resolve(target)))
    return _options_of(fn)


@functools.cache
def _options_of(fn: Callable[..., Any]) -> frozenset[str]:
    sig = inspect.signature(fn)
    return frozenset(
        p.name
        for p in sig.parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name not in ("time_limit", "seed")
    )


_PLAIN_CHECKED: set[str] = set()
"""The methods whose check (:func:`check_options`) passed without options: :func:`solve`
runs it once per process for them."""


def solve(
    board: Board,
    method: str = "auto",
    *,
    time_limit: float | None = None,
    clock: str = "wall",
    seed: int = 0,
    **options: Any,
) -> SolveResult:
    """Decide ``board`` with ``method`` and return a verified :class:`SolveResult`.

    Parameters
    ----------
    board : Board
        Solved from its full deal (moves already pushed are ignored). Methods read it and
        leave it as they found it (checked: a method that changes it is a bug).
    method : str
        A key of :data:`METHODS` (default ``auto``, the portfolio).
    time_limit : float or None
        Seconds of ``clock``; the method answers ``unknown`` when it runs out. The
        method's :attr:`MethodInfo.prepare` runs first and is not counted (numba kernels
        on a cold cache are compiled first, and said so).
    clock : {'wall', 'cpu'}
        What ``time_limit`` counts (:mod:`mjsat.clock`): wall seconds, or this process's
        CPU seconds. The result has both times: ``seconds`` (wall) and ``cpu_seconds``.
    seed : int
        Seed of every random choice the method makes.
    **options
        Method-specific options; ``None`` values are dropped, unknown ones raise.

    Raises
    ------
    ValueError
        Unknown method, unknown clock, or options that cannot work (:func:`check_options`).
    MethodNotApplicableError
        The method does not cover this board (another method may).
    SolverError
        The method claimed a solution that replay rejects.
    """
    fn = get_method(method)
    if options or method not in _PLAIN_CHECKED:
        options = check_options(method, options)
        if not options:
            _PLAIN_CHECKED.add(method)
    check_covers(method, board)
    _check_time_limit(time_limit)
    prepare(method, options, board, time_limit)
    deal = board.copy(stack=False) if board.remaining() != len(board) else board
    before = deal.position_key()
    with clocks.using(clock):
        start, cpu = time.perf_counter(), time.process_time()
        result = fn(deal, time_limit=time_limit, seed=seed, **options)
        # a plan loads each step's kernels on the way: neither figure counts that
        prep_wall = float(result.stats.get("seconds_prepare", 0.0))
        prep_cpu = float(result.stats.get("cpu_seconds_prepare", 0.0))
        result.seconds = time.perf_counter() - start - prep_wall
        result.cpu_seconds = time.process_time() - cpu - prep_cpu
    result.clock = clock
    if deal.remaining() != len(deal) or deal.position_key() != before:
        raise SolverError(f"method {method!r} changed the board it was given (moves {deal.move_stack[:3]}...)")
    if result.status == SOLVABLE:
        try:
            check_solution(board, result.moves)
        except InvalidSolutionError as exc:
            raise SolverError(f"method {result.method!r} returned a wrong solution: {exc}") from exc
        result.verified = True
    return result
