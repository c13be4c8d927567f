"""The policies of the Mahjong random playouts, side by side on the same deals (issue 19).

``python -m benchmarks.bench_playout [--quick] [-n N] [--others N] [--policies a,b,...] [--parts ...]``

The deals are those of :mod:`benchmarks.bench_peer` (the xmahjongg files ``default``, the
turtle, ``bridge`` and ``ox``, groups shuffled by ``random.Random(seed)``). For every deal
each policy of :data:`mjsat.search.config.PLAYOUTS` runs in turn (the order rotated per
deal, so that all see the same load); CPU time (``time.process_time``) throughout:

* ``attempt``: one plain playout (``_attempts`` with a count of 1), ``PLAIN`` times, and one
  scan-guided playout (``_guided``), ``GUIDED`` times, from the full deal: the share of
  playouts that clear it and the CPU per playout;
* ``search``: ``solve_search(board, node_limit=0, playout=P)`` (the default plan of plain
  then guided playouts; a deal they do not clear stops at once as ``unknown``);
* ``auto``: ``solve(board, "auto")`` with ``P`` as the search's default;
* ``batch``: the batch path (:class:`mjsat.search.batch.BatchSolver`) on one deal per call.

Prints per layout and policy the clearing rates, the CPU per playout and mean, median and
p90 of the CPU per deal of each way; writes ``benchmarks/results/playout.json``. Skips (exit
0) when the layout files are absent.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.bench_peer import SOURCES, _layout, deal

RESULTS = Path(__file__).resolve().parent / "results"
PLAIN = 10
"""Plain playouts per deal and policy in the part ``attempt``."""
GUIDED = 3
"""Guided playouts per deal and policy in the part ``attempt``."""
PARTS = ("attempt", "search", "auto", "batch")


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _attempt_rates(board: Any, policies: list[str], first: int) -> dict[str, list[float]]:
    """Per policy ``[plain cleared, plain seconds, guided cleared, guided seconds]``."""
    from mjsat.search import kernels as K
    from mjsat.search.config import PLAYOUTS
    from mjsat.search.pairing import geometry
    from mjsat.search.scratch import playout_state as _playout_state

    geo = geometry(board)
    kind, gr, mj, sh, _pt = K.arrays(geo)
    n = geo.n
    ws = K.workspace(n, len(geo.members), 1)
    pres = np.ones(n, dtype=np.uint8)
    partner = np.full(n, -1, dtype=np.int32)
    moves = np.zeros((n // 2 + 1, 2), dtype=np.int32)
    out: dict[str, list[float]] = {}
    order = policies[first:] + policies[:first]
    for p in order:
        opts = K.rules(playout=PLAYOUTS.index(p))
        rng = np.array([_playout_state(first)], dtype=np.uint64)
        row = [0.0, 0.0, 0.0, 0.0]
        t = time.process_time()
        for _ in range(PLAIN):
            row[0] += K._attempts(kind, gr, mj, sh, opts, 1, rng, pres, partner, moves, ws) >= 0
        row[1] = time.process_time() - t
        t = time.process_time()
        for _ in range(GUIDED):
            row[2] += K._guided(kind, gr, mj, sh, opts, 1, rng, pres, partner, moves, ws) >= 0
        row[3] = time.process_time() - t
        out[p] = row
    return out


def run_layout(name: str, deals: int, policies: list[str], parts: list[str]) -> dict[str, Any]:
    """Every part on ``deals`` deals of layout file ``name``, policies interleaved per deal."""
    from mjsat.methods import solve
    from mjsat.search import options as solver
    from mjsat.search.batch import BatchSolver
    from mjsat.search.solver import solve_search

    layout = _layout(name)
    batch = {p: BatchSolver(layout, playout=p) for p in policies}
    rows: dict[str, dict[str, list[Any]]] = {p: {k: [] for k in (*PARTS, "status", "by")} for p in policies}
    default = solver.DEFAULT_PLAYOUT
    try:
        for seed in range(deals):
            board = deal(layout, seed)
            first = seed % len(policies)
            if "attempt" in parts:
                for p, r in _attempt_rates(board, policies, first).items():
                    rows[p]["attempt"].append(r)
            for p in policies[first:] + policies[:first]:
                if "search" in parts:
                    t = time.process_time()
                    res = solve_search(board, node_limit=0, playout=p)
                    rows[p]["search"].append(time.process_time() - t)
                    rows[p]["status"].append(res.status)
                    rows[p]["by"].append(res.stats.get("attempts", 0) + res.stats.get("guided", 0))
                if "auto" in parts:
                    solver.DEFAULT_PLAYOUT = p
                    t = time.process_time()
                    solve(board, "auto")
                    rows[p]["auto"].append(time.process_time() - t)
                    solver.DEFAULT_PLAYOUT = default
                if "batch" in parts:
                    bs = batch[p]
                    groups = bs.deals([board.groups])
                    states = bs.states(0, 1)
                    t = time.process_time()
                    bs.run(groups, states)
                    rows[p]["batch"].append(time.process_time() - t)
    finally:
        solver.DEFAULT_PLAYOUT = default
    return {p: _summary(r) for p, r in rows.items()}


def _stats(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {}
    ms = sorted(1000 * x for x in xs)
    return {
        "mean_ms": statistics.fmean(ms),
        "median_ms": statistics.median(ms),
        "p90_ms": ms[min(len(ms) - 1, int(0.9 * len(ms)))],
    }


def _summary(r: dict[str, list[Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {k: _stats(r[k]) for k in ("search", "auto", "batch")}
    if r["attempt"]:
        a = np.array(r["attempt"], dtype=float)
        out["plain_rate"] = float(a[:, 0].sum() / (PLAIN * len(a)))
        out["plain_us"] = float(1e6 * a[:, 1].sum() / (PLAIN * len(a)))
        out["guided_rate"] = float(a[:, 2].sum() / (GUIDED * len(a)))
        out["guided_us"] = float(1e6 * a[:, 3].sum() / (GUIDED * len(a)))
    if r["status"]:
        out["search_cleared"] = sum(s == "solvable" for s in r["status"]) / len(r["status"])
        cleared = [b for s, b in zip(r["status"], r["by"]) if s == "solvable"]
        out["search_attempts_median"] = statistics.median(cleared) if cleared else None
    return out


def main(argv: list[str] | None = None) -> int:
    from mjsat.search.config import PLAYOUTS
    from mjsat.search.solver import warm_up

    ap = argparse.ArgumentParser(prog="bench_playout", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="40 deals per layout")
    ap.add_argument("-n", type=int, default=None, help="turtle deals (default 400)")
    ap.add_argument("--others", type=int, default=None, help="bridge and ox deals (default 300)")
    ap.add_argument("--layouts", default="default,bridge,ox")
    ap.add_argument("--policies", default=",".join(PLAYOUTS))
    ap.add_argument("--parts", default=",".join(PARTS))
    args = ap.parse_args(argv)
    if not SOURCES.is_dir():
        print(f"skipped: no xmahjongg layout files in {SOURCES}")
        return 0
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    warm_up()
    policies = args.policies.split(",")
    parts = args.parts.split(",")
    data: dict[str, Any] = {
        "benchmark": "playout", "commit": _commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_start": os.getloadavg()[0], "layouts": {},
    }  # fmt: skip
    for name in args.layouts.split(","):
        n = (
            (args.n or (40 if args.quick else 400))
            if name == "default"
            else (args.others or (40 if args.quick else 300))
        )
        data["layouts"][name] = {"deals": n, "policies": run_layout(name, n, policies, parts)}
        _print_layout(name, data["layouts"][name])
    data["load_end"] = os.getloadavg()[0]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "playout.json").write_text(json.dumps(data, indent=1) + "\n")
    print(f"commit {data['commit']}, {data['date']}, load {data['load_start']:.1f} -> {data['load_end']:.1f}")
    return 0


def _print_layout(name: str, e: dict[str, Any]) -> None:
    print(f"{name}: {e['deals']} deals")
    for p, s in e["policies"].items():
        line = f"  {p:8}"
        if "plain_rate" in s:
            line += (
                f" plain {100 * s['plain_rate']:5.1f} % {s['plain_us']:6.1f} us"
                f" | guided {100 * s['guided_rate']:5.1f} % {s['guided_us']:6.1f} us |"
            )
        if "search_cleared" in s:
            line += f" cleared {100 * s['search_cleared']:5.1f} % (median attempt {s['search_attempts_median']})"
        print(line)
        for way in ("search", "auto", "batch"):
            if s[way]:
                w = s[way]
                print(f"    {way:7} mean {w['mean_ms']:7.3f} median {w['median_ms']:7.3f} p90 {w['p90_ms']:7.3f} ms")


if __name__ == "__main__":
    import sys

    sys.exit(main())
