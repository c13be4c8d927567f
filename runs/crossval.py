"""Cross-validation: run every exact method on sets of boards and compare their answers.

The methods are discovered at run time from :data:`mjsat.methods.METHODS` (all but
``auto``, which only repeats the others), so a method registered tomorrow is checked
tomorrow without a change here. A method that takes ``encoding`` or ``solver`` options is
run once per selected encoding and solver; the names are checked
(:func:`mjsat.methods.check_options`) before any board runs. ``ref`` runs only on boards
small enough for it. A method that raises
:class:`~mjsat.result.MethodNotApplicableError` (``height2`` off isolated stacks of height
two, ``sat`` and ``cpsat`` on ``shisen-sho-3d``, the ``order`` encoding above its size, ...)
or a :class:`~mjsat.limits.SizeLimitError` (a board above one of :mod:`mjsat.limits`)
counts as "not applicable" for that board; any other exception is an error of that method. Each column counts the CNFs its
runs solved (``cnfs`` in :meth:`MethodSummary.to_dict`: on Shisen-Sho the ``parity``
encoding hands the board to ``layered``).

Every ``solvable`` answer is replayed by :func:`mjsat.methods.solve`. Two methods that both
decided and answered differently, a wrong solution, or an answer against what the board is
known to be (solvable by construction, a planted blocked cycle, a CNF's satisfiability)
is a *disagreement*: the board is written to a file with every answer.

>>> from mjsat.runs.crossval import random_small_cases, run_crossval, MethodSpec
>>> report = run_crossval(random_small_cases(seed=1, count=5), [MethodSpec("ref", "ref")])
>>> report.disagreements, report.per_method["ref"].decided
([], 5)
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from mjsat.board import Board
from mjsat.boardio import board_to_json
from mjsat.fileio import write_text_atomic
from mjsat.limits import SizeLimitError
from mjsat.result import SOLVABLE, UNSOLVABLE, MethodNotApplicableError, SolverError, SolveResult
from mjsat.runs.boards import (
    BoardCase,
    SeedRange,
    cnf_cases,
    exhaustive_cases,
    folder_cases,
    height2_cases,
    layout_cases,
    random_small_cases,
)
from mjsat.runs.cluster import Runner

__all__ = [
    "CrossvalError",
    "NA",
    "ERROR",
    "DEFAULT_REF_MAX_TILES",
    "MethodSpec",
    "BoardCase",
    "MethodSummary",
    "Disagreement",
    "CrossvalReport",
    "discover_methods",
    "layout_cases",
    "folder_cases",
    "cnf_cases",
    "random_small_cases",
    "exhaustive_cases",
    "height2_cases",
    "run_case",
    "run_crossval",
    "write_disagreement",
]

NA = "n/a"
"""Status recorded when a method does not apply to a board (it raised
:class:`~mjsat.result.MethodNotApplicableError`, or ``ref`` on a board above its size)."""
ERROR = "error"
"""Status recorded when a method broke its contract (a solution that replay rejects, any
exception but :class:`~mjsat.result.MethodNotApplicableError`)."""
DEFAULT_REF_MAX_TILES = 20
"""Largest board the reference solver is run on by default."""


# --------------------------------------------------------------------------- methods


class CrossvalError(ValueError):
    """Cross-validation parameters that cannot work (an encoding list for no SAT method, a
    time limit that is not positive)."""


@dataclasses.dataclass(frozen=True)
class MethodSpec:
    """One column of the comparison: a registered method with fixed options.

    ``label`` names the column (``sat[encoding=order,solver=g4]``); ``method`` is the
    :data:`~mjsat.methods.METHODS` key.
    """

    label: str
    method: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.options)


def discover_methods(
    *,
    only: Sequence[str] | None = None,
    encodings: Sequence[str] | None = None,
    solvers: Sequence[str] | None = None,
    exclude: Sequence[str] = (),
    single_solver: bool = False,
) -> list[MethodSpec]:
    """The methods to compare, from :data:`mjsat.methods.METHODS` (the plans ``auto`` and
    ``exact`` only when named: they repeat the others).

    Parameters
    ----------
    only : sequence of str, optional
        Method names to keep (default: every registered one but ``exclude``).
    encodings, solvers : sequence of str, optional
        Values of the ``encoding`` / ``solver`` options; a method taking the option is run
        once per value. Default: the values of the method's
        :attr:`~mjsat.methods.MethodInfo.axes`.
    exclude : sequence of str
        Never run unless named in ``only``.
    single_solver : bool
        Without ``solvers``: only the first solver of the default list (the encodings
        decide what a CNF says about the board; the solvers only how fast it is refuted).

    Returns
    -------
    list of MethodSpec
        The columns.

    Raises
    ------
    UnknownMethodError
        A name in ``only`` is not registered.
    ImportError
        A method's module fails to import (a broken part is an error, never skipped).
    ValueError
        An encoding or solver name a method refuses (:func:`mjsat.methods.check_options`),
        or ``encodings`` / ``solvers`` given while no method takes them.

    Notes
    -----
    Imports each method's module once: :math:`O(m)` imports for ``m`` methods.
    """
    from mjsat.methods import METHODS, UnknownMethodError, axis_values, check_options, get_method, method_options

    names = [m for m, info in METHODS.items() if m not in exclude and info.plan is None]
    if only:
        unknown = [m for m in only if m not in METHODS]
        if unknown:
            raise UnknownMethodError(f"unknown method {unknown[0]!r} (known: {', '.join(sorted(METHODS))})")
        names = list(dict.fromkeys(only))  # asked for by name: run even if normally excluded
    specs: list[MethodSpec] = []
    given = {"encoding": encodings, "solver": solvers}
    for name in names:
        get_method(name)  # a method that fails to import is an error of the run
        opts = method_options(name)
        axes: list[list[tuple[str, Any]]] = []
        for option, _target in METHODS[name].axes:
            if option not in opts:
                continue
            chosen = given.get(option)
            values = list(chosen) if chosen else axis_values(name, option)
            if option == "solver" and single_solver and not solvers:
                values = values[:1]
            axes.append([(option, v) for v in values])
        if not axes:
            specs.append(MethodSpec(name, name))
            continue
        for combo in itertools.product(*axes):
            label = f"{name}[{','.join(f'{k}={v}' for k, v in combo)}]"
            specs.append(MethodSpec(label, name, tuple(combo)))
    for spec in specs:
        check_options(spec.method, spec.kwargs)
    for option, asked in (("encoding", encodings), ("solver", solvers)):
        if asked and not any(option in dict(spec.options) for spec in specs):
            raise CrossvalError(f"--{option}s {','.join(asked)}: none of the methods run takes an {option} option")
    return specs


# The board sets (BoardCase, layout_cases, ...) live in mjsat.runs.boards, shared with compare and sample.


# --------------------------------------------------------------------------- running


@dataclasses.dataclass
class MethodSummary:
    """Counts and times of one column."""

    label: str
    applied: int = 0
    solvable: int = 0
    unsolvable: int = 0
    unknown: int = 0
    not_applicable: int = 0
    errors: int = 0
    times: list[float] = dataclasses.field(default_factory=list)
    cnfs: dict[str, int] = dataclasses.field(default_factory=dict)
    """Encoding name -> runs that solved a CNF of it (from the answers' ``tried``)."""

    @property
    def decided(self) -> int:
        return self.solvable + self.unsolvable

    def to_dict(self) -> dict[str, Any]:
        t = self.times
        return {
            "method": self.label,
            "applied": self.applied,
            "decided": self.decided,
            "solvable": self.solvable,
            "unsolvable": self.unsolvable,
            "unknown": self.unknown,
            "not_applicable": self.not_applicable,
            "errors": self.errors,
            "median_seconds": statistics.median(t) if t else None,
            "max_seconds": max(t) if t else None,
            "cnfs": dict(self.cnfs),
        }


@dataclasses.dataclass
class Disagreement:
    """A board on which the answers conflict, and every answer given."""

    case: str
    source: str
    answers: dict[str, dict[str, Any]]
    expected: str | None
    why: str
    file: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class CrossvalReport:
    """What :func:`run_crossval` found: per-method summaries, the agreement matrix, and the
    disagreements."""

    methods: list[str]
    per_method: dict[str, MethodSummary]
    both_decided: dict[tuple[str, str], int]
    agreed: dict[tuple[str, str], int]
    disagreements: list[Disagreement]
    boards: int = 0
    per_source: dict[str, int] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "boards": self.boards,
            "per_source": self.per_source,
            "methods": [self.per_method[m].to_dict() for m in self.methods],
            "agreement": [
                {"a": a, "b": b, "both_decided": self.both_decided[(a, b)], "agreed": self.agreed[(a, b)]}
                for a, b in itertools.combinations(self.methods, 2)
            ],
            "disagreements": [d.to_dict() for d in self.disagreements],
            "seconds": round(self.seconds, 3),
        }


def _applicable(spec: MethodSpec, board: Board, ref_max_tiles: int) -> str | None:
    """Why ``spec`` is not run on ``board`` (``None``: run it); every other refusal is
    the method's own :class:`~mjsat.result.MethodNotApplicableError`."""
    if spec.method == "ref" and len(board) > ref_max_tiles:
        return f"more than {ref_max_tiles} tiles"
    return None


def run_case(
    case: BoardCase,
    methods: Sequence[MethodSpec],
    *,
    time_limit: float | None = 10.0,
    ref_max_tiles: int = DEFAULT_REF_MAX_TILES,
    seed: int = 0,
    clock: str = "wall",
) -> dict[str, dict[str, Any]]:
    """Run every applicable method on one board.

    Returns
    -------
    dict
        ``{label: {"status", "seconds", "reason", "moves", "tried"}}``; status :data:`NA`
        when the method does not apply (it raised
        :class:`~mjsat.result.MethodNotApplicableError`, or ``ref`` above
        ``ref_max_tiles``), :data:`ERROR` when it returned a solution that replay rejects
        or raised any other exception. ``tried`` is the method's ``stats["tried"]`` (the
        CNFs a SAT run solved, e.g. ``["layered:3"]``) when it has one.

    Notes
    -----
    The sum of the methods' times (each bounded by ``time_limit``).
    """
    from mjsat.methods import solve

    out: dict[str, dict[str, Any]] = {}
    for spec in methods:
        why = _applicable(spec, case.board, ref_max_tiles)
        if why is not None:
            out[spec.label] = {"status": NA, "seconds": 0.0, "reason": why, "moves": []}
            continue
        start = time.perf_counter()
        try:
            res: SolveResult = solve(
                case.board, spec.method, time_limit=time_limit, clock=clock, seed=seed, **spec.kwargs
            )
        except SolverError as exc:
            out[spec.label] = {"status": ERROR, "seconds": time.perf_counter() - start, "reason": str(exc), "moves": []}
            continue
        except MethodNotApplicableError as exc:  # the method's own "does not apply"
            out[spec.label] = {"status": NA, "seconds": 0.0, "reason": exc.reason, "moves": []}
            continue
        except SizeLimitError as exc:  # too big for this method (a limit of mjsat.limits): not its board
            out[spec.label] = {"status": NA, "seconds": 0.0, "reason": str(exc), "moves": []}
            continue
        except Exception as exc:  # anything else is a failure of that method: report it, keep going
            out[spec.label] = {
                "status": ERROR,
                "seconds": time.perf_counter() - start,
                "reason": f"raised {type(exc).__name__}: {exc}",
                "moves": [],
            }
            continue
        answer: dict[str, Any] = {
            "status": res.status,
            "seconds": res.seconds,
            "reason": res.reason,
            "moves": [list(m) for m in res.moves],
        }
        if isinstance(res.stats.get("tried"), list):
            answer["tried"] = [str(t) for t in res.stats["tried"]]
        out[spec.label] = answer
    return out


def _conflict(answers: dict[str, dict[str, Any]], expected: str | None) -> str | None:
    errors = [m for m, a in answers.items() if a["status"] == ERROR]
    if errors:
        return f"{errors[0]}: {answers[errors[0]].get('reason', '')}"
    decided = {m: a["status"] for m, a in answers.items() if a["status"] in (SOLVABLE, UNSOLVABLE)}
    if len(set(decided.values())) > 1:
        sol = [m for m, s in decided.items() if s == SOLVABLE]
        uns = [m for m, s in decided.items() if s == UNSOLVABLE]
        return f"{', '.join(sol)} say solvable; {', '.join(uns)} say unsolvable"
    if expected is not None and decided and next(iter(decided.values())) != expected:
        return f"the board is known to be {expected}; {', '.join(decided)} say otherwise"
    return None


def write_disagreement(case: BoardCase, answers: dict[str, dict[str, Any]], why: str, folder: str | Path) -> str:
    """Write the board with every answer (in ``meta["crossval"]``) as a board JSON file
    that ``mjsat solve`` reads back; return its path.

    Notes
    -----
    :math:`O(n)`.
    """
    folder = Path(folder)  # made by write_text_atomic when missing
    board = case.board.copy(stack=False)
    board.meta = dict(board.meta)
    board.meta["crossval"] = {
        "case": case.name,
        "source": case.source,
        "expected": case.expected,
        "why": why,
        "answers": answers,
    }
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in case.name)[-80:]
    path = folder / f"disagreement-{safe}.json"
    write_text_atomic(path, board_to_json(board))
    return str(path)


def run_crossval(
    cases: Iterable[BoardCase],
    methods: Sequence[MethodSpec],
    *,
    time_limit: float | None = 10.0,
    ref_max_tiles: int = DEFAULT_REF_MAX_TILES,
    seed: int = 0,
    clock: str = "wall",
    out_dir: str | Path | None = None,
    progress: Callable[[BoardCase], None] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    runner: Runner | None = None,
) -> CrossvalReport:
    """Run ``methods`` on every case; summarise; write each disagreement to ``out_dir``.

    Parameters
    ----------
    cases : iterable of BoardCase
    methods : sequence of MethodSpec
        From :func:`discover_methods`.
    time_limit : float or None
        Seconds per method and board (``unknown`` beyond), of ``clock``.
    clock : {'wall', 'cpu'}
        What the limit counts (:mod:`mjsat.clock`): wall seconds or CPU seconds.
    ref_max_tiles : int
        ``ref`` runs on boards of at most this many tiles.
    seed : int
        Passed to every method.
    out_dir : path, optional
        Where disagreement files go (nothing written when ``None``).
    progress : callable, optional
        Called after each case.
    workers, scheduler : int, str
        Where the cases run (:class:`~mjsat.runs.cluster.Runner`): this process (the
        cases are then made one by one as they run), a local Dask cluster of
        ``workers`` processes, or the cluster of a Dask scheduler. The report is the same
        wherever they ran: the answers are taken in the order of the cases.
    runner : Runner, optional
        An entered runner to use instead of ``workers`` and ``scheduler``.

    Returns
    -------
    CrossvalReport

    Raises
    ------
    ValueError
        A method name or option that cannot work (:func:`mjsat.methods.check_options`),
        or a time limit that is not positive (:class:`CrossvalError`), before any board
        runs.

    Notes
    -----
    :math:`O(B \\cdot m)` method runs for ``B`` boards and ``m`` methods, plus
    :math:`O(B m^2)` for the agreement matrix.
    """
    from mjsat.methods import check_options

    if time_limit is not None and not 0 < time_limit < math.inf:
        raise CrossvalError(f"the time limit must be a positive number of seconds, got {time_limit}")
    for spec in methods:  # names and options, once, before any board runs
        check_options(spec.method, spec.kwargs)
    t0 = time.perf_counter()
    labels = [m.label for m in methods]
    per = {m: MethodSummary(m) for m in labels}
    both = dict.fromkeys(itertools.combinations(labels, 2), 0)
    agreed = dict(both)
    disagreements: list[Disagreement] = []
    per_source: dict[str, int] = {}
    count = 0

    def take(case: BoardCase, answers: dict[str, dict[str, Any]]) -> None:
        nonlocal count
        count += 1
        per_source[case.source] = per_source.get(case.source, 0) + 1
        for label, a in answers.items():
            s = per[label]
            st = a["status"]
            if st == NA:
                s.not_applicable += 1
                continue
            s.applied += 1
            if st == ERROR:
                s.errors += 1
                continue
            s.times.append(float(a["seconds"]))
            for enc in {t.split(":")[0].removesuffix("-weak") for t in a.get("tried", ())}:
                s.cnfs[enc] = s.cnfs.get(enc, 0) + 1
            if st == SOLVABLE:
                s.solvable += 1
            elif st == UNSOLVABLE:
                s.unsolvable += 1
            else:
                s.unknown += 1
        for la, lb in both:
            sa, sb = answers[la]["status"], answers[lb]["status"]
            if sa in (SOLVABLE, UNSOLVABLE) and sb in (SOLVABLE, UNSOLVABLE):
                both[(la, lb)] += 1
                agreed[(la, lb)] += sa == sb
        why = _conflict(answers, case.expected)
        if why is not None:
            d = Disagreement(case.name, case.source, answers, case.expected, why)
            if out_dir is not None:
                d.file = write_disagreement(case, answers, why, out_dir)
            disagreements.append(d)
        if progress is not None:
            progress(case)

    shared = (tuple(methods), time_limit, ref_max_tiles, seed, clock)
    if runner is None and workers == 1 and scheduler is None:
        for case in cases:
            take(
                case,
                run_case(case, methods, time_limit=time_limit, ref_max_tiles=ref_max_tiles, seed=seed, clock=clock),
            )
    elif runner is None:
        with Runner(workers, scheduler, warm=any(m.method == "search" for m in methods)) as own:
            _run_on(own, cases, shared, take)
    else:
        _run_on(runner, cases, shared, take)
    return CrossvalReport(
        labels,
        per,
        both,
        agreed,
        disagreements,
        count,
        per_source,
        time.perf_counter() - t0,
    )


def _case_answers(
    shared: tuple[tuple[MethodSpec, ...], float | None, int, int, str, tuple[SeedRange, ...]], item: tuple[int, Any]
) -> tuple[int, dict[str, dict[str, Any]]]:
    """The answers on one case (a task of :class:`~mjsat.runs.cluster.Runner`); a deal of
    a seed range is made on the worker from the range sent once."""
    methods, time_limit, ref_max_tiles, seed, clock, ranges = shared
    i, case = item
    if isinstance(case, _DealRef):
        case = BoardCase(case.name, ranges[case.deals].board(case.seed), case.source, case.expected)
    return i, run_case(case, methods, time_limit=time_limit, ref_max_tiles=ref_max_tiles, seed=seed, clock=clock)


@dataclasses.dataclass(frozen=True)
class _DealRef:
    """A case that is deal ``seed`` of ``deals``: sent as the seed, its board made where it runs."""

    name: str
    deals: int
    """The index of the seed range in the shared data."""
    seed: int
    source: str
    expected: str | None


def _run_on(
    runner: Runner,
    cases: Iterable[BoardCase],
    shared: tuple[tuple[MethodSpec, ...], float | None, int, int, str],
    take: Callable[[BoardCase, dict[str, dict[str, Any]]], None],
) -> None:
    """Run the cases on ``runner``; hand each case's answers to ``take`` in case order."""
    if not runner.distributed:
        methods, time_limit, ref_max_tiles, seed, clock = shared
        for case in cases:
            take(
                case,
                run_case(case, methods, time_limit=time_limit, ref_max_tiles=ref_max_tiles, seed=seed, clock=clock),
            )
        return
    listed = list(cases)
    items: list[tuple[int, Any]] = []
    ranges: dict[int, tuple[int, SeedRange]] = {}
    for i, case in enumerate(listed):
        ref: Any = case
        if case.deal is not None:
            deals, deal_seed = case.deal
            k = ranges.setdefault(id(deals), (len(ranges), deals))[0]
            ref = _DealRef(case.name, k, deal_seed, case.source, case.expected)
        items.append((i, ref))
    waiting: dict[int, dict[str, dict[str, Any]]] = {}
    nxt = 0
    everything = (*shared, tuple(deals for _, deals in ranges.values()))
    for i, answers in runner.run(_case_answers, everything, items):
        waiting[i] = answers
        while nxt in waiting:
            take(listed[nxt], waiting.pop(nxt))
            nxt += 1
