"""The SAT tail of the batch path (issue 19 item 3): the deals the compiled batch leaves
undecided, and the ``sat`` step on them.

``python -m benchmarks.bench_tail [-n N] [--layouts default,bridge,ox] [--sat auto,acyclic,...]``

The deals of :mod:`benchmarks.bench_batch` (xmahjongg files, ``random.Random(seed).shuffle``,
seeds ``0..N-1``). :meth:`~mjsat.search.batch.BatchSolver.run` (playouts and 150 search
nodes, as ``auto``'s budgeted step) picks the deals it leaves undecided: the tail, which
:func:`~mjsat.search.batch.solve_batch` hands to ``auto`` without its budgeted search.
On each tail deal, for each ``--sat`` configuration in turn (``ENCODING[/SOLVER]``, or
``auto+STEPS`` for the ``auto`` encoding with a first parity CNF of ``STEPS`` steps per
square root of the tile count), ``solve(board, "sat", time_limit=10)``; CPU time
(``time.process_time``), one process, the configurations taking turns per deal. Prints
mean, median, p90 and max per configuration, how many deals the first (parity) CNF
decided, and the verdicts (any disagreement is reported); writes
``benchmarks/results/tail.json``. Skips (exit 0) when the layout files are absent.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import time
from typing import Any

import numpy as np

from benchmarks.bench_batch import _commit, groups_of
from benchmarks.bench_peer import RESULTS, SOURCES, _layout


def tail_seeds(name: str, n: int) -> list[int]:
    """The seeds among ``0..n-1`` whose deals of layout ``name`` the batch leaves undecided."""
    from mjsat.search import kernels_batch as KB
    from mjsat.search.batch import BatchSolver

    layout = _layout(name)
    deals = np.array([groups_of(len(layout), s) for s in range(n)], dtype=np.int64)
    solver = BatchSolver(layout, node_limit=150)
    status = solver.run(deals, solver.states(0, n))[0]
    return [s for s in range(n) if status[s] == KB.UNDECIDED]


def _configure(spec: str) -> tuple[dict[str, Any], float | None]:
    """``solve`` options and a first-steps factor (``auto+K``) of a ``--sat`` entry."""
    enc, _, scale = spec.partition("+")
    enc, _, solver = enc.partition("/")
    opts: dict[str, Any] = {"encoding": enc}
    if solver:
        opts["solver"] = solver
    return opts, (float(scale) if scale else None)


def run_layout(name: str, n: int, specs: list[str]) -> dict[str, Any]:
    """Time each configuration of ``specs`` on the tail of ``n`` deals of layout ``name``."""
    from mjsat.board import MahjongBoard
    from mjsat.encoders import sat as S
    from mjsat.methods import solve

    layout = _layout(name)
    seeds = tail_seeds(name, n)
    boards = [MahjongBoard(layout, groups_of(len(layout), s)) for s in seeds]
    parity = S.ENCODINGS["parity"]
    cpu: dict[str, list[float]] = {s: [] for s in specs}
    first: dict[str, int] = dict.fromkeys(specs, 0)
    verdicts: dict[str, list[str]] = {s: [] for s in specs}
    try:
        for i, board in enumerate(boards):
            for spec in specs[i % len(specs) :] + specs[: i % len(specs)]:  # the order rotated
                opts, scale = _configure(spec)
                if scale is not None:
                    steps = lambda t, k=scale: max(2, math.ceil(k * math.sqrt(max(t, 1))))  # noqa: E731
                    S.ENCODINGS["parity"] = dataclasses.replace(parity, first_steps=steps)
                c0 = time.process_time()
                res = solve(board, "sat", time_limit=10.0, **opts)
                cpu[spec].append(time.process_time() - c0)
                S.ENCODINGS["parity"] = parity
                verdicts[spec].append(res.status)
                first[spec] += len(res.stats.get("tried", [])) == 1
    finally:
        S.ENCODINGS["parity"] = parity
    rows = {}
    for spec in specs:
        a = np.array(cpu[spec]) * 1000 if cpu[spec] else np.zeros(1)
        rows[spec] = {
            "mean_ms": float(a.mean()), "median_ms": float(np.median(a)), "p90_ms": float(np.percentile(a, 90)),
            "max_ms": float(a.max()), "first_cnf_decided": first[spec],
            "verdicts": {v: verdicts[spec].count(v) for v in sorted(set(verdicts[spec]))},
        }  # fmt: skip
    decided = [tuple(v for v in col if v != "unknown") for col in zip(*verdicts.values())]
    disagreements = [seeds[i] for i, col in enumerate(decided) if len(set(col)) > 1]
    return {"deals": n, "tail": seeds, "ways": rows, "disagreements": disagreements}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_tail", description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=2000, help="deals per layout (default 2,000)")
    ap.add_argument("--layouts", default="default")
    ap.add_argument("--sat", default="auto,acyclic", help="configurations, comma-separated (default auto,acyclic)")
    args = ap.parse_args(argv)
    if not SOURCES.is_dir():
        print(f"skipped: no xmahjongg layout files in {SOURCES}")
        return 0
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    specs = [s.strip() for s in args.sat.split(",") if s.strip()]
    data: dict[str, Any] = {
        "benchmark": "tail", "commit": _commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_start": os.getloadavg()[0], "layouts": {},
    }  # fmt: skip
    for name in args.layouts.split(","):
        data["layouts"][name] = run_layout(name, args.n, specs)
    data["load_end"] = os.getloadavg()[0]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "tail.json").write_text(json.dumps(data, indent=1) + "\n")
    print(f"commit {data['commit']}, {data['date']}, load {data['load_start']:.1f} -> {data['load_end']:.1f}")
    print(f"{'layout':8} {'sat':18} {'tail':>5} {'mean':>8} {'median':>8} {'p90':>8} {'max':>8} {'first':>6}  verdicts")
    for name, e in data["layouts"].items():
        for spec, r in e["ways"].items():
            print(f"{name:8} {spec:18} {len(e['tail']):5d} {r['mean_ms']:8.1f} {r['median_ms']:8.1f}"
                  f" {r['p90_ms']:8.1f} {r['max_ms']:8.1f} {r['first_cnf_decided']:6d}  {r['verdicts']}")  # fmt: skip
        print(f"{name:8} disagreements: {len(e['disagreements'])}")
    return 1 if any(e["disagreements"] for e in data["layouts"].values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
