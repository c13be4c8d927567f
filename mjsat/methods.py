"""The registry of solving methods and :func:`solve`, the one way to run any of them.

A method is a function ``fn(board, *, time_limit, seed, **options) -> SolveResult`` living
in its own part of the toolkit. The registry maps a name to ``"module:function"`` and
imports lazily, so ``mjsat solve --method ref`` never pays for numba or OR-Tools. Every
``solvable`` answer is replayed here before anyone sees it; an answer that fails replay is
a bug and raises :class:`~mjsat.result.SolverError`. A method that does not cover a board
(a game it has no model for, a shape outside its theorem) raises
:class:`~mjsat.result.MethodNotApplicableError`, and nothing else for that; its options
are checked without a board by :func:`check_options` (its entry in
:data:`OPTION_CHECKS`), so commands refuse an unknown encoding or solver name before the
first board.
"""

from __future__ import annotations

import importlib
import inspect
import time
from collections.abc import Callable
from typing import Any

from mjsat.board import Board
from mjsat.replay import InvalidSolutionError, replay
from mjsat.result import SOLVABLE, SolveResult, SolverError

__all__ = [
    "METHODS",
    "OPTION_CHECKS",
    "UnknownMethodError",
    "MethodOptionError",
    "get_method",
    "method_options",
    "check_options",
    "solve",
]

METHODS: dict[str, str] = {
    "ref": "mjsat.ref:solve_ref",
    "sat": "mjsat.encoders.sat:solve_sat",
    "cpsat": "mjsat.encoders.cpsat:solve_cpsat",
    "search": "mjsat.search.solver:solve_search",
    "height2": "mjsat.search.height2:solve_height2",
    "auto": "mjsat.search.portfolio:solve_auto",
}
"""Method name -> ``module:function``. Each part adds its own entry here."""

OPTION_CHECKS: dict[str, str] = {
    "sat": "mjsat.encoders.sat:check_sat_options",
    "cpsat": "mjsat.encoders.cpsat:check_cpsat_options",
    "search": "mjsat.search.solver:check_search_options",
    "auto": "mjsat.search.portfolio:check_auto_options",
}
"""Method name -> ``module:function`` of a function ``check(**options)`` that raises a
``ValueError`` subclass for options that cannot work (an unknown encoding or solver
name, a negative count), without a board. A method without an entry has only its option
names checked. Each part adds its own entry here."""


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
    try:
        target = METHODS[name]
    except (KeyError, TypeError):
        raise UnknownMethodError(f"unknown method {name!r} (known: {', '.join(sorted(METHODS))})") from None
    module, _, func = target.partition(":")
    return getattr(importlib.import_module(module), func)


def check_options(method: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Check a method name and its options once, before any board is solved.

    Parameters
    ----------
    method : str
        A key of :data:`METHODS`.
    options : dict, optional
        The options as :func:`solve` takes them; ``None`` values stand for the defaults.

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
        A subclass raised by the method's entry of :data:`OPTION_CHECKS` (an unknown
        encoding or solver name, ...).

    Notes
    -----
    Imports the method's module; then :math:`O(k)` for ``k`` options plus the check.
    """
    get_method(method)
    given = {k: v for k, v in (options or {}).items() if v is not None}
    accepted = method_options(method)
    extra = sorted(set(given) - accepted)
    if extra:
        raise MethodOptionError(
            f"method {method!r} takes no option {extra[0]!r}"
            + (f" (it takes: {', '.join(sorted(accepted))})" if accepted else "")
        )
    target = OPTION_CHECKS.get(method)
    if target is not None:
        module, _, func = target.partition(":")
        getattr(importlib.import_module(module), func)(**given)
    return given


def method_options(name: str) -> set[str]:
    """Names of the keyword options a method accepts beyond ``time_limit`` and ``seed``."""
    sig = inspect.signature(get_method(name))
    return {
        p.name
        for p in sig.parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name not in ("time_limit", "seed")
    }


def solve(
    board: Board,
    method: str = "auto",
    *,
    time_limit: float | None = None,
    seed: int = 0,
    **options: Any,
) -> SolveResult:
    """Decide ``board`` with ``method`` and return a verified :class:`SolveResult`.

    Parameters
    ----------
    board : Board
        Solved from its full deal (moves already pushed are ignored).
    method : str
        A key of :data:`METHODS` (default ``auto``, the portfolio).
    time_limit : float or None
        Seconds; the method answers ``unknown`` when it runs out.
    seed : int
        Seed of every random choice the method makes.
    **options
        Method-specific options; ``None`` values are dropped, unknown ones raise.

    Raises
    ------
    ValueError
        Unknown method, or options that cannot work (:func:`check_options`).
    MethodNotApplicableError
        The method does not cover this board (another method may).
    SolverError
        The method claimed a solution that replay rejects.
    """
    fn = get_method(method)
    options = check_options(method, options)
    if time_limit is not None and time_limit <= 0:
        raise ValueError(f"time limit must be positive, got {time_limit}")
    start = time.perf_counter()
    result = fn(board.copy(stack=False), time_limit=time_limit, seed=seed, **options)
    result.seconds = time.perf_counter() - start
    if result.status == SOLVABLE:
        try:
            replay(board, result.moves)
        except InvalidSolutionError as exc:
            raise SolverError(f"method {result.method!r} returned a wrong solution: {exc}") from exc
        result.verified = True
    return result
