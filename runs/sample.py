"""Batch sampling: many seeded random deals of one layout, decided and summarised.

The results file (JSON lines) starts with a header line that records what the rows were
made with::

    {"format": "mjsat-sample", "version": 2, "layout": "turtle", "layout_digest": "...",
     "game": "mahjong", "method": "search", "options": {}, "time_limit": 10.0, "clock": "wall"}

then holds one row per deal, written as soon as the deal is decided (``seed``,
``status``, ``seconds``, ``time_limit``, ...), so a run can be killed and started again:
seeds already in the file are skipped, and a killed run loses at most the deals in
progress (a half-written last line is dropped on restart). A run on an existing file
must have the header's layout (name and tiles), game, method, ``-O`` options, time
limit and its clock (``wall``, or ``cpu`` with ``--cpu-limit``; a header without one is
``wall``); it refuses, naming the first argument that differs, rather than mixing rows.

``retry_unknown`` (``mjsat sample --retry-unknown``) runs every ``unknown`` row of the
file again, at the current time limit, which is then the one argument that may differ
from the header. The new rows are appended (a later row of a seed replaces an earlier
``unknown`` row of it, and only such a row), then the file is rewritten through a
temporary file with one row per seed, in the old order, under a header with the current
time limit. The file is valid at every moment: killed before the rewrite, the next run
reads the appended rows as replacements. After a completed retry every ``unknown`` row
ran at the header's time limit; a decided row may come from an earlier limit (its own
``time_limit`` says which). Files without a header (written by older versions) are read
by :func:`read_done` but not appended to.

A results file has one writer at a time: :func:`sample` holds the file's advisory lock
(:func:`mjsat.fileio.exclusive_lock`) from its first read to its last write, the rewrite of
a retry included, and a second run on the file refuses at once, naming the process that
holds it. Readers (:func:`read_sample` without ``repair``) take no lock.

>>> from mjsat.board import Layout
>>> lay = Layout([(0, 2 * i, 0) for i in range(8)], name="row-8")
>>> rows = [solve_deal(lay, s, method="search", options={"engine": "python"}) for s in range(20)]
>>> summary = summarize(rows)
>>> summary["deals"], 0 < summary["unsolvable"] < 20
(20, True)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mjsat.board import Layout
from mjsat.clock import CLOCKS
from mjsat.fileio import (
    InputFileError,
    OutputFileError,
    exclusive_lock,
    prepare_output,
    read_json_lines,
    write_text_atomic,
)
from mjsat.runs.boards import SeedRange
from mjsat.runs.cluster import Runner
from mjsat.runs.stats import wilson_interval

__all__ = [
    "SampleError",
    "SampleHeader",
    "FORMAT",
    "layout_digest",
    "VERSION",
    "solve_deal",
    "solve_deals_batch",
    "batch_applies",
    "BATCH_DEALS",
    "read_sample",
    "read_done",
    "sample",
    "summarize",
]

FORMAT = "mjsat-sample"
"""The ``format`` of a results file's header line."""
VERSION = 2
"""The header's ``version`` (files of version 1 had no header)."""


class SampleError(ValueError):
    """Bad sampling parameters (count, workers, an output file made with other arguments)."""


def layout_digest(layout: Layout) -> str:
    """A short hash of the layout's tiles and rule (two layouts of one name differ in it).

    Notes
    -----
    :math:`O(n)`.
    """
    text = json.dumps([list(map(list, layout.positions)), bool(layout.block_any_higher)])
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


@dataclasses.dataclass(frozen=True)
class SampleHeader:
    """The arguments a results file was made with (its first line)."""

    layout: str
    layout_digest: str
    game: str
    method: str
    options: dict[str, Any]
    time_limit: float | None
    clock: str = "wall"

    COMPARED = (
        ("layout", "--layout"),
        ("layout_digest", "--layout (its tiles)"),
        ("game", "--game"),
        ("method", "--method"),
        ("options", "-O options"),
        ("time_limit", "--time-limit"),
        ("clock", "the limit's clock (--time-limit is wall seconds, --cpu-limit CPU seconds)"),
    )
    """The fields a run must share with the file, and the argument each stands for."""

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                "layout": self.layout,
                "layout_digest": self.layout_digest,
                "game": self.game,
                "method": self.method,
                "options": self.options,
                "time_limit": self.time_limit,
                "clock": self.clock,
            }
        )

    def differs(self, other: SampleHeader, *, skip: tuple[str, ...] = ()) -> tuple[str, Any, Any] | None:
        """``(argument, this file's value, other's value)`` of the first field that
        differs (``None`` when all agree), leaving out the fields in ``skip``."""
        for field, argument in self.COMPARED:
            if field in skip:
                continue
            mine, theirs = getattr(self, field), getattr(other, field)
            if mine != theirs:
                return argument, mine, theirs
        return None


def _header_from(path: Path, line: int, obj: dict[str, Any]) -> SampleHeader:
    if obj.get("version") != VERSION:
        raise InputFileError(
            path, line, f"{FORMAT} version {obj.get('version')!r} is not supported (this mjsat reads version {VERSION})"
        )
    try:
        header = SampleHeader(
            str(obj["layout"]),
            str(obj["layout_digest"]),
            str(obj["game"]),
            str(obj["method"]),
            dict(obj["options"]),
            obj["time_limit"],
            str(obj.get("clock", "wall")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InputFileError(path, line, f"the header lacks or garbles {exc}") from None
    if header.time_limit is not None and (
        isinstance(header.time_limit, bool) or not isinstance(header.time_limit, (int, float))
    ):
        raise InputFileError(path, line, f"the header's time_limit is not a number: {header.time_limit!r}")
    if header.clock not in CLOCKS:
        raise InputFileError(path, line, f"the header's clock is {header.clock!r}, not one of {', '.join(CLOCKS)}")
    return header


def solve_deal(
    layout: Layout,
    seed: int,
    *,
    game: str = "mahjong",
    method: str = "search",
    time_limit: float | None = 10.0,
    options: dict[str, Any] | None = None,
    clock: str = "wall",
) -> dict[str, Any]:
    """Deal ``seed`` of ``layout`` (uniformly random groups, :class:`~mjsat.runs.boards.SeedRange`), decide it, return one row.

    The row holds ``seed``, ``status``, ``seconds`` (the method's own time, without the
    replay that checks every solution), ``cpu_seconds`` (this process's CPU time for the
    whole call, replay included: the figure for "one core" on a loaded machine), ``nodes``, ``scans``, ``attempts`` and ``reason``.
    """
    from mjsat.methods import solve

    board = SeedRange(layout, game=game).board(seed)
    cpu = time.process_time()
    result = solve(board, method, time_limit=time_limit, clock=clock, seed=seed, **(options or {}))
    cpu = time.process_time() - cpu
    st = result.stats
    return {
        "seed": int(seed),
        "status": result.status,
        "seconds": round(result.seconds, 6),
        "cpu_seconds": round(cpu, 6),
        "nodes": int(st.get("nodes", 0)),
        "scans": int(st.get("scans", 0)),
        "attempts": int(st.get("attempts", 0)),
        "reason": result.reason,
    }


_ROW_STATUSES = ("solvable", "unsolvable", "unknown")


def _row_problem(row: Any) -> str | None:
    """What is wrong with one parsed results line (``None`` when it is a row)."""
    if not isinstance(row, dict):
        return "expected a JSON object with an integer 'seed'"
    seed = row.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        return "expected a JSON object with an integer 'seed'"
    if row.get("status") not in _ROW_STATUSES:
        return f"'status' must be one of {', '.join(_ROW_STATUSES)}, got {str(row.get('status'))[:40]!r}"
    for key in ("seconds", "cpu_seconds"):
        v = row.get(key, 0.0)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < math.inf:
            return f"'{key}' must be a non-negative number, got {str(v)[:40]!r}"
    if "seconds" not in row:
        return "a row needs its 'seconds'"
    for key in ("nodes", "scans", "attempts"):
        v = row.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            return f"'{key}' must be a non-negative integer, got {str(v)[:40]!r}"
    for key in ("layout", "game", "reason"):
        if key in row and not isinstance(row[key], str):
            return f"'{key}' must be text, got {str(row[key])[:40]!r}"
    return None


def read_sample(
    path: str | os.PathLike[str], *, repair: bool = True
) -> tuple[SampleHeader | None, list[dict[str, Any]]]:
    """The header and the rows of a results file (``(None, [])`` when it does not exist).

    A last line without its newline (a run killed while writing) is dropped, and with
    ``repair`` cut from the file, so that appending goes on cleanly. A row of a seed that
    already has an ``unknown`` row replaces it (a retry); the rows come in the order of
    their seeds' first rows.

    Returns
    -------
    (SampleHeader or None, list of dict)
        ``None`` for a file without a header (written before version 2), whose rows are
        still returned.

    Raises
    ------
    InputFileError
        The file cannot be read or cut, is not UTF-8, a complete line is not a row (a
        JSON object with an integer ``seed``, a ``status``, non-negative ``seconds``) or
        the header (first), the header is of another version, or a seed comes twice where
        the first row is not ``unknown``.

    Notes
    -----
    :math:`O(L)` for a file of ``L`` bytes.
    """
    p = Path(path)
    header: SampleHeader | None = None
    rows: dict[int, dict[str, Any]] = {}
    first = True
    for i, row in read_json_lines(p, repair=repair):
        if first and isinstance(row, dict) and row.get("format") == FORMAT:
            header = _header_from(p, i, row)
            first = False
            continue
        first = False
        problem = _row_problem(row)
        if problem is not None:
            raise InputFileError(p, i, problem)
        seed = row["seed"]
        if seed in rows and rows[seed].get("status") != "unknown":
            raise InputFileError(p, i, f"seed {seed} twice (only an 'unknown' row may be followed by its retry)")
        rows[seed] = row
    return header, list(rows.values())


def read_done(path: str | os.PathLike[str], *, repair: bool = True) -> list[dict[str, Any]]:
    """The rows already in a results file (none when it does not exist); see
    :func:`read_sample`, which also returns the header.

    Raises
    ------
    InputFileError
        As :func:`read_sample`.
    """
    return read_sample(path, repair=repair)[1]


_Shared = tuple[Layout, str, str, "float | None", dict[str, Any], str]
"""What every task of one :func:`sample` run shares: layout, game, method, time limit,
options and the limit's clock."""


def _row(shared: _Shared, seed: int) -> dict[str, Any]:
    """One deal's row (a task of :class:`~mjsat.runs.cluster.Runner`)."""
    layout, game, method, time_limit, options, clock = shared
    return solve_deal(layout, seed, game=game, method=method, time_limit=time_limit, options=options, clock=clock)


BATCH_DEALS = 64
"""Deals per compiled call of the batch path (:func:`sample` with ``batch``)."""


def batch_applies(game: str, method: str, options: dict[str, Any] | None) -> bool:
    """Whether :func:`sample` with ``batch`` runs the batch path: the ``auto`` method without
    options on a game of the ``"sides"`` kind (Mahjong)."""
    from mjsat.board import find_variant

    return method == "auto" and not options and find_variant(game).kind == "sides"


def solve_deals_batch(
    layout: Layout,
    seeds: Sequence[int],
    *,
    game: str = "mahjong",
    time_limit: float | None = 10.0,
    clock: str = "wall",
) -> list[dict[str, Any]]:
    """The rows of :func:`solve_deal` with ``method="auto"`` for the deals ``seeds``, decided
    by the batch path (:func:`mjsat.search.batch.solve_batch`, each deal's solver seed its
    own): one compiled call for the deals, the ``auto`` plan for those it leaves undecided.

    ``cpu_seconds`` of a deal is its CPU time in the compiled call
    (:attr:`~mjsat.search.batch.BatchResult.cpu_seconds`) plus an equal share of what the
    call cost around the deals; ``seconds`` is the call's wall time divided by its deals.
    A deal of the tail adds its own. ``reason`` names the phase that decided (``batch:
    attempts``, ...) or is the tail's. ``time_limit`` counts seconds of ``clock``
    (:mod:`mjsat.clock`).
    """
    from mjsat import clock as clocks
    from mjsat.methods import solve
    from mjsat.search.batch import TAIL_STEPS, solve_batch

    sr = SeedRange(layout, game=game)
    groups = np.array([sr.board(s).groups for s in seeds], dtype=np.int64)
    wall, cpu = time.perf_counter(), time.process_time()
    with clocks.using(clock):
        res = solve_batch(layout, groups, game=game, seed=[int(s) for s in seeds], time_limit=time_limit, tail=False)
    k = max(1, len(seeds))
    wall, cpu = (time.perf_counter() - wall) / k, time.process_time() - cpu
    around = max(0.0, cpu - float(res.cpu_seconds.sum())) / k  # the call's share per deal
    rows = []
    for i, seed in enumerate(seeds):
        cpu = float(res.cpu_seconds[i]) + around
        row = {
            "seed": int(seed), "status": res.status[i], "seconds": round(wall, 6), "cpu_seconds": round(cpu, 6),
            "nodes": int(res.nodes[i]), "scans": 0, "attempts": 0, "reason": f"batch: {res.decided_by[i]}",
        }  # fmt: skip
        if res.status[i] == "unknown":
            c0 = time.process_time()
            r = solve(
                sr.board(seed), "auto", time_limit=time_limit, clock=clock, seed=int(seed),
                plan_steps=",".join(TAIL_STEPS),
            )  # fmt: skip
            row.update(
                status=r.status, seconds=round(wall + r.seconds, 6),
                cpu_seconds=round(cpu + time.process_time() - c0, 6), reason=r.reason,
            )  # fmt: skip
        rows.append(row)
    return rows


def _rows_batch(shared: _Shared, seeds: list[int]) -> list[dict[str, Any]]:
    """The rows of a block of deals (a task of :class:`~mjsat.runs.cluster.Runner`)."""
    layout, game, _, time_limit, _, clock = shared
    return solve_deals_batch(layout, seeds, game=game, time_limit=time_limit, clock=clock)


def sample(
    layout: Layout,
    seeds: Sequence[int],
    out: str | os.PathLike[str],
    *,
    game: str = "mahjong",
    method: str = "search",
    time_limit: float | None = 10.0,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    runner: Runner | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    retry_unknown: bool = False,
    batch: bool = False,
    clock: str = "wall",
) -> list[dict[str, Any]]:
    """Decide the deals of ``seeds`` not yet in ``out``, appending one JSON line each.

    Parameters
    ----------
    layout : Layout
    seeds : sequence of int
        The deals (``deal_random(layout, seed=s)``); the solver's seed is the deal's.
    out : path
        The results file (created with its header when missing or empty; see the module
        docstring for the format).
    method, options, time_limit, game, clock
        As :func:`solve_deal`; on an existing file they must be the header's
        (``clock``: ``wall`` or ``cpu``, what ``time_limit`` counts, :mod:`mjsat.clock`).
    workers, scheduler : int, str
        Where the deals run (:class:`~mjsat.runs.cluster.Runner`): 1 worker in this
        process, ``W`` worker processes of a local Dask cluster, or the cluster of a Dask
        scheduler. Each deal's row depends only on its seed, not on where it ran (only
        the order of the rows in the file does).
    runner : Runner, optional
        An entered runner to use instead of ``workers`` and ``scheduler``.
    progress : callable, optional
        Called with each new row (for a progress bar).
    retry_unknown : bool
        Also run every ``unknown`` row of the file again (any seed), at ``time_limit``,
        which may then differ from the header's; the file is rewritten with one row per
        seed and the new time limit in its header.
    batch : bool
        Where :func:`batch_applies` (``auto`` without options, Mahjong): decide the deals
        in blocks of :data:`BATCH_DEALS` with :func:`solve_deals_batch` (the same verdicts,
        the times shared within a block); elsewhere ignored.

    Returns
    -------
    list of dict
        Every row of the file for the requested seeds (old and new), by seed.

    Raises
    ------
    SampleError
        ``workers`` below 1; a file made with another layout, game, method, options or
        time limit or clock (the message names the argument); a file without a header;
        an unknown clock.
    ValueError
        An unknown method or an option that cannot work
        (:func:`mjsat.methods.check_options`), before any deal runs.
    InputFileError
        A malformed results file.
    mjsat.fileio.FileInUseError
        Another process is writing ``out`` (holds its lock).

    Notes
    -----
    The cost is the sum of the solving times divided by the workers, plus on a cluster
    its start and the traffic of each task; a retry adds one
    rewrite of the file (:math:`O(L)`).
    """
    from mjsat.board import find_variant
    from mjsat.methods import check_options

    if runner is None and workers < 1:
        raise SampleError(f"workers must be at least 1, got {workers}")
    options = check_options(method, dict(options or {}), time_limit=time_limit)
    game = find_variant(game).game
    if clock not in CLOCKS:
        raise SampleError(f"unknown clock {clock!r}: one of {', '.join(CLOCKS)}")
    if time_limit is not None:
        time_limit = float(time_limit)
    wanted = [int(s) for s in seeds]
    with exclusive_lock(out):  # one writer: held from the first read to the last rewrite
        here = SampleHeader(layout.name, layout_digest(layout), game, method, options, time_limit, clock)
        header, done = read_sample(out)
        if header is None and done:
            raise SampleError(
                f"{out} has no header line (written by an older mjsat, which did not record the method, "
                "options and time limit of its rows): use another --out file"
            )
        if header is not None:
            diff = header.differs(here, skip=("time_limit",) if retry_unknown else ())
            if diff is not None:
                argument, theirs, ours = diff
                raise SampleError(
                    f"{out} was made with {argument} {_show(theirs)}, not {_show(ours)}: "
                    "run with the same arguments or use another --out file"
                    + (
                        " (--retry-unknown reruns its unknown rows at another time limit)"
                        if argument == "--time-limit"
                        else ""
                    )
                )
        else:
            write_text_atomic(out, here.to_json() + "\n")
        by_seed = {r["seed"]: r for r in done}
        retry = [s for s, r in by_seed.items() if retry_unknown and r.get("status") == "unknown"]
        todo = retry + [s for s in dict.fromkeys(wanted) if s not in by_seed]
        new: dict[int, dict[str, Any]] = {}
        target = prepare_output(out)
        try:
            fh = open(target, "a", encoding="utf-8")
        except OSError as exc:
            raise OutputFileError(out, f"cannot write: {exc.strerror or exc}") from None
        with fh:

            def record(row: dict[str, Any]) -> None:
                if row["seed"] in new:  # a task the cluster ran twice: its rows are written once
                    return
                row = {"layout": layout.name, "game": game, **row, "time_limit": time_limit}
                try:
                    fh.write(json.dumps(row) + "\n")
                    fh.flush()
                except OSError as exc:
                    raise OutputFileError(out, f"cannot write: {exc.strerror or exc}") from None
                new[row["seed"]] = row
                if progress is not None:
                    progress(row)

            warm = (method == "search" and options.get("engine", "numba") == "numba") or (
                batch and batch_applies(game, method, options)
            )
            shared: _Shared = (layout, game, method, time_limit, options, clock)
            if batch and batch_applies(game, method, options):
                fn: Callable[[Any, Any], Any] = _rows_batch
                items: list[Any] = [todo[i : i + BATCH_DEALS] for i in range(0, len(todo), BATCH_DEALS)]
            else:
                fn, items = _row, todo
            if runner is not None:
                for got in runner.run(fn, shared, items):
                    for row in got if isinstance(got, list) else [got]:
                        record(row)
            elif todo:
                local = scheduler is None and len(items) <= 1  # one task: no cluster to start
                with Runner(1 if local else workers, scheduler, warm=warm) as own:
                    for got in own.run(fn, shared, items):
                        for row in got if isinstance(got, list) else [got]:
                            record(row)
        merged = {**by_seed, **new}
        if retry_unknown:
            # one row per seed, in the old order, under a header with the current time limit
            lines = [here.to_json()] + [json.dumps(merged[s]) for s in merged]
            write_text_atomic(out, "\n".join(lines) + "\n")
        return [merged[s] for s in sorted(set(wanted))]


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict) else repr(value)


def _cpu(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    """CPU-time figures when every row has them (older files do not)."""
    if not rows or any("cpu_seconds" not in r for r in rows):
        return {}
    c = np.array([r["cpu_seconds"] for r in rows], dtype=float)
    return {
        "cpu_mean": float(c.mean()),
        "cpu_median": float(np.median(c)),
        "cpu_p99": float(np.quantile(c, 0.99)),
        "cpu_max": float(c.max()),
        "cpu_total": float(c.sum()),
    }


def summarize(rows: Sequence[dict[str, Any]], *, hardest: int = 5) -> dict[str, Any]:
    """Counts, % unsolvable with its Wilson 95 % interval, time per deal, hardest seeds.

    The percentage is over the decided deals (``unknown`` ones are left out and counted).
    """
    n = len(rows)
    count = {s: sum(1 for r in rows if r["status"] == s) for s in ("solvable", "unsolvable", "unknown")}
    decided = count["solvable"] + count["unsolvable"]
    lo, hi = wilson_interval(count["unsolvable"], decided)
    t = np.array([r["seconds"] for r in rows], dtype=float) if rows else np.zeros(1)
    top = sorted(rows, key=lambda r: -r["seconds"])[:hardest]
    return {
        "deals": n,
        **count,
        "unsolvable_pct": 100.0 * count["unsolvable"] / decided if decided else float("nan"),
        "ci95_pct": [100.0 * lo, 100.0 * hi],
        "seconds_mean": float(t.mean()),
        "seconds_median": float(np.median(t)),
        "seconds_p99": float(np.quantile(t, 0.99)),
        "seconds_max": float(t.max()),
        "seconds_total": float(t.sum()) if rows else 0.0,
        **_cpu(rows),
        "hardest": [
            {"seed": r["seed"], "status": r["status"], "seconds": r["seconds"], "nodes": r.get("nodes", 0)} for r in top
        ],
    }
