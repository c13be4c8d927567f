"""Shisen-Sho families, every exact method: CPU per board and the boards left undecided.

``python -m benchmarks.bench_shisen [--quick] [-n N] [--time-limit S]
[--family NAME ...] [--method NAME ...]``

Families (issue 21): full rectangles of 6 x 8, 8 x 12 and 9 x 16 tiles in groups of four
(KShisen's default board is the last), an 8 x 12 rectangle of mostly pairs (four groups
of four, the rest pairs), and small boards with holes (at most 20 tiles, groups of two
and four, :func:`mjsat.generate.random_grid_board`). Methods ``auto``, ``search``,
``sat`` and ``cpsat``, each through :func:`mjsat.methods.solve` in this process (a
``solvable`` answer is replayed). For each family and method: CPU mean, median, p99 and
max per board, the counts of each status, and the boards on which two methods gave
opposite verdicts (always expected to be 0). Target (issue 21): over 100 random 9 x 16
deals, ``auto`` answers no ``unknown`` at 30 s and its max is within 2x of ``search``'s.
Writes ``benchmarks/results/shisen.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"

METHODS = ("auto", "search", "sat", "cpsat")


def _full(width: int, height: int) -> Callable[[int], Any]:
    """Seed -> a uniformly dealt full ``height x width`` rectangle in groups of four."""

    def make(seed: int) -> Any:
        from mjsat.deals import deal_random
        from mjsat.layouts import load_layout

        return deal_random(load_layout(f"rect-{width}x{height}"), seed=seed, game="shisen-sho")

    return make


def _mostly_pairs(seed: int) -> Any:
    """Seed -> an 8 x 12 rectangle of four groups of four and 40 pairs."""
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    layout = load_layout("rect-12x8")
    return deal_random(layout, seed=seed, game="shisen-sho", group_sizes=[4] * 4 + [2] * ((len(layout) - 16) // 2))


def _small(seed: int) -> Any:
    """Seed -> a small board with holes (at most 6 x 5 cells and 20 tiles)."""
    import numpy as np

    from mjsat.generate import random_grid_board

    return random_grid_board(np.random.default_rng(seed), max_width=6, max_height=5, max_tiles=20)


FAMILIES: dict[str, tuple[Callable[[int], Any], int]] = {
    # name -> (seed -> board, default number of boards)
    "full-6x8": (_full(8, 6), 100),
    "full-8x12": (_full(12, 8), 100),
    "full-9x16": (_full(16, 9), 100),
    "pairs-8x12": (_mostly_pairs, 100),
    "small": (_small, 2000),
}


def _pct(xs: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile."""
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_shisen", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="10 boards per family (100 small ones)")
    ap.add_argument("-n", type=int, default=None, help="boards per family (default: each family's own)")
    ap.add_argument("--seed-start", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per board and method")
    ap.add_argument("--family", action="append", choices=list(FAMILIES), help="repeatable (default: all)")
    ap.add_argument("--method", action="append", choices=METHODS, help="repeatable (default: all)")
    args = ap.parse_args(argv)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

    from mjsat.methods import solve
    from mjsat.search.solver import warm_up

    families = args.family or list(FAMILIES)
    methods = args.method or list(METHODS)
    out: dict[str, Any] = {"time_limit": args.time_limit, "load": os.getloadavg()[0], "families": {}}
    print(f"{'family':<11} {'method':<7} {'n':>5} {'mean':>9} {'median':>9} {'p99':>9} {'max':>9}  statuses")
    warm_up()  # every kernel loaded outside the timings
    for fam in families:
        make, default_n = FAMILIES[fam]
        n = args.n or (max(10, default_n // 20) if args.quick else default_n)
        warm = make(10**9)
        for m in methods:  # kernels, imports, caches outside the timings
            solve(warm, m, time_limit=args.time_limit)
        verdicts: dict[int, dict[str, str]] = {}
        rows: dict[str, Any] = {}
        for m in methods:
            cpu: list[float] = []
            statuses: dict[str, int] = {}
            for i in range(n):
                seed = args.seed_start + i
                board = make(seed)
                c0 = time.process_time()
                r = solve(board, m, time_limit=args.time_limit)
                cpu.append(time.process_time() - c0)
                statuses[r.status] = statuses.get(r.status, 0) + 1
                verdicts.setdefault(seed, {})[m] = r.status
            row = {
                "n": n,
                "mean_ms": 1e3 * statistics.fmean(cpu),
                "median_ms": 1e3 * statistics.median(cpu),
                "p99_ms": 1e3 * _pct(cpu, 0.99),
                "max_ms": 1e3 * max(cpu),
                "statuses": statuses,
                "slowest": sorted(zip(cpu, range(args.seed_start, args.seed_start + n)), reverse=True)[:5],
            }
            rows[m] = row
            print(
                f"{fam:<11} {m:<7} {n:>5} {row['mean_ms']:>9.2f} {row['median_ms']:>9.3f} "
                f"{row['p99_ms']:>9.1f} {row['max_ms']:>9.1f}  "
                + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())),
                flush=True,
            )
        clash = [s for s, v in verdicts.items() if {"solvable", "unsolvable"} <= set(v.values())]
        out["families"][fam] = {"methods": rows, "disagreements": clash}
        print(f"{fam:<11} disagreements: {len(clash)} {clash[:10]}")
    out["load_end"] = os.getloadavg()[0]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "shisen.json").write_text(json.dumps(out, indent=1))
    clashes = sum(len(f["disagreements"]) for f in out["families"].values())
    return 1 if clashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
