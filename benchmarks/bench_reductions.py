"""Benchmark of the reductions: building boards, and deciding them next to the CNF itself.

``python -m benchmarks.run reductions [--quick]`` or
``python -m benchmarks.bench_reductions [--quick] [--time-limit S] [--methods ...] [--ns ...] [--limit-check N]``.

1. Build: a random 3-CNF with 10,000 clauses (ratio 4.26) becomes a stack board and a
   rows board; the target is under 2 s. CPU time (``time.process_time``) and wall time,
   split into the reduction's own arrays and the board (of which the core's ``Layout``
   and ``MahjongBoard`` constructors, timed again alone on the same input).
2. Decide: random 3-CNF at ratio 4.26 with n = 10, 20, 30, 50, 100 (``--quick``: n = 10),
   three satisfiable and three unsatisfiable formulas each (``--per-answer``: the first
   of each answer among the seeds ``1000 n + k``). MiniSat 2.2 (python-sat's
   ``minisat22``) decides the formula (its CPU averaged over repeated solves), then each
   method decides the formula's stack board with a CPU-time limit (``clock="cpu"``,
   default 60 s): the plans ``auto`` and ``exact``, ``sat`` with each encoding (the same
   MiniSat), ``cpsat`` and ``search``. A cell is the CPU seconds of the whole call and
   its ratio to MiniSat on the formula; ``>60`` is ``unknown`` at the limit, ``mem``
   ``unknown`` because the model is above the memory bound (``MJSAT_MAX_CNF_LITERALS``),
   ``n/a`` a method that refuses the board. Every answer is checked against the
   formula's (a disagreement fails the benchmark).

   The CPU budget is kept by one rule, reported in the table: after ``--give-up``
   (default 3) consecutive ``unknown`` answers on formulas of one answer (satisfiable
   or not) at one n, a method is not run on the remaining formulas of that answer, at
   that n nor at larger n (shown as ``-``).
3. ``--limit-check N``: each method once on the board of the formula of seed ``1000 N``
   with a CPU limit of 10 s, and the CPU it took to answer (the limits must hold: an
   answer or ``unknown`` within about 11 s).

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

CNF_SOLVER = "minisat22"

METHODS: dict[str, tuple[str, dict[str, Any]]] = {
    "auto": ("auto", {}),
    "exact": ("exact", {}),
    "search": ("search", {}),
    "sat-acyclic": ("sat", {"encoding": "acyclic", "solver": CNF_SOLVER}),
    "sat-stacks": ("sat", {"encoding": "stacks", "solver": CNF_SOLVER}),
    "sat-order": ("sat", {"encoding": "order", "solver": CNF_SOLVER}),
    "sat-layered": ("sat", {"encoding": "layered", "solver": CNF_SOLVER}),
    "sat-parity": ("sat", {"encoding": "parity", "solver": CNF_SOLVER}),
    "sat-auto": ("sat", {"solver": CNF_SOLVER}),
    "cpsat": ("cpsat", {}),
}
"""Benchmark labels -> (method, options). ``sat-auto`` (parity first, then acyclic) and
``exact`` (the same as ``sat-acyclic`` on these boards) are not in the default list."""

DEFAULT_METHODS = "auto,sat-acyclic,sat-stacks,cpsat,search,sat-layered,sat-parity,sat-order"


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


def _minisat(clauses: list[list[int]]) -> tuple[bool, float]:
    """The formula's answer and MiniSat 2.2's CPU seconds per solve (python-sat's
    ``minisat22``): solved again until 0.05 s of CPU have gone, and averaged, since a
    single solve of these formulas takes well under a millisecond."""
    from pysat.solvers import Solver

    runs, spent, sat = 0, 0.0, False
    while spent < 0.05 or runs < 3:
        c0 = time.process_time()
        with Solver(name=CNF_SOLVER, bootstrap_with=clauses) as s:
            sat = bool(s.solve())
        spent += time.process_time() - c0
        runs += 1
    return sat, spent / runs


def pick_formulas(n: int, per_answer: int, *, max_draws: int = 400) -> list[tuple[int, list[list[int]], bool, float]]:
    """The first ``per_answer`` satisfiable and ``per_answer`` unsatisfiable random 3-CNF
    at ratio 4.26 over ``n`` variables among the seeds ``1000 n + k``, ``k = 0, 1, ...``:
    ``[(seed, clauses, satisfiable, minisat_cpu_seconds), ...]``, satisfiable ones first."""
    from mjsat.reductions.families import random_3cnf

    picked: dict[bool, list[tuple[int, list[list[int]], bool, float]]] = {True: [], False: []}
    for k in range(max_draws):
        seed = 1000 * n + k
        clauses = random_3cnf(n, ratio=4.26, rng=seed)
        sat, cpu = _minisat(clauses)
        if len(picked[sat]) < per_answer:
            picked[sat].append((seed, clauses, sat, cpu))
        if all(len(v) >= per_answer for v in picked.values()):
            break
    return picked[True] + picked[False]


def _run(board: Any, label: str, limit: float) -> dict[str, Any]:
    """One method on one board with a CPU-time limit; the CPU of the whole call
    (kernels loaded on the way included)."""
    from mjsat.methods import solve
    from mjsat.result import MethodNotApplicableError

    name, options = METHODS[label]
    c0, w0 = _clock()
    try:
        res = solve(board, name, time_limit=limit, clock="cpu", **options)
    except MethodNotApplicableError as exc:
        return {"status": "n/a", "reason": str(exc)}
    c1, w1 = _clock()
    return {"status": res.status, "cpu_seconds": c1 - c0, "seconds": w1 - w0, "reason": res.reason or ""}


def _bench_decide(
    ns: list[int],
    per_answer: int,
    methods: list[str],
    time_limit: float,
    give_up: int,
    out_path: Path | None,
    header: dict,
    done: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from mjsat.reductions.cnf import normalize_3cnf
    from mjsat.reductions.stacks import reduce_to_stacks

    rows: list[dict[str, Any]] = list(done or [])
    dropped: dict[str, int] = {}  # 'method sat|unsat' -> the n at which it was given up
    finished = {(r["n"], r["seed"]) for r in rows}
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[now]}"),
        console=console,
    ) as bar:
        task = bar.add_task("deciding boards", total=len(ns) * 2 * per_answer * len(methods), now="")
        for n in ns:
            streak = {f"{m} {a}": 0 for m in methods for a in ("sat", "unsat")}
            bar.update(task, now=f"n={n}: drawing formulas")
            for seed, clauses, sat, cnf_cpu in pick_formulas(n, per_answer):
                if (n, seed) in finished:
                    bar.advance(task, len(methods))
                    continue
                board = reduce_to_stacks(normalize_3cnf(clauses, n_vars=n)).board
                row: dict[str, Any] = {
                    "n": n,
                    "m": len(clauses),
                    "seed": seed,
                    "satisfiable": sat,
                    "tiles": len(board),
                    "minisat_cpu_seconds": cnf_cpu,
                }
                answer = "sat" if sat else "unsat"
                for label in methods:
                    key = f"{label} {answer}"
                    if key in dropped:
                        row[label] = {"status": "skipped"}
                        bar.advance(task)
                        continue
                    bar.update(task, now=f"n={n} seed {seed} {label}")
                    got = _run(board, label, time_limit)
                    if got["status"] in ("solvable", "unsolvable") and (got["status"] == "solvable") != sat:
                        raise AssertionError(f"{label} says {got['status']} on n={n} seed {seed}, the CNF is sat={sat}")
                    row[label] = got
                    streak[key] = streak[key] + 1 if got["status"] == "unknown" else 0
                    if streak[key] >= give_up:
                        dropped[key] = n
                    bar.advance(task)
                bar.console.print(
                    f"n={n} seed={seed} sat={sat} tiles={len(board)} minisat={cnf_cpu * 1e3:.3f} ms "
                    + " ".join(f"{m}={_cell(row[m], row, time_limit)}" for m in methods)
                )
                rows.append(row)
                if out_path is not None:
                    _write(out_path, {**header, "decide": rows, "dropped": dropped})
    return rows


def _cell(got: dict[str, Any], row: dict[str, Any], limit: float) -> str:
    """A method's cell: CPU seconds and the ratio to MiniSat on the formula, ``>LIMIT``
    for ``unknown`` (``mem`` when the model was above the memory bound), ``n/a``, ``-``."""
    status = got["status"]
    if status in ("solvable", "unsolvable"):
        return f"{got['cpu_seconds']:.2f} (x{got['cpu_seconds'] / max(row['minisat_cpu_seconds'], 1e-9):,.0f})"
    if status == "unknown":
        if "memory bound" in got.get("reason", ""):
            return f"mem ({got['cpu_seconds']:.1f})"
        return f">{limit:g}"
    return {"n/a": "n/a", "skipped": "-"}.get(status, status)


def _summary(decide: list[dict[str, Any]], methods: list[str]) -> list[dict[str, Any]]:
    """Per n and answer: the median MiniSat CPU, and per method the boards decided and the
    median ratio of the decided ones to MiniSat."""
    out = []
    for n in sorted({r["n"] for r in decide}):
        for sat in (True, False):
            rs = [r for r in decide if r["n"] == n and r["satisfiable"] == sat]
            if not rs:
                continue
            entry: dict[str, Any] = {
                "n": n,
                "satisfiable": sat,
                "formulas": len(rs),
                "minisat_cpu_median": statistics.median(r["minisat_cpu_seconds"] for r in rs),
            }
            for m in methods:
                decided = [r for r in rs if r[m]["status"] in ("solvable", "unsolvable")]
                e: dict[str, Any] = {
                    "decided": len(decided),
                    "run": sum(r[m]["status"] not in ("skipped", "n/a") for r in rs),
                }
                if decided:
                    e["cpu_median"] = statistics.median(r[m]["cpu_seconds"] for r in decided)
                    e["ratio_median"] = statistics.median(
                        r[m]["cpu_seconds"] / max(r["minisat_cpu_seconds"], 1e-9) for r in decided
                    )
                entry[m] = e
            out.append(entry)
    return out


def markdown_tables(
    decide: list[dict[str, Any]], summary: list[dict[str, Any]], methods: list[str], limit: float
) -> str:
    """The per-board table and the summary as Markdown (the cells of the printed tables)."""
    head = ["n", "seed", "answer", "tiles", "MiniSat ms", *methods]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in decide:
        cells = [str(r["n"]), str(r["seed"]), "sat" if r["satisfiable"] else "unsat", f"{r['tiles']:,}"]
        cells += [f"{r['minisat_cpu_seconds'] * 1e3:.3f}", *[_cell(r[m], r, limit) for m in methods]]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "| n | answer | MiniSat ms | " + " | ".join(methods) + " |", "|" + "---|" * (3 + len(methods))]
    for e in summary:
        cells = [str(e["n"]), "sat" if e["satisfiable"] else "unsat", f"{e['minisat_cpu_median'] * 1e3:.3f}"]
        for m in methods:
            x = e[m]
            cells.append(f"{x['decided']}/{x['run']}" + (f" x{x['ratio_median']:,.0f}" if x["decided"] else ""))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _limit_check(n: int, limit: float, methods: list[str]) -> list[dict[str, Any]]:
    """Each method once on the stack board of the first formula of ``n`` variables
    (seed ``1000 n``) with a CPU limit of ``limit`` seconds: the CPU it took to answer."""
    from mjsat.reductions.cnf import normalize_3cnf
    from mjsat.reductions.families import random_3cnf
    from mjsat.reductions.stacks import reduce_to_stacks

    clauses = random_3cnf(n, ratio=4.26, rng=1000 * n)
    board = reduce_to_stacks(normalize_3cnf(clauses, n_vars=n)).board
    out = []
    for label in methods:
        got = _run(board, label, limit)
        out.append({"method": label, "n": n, "tiles": len(board), "limit": limit, **got})
        print(f"limit check n={n} {label}: {got['status']} after {got.get('cpu_seconds', 0.0):.2f} s CPU")
    return out


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench_reductions")
    p.add_argument("--quick", action="store_true")
    p.add_argument(
        "--time-limit", type=float, default=None, help="CPU seconds per method and board (default 60; quick 10)."
    )
    p.add_argument("--methods", default=DEFAULT_METHODS, help=f"Comma-separated, of: {', '.join(METHODS)}.")
    p.add_argument(
        "--ns", default=None, help="Comma-separated numbers of variables (default 10,20,30,50,100; quick 10)."
    )
    p.add_argument(
        "--per-answer",
        type=int,
        default=None,
        help="Satisfiable and unsatisfiable formulas per n (default 3; quick 1).",
    )
    p.add_argument("--give-up", type=int, default=3, help="Consecutive unknowns after which a method is dropped.")
    p.add_argument(
        "--build-clauses", type=int, default=None, help="Clauses of the build benchmark (default 10,000; quick 2,000)."
    )
    p.add_argument(
        "--limit-check",
        type=int,
        default=None,
        metavar="N",
        help="Also run each method once with a CPU limit of 10 s on the board of N variables (e.g. 50).",
    )
    p.add_argument("--no-build", action="store_true", help="Skip the build benchmark.")
    p.add_argument("--no-decide", action="store_true", help="Skip the comparison.")
    p.add_argument("--out", default=str(RESULTS / "reductions.json"))
    p.add_argument("--markdown", default=None, help="Also write the decide tables as Markdown to this file.")
    p.add_argument(
        "--resume", action="store_true", help="Keep the boards already decided in --out and run only the others."
    )
    args = p.parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    quick = args.quick
    limit = args.time_limit or (10.0 if quick else 60.0)
    methods = [m for m in args.methods.split(",") if m]
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        p.error(f"unknown method {unknown[0]!r} (known: {', '.join(METHODS)})")
    ns = [int(x) for x in args.ns.split(",")] if args.ns else ([10] if quick else [10, 20, 30, 50, 100])
    per_answer = args.per_answer or (1 if quick else 3)
    out_path = Path(args.out)
    console = Console(width=max(Console().width, 200))
    header: dict[str, Any] = {
        "quick": quick,
        "time_limit": limit,
        "clock": "cpu",
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
    if args.limit_check:
        header["limit_check"] = _limit_check(args.limit_check, 10.0, methods)
        _write(out_path, header)
    decide: list[dict[str, Any]] = []
    summary: list[dict[str, Any]] = []
    if not args.no_decide:
        done = json.loads(out_path.read_text()).get("decide", []) if args.resume and out_path.exists() else []
        decide = _bench_decide(ns, per_answer, methods, limit, args.give_up, out_path, header, done)
        summary = _summary(decide, methods)
        t = Table(
            "n",
            "seed",
            "sat",
            "tiles",
            "MiniSat ms",
            *methods,
            title=f"CPU s per board (x ratio to MiniSat 2.2 on the formula); random 3-CNF at ratio 4.26, "
            f"CPU limit {limit:g} s (>{limit:g}: unknown; mem: above the memory bound; -: given up)",
        )
        for r in decide:
            t.add_row(
                str(r["n"]),
                str(r["seed"]),
                "sat" if r["satisfiable"] else "unsat",
                f"{r['tiles']:,}",
                f"{r['minisat_cpu_seconds'] * 1e3:.3f}",
                *[_cell(r[m], r, limit) for m in methods],
            )
        console.print(t)
        t = Table("n", "answer", "MiniSat ms", *methods, title="median ratio to MiniSat of the decided boards")
        for e in summary:
            t.add_row(
                str(e["n"]),
                "sat" if e["satisfiable"] else "unsat",
                f"{e['minisat_cpu_median'] * 1e3:.3f}",
                *[
                    f"{e[m]['decided']}/{e[m]['run']}" + (f" x{e[m]['ratio_median']:,.0f}" if e[m]["decided"] else "")
                    for m in methods
                ],
            )
        console.print(t)
        if args.markdown:
            Path(args.markdown).write_text(markdown_tables(decide, summary, methods, limit))
    _write(out_path, {**header, "decide": decide, "summary": summary})
    console.print(f"wrote {out_path}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
