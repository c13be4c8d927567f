"""The batch path (:func:`mjsat.search.batch.solve_batch`) against ``solve(board, "auto")``
one deal at a time, on the deals of :mod:`benchmarks.bench_peer` (issue 19).

``python -m benchmarks.bench_batch [--quick] [-n N] [--layouts default,bridge,ox] [--chunk C]``

The deals: the xmahjongg layout file (``default``: the turtle) with its tiles in file order,
the groups ``[0]*4 + [1]*4 + ...`` shuffled by ``random.Random(seed).shuffle``, seeds
``0..N-1`` (:func:`benchmarks.bench_peer.deal`), built before the clock. One process, the
three ways taking turns by blocks of ``--chunk`` deals so that they see the same load;
CPU time (``time.process_time``):

* ``batch``: ``solve_batch`` on the block (one compiled call, then the ``auto`` tail on the
  deals it leaves undecided): the mean is the block's CPU time divided by its deals (the
  call's dispatch and the Python around it included); the per-deal distribution is
  :attr:`~mjsat.search.batch.BatchResult.cpu_seconds` (each deal's CPU time read inside the
  compiled loop, plus its tail), what a deal costs in a block;
* ``batch/1``: the compiled call (:meth:`~mjsat.search.batch.BatchSolver.run`) on one deal
  at a time, then the ``auto`` tail when it leaves the deal undecided: the per-deal
  distribution (each call pays the dispatch of one compiled call, so it is an upper bound
  of a deal's share in a block);
* ``auto``: ``solve(board, "auto", time_limit=10)`` per deal.

Prints mean, median, p90, p99 and max per way, the verdicts and their disagreements, and
writes ``benchmarks/results/batch.json``. Skips (exit 0) when the layout files are absent.

Targets (one core, turtle): batch median at most 0.3 ms, mean at most 4 ms, p99 at most
60 ms, max at most 0.5 s, none undecided at 10 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.bench_peer import RESULTS, SOURCES, _layout, summary

WAYS = ("batch", "batch/1", "auto")


def groups_of(n_tiles: int, seed: int) -> list[int]:
    """The groups of deal ``seed`` (as :func:`benchmarks.bench_peer.deal`)."""
    groups = [g for g in range(n_tiles // 4) for _ in range(4)]
    random.Random(seed).shuffle(groups)
    return groups


def run_layout(name: str, n: int, chunk: int) -> dict[str, Any]:
    """Time the three ways on ``n`` deals of layout ``name``."""
    from mjsat.board import MahjongBoard
    from mjsat.methods import solve
    from mjsat.search import kernels_batch as KB
    from mjsat.search.batch import _PHASE as PHASES, _STATUS as KB_STATUS, TAIL_STEPS, BatchSolver, solve_batch

    layout = _layout(name)
    deals = np.array([groups_of(len(layout), s) for s in range(n)], dtype=np.int64)
    boards = [MahjongBoard(layout, row.tolist()) for row in deals]
    solver = BatchSolver(layout, node_limit=150)
    states = solver.states(0, n)
    for warm in range(3):  # load every path outside the timings
        row = np.array([groups_of(len(layout), 10**9 + warm)])
        solve_batch(layout, row, solver=solver, time_limit=10.0)
        solve(MahjongBoard(layout, row[0].tolist()), "auto", time_limit=10.0)
    block_cpu: list[tuple[int, float]] = []
    cpu: dict[str, list[float]] = {"batch": [], "batch/1": [], "auto": []}
    status: dict[str, list[str]] = {w: [] for w in WAYS}
    tails = 0
    by: list[str] = []
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        c0 = time.process_time()
        res = solve_batch(layout, deals[lo:hi], solver=solver, time_limit=10.0)
        block_cpu.append((hi - lo, time.process_time() - c0))
        status["batch"] += res.status
        cpu["batch"] += res.cpu_seconds.tolist()
        tails += len(res.tail)
        for i in range(lo, hi):
            c0 = time.process_time()
            code, phase, *_ = solver.run(deals[i : i + 1], states[i : i + 1])
            verdict = KB_STATUS[int(code[0])]
            if verdict == "unknown":
                verdict = solve(boards[i], "auto", time_limit=10.0, plan_steps=",".join(TAIL_STEPS)).status
            cpu["batch/1"].append(time.process_time() - c0)
            status["batch/1"].append(verdict)
            by.append(PHASES[int(phase[0])] if code[0] != KB.UNDECIDED else "auto")
            c0 = time.process_time()
            r = solve(boards[i], "auto", time_limit=10.0)
            cpu["auto"].append(time.process_time() - c0)
            status["auto"].append(r.status)
    total = sum(c for _, c in block_cpu)
    entry: dict[str, Any] = {
        "deals": n,
        "chunk": chunk,
        "tail_deals": tails,
        "batch_mean_ms": 1e3 * total / n,
        "batch_block_ms": [1e3 * c / k for k, c in block_cpu],
        "ways": {w: summary(cpu[w]) for w in cpu},
        "statuses": {w: {s: status[w].count(s) for s in sorted(set(status[w]))} for w in WAYS},
        "batch1_by_phase": {
            p: {
                "deals": by.count(p),
                "share_of_mean_ms": 1e3 * sum(c for c, q in zip(cpu["batch/1"], by) if q == p) / n,
                "median_ms": 1e3 * float(np.median([c for c, q in zip(cpu["batch/1"], by) if q == p])),
            }
            for p in sorted(set(by))
        },
        "disagreements": [i for i in range(n) if len({status[w][i] for w in WAYS}) > 1],
    }
    return entry


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).parent)  # fmt: skip
    except OSError:
        return "?"
    return out.stdout.strip() or "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_batch", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="200 deals")
    ap.add_argument("-n", type=int, default=None, help="deals per layout (default 2,000)")
    ap.add_argument("--layouts", default="default")
    ap.add_argument("--chunk", type=int, default=50, help="deals per block (default 50)")
    args = ap.parse_args(argv)
    if not SOURCES.is_dir():
        print(f"skipped: no xmahjongg layout files in {SOURCES}")
        return 0
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    n = args.n or (200 if args.quick else 2000)
    data: dict[str, Any] = {
        "benchmark": "batch", "commit": _commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_start": os.getloadavg()[0], "layouts": {},
    }  # fmt: skip
    for name in args.layouts.split(","):
        data["layouts"][name] = run_layout(name, n, args.chunk)
    data["load_end"] = os.getloadavg()[0]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "batch.json").write_text(json.dumps(data, indent=1) + "\n")
    _print(data)
    return 0


def _print(data: dict[str, Any]) -> None:
    print(f"commit {data['commit']}, {data['date']}, load {data['load_start']:.1f} -> {data['load_end']:.1f}")
    print(f"{'layout':8} {'way':8} {'deals':>6} {'mean':>8} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8}  statuses")
    for name, e in data["layouts"].items():
        st = e["statuses"]
        b = e["batch_mean_ms"]
        print(f"{name:8} {'batch':8} {e['deals']:6d} {b:8.3f} {'':>8} {'':>8} {'':>8} {'':>8}  {st['batch']}"
              f" (tail: {e['tail_deals']}; the block's CPU / deals)")  # fmt: skip
        for w, s in e["ways"].items():
            print(f"{name:8} {w:8} {e['deals']:6d} {s['mean_ms']:8.3f} {s['median_ms']:8.3f} {s['p90_ms']:8.3f}"
                  f" {s['p99_ms']:8.1f} {s['max_ms']:8.1f}  {st[w]}")  # fmt: skip
        print(f"{name:8} disagreements: {len(e['disagreements'])}")
        for p, v in e["batch1_by_phase"].items():
            print(f"  batch/1 decided by {p:9}: {v['deals']:5d} deals, median {v['median_ms']:8.3f} ms,"
                  f" share of the mean {v['share_of_mean_ms']:7.3f} ms")  # fmt: skip
        one = e["ways"]["batch"]
        checks = (("median <= 0.3 ms", one["median_ms"], 0.3), ("mean <= 4 ms", b, 4.0),
                  ("p99 <= 60 ms", one["p99_ms"], 60.0), ("max <= 500 ms", one["max_ms"], 500.0))  # fmt: skip
        for label, v, lim in checks:
            print(f"  target batch {label}: {'met' if v <= lim else 'NOT met'} ({v:.3f})")


if __name__ == "__main__":
    raise SystemExit(main())
