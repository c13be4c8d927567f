"""Benchmark of the reductions: building boards, and deciding them next to the CNF itself.

``python -m benchmarks.run reductions [--quick]`` or
``python -m benchmarks.bench_reductions [--quick] [--time-limit S] [--methods ...] [--ns ...]``.

1. Build: a random 3-CNF with 10,000 clauses (ratio 4.26) becomes a stack board and a
   rows board; the target is under 2 s. CPU time (``time.process_time``) and wall time,
   split into the reduction's own arrays and the board (of which the core's ``Layout``
   and ``MahjongBoard`` constructors, timed again alone on the same input).
2. Decide: random 3-CNF at ratio 4.26 with n = 10, 20, 30, 40, 50 (10 formulas each,
   seeds ``1000 n + k``; ``--quick``: n = 10, 20 with 3 formulas): CaDiCaL 1.9.5
   (python-sat) on the CNF, then each exact method on the stack board: ``search``, ``sat``
   with each encoding (``acyclic``, ``order``, ``layered``, ``parity``; the same CaDiCaL),
   and ``cpsat``, each with a wall-clock time limit (the methods' own). Every answer is
   checked against the CNF's (a disagreement fails the benchmark).

   The CPU budget is kept by one rule, reported in the table: after ``--give-up``
   (default 3) consecutive ``unknown`` answers at one n, a method is not run on the
   remaining formulas of that n nor at larger n (those runs count as ``skipped``).
   ``sat-order`` is skipped on boards above 600 tiles (:data:`MAX_TILES`).

Writes ``benchmarks/results/reductions.json`` (after every formula, so a stopped run
keeps what it measured).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"

CNF_SOLVER = "cadical195"

METHODS: dict[str, tuple[str, dict[str, Any]]] = {
    "search": ("search", {}),
    "sat-acyclic": ("sat", {"encoding": "acyclic", "solver": CNF_SOLVER}),
    "sat-stacks": ("sat", {"encoding": "stacks", "solver": CNF_SOLVER}),
    "sat-order": ("sat", {"encoding": "order", "solver": CNF_SOLVER}),
    "sat-layered": ("sat", {"encoding": "layered", "solver": CNF_SOLVER}),
    "sat-parity": ("sat", {"encoding": "parity", "solver": CNF_SOLVER}),
    "sat-auto": ("sat", {"solver": CNF_SOLVER}),
    "cpsat": ("cpsat", {}),
}
"""Benchmark labels -> (method, options). ``sat-auto`` (parity first, then acyclic) is
not in the default list: it repeats two of the encodings."""

DEFAULT_METHODS = "search,sat-acyclic,sat-order,sat-layered,sat-parity,cpsat"

MAX_TILES: dict[str, int] = {"sat-order": 600}
"""Boards above this size are not given to a method: the order encoding has
:math:`O(n^3)` clauses (about 2.4 billion for the 1,932 tiles of n = 10) and its build
does not watch the time limit."""


def _clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def _bench_build(clauses: int) -> list[dict[str, Any]]:
    from mjsat.board import Layout, MahjongBoard
    from mjsat.reductions.cnf import normalize_3cnf
    from mjsat.reductions.families import random_3cnf
    from mjsat.reductions.rows import reduce_to_rows
    from mjsat.reductions.stacks import _stack_tiles, reduce_to_stacks

    n = round(clauses / 4.26)
    f = normalize_3cnf(random_3cnf(n, m=clauses, rng=1), n_vars=n)
    out = []
    # stacks: the arrays, then the board (built on first use)
    gc.collect()
    c0, w0 = _clock()
    red = reduce_to_stacks(f)
    c1, w1 = _clock()
    board = red.board
    c2, w2 = _clock()
    pos, groups = _stack_tiles(red.stack_groups, red.positions)
    core = _core_seconds(Layout, MahjongBoard, pos.tolist(), groups.tolist(), dict(enumerate(red.names)))
    out.append(
        {
            "target": "stacks",
            "clauses": clauses,
            "variables": n,
            "tiles": len(board),
            "cpu_seconds": c2 - c0,
            "seconds": w2 - w0,
            "arrays_cpu_seconds": c1 - c0,
            "board_cpu_seconds": c2 - c1,
            **core,
        }
    )
    del red, board
    gc.collect()
    c0, w0 = _clock()
    rows = reduce_to_rows(f)
    c1, w1 = _clock()
    lay = rows.board.layout
    core = _core_seconds(
        Layout, MahjongBoard, [list(p) for p in lay.positions], list(rows.board.groups), dict(rows.board.names)
    )
    out.append(
        {
            "target": "rows",
            "clauses": clauses,
            "variables": n,
            "tiles": len(rows.board),
            "cpu_seconds": c1 - c0,
            "seconds": w1 - w0,
            **core,
        }
    )
    return out


def _core_seconds(Layout: Any, MahjongBoard: Any, pos: list, groups: list, names: dict) -> dict[str, float]:
    """CPU seconds of the core constructors alone on a board's input (collector paused,
    as the reductions build them)."""
    gc.disable()
    try:
        t0 = time.process_time()
        lay = Layout(pos)
        t1 = time.process_time()
        MahjongBoard(lay, groups, names=names)
        t2 = time.process_time()
    finally:
        gc.enable()
    return {"core_layout_cpu_seconds": t1 - t0, "core_board_cpu_seconds": t2 - t1}


def _decide_cnf(clauses: list[list[int]]) -> tuple[bool, float, float]:
    from pysat.solvers import Solver

    c0, w0 = _clock()
    with Solver(name=CNF_SOLVER, bootstrap_with=clauses) as s:
        sat = s.solve()
    c1, w1 = _clock()
    return bool(sat), c1 - c0, w1 - w0


def _bench_decide(
    ns: list[int], per_n: int, methods: list[str], time_limit: float, give_up: int, out_path: Path | None, header: dict
) -> list[dict[str, Any]]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from mjsat.methods import METHODS as REGISTERED, solve
    from mjsat.reductions.cnf import normalize_3cnf
    from mjsat.reductions.families import random_3cnf
    from mjsat.reductions.stacks import reduce_to_stacks

    rows: list[dict[str, Any]] = []
    dropped: dict[str, int] = {}  # method -> the n at which it was given up
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[now]}"),
        console=console,
    ) as bar:
        task = bar.add_task("deciding boards", total=len(ns) * per_n * len(methods), now="")
        for n in ns:
            streak = dict.fromkeys(methods, 0)
            for k in range(per_n):
                seed = 1000 * n + k
                clauses = random_3cnf(n, ratio=4.26, rng=seed)
                sat, cnf_cpu, cnf_wall = _decide_cnf(clauses)
                board = reduce_to_stacks(normalize_3cnf(clauses, n_vars=n)).board
                row: dict[str, Any] = {
                    "n": n,
                    "m": len(clauses),
                    "seed": seed,
                    "satisfiable": sat,
                    "tiles": len(board),
                    "cnf_cpu_seconds": cnf_cpu,
                    "cnf_seconds": cnf_wall,
                }
                for label in methods:
                    name, options = METHODS[label]
                    if name not in REGISTERED or label in dropped or len(board) > MAX_TILES.get(label, len(board)):
                        row[label] = {"status": "skipped"}
                        bar.advance(task)
                        continue
                    bar.update(task, now=f"n={n} #{k} {label}")
                    c0, w0 = _clock()
                    res = solve(board, name, time_limit=time_limit, **options)
                    c1, w1 = _clock()
                    if res.status != "unknown" and (res.status == "solvable") != sat:
                        raise AssertionError(f"{label} says {res.status} on n={n} seed {seed}, the CNF is sat={sat}")
                    row[label] = {"status": res.status, "cpu_seconds": c1 - c0, "seconds": w1 - w0}
                    streak[label] = streak[label] + 1 if res.status == "unknown" else 0
                    if streak[label] >= give_up:
                        dropped[label] = n
                    bar.advance(task)
                cells = " ".join(
                    f"{m}={row[m]['status']}" + (f"/{row[m]['cpu_seconds']:.1f}s" if "cpu_seconds" in row[m] else "")
                    for m in methods
                )
                bar.console.print(f"n={n} seed={seed} sat={sat} tiles={len(board)} cnf={cnf_cpu:.4f}s {cells}")
                rows.append(row)
                if out_path is not None:
                    _write(out_path, {**header, "decide": rows, "dropped": dropped})
    return rows


def _summary(decide: list[dict[str, Any]], methods: list[str]) -> list[dict[str, Any]]:
    out = []
    for n in sorted({r["n"] for r in decide}):
        rs = [r for r in decide if r["n"] == n]
        cnf_med = statistics.median(r["cnf_cpu_seconds"] for r in rs)
        entry: dict[str, Any] = {
            "n": n,
            "m": rs[0]["m"],
            "formulas": len(rs),
            "satisfiable": sum(r["satisfiable"] for r in rs),
            "tiles": rs[0]["tiles"],
            "cnf_cpu_median": cnf_med,
            "cnf_cpu_max": max(r["cnf_cpu_seconds"] for r in rs),
        }
        for m in methods:
            got = [r[m] for r in rs if m in r]
            ran = [g for g in got if g["status"] != "skipped"]
            decided = [(g, r) for r in rs for g in [r.get(m)] if g and g["status"] in ("solvable", "unsolvable")]
            e: dict[str, Any] = {
                "run": len(ran),
                "skipped": len(got) - len(ran),
                "decided": len(decided),
                "unknown": sum(g["status"] == "unknown" for g in ran),
                "decided_sat": sum(g["status"] == "solvable" for g, _ in decided),
                "decided_unsat": sum(g["status"] == "unsolvable" for g, _ in decided),
            }
            if decided:
                e["cpu_median"] = statistics.median(g["cpu_seconds"] for g, _ in decided)
                e["cpu_max"] = max(g["cpu_seconds"] for g, _ in decided)
                e["ratio_median"] = statistics.median(
                    g["cpu_seconds"] / max(r["cnf_cpu_seconds"], 1e-9) for g, r in decided
                )
            entry[m] = e
        out.append(entry)
    return out


def _cell(e: dict[str, Any]) -> str:
    if e["run"] == 0:
        return "not run"
    text = f"{e['decided']}/{e['run']}"
    if e["decided"]:
        text += f" {e['cpu_median']:.2f} s (x{e['ratio_median']:,.0f})"
    if e["skipped"]:
        text += f", {e['skipped']} skipped"
    return text


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench_reductions")
    p.add_argument("--quick", action="store_true")
    p.add_argument(
        "--time-limit", type=float, default=None, help="Seconds per method and board (default 30; quick 10)."
    )
    p.add_argument("--methods", default=DEFAULT_METHODS, help=f"Comma-separated, of: {', '.join(METHODS)}.")
    p.add_argument("--ns", default=None, help="Comma-separated numbers of variables (default 10,...,50; quick 10,20).")
    p.add_argument("--per-n", type=int, default=None, help="Formulas per n (default 10; quick 3).")
    p.add_argument("--give-up", type=int, default=3, help="Consecutive unknowns after which a method is dropped.")
    p.add_argument(
        "--build-clauses", type=int, default=None, help="Clauses of the build benchmark (default 10,000; quick 2,000)."
    )
    p.add_argument("--no-build", action="store_true", help="Skip the build benchmark.")
    p.add_argument("--no-decide", action="store_true", help="Skip the comparison.")
    p.add_argument("--out", default=str(RESULTS / "reductions.json"))
    args = p.parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    quick = args.quick
    limit = args.time_limit or (10.0 if quick else 30.0)
    methods = [m for m in args.methods.split(",") if m]
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        p.error(f"unknown method {unknown[0]!r} (known: {', '.join(METHODS)})")
    ns = [int(x) for x in args.ns.split(",")] if args.ns else ([10, 20] if quick else [10, 20, 30, 40, 50])
    per_n = args.per_n or (3 if quick else 10)
    out_path = Path(args.out)
    console = Console()
    header: dict[str, Any] = {
        "quick": quick,
        "time_limit": limit,
        "methods": methods,
        "give_up": args.give_up,
        "cnf_solver": CNF_SOLVER,
    }
    build: list[dict[str, Any]] = []
    if not args.no_build:
        build = _bench_build(args.build_clauses or (2000 if quick else 10_000))
        t = Table(
            "target",
            "clauses",
            "tiles",
            "CPU s",
            "wall s",
            "core Layout CPU s",
            "core MahjongBoard CPU s",
            title="building boards (target < 2 s)",
        )
        for r in build:
            t.add_row(
                r["target"],
                f"{r['clauses']:,}",
                f"{r['tiles']:,}",
                f"{r['cpu_seconds']:.2f}",
                f"{r['seconds']:.2f}",
                f"{r['core_layout_cpu_seconds']:.2f}",
                f"{r['core_board_cpu_seconds']:.2f}",
            )
        console.print(t)
        header["build"] = build
        _write(out_path, header)
    decide: list[dict[str, Any]] = []
    summary: list[dict[str, Any]] = []
    if not args.no_decide:
        decide = _bench_decide(ns, per_n, methods, limit, args.give_up, out_path, header)
        summary = _summary(decide, methods)
        t = Table(
            "n",
            "m",
            "sat/unsat",
            "tiles",
            "CNF CPU s",
            *methods,
            title=f"decided/run, median CPU s of the decided (x median ratio to the CNF); ratio 4.26, limit {limit:g} s",
        )
        for e in summary:
            t.add_row(
                str(e["n"]),
                str(e["m"]),
                f"{e['satisfiable']}/{e['formulas'] - e['satisfiable']}",
                f"{e['tiles']:,}",
                f"{e['cnf_cpu_median']:.4f}",
                *[_cell(e[m]) for m in methods],
            )
        console.print(t)
    _write(out_path, {**header, "decide": decide, "summary": summary})
    console.print(f"wrote {out_path}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
