"""Benchmark of the reductions: building boards, and deciding them next to the CNF itself.

``python -m benchmarks.run reductions [--quick]`` or
``python -m benchmarks.bench_reductions [--quick] [--time-limit S] [--methods sat,cpsat]``.

1. Build: a random 3-CNF with 10,000 clauses (ratio 4.26) becomes a stack board and a
   rows board; the target is under 2 s for the stack board.
2. Decide: random 3-CNF at ratio 4.26 with n = 10, 20, 30, 40, 50 (10 formulas each;
   ``--quick``: n = 10, 20 with 3 formulas): python-sat (CaDiCaL 1.9.5) on the CNF, then
   each exact method on the stack board, each with a time limit (on building as well as
   solving, as far as the method checks it). Every method's answer
   is checked against the CNF's (a disagreement fails the benchmark).

Writes ``benchmarks/results/reductions.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def _bench_build(clauses: int) -> list[dict]:
    from mjsat.reductions.cnf import normalize_3cnf, random_3cnf
    from mjsat.reductions.rows import reduce_to_rows
    from mjsat.reductions.stacks import reduce_to_stacks

    n = round(clauses / 4.26)
    f = normalize_3cnf(random_3cnf(n, m=clauses, rng=1), n_vars=n)
    out = []
    for name, fn in (("stacks", reduce_to_stacks), ("rows", reduce_to_rows)):
        t = time.perf_counter()
        red = fn(f)
        dt = time.perf_counter() - t
        out.append({"target": name, "clauses": clauses, "variables": n, "tiles": len(red.board), "seconds": dt})
    return out


def _decide_cnf(clauses: list[list[int]]) -> tuple[bool, float]:
    from pysat.solvers import Solver

    t = time.perf_counter()
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        sat = s.solve()
    return bool(sat), time.perf_counter() - t


_METHOD_OPTIONS = {"sat-acyclic": ("sat", {"encoding": "acyclic"}), "sat-auto": ("sat", {}), "cpsat": ("cpsat", {}), "search": ("search", {})}


def _bench_decide(ns: list[int], per_n: int, methods: list[str], time_limit: float) -> list[dict]:
    from mjsat.methods import METHODS, solve
    from mjsat.reductions.cnf import normalize_3cnf, random_3cnf
    from mjsat.reductions.stacks import reduce_to_stacks

    rows = []
    for n in ns:
        for k in range(per_n):
            clauses = random_3cnf(n, ratio=4.26, rng=1000 * n + k)
            sat, cnf_s = _decide_cnf(clauses)
            board = reduce_to_stacks(normalize_3cnf(clauses, n_vars=n)).board
            row = {"n": n, "seed": 1000 * n + k, "satisfiable": sat, "tiles": len(board), "cnf_seconds": cnf_s}
            for label in methods:
                name, options = _METHOD_OPTIONS[label]
                if name not in METHODS:
                    continue
                t = time.perf_counter()
                res = solve(board, name, time_limit=time_limit, **options)
                dt = time.perf_counter() - t
                if res.status != "unknown" and (res.status == "solvable") != sat:
                    raise AssertionError(f"{label} says {res.status} on n={n} seed {row['seed']}, the CNF is sat={sat}")
                row[label] = {"status": res.status, "seconds": dt}
            print(f"n={n} seed={row['seed']} sat={sat} " + " ".join(f"{m}={row[m]['status']}/{row[m]['seconds']:.1f}s" for m in methods if m in row), flush=True)
            rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench_reductions")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--time-limit", type=float, default=None)
    p.add_argument("--methods", default="sat-acyclic,sat-auto,cpsat,search")
    p.add_argument("--ns", default=None, help="Comma-separated numbers of variables (default 10,...,50; quick 10,20).")
    p.add_argument("--per-n", type=int, default=None, help="Formulas per n (default 10; quick 3).")
    p.add_argument("--build-clauses", type=int, default=None, help="Clauses of the build benchmark (default 10,000; quick 2,000).")
    args = p.parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    quick = args.quick
    limit = args.time_limit or (10.0 if quick else 60.0)
    methods = [m for m in args.methods.split(",") if m]
    ns = [int(x) for x in args.ns.split(",")] if args.ns else ([10, 20] if quick else [10, 20, 30, 40, 50])
    per_n = args.per_n or (3 if quick else 10)
    build = _bench_build(args.build_clauses or (2000 if quick else 10_000))
    decide = _bench_decide(ns, per_n, methods, limit)
    console = Console()
    t = Table("target", "clauses", "tiles", "seconds", title="building boards")
    for r in build:
        t.add_row(r["target"], str(r["clauses"]), str(r["tiles"]), f"{r['seconds']:.2f}")
    console.print(t)
    t = Table("n", "sat/unsat", "tiles", "CNF (CaDiCaL)", *[f"{m} (solved)" for m in methods],
              title=f"median seconds to decide, ratio 4.26, limit {limit:g} s")
    summary = []
    for n in sorted({r["n"] for r in decide}):
        rs = [r for r in decide if r["n"] == n]
        cells = []
        entry = {"n": n, "formulas": len(rs), "satisfiable": sum(r["satisfiable"] for r in rs),
                 "tiles": rs[0]["tiles"], "cnf_median": statistics.median(r["cnf_seconds"] for r in rs)}
        for m in methods:
            got = [r[m] for r in rs if m in r]
            if not got:
                cells.append("-")
                continue
            solved = sum(g["status"] != "unknown" for g in got)
            med = statistics.median(g["seconds"] for g in got)
            entry[m] = {"median": med, "solved": solved}
            cells.append(f"{med:.2f} ({solved}/{len(got)})")
        summary.append(entry)
        t.add_row(str(n), f"{entry['satisfiable']}/{len(rs) - entry['satisfiable']}", str(entry["tiles"]),
                  f"{entry['cnf_median']:.4f}", *cells)
    console.print(t)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "reductions.json").write_text(
        json.dumps({"quick": quick, "time_limit": limit, "build": build, "decide": decide, "summary": summary}, indent=1) + "\n"
    )
    console.print(f"wrote {RESULTS / 'reductions.json'}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
