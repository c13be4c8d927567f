"""mjsat beside de Bondt's solver as ffalt/mah ships it, in one run (issues 19 and 39).

``python -m benchmarks.bench_bondt --solver SOLVER_BUNDLE_JS [-n N] [--layouts default,bridge,ox]``
``python -m benchmarks.bench_bondt --solver SOLVER_BUNDLE_JS --own N``

The peer is the TypeScript port of de Bondt's ``mjsolver.cpp`` in the public repository
``ffalt/mah`` (MIT), ``src/app/model/solver/`` as it is, bundled by
``../shared/peers/debondt-build.sh MIRROR_GIT_DIR OUT_DIR`` into ``OUT_DIR/solver.bundle.js``
(given by ``--solver`` or ``MJSAT_BONDT_SOLVER``); it is not part of mjsat and never copied
into it. Node.js runs it through ``../shared/peers/debondt-driver.js`` (``--driver``) as
ffalt/mah's own ``statsSolveMapping`` does: one ``Solver`` for every deal,
``solver.solveLayout(stones)`` per deal, stones ``{x: col, y: row, z: lev, groupNr: group}``
built before the clock.

The deals: those of :mod:`benchmarks.bench_batch` (the xmahjongg layout file with its tiles
in file order, the groups ``[0]*4 + [1]*4 + ...`` shuffled by ``random.Random(seed)``, seeds
``0..N-1``), or with ``--own N`` mjsat's own turtle deals of :mod:`benchmarks.bench_auto`
(``deal_random(turtle, seed)``, seeds ``0..N-1``). The ways take turns by blocks of
``--chunk`` deals (the order reversed every other block), so that they see the same load;
CPU time per deal:

* ``peer``: the port in one Node.js process (``process.cpuUsage`` around the call: every
  thread of the process), after 20 warm-up deals of other seeds;
* ``batch``: :func:`mjsat.search.batch.solve_batch` on the block, each deal's CPU time
  read inside the compiled loop plus its ``auto`` tail
  (:attr:`~mjsat.search.batch.BatchResult.cpu_seconds`); its mean also as the block's CPU
  time divided by its deals;
* ``auto``: ``solve(board, "auto", time_limit=10)`` per deal, the boards sharing one layout
  (``time.process_time``);
* ``file``: the same on boards read from files (``load_board``, before the clock), each
  with a :class:`~mjsat.layout.Layout` of its own, as ``mjsat solve FILE`` meets them.

Prints mean, median, p90, p99 and max per way, the ratio of the peer's to each of mjsat's,
the verdicts and every deal where they differ (the peer's search is exact: a disagreement is
a bug on one side), the load average, and writes ``benchmarks/results/bondt.json``. Skips
(exit 0) when no solver file is given; a solver file or driver that does not exist, or no
``node``, is one line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.bench_batch import _commit, groups_of
from benchmarks.bench_peer import RESULTS, SOURCES, _layout, summary

DRIVER = Path(__file__).resolve().parents[2] / "shared" / "peers" / "debondt-driver.js"
"""The peer's driver (written for mjsat's measurements, kept beside the recipe)."""
WAYS = ("peer", "batch", "auto", "file")
WARM = 20
"""Warm-up deals of each side (seeds after the measured ones), outside the timings."""


class _Peer:
    """The Node.js process running the port (one reused ``Solver``) through the driver."""

    def __init__(self, node: str, solver: Path, driver: Path = DRIVER) -> None:
        self.proc = subprocess.Popen(
            [node, str(driver), str(solver)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )  # fmt: skip

    def run(self, positions: Any, deals: np.ndarray, first: int, end: int) -> list[dict[str, Any]]:
        """The driver's answers on deals ``first..end-1`` (``left``: tiles left, 0 = cleared)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        block = [[i, [[r, c, l, int(g)] for (r, c, l), g in zip(positions, deals[i])]] for i in range(first, end)]
        self.proc.stdin.write(json.dumps({"mode": "reuse", "deals": block}) + "\n")
        self.proc.stdin.flush()
        out = []
        for line in self.proc.stdout:
            if line.strip() == "end":
                return out
            out.append(json.loads(line))
        raise RuntimeError(f"the peer's driver stopped (exit {self.proc.wait()})")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _deals(name: str, n: int) -> tuple[Any, np.ndarray]:
    """The layout and the ``(n + WARM) x tiles`` groups of family ``name``."""
    if name == "own":
        from mjsat.deals import deal_random
        from mjsat.layouts import load_layout

        layout = load_layout("turtle")
        rows = [deal_random(layout, seed=s).groups for s in range(n + WARM)]
    else:
        layout = _layout(name)
        rows = [groups_of(len(layout), s) for s in range(n + WARM)]
    return layout, np.array(rows, dtype=np.int64)


def run_family(name: str, n: int, chunk: int, node: str, solver: Path, driver: Path = DRIVER) -> dict[str, Any]:
    """Time the peer, the batch path and ``auto`` (one layout, and from files) on ``n`` deals
    of ``name``, taking turns by blocks of ``chunk``."""
    from mjsat.board import MahjongBoard
    from mjsat.boardio import load_board, write_board
    from mjsat.methods import solve
    from mjsat.search.batch import BatchSolver, solve_batch

    layout, deals = _deals(name, n)
    positions = layout.positions
    peer = _Peer(node, solver, driver)
    try:
        with tempfile.TemporaryDirectory(prefix="mjsat-bondt-") as tmp:
            files = [Path(tmp) / f"{i}.json" for i in range(n + WARM)]
            for i, f in enumerate(files):
                write_board(MahjongBoard(layout, deals[i].tolist()), f)
            bsolver = BatchSolver(layout, node_limit=150)
            peer.run(positions, deals, n, n + WARM)
            for i in range(n, n + 3):  # load every compiled path outside the timings
                solve_batch(layout, deals[i : i + 1], solver=bsolver, time_limit=10.0)
                solve(MahjongBoard(layout, deals[i].tolist()), "auto", time_limit=10.0)
                solve(load_board(files[i]), "auto", time_limit=10.0)
            cpu: dict[str, list[float]] = {w: [] for w in WAYS}
            solvable: dict[str, list[bool | None]] = {w: [] for w in WAYS}
            block_cpu = 0.0
            plays: list[int] = []
            for b, lo in enumerate(range(0, n, chunk)):
                hi = min(n, lo + chunk)
                got: dict[str, Any] = {}
                order = WAYS if b % 2 == 0 else WAYS[::-1]
                for way in order:
                    if way == "peer":
                        got[way] = peer.run(positions, deals, lo, hi)
                    elif way == "batch":
                        c0 = time.process_time()
                        got[way] = solve_batch(layout, deals[lo:hi], solver=bsolver, time_limit=10.0)
                        block_cpu += time.process_time() - c0
                    else:
                        if way == "auto":
                            boards = [MahjongBoard(layout, deals[i].tolist()) for i in range(lo, hi)]
                        else:
                            boards = [load_board(files[i]) for i in range(lo, hi)]
                        got[way] = []
                        for board in boards:
                            c0 = time.process_time()
                            r = solve(board, "auto", time_limit=10.0)
                            got[way].append((time.process_time() - c0, r.status))
                cpu["peer"] += [d["cpu_us"] / 1e6 for d in got["peer"]]
                solvable["peer"] += [d["left"] == 0 for d in got["peer"]]
                plays += [int(d["plays"]) for d in got["peer"]]
                cpu["batch"] += got["batch"].cpu_seconds.tolist()
                solvable["batch"] += [_verdict(s) for s in got["batch"].status]
                for way in ("auto", "file"):
                    cpu[way] += [c for c, _ in got[way]]
                    solvable[way] += [_verdict(s) for _, s in got[way]]
    finally:
        peer.close()
    ways = {w: summary(cpu[w]) for w in WAYS}
    return {
        "deals": n,
        "chunk": chunk,
        "batch_block_mean_ms": 1e3 * block_cpu / n,
        "ways": ways,
        "peer_over": {w: {k: ways["peer"][k] / ways[w][k] for k in ways["peer"]} for w in WAYS if w != "peer"},
        "unsolvable": {w: sum(1 for v in solvable[w] if v is False) for w in WAYS},
        "undecided": {w: sum(1 for v in solvable[w] if v is None) for w in WAYS},
        "disagreements": [i for i in range(n) if len({solvable[w][i] for w in WAYS if solvable[w][i] is not None}) > 1],
        "peer_random_games_median": float(np.median(plays)),
    }


def _verdict(status: str) -> bool | None:
    return {"solvable": True, "unsolvable": False}.get(status)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="bench_bondt",
        description=__doc__.split("\n\n")[0],
        epilog="examples:\n"
        "  python -m benchmarks.bench_bondt --solver ~/peers/debondt/solver.bundle.js   # turtle, 2,000 deals\n"
        "  python -m benchmarks.bench_bondt --solver ~/peers/debondt/solver.bundle.js -n 300 --layouts bridge,ox\n"
        "  python -m benchmarks.bench_bondt --solver ~/peers/debondt/solver.bundle.js --own 10000",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--solver", default=os.environ.get("MJSAT_BONDT_SOLVER"),
                    help="the port bundled by debondt-build.sh (default: $MJSAT_BONDT_SOLVER)")  # fmt: skip
    ap.add_argument(
        "--driver", default=str(DRIVER), help="the peer's driver (default: ../shared/peers/debondt-driver.js)"
    )
    ap.add_argument("--node", default="node", help="the Node.js executable (default: node)")
    ap.add_argument("--quick", action="store_true", help="200 deals")
    ap.add_argument("-n", type=int, default=None, help="deals per layout (default 2,000)")
    ap.add_argument("--layouts", default="default", help="xmahjongg layout files (default: default)")
    ap.add_argument("--own", type=int, default=None, metavar="N",
                    help="instead: mjsat's own turtle deals, seeds 0..N-1")  # fmt: skip
    ap.add_argument("--chunk", type=int, default=50, help="deals per turn (default 50)")
    args = ap.parse_args(argv)
    if not args.solver:
        print("skipped: no --solver (de Bondt's solver bundled by ../shared/peers/debondt-build.sh)")
        return 0
    solver = Path(args.solver).expanduser()
    if not solver.is_file():
        print(f"{solver}: no such solver file", file=sys.stderr)
        return 2
    driver = Path(args.driver).expanduser()
    if not driver.is_file():
        print(f"{driver}: no such driver file", file=sys.stderr)
        return 2
    node = shutil.which(args.node)
    if node is None:
        print(f"{args.node}: Node.js not found", file=sys.stderr)
        return 2
    if args.own is None and not SOURCES.is_dir():
        print(f"skipped: no xmahjongg layout files in {SOURCES}")
        return 0
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    data: dict[str, Any] = {
        "benchmark": "bondt", "commit": _commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "node": version, "load_start": os.getloadavg()[0], "families": {},
    }  # fmt: skip
    if args.own is not None:
        data["families"]["own"] = run_family("own", args.own, args.chunk, node, solver, driver)
    else:
        n = args.n or (200 if args.quick else 2000)
        for name in args.layouts.split(","):
            data["families"][name] = run_family(name, n, args.chunk, node, solver, driver)
    data["load_end"] = os.getloadavg()[0]
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / "bondt.json"
    tmp = out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(out)
    _print(data)
    return 0


def _print(data: dict[str, Any]) -> None:
    print(f"commit {data['commit']}, {data['date']}, node {data['node']}, "
          f"load {data['load_start']:.1f} -> {data['load_end']:.1f}")  # fmt: skip
    print(f"{'deals':8} {'way':6} {'n':>6} {'mean':>8} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8}"
          "  unsolvable")  # fmt: skip
    for name, e in data["families"].items():
        for w, s in e["ways"].items():
            print(f"{name:8} {w:6} {e['deals']:6d} {s['mean_ms']:8.3f} {s['median_ms']:8.3f} {s['p90_ms']:8.2f}"
                  f" {s['p99_ms']:8.1f} {s['max_ms']:8.1f}  {e['unsolvable'][w]}")  # fmt: skip
        for w, r in e["peer_over"].items():
            print(f"{name:8} peer / {w:6} {'':>6} {r['mean_ms']:7.2f}x {r['median_ms']:7.2f}x {r['p90_ms']:7.2f}x"
                  f" {r['p99_ms']:7.2f}x {r['max_ms']:7.2f}x")  # fmt: skip
        print(f"{name:8} batch mean as the blocks' CPU / deals: {e['batch_block_mean_ms']:.3f} ms;"
              f" undecided {e['undecided']}; disagreements: {e['disagreements'] or 0}")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
