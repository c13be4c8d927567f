"""Batch sampling: many seeded random deals of one layout, decided and summarised.

One JSON line per deal goes to an output file as soon as the deal is decided, so a run
can be killed and started again: seeds already in the file are skipped, and a killed run
loses at most the deals in progress (a half-written last line is dropped on restart).

>>> from mjsat.board import Layout
>>> lay = Layout([(0, 2 * i, 0) for i in range(8)], name="row-8")
>>> rows = [solve_deal(lay, s, method="search", options={"engine": "python"}) for s in range(20)]
>>> summary = summarize(rows)
>>> summary["deals"], 0 < summary["unsolvable"] < 20
(20, True)
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mjsat.board import Layout
from mjsat.deal import deal_random
from mjsat.fileio import InputFileError, OutputFileError, decode_text, parse_json, prepare_output

__all__ = ["SampleError", "wilson_interval", "solve_deal", "read_done", "sample", "summarize"]


class SampleError(ValueError):
    """Bad sampling parameters (count, workers, an output file of another layout)."""


def wilson_interval(k: int, n: int, *, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n`` (95 % by default).

    >>> lo, hi = wilson_interval(3, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.0103, 0.0845)

    Notes
    -----
    :math:`O(1)`. Unlike the normal approximation it stays inside ``[0, 1]`` and is sound
    for proportions near 0, which is where unsolvable deals live.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def solve_deal(
    layout: Layout,
    seed: int,
    *,
    game: str = "mahjong",
    method: str = "search",
    time_limit: float | None = 10.0,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Deal ``layout`` with ``seed`` (uniformly random groups), decide it, return one row.

    The row holds ``seed``, ``status``, ``seconds`` (the method's own time, without the
    replay that checks every solution), ``cpu_seconds`` (this process's CPU time for the
    whole call, replay included: the figure for "one core" on a loaded machine), ``nodes``, ``scans``, ``attempts`` and ``reason``.
    """
    from mjsat.methods import solve

    board = deal_random(layout, seed=seed, game=game)
    cpu = time.process_time()
    result = solve(board, method, time_limit=time_limit, seed=seed, **(options or {}))
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


def read_done(path: str | os.PathLike[str], *, repair: bool = True) -> list[dict[str, Any]]:
    """The rows already in a results file (none when it does not exist).

    A last line without its newline (a run killed while writing) is dropped, and with
    ``repair`` cut from the file, so that appending goes on cleanly.

    Raises
    ------
    InputFileError
        The file cannot be read or cut, is not UTF-8, or a complete line is not a row
        (a JSON object with an integer ``seed``, a ``status``, non-negative ``seconds``).
    """
    p = Path(path)
    if not p.exists():
        return []
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputFileError(p, None, exc.strerror or str(exc)) from None
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        data = data[:cut]
        if repair:
            try:
                with open(p, "r+b") as fh:
                    fh.truncate(cut)
            except OSError as exc:
                raise InputFileError(p, None, f"cannot cut the half-written last line: {exc.strerror or exc}") from None
    rows = []
    for i, line in enumerate(decode_text(data, p).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            row = parse_json(line, p)
        except InputFileError as exc:
            raise InputFileError(p, i, f"not a JSON line: {exc.message}") from None
        problem = _row_problem(row)
        if problem is not None:
            raise InputFileError(p, i, problem)
        rows.append(row)
    return rows


_WORKER_LAYOUT: Layout | None = None


def _init_worker(positions: list[tuple[int, int, int]], name: str, any_higher: bool) -> None:
    global _WORKER_LAYOUT  # one layout per worker process, set once by the pool
    _WORKER_LAYOUT = Layout(positions, name=name, block_any_higher=any_higher)
    from mjsat.search.solver import warm_up

    warm_up()


def _work(seed: int, game: str, method: str, time_limit: float | None, options: dict[str, Any]) -> dict[str, Any]:
    assert _WORKER_LAYOUT is not None
    return solve_deal(_WORKER_LAYOUT, seed, game=game, method=method, time_limit=time_limit, options=options)


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
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Decide the deals of ``seeds`` not yet in ``out``, appending one JSON line each.

    Parameters
    ----------
    layout : Layout
    seeds : sequence of int
        The deals (``deal_random(layout, seed=s)``); the solver's seed is the deal's.
    out : path
        The JSONL results file (appended to; created when missing).
    workers : int
        Processes; each seed is one task, so the rows do not depend on the number of
        workers (only their order in the file does).
    progress : callable, optional
        Called with each new row (for a progress bar).

    Returns
    -------
    list of dict
        Every row of the file for the requested seeds (old and new), by seed.

    Notes
    -----
    The cost is the sum of the solving times divided by ``workers``, plus about a
    millisecond of process traffic per deal when ``workers > 1``.
    """
    if workers < 1:
        raise SampleError(f"workers must be at least 1, got {workers}")
    options = dict(options or {})
    wanted = set(int(s) for s in seeds)
    done = read_done(out)
    for r in done:
        if r.get("layout", layout.name) != layout.name or r.get("game", game) != game:
            raise SampleError(
                f"{out} holds deals of layout {r.get('layout')!r} ({r.get('game')}), "
                f"not {layout.name!r} ({game}): use another --out file"
            )
    old = {r["seed"]: r for r in done if r["seed"] in wanted}
    todo = [int(s) for s in seeds if int(s) not in old]
    new: dict[int, dict[str, Any]] = {}
    target = prepare_output(out)
    try:
        fh = open(target, "a", encoding="utf-8")
    except OSError as exc:
        raise OutputFileError(out, f"cannot write: {exc.strerror or exc}") from None
    with fh:

        def record(row: dict[str, Any]) -> None:
            row = {"layout": layout.name, "game": game, **row}
            try:
                fh.write(json.dumps(row) + "\n")
                fh.flush()
            except OSError as exc:
                raise OutputFileError(out, f"cannot write: {exc.strerror or exc}") from None
            new[row["seed"]] = row
            if progress is not None:
                progress(row)

        if method == "search" and options.get("engine", "numba") == "numba" and todo and workers == 1:
            from mjsat.search.solver import warm_up

            warm_up()
        if workers == 1 or len(todo) <= 1:
            for s in todo:
                record(solve_deal(layout, s, game=game, method=method, time_limit=time_limit, options=options))
        else:
            init = (list(layout.positions), layout.name, layout.block_any_higher)
            with cf.ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=init) as pool:
                for row in _bounded(pool, todo, 4 * workers, (game, method, time_limit, options)):
                    record(row)
    merged = {**old, **new}
    return [merged[s] for s in sorted(merged)]


def _bounded(pool: cf.Executor, seeds: Iterable[int], window: int, args: tuple[Any, ...]) -> Iterator[dict[str, Any]]:
    """Submit one task per seed with at most ``window`` in flight; yield rows as they end."""
    it = iter(seeds)
    pending: set[cf.Future[dict[str, Any]]] = set()
    for s in it:
        pending.add(pool.submit(_work, s, *args))
        if len(pending) >= window:
            break
    while pending:
        done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
        for fut in done:
            yield fut.result()
            nxt = next(it, None)
            if nxt is not None:
                pending.add(pool.submit(_work, nxt, *args))


def _cpu(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    """CPU-time figures when every row has them (older files do not)."""
    if not rows or any("cpu_seconds" not in r for r in rows):
        return {}
    c = np.array([r["cpu_seconds"] for r in rows], dtype=float)
    return {
        "cpu_mean": float(c.mean()), "cpu_median": float(np.median(c)),
        "cpu_p99": float(np.quantile(c, 0.99)), "cpu_max": float(c.max()), "cpu_total": float(c.sum()),
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
        "hardest": [{"seed": r["seed"], "status": r["status"], "seconds": r["seconds"], "nodes": r.get("nodes", 0)} for r in top],
    }
