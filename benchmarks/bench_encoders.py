"""SAT encodings x solvers and CP-SAT on seeded deals and on the reduction boards.

``python -m benchmarks.bench_encoders [--quick] [--deals N] [--other N] [--time-limit S]``

Targets (issue 5), build + solve, one core: the best SAT encoding on 1,000 seeded turtle
deals median at most 20 ms, p99 at most 200 ms, max at most 1 s; the 420-tile reduction
board (all eight clauses on three variables, isolated stacks) decided in at most 2 s and
its 980-tile rows version in at most 10 s. Every encoding x solver (CaDiCaL 1.9.5 and
Glucose 4) and CP-SAT run on the turtle deals, on ``--other`` deals each of the
xmahjongg ``bridge`` and ``ox`` layouts (from ``../shared/layout-sources``, skipped when
absent), on the reduction boards when ``mjsat.reductions`` provides them, and beside the
numba search when the ``search`` method is registered. Build and solve time are
reported separately (median, p99, max), with the number decided within the time limit
and the CNF sizes. The order encoding (:math:`O(n^3)` clauses) runs only on boards of
at most ``--order-max`` tiles. Writes ``benchmarks/results/encoders.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
SOURCES = Path(__file__).resolve().parents[2] / "shared" / "layout-sources" / "xmahjongg"

CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("sat auto / cadical195", "sat", {"solver": "cadical195"}),
    ("sat auto / glucose4", "sat", {"solver": "glucose4"}),
    ("sat layered / cadical195", "sat", {"encoding": "layered", "solver": "cadical195"}),
    ("sat layered / glucose4", "sat", {"encoding": "layered", "solver": "glucose4"}),
    ("sat acyclic / cadical195", "sat", {"encoding": "acyclic", "solver": "cadical195"}),
    ("sat acyclic / glucose4", "sat", {"encoding": "acyclic", "solver": "glucose4"}),
    ("sat order / glucose4", "sat", {"encoding": "order", "solver": "glucose4"}),
    ("cpsat (1 worker)", "cpsat", {"workers": 1}),
    ("search (numba)", "search", {}),
]


SHISEN_MAX = 1000
"""Largest Shisen-Sho reduction board run: the candidate paths are computed in Python,
:math:`O(P (h + w)^2)`, far too slow for the 3,780-tile board on a 9 x 559 grid."""


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def reduction_boards() -> list[tuple[str, Any]]:
    """The reduction boards of the issue, when ``mjsat.reductions`` provides them (the hook)."""
    try:
        from mjsat.reductions.cnf import complete_cnf, normalize_3cnf
        from mjsat.reductions.rows import reduce_to_rows
        from mjsat.reductions.stacks import reduce_to_stacks
    except ImportError:
        return []
    formula = normalize_3cnf(complete_cnf(3))
    out = [("reduction stacks (all 8 clauses)", reduce_to_stacks(formula).board)]
    out.append(("reduction rows (all 8 clauses)", reduce_to_rows(formula).board))
    try:
        from mjsat.reductions.shisen import reduce_to_shisen

        board = reduce_to_shisen(formula).board
        if len(board) <= SHISEN_MAX:
            out.append(("reduction shisen (all 8 clauses)", board))
    except (ImportError, AttributeError, ValueError):  # pragma: no cover - optional
        pass
    return out


def deal_sets(args: argparse.Namespace) -> list[tuple[str, list[Any]]]:
    from mjsat.deal import deal_random
    from mjsat.layouts import load_layout

    sets: list[tuple[str, list[Any]]] = []
    if args.deals:
        turtle = load_layout("turtle")
        sets.append((f"turtle x{args.deals}", [deal_random(turtle, seed=s) for s in range(args.deals)]))
    for name in ("bridge", "ox"):
        path = SOURCES / name
        if path.exists() and args.other:
            layout = load_layout(str(path))
            sets.append((f"{name} x{args.other}", [deal_random(layout, seed=s) for s in range(args.other)]))
    if not args.no_reductions:
        for label, board in reduction_boards():
            sets.append((label, [board]))
    return sets


def run_config(method: str, options: dict[str, Any], board: Any, time_limit: float) -> dict[str, Any]:
    from mjsat.methods import solve

    res = solve(board, method, time_limit=time_limit, **options)
    st = res.stats
    return {
        "status": res.status,
        "seconds": res.seconds,
        "build": float(st.get("build_seconds", 0.0)),
        "solve": float(st.get("solve_seconds", res.seconds)),
        "variables": st.get("variables"),
        "clauses": st.get("clauses", st.get("constraints")),
        "tried": st.get("tried"),
    }


def summarize(runs: list[dict[str, Any]], time_limit: float) -> dict[str, Any]:
    total = [r["seconds"] for r in runs]
    build = [r["build"] for r in runs]
    solve_ = [r["solve"] for r in runs]
    sizes = [r["clauses"] for r in runs if r["clauses"] is not None]
    nvars = [r["variables"] for r in runs if r["variables"] is not None]
    decided = sum(1 for r in runs if r["status"] != "unknown" and r["seconds"] <= time_limit)
    return {
        "runs": len(runs),
        "decided": decided,
        "solvable": sum(1 for r in runs if r["status"] == "solvable"),
        "unsolvable": sum(1 for r in runs if r["status"] == "unsolvable"),
        "total_median": statistics.median(total),
        "total_p99": _pct(total, 0.99),
        "total_max": max(total),
        "build_median": statistics.median(build),
        "build_p99": _pct(build, 0.99),
        "build_max": max(build),
        "solve_median": statistics.median(solve_),
        "solve_p99": _pct(solve_, 0.99),
        "solve_max": max(solve_),
        "clauses_median": statistics.median(sizes) if sizes else None,
        "variables_median": statistics.median(nvars) if nvars else None,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_encoders", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="20 turtle deals, 5 each of bridge and ox")
    ap.add_argument("--deals", type=int, default=None, help="turtle deals (default 1,000)")
    ap.add_argument("--other", type=int, default=None, help="deals of bridge and of ox (default 100)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per run (default 60)")
    ap.add_argument("--order-max", type=int, default=60, help="largest board for the order encoding")
    ap.add_argument("--no-reductions", action="store_true", help="skip the reduction boards")
    ap.add_argument("--only", default=None, help="comma-separated substrings of the configurations to run")
    ap.add_argument("--output", default=str(RESULTS / "encoders.json"))
    args = ap.parse_args(argv)
    args.deals = args.deals if args.deals is not None else (20 if args.quick else 1000)
    args.other = args.other if args.other is not None else (5 if args.quick else 100)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from mjsat.methods import METHODS

    configs = [c for c in CONFIGS if c[1] in METHODS]
    if args.only:
        keys = [k.strip() for k in args.only.split(",")]
        configs = [c for c in configs if any(k in c[0] for k in keys)]
    sets = deal_sets(args)
    results: dict[str, dict[str, Any]] = {}
    skipped: list[str] = []
    t_start = time.perf_counter()
    with Progress(transient=True) as bar:
        for set_name, boards in sets:
            for label, method, options in configs:
                if "order" in label and len(boards[0]) > args.order_max:
                    skipped.append(f"{label} on {set_name}: {len(boards[0])} tiles > --order-max {args.order_max}")
                    continue
                task = bar.add_task(f"{set_name}: {label}", total=len(boards))
                runs = []
                for board in boards:
                    runs.append(run_config(method, options, board, args.time_limit))
                    bar.advance(task)
                bar.remove_task(task)
                summary = summarize(runs, args.time_limit)
                results.setdefault(set_name, {})[label] = summary
                bar.console.print(
                    f"{set_name}: {label}: {summary['decided']}/{summary['runs']} decided, "
                    f"median {1000 * summary['total_median']:.1f} ms, max {1000 * summary['total_max']:.1f} ms"
                )
                _write(args, results, skipped, t_start, partial=True)

    console = Console()
    for set_name, per in results.items():
        table = Table(title=f"{set_name} (ms; build + solve; time limit {args.time_limit:g} s)")
        for col in ("configuration", "decided", "sol/unsol", "total med", "p99", "max", "build med", "build max", "solve med", "solve p99", "solve max", "clauses"):
            table.add_column(col, justify="right" if col != "configuration" else "left")
        for label, s in per.items():
            table.add_row(
                label,
                f"{s['decided']}/{s['runs']}",
                f"{s['solvable']}/{s['unsolvable']}",
                *(f"{1000 * s[k]:.1f}" for k in ("total_median", "total_p99", "total_max", "build_median", "build_max", "solve_median", "solve_p99", "solve_max")),
                "" if s["clauses_median"] is None else f"{s['clauses_median']:.0f}",
            )
        console.print(table)
    for line in skipped:
        console.print(f"skipped: {line}")
    _write(args, results, skipped, t_start, partial=False)
    console.print(f"wrote {args.output}")
    return 0


def _write(args: argparse.Namespace, results: dict, skipped: list[str], t_start: float, *, partial: bool) -> None:
    """Write the JSON (after every configuration too, so an interrupted run keeps its figures)."""
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "benchmark": "encoders",
        "partial": partial,
        "deals": args.deals,
        "other": args.other,
        "time_limit": args.time_limit,
        "wall_seconds": time.perf_counter() - t_start,
        "cpu_count": os.cpu_count(),
        "load_average": os.getloadavg(),
        "results": results,
        "skipped": skipped,
    }
    Path(args.output).write_text(json.dumps(payload, indent=1))


if __name__ == "__main__":
    import sys

    sys.exit(main())
