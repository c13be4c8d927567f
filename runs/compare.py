"""Comparison of methods the way SAT competitions report solvers: one row per board and
method, CPU times, PAR-2, the virtual best method, cactus and scatter plots.

The methods are entries of :data:`mjsat.methods.METHODS` with fixed options, written as
``name[:key=value]...`` (:func:`parse_methods`): ``search``, ``sat:encoding=acyclic``,
``sat:encoding=parity:solver=cadical195``, ``cpsat``; a value ``*`` runs every value of
that option (``sat:encoding=*``). The boards come from :mod:`mjsat.runs.boards` (seeded
deals, board files, the reductions' boards of CNF files and formula families, the
generated sets).

The results file (JSON lines) starts with a header::

    {"format": "mjsat-compare", "version": 1, "time_limit": 10.0, "clock": "cpu", "seed": 0}

then holds one row per board and method, appended as soon as a board's methods have run::

    {"board": "turtle:3", "source": "layout turtle", "provenance": {"layout": "turtle", "seed": 3, ...},
     "game": "mahjong", "tiles": 144, "expected": null, "method": "sat:encoding=acyclic",
     "status": "solvable", "cpu_seconds": 0.08, "wall_seconds": 0.09, "peak_rss_mb": 212.4,
     "peak_extra_mb": 3.1, "nodes": 0, "conflicts": 12, "clauses": 11825, "variables": 2952,
     "verified": true, "reason": ""}

``cpu_seconds`` is this process's CPU time in the method (:func:`mjsat.methods.solve`,
without the replay that checks a solution), ``wall_seconds`` its wall time. ``peak_rss_mb``
is the process's peak resident memory during the method: the kernel's high-water mark
(``VmHWM``) is reset (``/proc/self/clear_refs``) before the method and read after it, so it
counts the memory of the SAT and CP-SAT libraries too; ``peak_extra_mb`` is that peak less
the resident memory before the method. Where ``/proc`` cannot be reset the figures are the
growth of ``getrusage``'s ``ru_maxrss`` (0 when the method stayed below an earlier peak);
the header's ``memory`` names which. A board of a reduction also carries its formula's
size and MiniSat's time on the formula itself (``minisat_cpu_seconds``, python-sat's
Minisat22 under the same limit).

A run on an existing file skips the (board, method) pairs it holds and must have the
header's time limit, clock and seed; a run with more methods adds their rows. One run
writes a file at a time (:func:`mjsat.fileio.exclusive_lock`).

>>> specs = parse_methods("search,sat:encoding=acyclic")
>>> [(s.label, s.method, s.kwargs) for s in specs]
[('search', 'search', {}), ('sat:encoding=acyclic', 'sat', {'encoding': 'acyclic'})]
>>> rows = [{"board": "b", "method": "m", "status": "solvable", "cpu_seconds": 1.0, "wall_seconds": 1.0},
...         {"board": "c", "method": "m", "status": "unknown", "cpu_seconds": 10.0, "wall_seconds": 10.0}]
>>> summarize(rows, time_limit=10.0)["methods"][0]["par2"]
10.5
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import io
import itertools
import json
import math
import os
import resource
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from mjsat.fileio import (
    InputFileError,
    OutputFileError,
    exclusive_lock,
    read_json_lines,
    write_text_atomic,
)
from mjsat.limits import SizeLimitError
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, MethodNotApplicableError, SolverError
from mjsat.runs.boards import BoardCase, SeedRange
from mjsat.runs.cluster import Runner
from mjsat.runs.crossval import ERROR, NA, MethodSpec, _conflict, write_disagreement

__all__ = [
    "FORMAT",
    "VERSION",
    "CompareError",
    "CompareHeader",
    "parse_methods",
    "measure",
    "minisat_time",
    "read_results",
    "compare",
    "summarize",
    "disagreements",
    "write_csv",
    "cactus_figure",
    "scatter_figure",
    "scaling_figure",
    "write_plots",
]

FORMAT = "mjsat-compare"
"""The ``format`` of a results file's header line."""
VERSION = 1
"""The header's ``version``."""
DECIDED = (SOLVABLE, UNSOLVABLE)
STATUSES = (SOLVABLE, UNSOLVABLE, UNKNOWN, NA, ERROR)
"""What a row's ``status`` may be."""


class CompareError(ValueError):
    """A comparison that cannot run: a bad method list, a results file of other arguments
    or in use by another run."""


# --------------------------------------------------------------------------- methods


def _entry_options(entry: str) -> tuple[str, list[tuple[str, list[Any]]]]:
    from mjsat.cli import parse_key_values

    name, *parts = [p.strip() for p in entry.split(":")]
    if not name:
        raise CompareError(f"method entry {entry!r} has no method name")
    options: list[tuple[str, list[Any]]] = []
    for part in parts:
        if "=" not in part:
            raise CompareError(f"method entry {entry!r}: {part!r} is not KEY=VALUE")
        key, _, value = part.partition("=")
        if value.strip() == "*":
            from mjsat.methods import METHODS, axis_values

            if name not in METHODS or key.strip() not in dict(METHODS[name].axes):
                raise CompareError(f"method entry {entry!r}: {key.strip()}=* names no list of values")
            options.append((key.strip(), list(axis_values(name, key.strip()))))
        else:
            options.extend((k, [v]) for k, v in parse_key_values([part]).items())
    return name, options


def parse_methods(text: str | Sequence[str]) -> list[MethodSpec]:
    """The methods of ``--methods``: comma-separated entries ``name[:key=value]...``.

    Each entry's name and options are checked (:func:`mjsat.methods.check_options`) before
    any board runs; ``key=*`` runs every value of an option cross-validation knows the
    values of (``encoding``, ``solver``).

    Raises
    ------
    CompareError
        An entry that is not ``name[:key=value]...``, or a method given twice.
    UnknownMethodError, MethodOptionError, ValueError
        An unknown method, option, encoding or solver name.
    """
    from mjsat.methods import check_options

    entries = [text] if isinstance(text, str) else list(text)
    specs: list[MethodSpec] = []
    for entry in (e.strip() for item in entries for e in item.split(",")):
        if not entry:
            continue
        name, options = _entry_options(entry)
        for combo in itertools.product(*[[(k, v) for v in values] for k, values in options]):
            kwargs = dict(combo)
            check_options(name, kwargs)
            label = ":".join([name, *(f"{k}={v}" for k, v in combo)])
            specs.append(MethodSpec(label, name, tuple(combo)))
    if not specs:
        raise CompareError("no method to run")
    seen: set[str] = set()
    for spec in specs:
        if spec.label in seen:
            raise CompareError(f"method {spec.label!r} given twice")
        seen.add(spec.label)
    return specs


# --------------------------------------------------------------------------- one board


def _proc_memory() -> dict[str, float] | None:
    """``{"VmRSS": MB, "VmHWM": MB}`` of this process (``None`` without ``/proc``)."""
    try:
        text = Path("/proc/self/status").read_text()
    except OSError:
        return None
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024.0
    return out if len(out) == 2 else None


def _reset_peak() -> bool:
    """Reset the kernel's peak-RSS mark of this process to its current RSS."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


MEMORY = "vmhwm" if _proc_memory() is not None and _reset_peak() else "maxrss"
"""How this process measures peak memory: ``vmhwm`` (the reset high-water mark of
``/proc``) or ``maxrss`` (the growth of ``getrusage``'s ``ru_maxrss``)."""


@contextlib.contextmanager
def _peak_memory(into: dict[str, Any]) -> Iterator[None]:
    if MEMORY == "vmhwm":
        _reset_peak()
        before = _proc_memory() or {"VmRSS": 0.0}
        try:
            yield
        finally:
            after = _proc_memory() or {"VmHWM": 0.0}
            into["peak_rss_mb"] = round(after["VmHWM"], 1)
            into["peak_extra_mb"] = round(max(0.0, after["VmHWM"] - before["VmRSS"]), 1)
        return
    before_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        yield
    finally:
        after_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        into["peak_rss_mb"] = round(after_kb / 1024.0, 1)
        into["peak_extra_mb"] = round((after_kb - before_kb) / 1024.0, 1)


def measure(
    board: Any, spec: MethodSpec, *, time_limit: float, clock: str = "cpu", seed: int = 0, ref_max_tiles: int = 20
) -> dict[str, Any]:
    """Run one method on one board: the method's part of a row.

    Returns
    -------
    dict
        ``status`` (``solvable``, ``unsolvable``, ``unknown``, ``n/a`` when the method does
        not apply, ``error`` when it raised or gave a solution replay rejects),
        ``cpu_seconds``, ``wall_seconds``, ``peak_rss_mb``, ``peak_extra_mb``, ``nodes``,
        ``conflicts``, ``clauses``, ``variables``, ``verified``, ``reason``.
    """
    from mjsat.methods import solve

    row: dict[str, Any] = {"status": NA, "cpu_seconds": 0.0, "wall_seconds": 0.0, "peak_rss_mb": 0.0}
    row["peak_extra_mb"] = 0.0
    if spec.method == "ref" and len(board) > ref_max_tiles:
        return {**row, "reason": f"more than {ref_max_tiles} tiles"}
    w0, c0 = time.perf_counter(), time.process_time()
    try:
        with _peak_memory(row):
            res = solve(board, spec.method, time_limit=time_limit, clock=clock, seed=seed, **spec.kwargs)
    except (MethodNotApplicableError, SizeLimitError) as exc:
        return {**row, "reason": getattr(exc, "reason", str(exc))}
    except SolverError as exc:
        return {**row, "status": ERROR, "reason": str(exc)}
    except Exception as exc:  # a failure of that method: recorded, the run goes on
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        return {**row, "status": ERROR, "cpu_seconds": cpu, "wall_seconds": wall, "reason": f"raised {exc!r}"}
    st = res.stats
    row.update(
        status=res.status,
        cpu_seconds=round(res.cpu_seconds, 6),
        wall_seconds=round(res.seconds, 6),
        nodes=int(st.get("nodes", 0) or 0),
        conflicts=int(st.get("conflicts", 0) or 0),
        clauses=int(st.get("clauses", st.get("constraints", 0)) or 0),
        variables=int(st.get("variables", 0) or 0),
        verified=bool(res.verified),
        reason=res.reason,
    )
    return row


def minisat_time(
    formula: tuple[Sequence[Sequence[int]], int], *, time_limit: float, clock: str = "cpu"
) -> dict[str, Any]:
    """MiniSat (python-sat's Minisat22) on a formula itself: ``{"minisat_status",
    "minisat_cpu_seconds"}`` under the same limit and clock as the methods."""
    from mjsat import clock as clocks
    from mjsat.encoders.solvers import run_solver

    clauses, _ = formula
    c0 = time.process_time()
    with clocks.using(clock):
        sat, _, _ = run_solver([list(c) for c in clauses], solver="minisat22", time_limit=time_limit)
    status = UNKNOWN if sat is None else SOLVABLE if sat else UNSOLVABLE
    return {"minisat_status": status, "minisat_cpu_seconds": round(time.process_time() - c0, 6)}


@dataclasses.dataclass(frozen=True)
class _Task:
    """One board's work: the case (or the seed of a seed range sent once) and the
    methods still to run on it."""

    index: int
    case: Any
    labels: tuple[str, ...]
    minisat: bool


@dataclasses.dataclass(frozen=True)
class _DealRef:
    name: str
    deals: int
    seed: int
    source: str
    expected: str | None
    provenance: dict[str, Any]


def _case_of(task_case: Any, ranges: Sequence[SeedRange]) -> BoardCase:
    if isinstance(task_case, _DealRef):
        board = ranges[task_case.deals].board(task_case.seed)
        return BoardCase(task_case.name, board, task_case.source, task_case.expected, provenance=task_case.provenance)
    return task_case


def _board_rows(
    shared: tuple[tuple[MethodSpec, ...], float, str, int, int, tuple[SeedRange, ...]], task: _Task
) -> tuple[int, list[dict[str, Any]]]:
    """The rows of one board (a task of :class:`~mjsat.runs.cluster.Runner`)."""
    specs, time_limit, clock, seed, ref_max_tiles, ranges = shared
    case = _case_of(task.case, ranges)
    board = case.board
    head = {
        "board": case.name,
        "source": case.source,
        "provenance": case.provenance,
        "game": board.game,
        "tiles": len(board),
        "expected": case.expected,
    }
    if task.minisat and case.formula is not None:
        head.update(minisat_time(case.formula, time_limit=time_limit, clock=clock))
    rows = []
    for spec in specs:
        if spec.label in task.labels:
            row = measure(board, spec, time_limit=time_limit, clock=clock, seed=seed, ref_max_tiles=ref_max_tiles)
            rows.append({**head, "method": spec.label, **row})
    return task.index, rows


# --------------------------------------------------------------------------- the results file


@dataclasses.dataclass(frozen=True)
class CompareHeader:
    """What every row of a results file shares: the limit, its clock, the methods' seed."""

    time_limit: float
    clock: str
    seed: int
    memory: str = MEMORY

    COMPARED = (("time_limit", "--time-limit/--cpu-limit"), ("clock", "the clock (--cpu-limit)"), ("seed", "--seed"))

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": VERSION, **dataclasses.asdict(self)})

    def differs(self, other: CompareHeader) -> tuple[str, Any, Any] | None:
        for field, argument in self.COMPARED:
            mine, theirs = getattr(self, field), getattr(other, field)
            if mine != theirs:
                return argument, mine, theirs
        return None


def _row_problem(row: Any) -> str | None:
    if not isinstance(row, dict):
        return "expected a JSON object"
    for key in ("board", "method"):
        if not isinstance(row.get(key), str):
            return f"a row needs its {key!r} as text"
    if row.get("status") not in STATUSES:
        return f"'status' must be one of {', '.join(STATUSES)}, got {str(row.get('status'))[:40]!r}"
    for key in ("cpu_seconds", "wall_seconds"):
        v = row.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < math.inf:
            return f"{key!r} must be a non-negative number, got {str(v)[:40]!r}"
    return None


def read_results(
    path: str | os.PathLike[str], *, repair: bool = False
) -> tuple[CompareHeader | None, list[dict[str, Any]]]:
    """The header and rows of a results file (``(None, [])`` when it does not exist).

    A last line without its newline (a run killed while writing) is dropped, and with
    ``repair`` cut from the file. A later row of a (board, method) pair replaces an
    earlier one.

    Raises
    ------
    InputFileError
        The file cannot be read, a line is not a row, or the header is missing or of
        another version.
    """
    p = Path(path)
    header: CompareHeader | None = None
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for i, obj in read_json_lines(p, repair=repair):
        if header is None:
            if not isinstance(obj, dict) or obj.get("format") != FORMAT:
                raise InputFileError(p, i, f"not an {FORMAT} results file (its first line is no {FORMAT} header)")
            if obj.get("version") != VERSION:
                raise InputFileError(p, i, f"{FORMAT} version {obj.get('version')!r} is not supported")
            try:
                header = CompareHeader(
                    float(obj["time_limit"]), str(obj["clock"]), int(obj["seed"]), str(obj["memory"])
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise InputFileError(p, i, f"the header lacks or garbles {exc}") from None
            continue
        problem = _row_problem(obj)
        if problem is not None:
            raise InputFileError(p, i, problem)
        rows[(obj["board"], obj["method"])] = obj
    if header is None and rows:
        raise InputFileError(p, 1, f"no {FORMAT} header")
    return header, list(rows.values())


@contextlib.contextmanager
def _appending(out: str | os.PathLike[str], header: CompareHeader, fresh: bool) -> Iterator[Any]:
    """The results file open for appending (under the header when ``fresh``)."""
    target = Path(out)
    try:
        if fresh:
            write_text_atomic(target, header.to_json() + "\n")
        fh = open(target, "a", encoding="utf-8")
    except OSError as exc:
        raise OutputFileError(out, f"cannot write: {exc.strerror or exc}") from None
    with fh:
        yield fh


def compare(
    cases: Iterable[BoardCase],
    specs: Sequence[MethodSpec],
    out: str | os.PathLike[str],
    *,
    time_limit: float,
    clock: str = "cpu",
    seed: int = 0,
    ref_max_tiles: int = 20,
    runner: Runner | None = None,
    out_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[list[dict[str, Any]]], None] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Run every method on every board; append the rows to ``out``.

    Returns
    -------
    rows : list of dict
        The rows of these boards and methods, from the file and from this run, in board
        order then method order.
    disagreements : list of dict
        ``{"board", "why", "file"}`` per board on which two methods (or a method and what
        the board is known to be) disagree, or a method failed; the board is written to
        ``out_dir`` with every answer (:func:`mjsat.runs.crossval.write_disagreement`).

    Raises
    ------
    CompareError
        The file was made with another limit, clock or seed.
    FileInUseError
        Another run writes the file (:func:`mjsat.fileio.exclusive_lock`).
    InputFileError
        The file is not a results file.
    """
    if not 0 < time_limit < math.inf:
        raise CompareError(f"the time limit must be a positive number of seconds, got {time_limit}")
    with exclusive_lock(out):  # one run writes a results file at a time
        return _compare(cases, specs, out, time_limit, clock, seed, ref_max_tiles, runner, out_dir, progress)


def _compare(
    cases: Iterable[BoardCase],
    specs: Sequence[MethodSpec],
    out: str | os.PathLike[str],
    time_limit: float,
    clock: str,
    seed: int,
    ref_max_tiles: int,
    runner: Runner | None,
    out_dir: str | os.PathLike[str] | None,
    progress: Callable[[list[dict[str, Any]]], None] | None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    header = CompareHeader(float(time_limit), clock, int(seed))
    old_header, old_rows = read_results(out, repair=True)
    if old_header is not None:
        diff = old_header.differs(header)
        if diff is not None:
            arg, theirs, mine = diff
            raise CompareError(f"{out} was made with {arg} {theirs!r}, not {mine!r}: use another --out")
    done: dict[tuple[str, str], dict[str, Any]] = {(r["board"], r["method"]): r for r in old_rows}
    labels = [s.label for s in specs]
    listed = list(cases)
    ranges: dict[int, tuple[int, SeedRange]] = {}
    tasks: list[_Task] = []
    for i, case in enumerate(listed):
        todo = tuple(lb for lb in labels if (case.name, lb) not in done)
        if not todo:
            continue
        ref: Any = case
        if case.deal is not None:
            deals, deal_seed = case.deal
            k = ranges.setdefault(id(deals), (len(ranges), deals))[0]
            ref = _DealRef(case.name, k, deal_seed, case.source, case.expected, case.provenance)
        had_minisat = any("minisat_cpu_seconds" in done[(case.name, lb)] for lb in labels if (case.name, lb) in done)
        tasks.append(_Task(i, ref, todo, case.formula is not None and not had_minisat))
    shared = (
        tuple(specs),
        float(time_limit),
        clock,
        int(seed),
        int(ref_max_tiles),
        tuple(d for _, d in ranges.values()),
    )
    found: list[dict[str, Any]] = []
    if tasks:
        with _appending(out, header, old_header is None) as fh:
            own = runner is None
            run = Runner(1, None, warm=any(s.method == "search" for s in specs)) if own else runner
            assert run is not None
            try:
                for _, rows in run.run(_board_rows, shared, tasks):
                    for row in rows:
                        if (row["board"], row["method"]) in done:  # a task the cluster ran twice
                            continue
                        try:
                            fh.write(json.dumps(row) + "\n")
                            fh.flush()
                        except OSError as exc:
                            raise OutputFileError(out, f"cannot write: {exc.strerror or exc}") from None
                        done[(row["board"], row["method"])] = row
                    if progress is not None:
                        progress(rows)
            finally:
                if own:
                    run.close()
    elif old_header is None:
        write_text_atomic(out, header.to_json() + "\n")
    for case in listed:
        found.extend(done[(case.name, lb)] for lb in labels if (case.name, lb) in done)
    dis = disagreements(found)
    if out_dir is not None:
        by_name = {c.name: c for c in listed}
        for d in dis:
            answers = {r["method"]: r for r in found if r["board"] == d["board"]}
            d["file"] = write_disagreement(by_name[d["board"]], answers, d["why"], Path(out_dir))
    return found, dis


# --------------------------------------------------------------------------- the summary


def _by_board(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(r["board"], {})[r["method"]] = r
    return out


def disagreements(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``{"board", "why", "file": None}`` per board whose answers conflict (two methods,
    or a method and the board's ``expected``) or where a method failed."""
    out = []
    for board, answers in _by_board(rows).items():
        expected = next(iter(answers.values())).get("expected")
        why = _conflict(answers, expected if expected in DECIDED else None)
        if why is not None:
            out.append({"board": board, "why": why, "file": None})
    return out


def _quantile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def limit_seconds(row: dict[str, Any], clock: str) -> float:
    """The row's time on the clock its limit counted: CPU or wall seconds."""
    return float(row["cpu_seconds"] if clock == "cpu" else row["wall_seconds"])


def summarize(
    rows: Sequence[dict[str, Any]], *, time_limit: float, clock: str = "cpu", methods: Sequence[str] | None = None
) -> dict[str, Any]:
    """The table of a comparison, as SAT competitions report solvers.

    Per method, over the boards it applies to: ``solved`` (``solvable`` + ``unsolvable``),
    ``unknown``, ``errors``, ``not_applicable``; ``par2``, the mean time with every board
    not solved counted at twice the limit (the time on the limit's clock: CPU seconds
    with a CPU limit); ``cpu_median`` and ``cpu_p90`` of the solved boards (CPU seconds);
    ``unique``, the boards no other method solved; ``fastest``, the boards it solved
    first. The virtual best method (``vbs``) takes on every board the fastest method
    that solved it.

    Notes
    -----
    :math:`O(B m \\log B)` for ``B`` boards and ``m`` methods.
    """
    by_board = _by_board(rows)
    labels = list(methods) if methods is not None else list(dict.fromkeys(r["method"] for r in rows))
    fastest: dict[str, int] = dict.fromkeys(labels, 0)
    unique: dict[str, int] = dict.fromkeys(labels, 0)
    vbs_times: list[float] = []
    vbs_solved = 0
    for answers in by_board.values():
        solved = {m: limit_seconds(a, clock) for m, a in answers.items() if a["status"] in DECIDED and m in fastest}
        if not any(a["status"] != NA for m, a in answers.items() if m in fastest):
            continue
        if solved:
            best = min(solved, key=lambda m: solved[m])
            fastest[best] += 1
            vbs_solved += 1
            vbs_times.append(solved[best])
            if len(solved) == 1:
                unique[best] += 1
        else:
            vbs_times.append(2 * time_limit)
    table = []
    for m in labels:
        mine = [a[m] for a in by_board.values() if m in a]
        applied = [r for r in mine if r["status"] != NA]
        solved_rows = [r for r in applied if r["status"] in DECIDED]
        cpu = [float(r["cpu_seconds"]) for r in solved_rows]
        par = [limit_seconds(r, clock) if r["status"] in DECIDED else 2 * time_limit for r in applied]
        table.append(
            {
                "method": m,
                "boards": len(applied),
                "solved": len(solved_rows),
                "solvable": sum(r["status"] == SOLVABLE for r in applied),
                "unsolvable": sum(r["status"] == UNSOLVABLE for r in applied),
                "unknown": sum(r["status"] == UNKNOWN for r in applied),
                "errors": sum(r["status"] == ERROR for r in applied),
                "not_applicable": len(mine) - len(applied),
                "par2": round(statistics.fmean(par), 6) if par else None,
                "cpu_median": _quantile(cpu, 0.5),
                "cpu_p90": _quantile(cpu, 0.9),
                "unique": unique[m],
                "fastest": fastest[m],
            }
        )
    return {
        "boards": len(by_board),
        "time_limit": time_limit,
        "clock": clock,
        "methods": table,
        "vbs": {
            "boards": len(vbs_times),
            "solved": vbs_solved,
            "par2": round(statistics.fmean(vbs_times), 6) if vbs_times else None,
        },
        "disagreements": disagreements(rows),
    }


_CSV_FIELDS = (
    "board", "source", "game", "tiles", "expected", "method", "status", "cpu_seconds", "wall_seconds",
    "peak_rss_mb", "peak_extra_mb", "nodes", "conflicts", "clauses", "variables", "verified", "reason",
    "formula_n", "minisat_status", "minisat_cpu_seconds", "provenance",
)  # fmt: skip


def write_csv(rows: Iterable[dict[str, Any]], path: str | os.PathLike[str]) -> None:
    """The rows as CSV (one column per field, ``provenance`` as JSON), written atomically."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=_CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(
            {**r, "formula_n": r.get("provenance", {}).get("n"), "provenance": json.dumps(r.get("provenance", {}))}
        )
    write_text_atomic(path, buf.getvalue())


# --------------------------------------------------------------------------- plots


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _limit_words(time_limit: float, clock: str) -> str:
    return f"limit {time_limit:g} s {'CPU' if clock == 'cpu' else 'wall'}"


def cactus_figure(
    rows: Sequence[dict[str, Any]], *, time_limit: float, clock: str = "cpu", methods: Sequence[str] | None = None
) -> Any:
    """A cactus plot: for each method, the CPU time (log scale) against the number of
    boards solved within it (one line per method)."""
    plt = _pyplot()
    labels = list(methods) if methods is not None else list(dict.fromkeys(r["method"] for r in rows))
    fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    boards = len({r["board"] for r in rows})
    for m in labels:
        times = sorted(max(float(r["cpu_seconds"]), 1e-4) for r in rows if r["method"] == m and r["status"] in DECIDED)
        ax.plot(range(1, len(times) + 1), times, marker="o", markersize=3, label=m)
    ax.set_yscale("log")
    ax.set_xlim(0, max(1, boards))
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.axhline(time_limit, color="0.6", linestyle=":", linewidth=1)
    ax.set_xlabel(f"boards solved (of {boards})")
    ax.set_ylabel("CPU seconds")
    ax.set_title(f"Cactus plot ({_limit_words(time_limit, clock)})")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def scatter_figure(rows: Sequence[dict[str, Any]], a: str, b: str, *, time_limit: float, clock: str = "cpu") -> Any:
    """A scatter of two methods' CPU times per board (log-log, the diagonal; a board a
    method did not solve sits at the limit)."""
    plt = _pyplot()
    by_board = _by_board(rows)
    xs, ys, colors = [], [], []
    for answers in by_board.values():
        if a not in answers or b not in answers or NA in (answers[a]["status"], answers[b]["status"]):
            continue
        ra, rb = answers[a], answers[b]
        xs.append(max(float(ra["cpu_seconds"]), 1e-4) if ra["status"] in DECIDED else time_limit)
        ys.append(max(float(rb["cpu_seconds"]), 1e-4) if rb["status"] in DECIDED else time_limit)
        st = {ra["status"], rb["status"]} & set(DECIDED)
        colors.append("tab:red" if st == {UNSOLVABLE} else "tab:blue" if st == {SOLVABLE} else "0.4")
    fig, ax = plt.subplots(figsize=(5.5, 5.5), layout="constrained")
    ax.scatter(xs, ys, s=14, c=colors, alpha=0.8)
    lo = min([*xs, *ys, time_limit]) / 2 if xs else 1e-4
    hi = time_limit * 1.5
    ax.plot([lo, hi], [lo, hi], color="0.5", linewidth=1, label="diagonal")
    ax.axvline(time_limit, color="0.7", linestyle=":", linewidth=1)
    ax.axhline(time_limit, color="0.7", linestyle=":", linewidth=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel(f"{a}: CPU seconds")
    ax.set_ylabel(f"{b}: CPU seconds")
    ax.set_title(
        f"{len(xs)} boards: blue solvable, red unsolvable, grey not decided by both\n"
        f"on the dotted lines: not solved ({_limit_words(time_limit, clock)})",
        fontsize="small",
    )
    return fig


def scaling_figure(
    rows: Sequence[dict[str, Any]], *, time_limit: float, clock: str = "cpu", methods: Sequence[str] | None = None
) -> Any:
    """CPU time against the formula's variables ``n`` for the boards of reductions: the
    median per ``n`` of each method (unsolved at the limit), and MiniSat's time on the
    formulas themselves."""
    plt = _pyplot()
    cnf_rows = [
        r
        for r in rows
        if isinstance(r.get("provenance"), dict)
        and "n" in r["provenance"]
        and ("cnf" in r["provenance"] or "family" in r["provenance"])
    ]
    labels = list(methods) if methods is not None else list(dict.fromkeys(r["method"] for r in cnf_rows))
    fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")

    def line(points: dict[int, list[float]], label: str, **style: Any) -> None:
        ns = sorted(points)
        ax.plot(ns, [statistics.median(points[n]) for n in ns], marker="o", markersize=4, label=label, **style)

    for m in labels:
        pts: dict[int, list[float]] = {}
        for r in cnf_rows:
            if r["method"] == m and r["status"] != NA:
                t = float(r["cpu_seconds"]) if r["status"] in DECIDED else 2 * time_limit
                pts.setdefault(int(r["provenance"]["n"]), []).append(max(t, 1e-4))
        if pts:
            line(pts, m)
    sat: dict[int, list[float]] = {}
    seen = set()
    for r in cnf_rows:
        if "minisat_cpu_seconds" in r and r["board"] not in seen:
            seen.add(r["board"])
            sat.setdefault(int(r["provenance"]["n"]), []).append(max(float(r["minisat_cpu_seconds"]), 1e-5))
    if sat:
        line(sat, "MiniSat on the formula", color="black", linestyle="--")
    ax.set_yscale("log")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("variables n of the formula")
    ax.set_ylabel("CPU seconds (median; not solved: twice the limit)")
    targets = sorted({str(r["provenance"].get("target")) for r in cnf_rows})
    ax.set_title(
        f"Reduction boards ({', '.join(targets)}): CPU time against n ({_limit_words(time_limit, clock)})",
        fontsize="small",
    )
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def write_plots(
    rows: Sequence[dict[str, Any]],
    folder: str | os.PathLike[str],
    *,
    time_limit: float,
    clock: str = "cpu",
    scatter: tuple[str, str] | None = None,
    methods: Sequence[str] | None = None,
) -> list[str]:
    """Write ``cactus``, ``scatter`` (two methods: ``scatter`` or the first two) and, when
    boards of reductions are among the rows, ``scaling``, each as SVG and PNG in ``folder``;
    return the paths."""
    plt = _pyplot()
    labels = list(methods) if methods is not None else list(dict.fromkeys(r["method"] for r in rows))
    figures = {"cactus": cactus_figure(rows, time_limit=time_limit, clock=clock, methods=labels)}
    pair = scatter or (tuple(labels[:2]) if len(labels) >= 2 else None)
    if pair is not None:
        figures["scatter"] = scatter_figure(rows, pair[0], pair[1], time_limit=time_limit, clock=clock)
    if any(
        isinstance(r.get("provenance"), dict)
        and "n" in r["provenance"]
        and ("cnf" in r["provenance"] or "family" in r["provenance"])
        for r in rows
    ):
        figures["scaling"] = scaling_figure(rows, time_limit=time_limit, clock=clock, methods=labels)
    written = []
    for name, fig in figures.items():
        for ext in ("svg", "png"):
            buf = io.BytesIO() if ext == "png" else io.StringIO()
            fig.savefig(buf, format=ext, dpi=100, metadata={"Date": None} if ext == "svg" else None)
            path = Path(folder) / f"{name}.{ext}"
            value = buf.getvalue()
            if isinstance(value, bytes):
                _write_bytes_atomic(path, value)
            else:
                write_text_atomic(path, value)
            written.append(str(path))
        plt.close(fig)
    return written


def _write_bytes_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputFileError(path, f"cannot write: {exc.strerror or exc}") from None
