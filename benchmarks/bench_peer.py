"""``solve(board, "auto")`` one deal at a time, and ``mjsat solve`` as a process, on the deals
of the side-by-side comparison with a peer solver (issue 19).

``python -m benchmarks.bench_peer [--quick] [-n N] [--others N] [--process N] [--compare PYTHON ...]``

The deals: the xmahjongg layout file (``default``: the turtle; ``bridge``, ``ox``) read from
``../shared/layout-sources/xmahjongg/`` with its tiles in file order, the groups ``[0]*4 +
[1]*4 + ... + [35]*4`` shuffled by ``random.Random(seed).shuffle``, seeds ``0..N-1`` (2,000 on
the turtle, 300 on bridge and ox). Each interpreter (this one, and every ``--compare``
interpreter with mjsat installed, e.g. another checkout's venv) runs the deals in a worker
process of its own; the workers take turns by chunks of deals, so that both see the same
load, and their verdicts are compared deal by deal. Per deal the CPU time
(``time.process_time``) of ``solve(board, "auto")`` is taken, and for a sample of deals the
CPU time of the whole ``mjsat solve BOARD`` process (``getrusage`` of the children).
Prints mean, median, p90, p99 and max per layout and interpreter and writes
``benchmarks/results/peer.json``. Skips (exit 0) when the layout files are absent.

The family ``shisen-small`` (issue 21): small Shisen-Sho boards (:func:`small_board`, seeds
``0..N-1`` like the turtle), built before the clock, ``solve(board, "auto")`` only.

Targets (one core): turtle, ``solve(board, "auto")`` median at most 0.6 ms (the Python around
the kernels at most 0.3 ms); bridge and ox no worse than before; small Shisen-Sho boards
median at most 0.1 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
SOURCES = Path(__file__).resolve().parents[2] / "shared" / "layout-sources" / "xmahjongg"
SMALL = "shisen-small"
"""The family of small Shisen-Sho boards (:func:`small_board`), measured with ``solve()`` only."""
LAYOUTS = ("default", "bridge", "ox", SMALL)
CHUNK = 50
"""Deals a worker runs before the other interpreter's worker takes its turn."""


def deal(layout: Any, seed: int) -> Any:
    """The deal of ``seed``: groups ``[0]*4 + [1]*4 + ...`` shuffled by ``random.Random(seed)``."""
    from mjsat.board import MahjongBoard

    groups = [g for g in range(len(layout) // 4) for _ in range(4)]
    random.Random(seed).shuffle(groups)
    return MahjongBoard(layout, groups)


def _layout(name: str) -> Any:
    from mjsat.layouts import read_layout

    return read_layout(SOURCES / name)


def small_board(seed: int) -> Any:
    """A small Shisen-Sho board (the family of issue 21): a random grid of at most 6 x 5
    cells with holes, at most 20 tiles, groups of two and four (``random_grid_board``)."""
    import numpy as np

    from mjsat.generate import random_grid_board

    return random_grid_board(np.random.default_rng(seed), max_tiles=20)


def _worker() -> int:
    """Answer requests on stdin, one JSON line each: ``{"layout", "seeds"}`` -> per deal the
    status and CPU seconds of ``solve(board, "auto")``; ``{"write", "dir"}`` -> board files."""
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    from mjsat.boardio import write_board
    from mjsat.methods import solve
    from mjsat.search.solver import warm_up

    layouts: dict[str, Any] = {}
    for line in sys.stdin:
        req = json.loads(line)
        name = req["layout"]
        if name == SMALL:
            if SMALL not in layouts:  # load the kernels outside the timings
                layouts[SMALL] = None
                warm_up()
                for warm in range(20):
                    solve(small_board(10**9 + warm), "auto", time_limit=10.0)
            boards = [small_board(seed) for seed in req["seeds"]]  # loaded before the clock
            status, cpu = [], []
            for board in boards:
                c0 = time.process_time()
                r = solve(board, "auto", time_limit=10.0)
                cpu.append(time.process_time() - c0)
                status.append(r.status)
            print(json.dumps({"status": status, "cpu": cpu}), flush=True)
            continue
        if name not in layouts:
            layouts[name] = _layout(name)
            warm_up()
            for warm in range(4):  # load every kernel path outside the timings
                board = deal(layouts[name], 10**9 + warm)
                for steps in ("search", "sat", None):
                    solve(board, "auto", time_limit=600, plan_steps=steps)
        layout = layouts[name]
        if "write" in req:
            for seed in req["seeds"]:
                write_board(deal(layout, seed), Path(req["write"]) / f"{name}-{seed}.json")
            print(json.dumps({"ok": True}), flush=True)
            continue
        status, cpu = [], []
        for seed in req["seeds"]:
            board = deal(layout, seed)
            c0 = time.process_time()
            r = solve(board, "auto", time_limit=req.get("time_limit", 10.0))
            cpu.append(time.process_time() - c0)
            status.append(r.status)
        print(json.dumps({"status": status, "cpu": cpu}), flush=True)
    return 0


class _Worker:
    def __init__(self, python: str) -> None:
        self.python = python
        self.proc = subprocess.Popen(
            [python, str(Path(__file__).resolve()), "--worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tempfile.gettempdir(),
        )  # fmt: skip

    def ask(self, req: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker of {self.python} died")
        return json.loads(line)  # type: ignore[no-any-return]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _mjsat_command(python: str) -> list[str]:
    script = Path(python).parent / "mjsat"
    return [str(script)] if script.exists() else [python, "-m", "mjsat.cli"]


def _process_cpu(python: str, board: Path) -> tuple[float, str]:
    """CPU seconds (user + system) of ``mjsat solve BOARD`` as a child process, and its verdict."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [*_mjsat_command(python), "solve", str(board), "--method", "auto", "--time-limit", "10"],
        capture_output=True, text=True, cwd=tempfile.gettempdir(),
    )  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, (out.stdout.split() or ["error"])[0].rstrip(":")


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(xs: list[float]) -> dict[str, float]:
    """Mean, median, p90, p99 and max of ``xs`` (seconds), in milliseconds."""
    return {
        "mean_ms": 1e3 * statistics.mean(xs), "median_ms": 1e3 * statistics.median(xs),
        "p90_ms": 1e3 * _pct(xs, 0.90), "p99_ms": 1e3 * _pct(xs, 0.99), "max_ms": 1e3 * max(xs),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_peer", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="200 turtle deals, 50 on bridge and ox, 10 processes")
    ap.add_argument("-n", type=int, default=None, help="turtle deals (default 2,000)")
    ap.add_argument("--others", type=int, default=None, help="bridge and ox deals (default 300)")
    ap.add_argument("--process", type=int, default=None, help="deals run as `mjsat solve` processes (default 50)")
    ap.add_argument("--compare", nargs="*", default=[], metavar="PYTHON", help="other interpreters to run alongside")
    ap.add_argument("--layouts", default=",".join(LAYOUTS))
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return _worker()
    if not SOURCES.is_dir():
        print(f"skipped: no xmahjongg layout files in {SOURCES}")
        return 0
    n_turtle = args.n or (200 if args.quick else 2000)
    n_other = args.others or (50 if args.quick else 300)
    n_proc = args.process if args.process is not None else (10 if args.quick else 50)
    pythons = [sys.executable, *args.compare]
    workers = [_Worker(p) for p in pythons]
    data: dict[str, Any] = {
        "benchmark": "peer", "pythons": pythons, "load": os.getloadavg()[0], "layouts": {},
    }  # fmt: skip
    t_all = time.perf_counter()
    try:
        for name in args.layouts.split(","):
            n = n_turtle if name in ("default", SMALL) else n_other
            got: list[dict[str, list[Any]]] = [{"status": [], "cpu": []} for _ in workers]
            for lo in range(0, n, CHUNK):
                seeds = list(range(lo, min(n, lo + CHUNK)))
                order = range(len(workers)) if (lo // CHUNK) % 2 == 0 else reversed(range(len(workers)))
                for i in order:  # alternate who goes first
                    res = workers[i].ask({"layout": name, "seeds": seeds})
                    got[i]["status"] += res["status"]
                    got[i]["cpu"] += res["cpu"]
            proc: list[list[float]] = [[] for _ in workers]
            proc_status: list[list[str]] = [[] for _ in workers]
            if n_proc and name != SMALL:
                with tempfile.TemporaryDirectory() as tmp:
                    seeds = list(range(min(n_proc, n)))
                    workers[0].ask({"layout": name, "seeds": seeds, "write": tmp})
                    for seed in seeds:
                        for i, python in enumerate(pythons):
                            cpu, verdict = _process_cpu(python, Path(tmp) / f"{name}-{seed}.json")
                            proc[i].append(cpu)
                            proc_status[i].append(verdict)
            entry: dict[str, Any] = {"deals": n, "process_deals": n_proc and min(n_proc, n), "runs": []}
            for i, python in enumerate(pythons):
                st = got[i]["status"]
                entry["runs"].append({
                    "python": python,
                    "statuses": {s: st.count(s) for s in sorted(set(st))},
                    "solve": summary(got[i]["cpu"]),
                    "process": summary(proc[i]) if proc[i] else None,
                    "process_statuses": {s: proc_status[i].count(s) for s in sorted(set(proc_status[i]))},
                })  # fmt: skip
            entry["disagreements"] = [s for s in range(n) if len({g["status"][s] for g in got} - {"unknown"}) > 1]
            data["layouts"][name] = entry
    finally:
        for w in workers:
            w.close()
    data["wall_seconds"] = time.perf_counter() - t_all
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "peer.json").write_text(json.dumps(data, indent=1) + "\n")
    _print(data)
    return 0


def _print(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"auto per deal, CPU ms (load {data['load']:.1f})")
    for c in ("layout", "python", "what", "deals", "mean", "median", "p90", "p99", "max", "statuses"):
        t.add_column(c, justify="right")
    for name, entry in data["layouts"].items():
        base = entry["runs"][-1]
        for run in entry["runs"]:
            for what, key, count in (
                ("solve()", "solve", entry["deals"]),
                ("mjsat solve", "process", entry["process_deals"]),
            ):
                s = run[key]
                if s is None:
                    continue
                ratio = "" if run is base else f" ({base[key]['median_ms'] / s['median_ms']:.2f}x)"
                t.add_row(
                    name,
                    run["python"],
                    what,
                    str(count),
                    f"{s['mean_ms']:.2f}",
                    f"{s['median_ms']:.2f}{ratio}",
                    f"{s['p90_ms']:.2f}",
                    f"{s['p99_ms']:.1f}",
                    f"{s['max_ms']:.1f}",
                    ", ".join(
                        f"{k}: {v}" for k, v in (run["statuses"] if key == "solve" else run["process_statuses"]).items()
                    ),
                )
        t.add_row(name, "", "disagreements", str(len(entry["disagreements"])), "", "", "", "", "", "")
    console = Console() if Console().is_terminal else Console(width=160)
    console.print(t)
    turtle = data["layouts"].get("default")
    if turtle:
        med = turtle["runs"][0]["solve"]["median_ms"]
        console.print(f"target: turtle solve() median <= 0.6 ms -> {'met' if med <= 0.6 else 'NOT met'} ({med:.2f} ms)")
    small = data["layouts"].get(SMALL)
    if small:
        med = small["runs"][0]["solve"]["median_ms"]
        console.print(
            f"target: small Shisen-Sho solve() median <= 0.1 ms -> {'met' if med <= 0.1 else 'NOT met'} ({med:.3f} ms)"
        )


if __name__ == "__main__":
    raise SystemExit(main())
