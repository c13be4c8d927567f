"""SAT encodings x solvers and CP-SAT on seeded deals and on the reduction boards.

``python -m benchmarks.bench_encoders [--quick] [--deals N] [--subset N] [--other N]
[--other-subset N] [--time-limit S] [--only SUBSTRINGS] [--phases 1,2,...]``

Targets (issue 5), build + solve, one core: the best SAT encoding on 1,000 seeded turtle
deals median at most 20 ms, p99 at most 200 ms, max at most 1 s; the 420-tile reduction
board (all eight clauses on three variables, isolated stacks) decided in at most 2 s and
its 980-tile rows version in at most 10 s.

Every run goes through :func:`mjsat.methods.solve` (so a ``solvable`` answer is replayed)
in this one process; its CPU time (``time.process_time``) is measured around the call,
and the ``sat`` method's own build and solve CPU times are reported apart. The runs are
done in phases, most important first, and the JSON is rewritten after every
configuration, so a run cut short keeps what it measured:

1. turtle, ``--deals`` deals: ``sat auto`` with each solver, and the numba search;
2. the reduction boards (when ``mjsat.reductions`` provides them): every configuration
   but the stepped encodings alone;
3. xmahjongg ``bridge`` and ``ox`` (from ``../shared/layout-sources``, skipped when
   absent), ``--other`` deals each: ``auto``, ``acyclic``, CP-SAT and the search;
4. turtle, the first ``--subset`` deals: ``parity``, ``layered``, ``acyclic`` alone, CP-SAT;
5. bridge and ox, the first ``--other-subset`` deals: ``parity`` and ``layered`` alone;
6. the reduction boards with ``parity`` and ``layered`` alone (their CNF at the proved
   step bound has millions of clauses).

Before the timed runs of a configuration on a set, one untimed run on the set's first
board (``--no-warmup`` to skip it) takes the one-time costs: numba compiling or loading
its cache (a stale cache took 26 to 30 s on the first deal), imports, the layout caches.

The order encoding (:math:`O(n^3)` clauses) runs only on boards of at most
``--order-max`` tiles (none of the above). Writes ``benchmarks/results/encoders.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
SOURCES = Path(__file__).resolve().parents[2] / "shared" / "layout-sources" / "xmahjongg"

SOLVERS = ("minisat22", "glucose4", "cadical195")
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    **{f"sat auto / {s}": ("sat", {"solver": s}) for s in SOLVERS},
    **{f"sat parity / {s}": ("sat", {"encoding": "parity", "solver": s}) for s in SOLVERS},
    **{f"sat layered / {s}": ("sat", {"encoding": "layered", "solver": s}) for s in SOLVERS},
    **{f"sat acyclic / {s}": ("sat", {"encoding": "acyclic", "solver": s}) for s in SOLVERS},
    "sat order / glucose4": ("sat", {"encoding": "order", "solver": "glucose4"}),
    "cpsat (1 worker)": ("cpsat", {"workers": 1}),
    "search (numba)": ("search", {}),
}
AUTO = [f"sat auto / {s}" for s in SOLVERS]
STEPPED = [f"sat {e} / {s}" for e in ("parity", "layered") for s in SOLVERS]
ACYCLIC = [f"sat acyclic / {s}" for s in SOLVERS]

SHISEN_MAX = 1000
"""Largest Shisen-Sho reduction board run: the candidate paths are computed in Python,
:math:`O(P (h + w)^2)`, far too slow for the 3,780-tile board on a 9 x 559 grid."""


def _pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile, nearest rank (p99 of 1,000 values: the 990th smallest)."""
    s = sorted(xs)
    if not s:
        return float("nan")
    k = max(0, min(len(s) - 1, math.ceil(q * len(s) - 1e-9) - 1))
    return s[k]


def reduction_boards() -> list[tuple[str, Any]]:
    """The reduction boards of the issue, when ``mjsat.reductions`` provides them (the hook)."""
    try:
        from mjsat.reductions.cnf import normalize_3cnf
        from mjsat.reductions.families import complete_cnf
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


def layout_deals(name: str, count: int) -> tuple[str, list[Any]] | None:
    """``count`` seeded uniform deals (seeds ``0..count-1``) of a layout, or ``None``."""
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    if name == "turtle":
        layout = load_layout("turtle")
    else:
        path = SOURCES / name
        if not path.exists():
            return None
        layout = load_layout(str(path))
    return name, [deal_random(layout, seed=s) for s in range(count)]


def run_config(method: str, options: dict[str, Any], board: Any, time_limit: float) -> dict[str, Any]:
    from mjsat.methods import solve

    c0 = time.process_time()
    res = solve(board, method, time_limit=time_limit, **options)
    cpu = time.process_time() - c0
    st = res.stats
    return {
        "status": res.status,
        "seconds": res.seconds,
        "cpu": cpu,
        "build_cpu": float(st.get("build_cpu_seconds", 0.0)),
        "solve_cpu": float(st.get("solve_cpu_seconds", cpu)),
        "variables": st.get("variables"),
        "clauses": st.get("clauses", st.get("constraints")),
        "tried": st.get("tried"),
    }


def summarize(runs: list[dict[str, Any]], time_limit: float) -> dict[str, Any]:
    def stat(key: str) -> dict[str, float]:
        xs = [r[key] for r in runs]
        return {"median": statistics.median(xs), "p99": _pct(xs, 0.99), "max": max(xs)}

    sizes = [r["clauses"] for r in runs if r["clauses"] is not None]
    nvars = [r["variables"] for r in runs if r["variables"] is not None]
    tried: dict[str, int] = {}
    for r in runs:
        if r["tried"]:
            key = " + ".join(t.split(":")[0] for t in r["tried"])
            tried[key] = tried.get(key, 0) + 1
    return {
        "runs": len(runs),
        "decided": sum(1 for r in runs if r["status"] != "unknown" and r["seconds"] <= time_limit),
        "solvable": sum(1 for r in runs if r["status"] == "solvable"),
        "unsolvable": sum(1 for r in runs if r["status"] == "unsolvable"),
        "cpu": stat("cpu"),
        "wall": stat("seconds"),
        "build_cpu": stat("build_cpu"),
        "solve_cpu": stat("solve_cpu"),
        "clauses": {"median": statistics.median(sizes), "max": max(sizes)} if sizes else None,
        "variables": {"median": statistics.median(nvars), "max": max(nvars)} if nvars else None,
        "tried": tried,
        "cpu_each": [round(r["cpu"], 6) for r in runs],
        "status_each": [r["status"] for r in runs],
    }


def plan(args: argparse.Namespace) -> list[tuple[int, str, list[str], int | None]]:
    """The jobs ``(phase, set, configurations, first N boards or all)`` in running order."""
    others = ["bridge", "ox"]
    reductions = [label for label, _ in args.reductions]
    rest = ACYCLIC + ["cpsat (1 worker)", "search (numba)"]
    jobs = [(1, "turtle", AUTO + ["search (numba)"], args.deals)]
    jobs += [(2, r, AUTO + rest, None) for r in reductions]
    jobs += [(3, o, AUTO + rest, args.other) for o in others]
    jobs += [(4, "turtle", STEPPED + ACYCLIC + ["cpsat (1 worker)"], args.subset)]
    jobs += [(5, o, STEPPED, args.other_subset) for o in others]
    jobs += [(6, r, STEPPED, None) for r in reductions]
    return [j for j in jobs if j[0] in args.phases]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_encoders", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="20 turtle deals (10 for the subset), 5 each of bridge and ox")
    ap.add_argument(
        "--deals", type=int, default=None, help="turtle deals for the phase-1 configurations (default 1,000)"
    )
    ap.add_argument("--subset", type=int, default=None, help="turtle deals for the others (default 200)")
    ap.add_argument("--other", type=int, default=None, help="deals of bridge and of ox (default 100)")
    ap.add_argument(
        "--other-subset",
        type=int,
        default=None,
        help="bridge and ox deals for the stepped encodings alone (default 30)",
    )
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per run (default 60)")
    ap.add_argument("--phases", default="1,2,3,4,5,6", help="comma-separated phases to run (see the module docstring)")
    ap.add_argument("--order-max", type=int, default=60, help="largest board for the order encoding")
    ap.add_argument("--no-reductions", action="store_true", help="skip the reduction boards")
    ap.add_argument("--only", default=None, help="comma-separated substrings of the configurations to run")
    ap.add_argument("--no-warmup", action="store_true", help="time the first run of each configuration too")
    ap.add_argument("--output", default=str(RESULTS / "encoders.json"))
    args = ap.parse_args(argv)
    args.deals = args.deals if args.deals is not None else (20 if args.quick else 1000)
    args.subset = args.subset if args.subset is not None else (10 if args.quick else 200)
    args.other = args.other if args.other is not None else (5 if args.quick else 100)
    args.other_subset = args.other_subset if args.other_subset is not None else (3 if args.quick else 30)
    args.phases = {int(p) for p in args.phases.split(",") if p.strip()}
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

    from mjsat.methods import METHODS

    args.reductions = [] if args.no_reductions else reduction_boards()
    boards: dict[str, list[Any]] = {label: [b] for label, b in args.reductions}
    results: dict[str, dict[str, Any]] = {}
    skipped: list[str] = []
    t_start = time.perf_counter()
    keys = [k.strip() for k in args.only.split(",")] if args.only else None
    for phase, set_name, labels, count in plan(args):
        if set_name not in boards:
            got = layout_deals(
                set_name, max(args.deals, args.subset) if set_name == "turtle" else max(args.other, args.other_subset)
            )
            if got is None:
                skipped.append(f"{set_name}: layout file not found under {SOURCES}")
                boards[set_name] = []
                continue
            boards[set_name] = got[1]
        chosen = boards[set_name][:count] if count is not None else boards[set_name]
        if not chosen:
            continue
        for label in labels:
            method, options = CONFIGS[label]
            if method not in METHODS or (keys and not any(k in label for k in keys)):
                continue
            if "order" in label and len(chosen[0]) > args.order_max:
                skipped.append(f"{label} on {set_name}: {len(chosen[0])} tiles > --order-max {args.order_max}")
                continue
            if not args.no_warmup:
                # untimed: numba compiling (or loading its cache), imports, layout caches
                run_config(method, options, chosen[0], args.time_limit)
            t0 = time.perf_counter()
            runs = [run_config(method, options, b, args.time_limit) for b in chosen]
            s = summarize(runs, args.time_limit)
            s["phase"] = phase
            s["elapsed"] = time.perf_counter() - t0
            results.setdefault(f"{set_name} x{len(chosen)}", {})[label] = s
            print(
                f"[{time.strftime('%H:%M:%S')}] {set_name} x{len(chosen)}: {label}: {s['decided']}/{s['runs']} decided "
                f"({s['solvable']}/{s['unsolvable']}), CPU median {1000 * s['cpu']['median']:.1f} ms, "
                f"p99 {1000 * s['cpu']['p99']:.1f} ms, max {1000 * s['cpu']['max']:.1f} ms "
                f"({s['elapsed']:.0f} s)",
                flush=True,
            )
            _write(args, results, skipped, t_start, partial=True)
    _write(args, results, skipped, t_start, partial=False)
    print(f"wrote {args.output}")
    return 0


def _write(args: argparse.Namespace, results: dict, skipped: list[str], t_start: float, *, partial: bool) -> None:
    """Write the JSON (after every configuration too, so an interrupted run keeps its figures)."""
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "benchmark": "encoders",
        "partial": partial,
        "deals": args.deals,
        "subset": args.subset,
        "other": args.other,
        "other_subset": args.other_subset,
        "time_limit": args.time_limit,
        "warmup": not args.no_warmup,
        "wall_seconds": time.perf_counter() - t_start,
        "cpu_seconds": time.process_time(),
        "cpu_count": os.cpu_count(),
        "load_average": os.getloadavg(),
        "results": results,
        "skipped": skipped,
    }
    Path(args.output).write_text(json.dumps(payload, indent=1))


if __name__ == "__main__":
    import sys

    sys.exit(main())
