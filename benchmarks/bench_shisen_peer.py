"""mjsat beside an exact Shisen-Sho solver of another project, in one run (issue 39).

``python -m benchmarks.bench_shisen_peer --peer PEER_JAR [--small N] [--big N] [--chunk C]``

The peer is ``ShisenShoGame.isSolvable()`` of the public repository
``italankin/shisensho-base`` (Kotlin, MIT): a depth-first search over every legal move with
a memo of the grids visited. It is built outside the project with
``../shared/peers/shisen/Adapter.kt`` (recipe in ``../shared/peers/README.md``) into a jar
given by ``--peer`` (or ``MJSAT_SHISEN_PEER``); it is not part of mjsat and never copied
into it. One JVM (``java -XX:+UseSerialGC -cp PEER_JAR AdapterKt``) answers every board:
one line ``ID H W CELLS LIMIT_S WITNESS_LIMIT_S`` in, one JSON line out, ``cpu_ms`` the
CPU time of the thread around the unmodified ``isSolvable()``.

The boards, built before the clock, each given to the peer as the grid of its tiles'
bounding box (the peer's paths, like mjsat's, may run one cell outside it):

* ``small``: :func:`mjsat.generate.random_grid_board` grids of at most 6 x 5 cells with
  holes, 2 to 28 tiles, groups of two and four (seeds ``0..N-1``);
* ``9x16``: full 9 x 16 rectangles in groups of four (KShisen's default board),
  ``deal_random(rect-16x9, seed, game="shisen-sho")``.

The peer and ``solve(board, "auto", time_limit=...)`` (``time.process_time``) take turns
by blocks of ``--chunk`` boards (the order reversed every other block), after warm-up
boards of other seeds on both sides (the JVM compiles the peer as it runs). Prints per
family and side the CPU median, p90, p99 and mean per board, the peer's over mjsat's, the
boards where the verdicts differ (both are exact: a difference is a bug on one side), the
peer's witnesses that mjsat's replay refuses (each ``solvable`` of the peer comes with its
moves, replayed here), and the load average; writes ``benchmarks/results/shisen_peer.json``.
Skips (exit 0) when no peer jar is given; a jar that does not exist, or no ``java``, is one
line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.bench_batch import _commit
from benchmarks.bench_peer import RESULTS, summary

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
"""The peer's cell letters, one per group (its 42 tile values)."""
WARM = {"small": 50, "9x16": 5}
"""Warm-up boards of each family on both sides (seeds after the measured ones)."""
SIDES = ("peer", "mjsat")


def small_board(seed: int) -> Any:
    """A small Shisen-Sho board: at most 6 x 5 cells with holes, 2 to 28 tiles."""
    import numpy as np

    from mjsat.generate import random_grid_board

    return random_grid_board(np.random.default_rng(seed), max_width=6, max_height=5, max_tiles=28)


def full_9x16(seed: int) -> Any:
    """A full 9 x 16 rectangle in groups of four."""
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    return deal_random(load_layout("rect-16x9"), seed=seed, game="shisen-sho")


FAMILIES: dict[str, tuple[Callable[[int], Any], int]] = {
    # name -> (seed -> board, default number of boards)
    "small": (small_board, 2000),
    "9x16": (full_9x16, 100),
}


def peer_line(board: Any, ident: str, limit: float, witness_limit: float) -> tuple[str, list[int]]:
    """The peer's input line for ``board`` and, for each tile in the peer's numbering
    (row-major over the grid), mjsat's tile number."""
    r0, c0, r1, c1 = board.layout.bounds()
    h, w = (r1 - r0 + 1) // 2, (c1 - c0 + 1) // 2
    cells = ["."] * (h * w)
    at: dict[int, int] = {}
    letters: dict[int, str] = {}
    for t, ((r, c, _lev), g) in enumerate(zip(board.layout.positions, board.groups)):
        k = ((r - r0) // 2) * w + (c - c0) // 2
        if g not in letters:
            if len(letters) == len(ALPHABET):
                raise ValueError(f"board {ident}: more groups than the peer's {len(ALPHABET)} tile values")
            letters[g] = ALPHABET[len(letters)]
        cells[k] = letters[g]
        at[k] = t
    order = [at[k] for k in sorted(at)]
    return f"{ident} {h} {w} {''.join(cells)} {limit:g} {witness_limit:g}", order


class _Peer:
    """The JVM running the peer's adapter on one board a line."""

    def __init__(self, java: str, jar: Path) -> None:
        self.proc = subprocess.Popen(
            [java, "-XX:+UseSerialGC", "-cp", str(jar), "AdapterKt"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )  # fmt: skip

    def run(self, lines: list[str]) -> list[dict[str, Any]]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()
        out = []
        for _ in lines:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the peer stopped (exit {self.proc.wait()})")
            out.append(json.loads(line))
        return out

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _verdict(status: str) -> bool | None:
    return {"solvable": True, "unsolvable": False}.get(status)


def run_family(
    name: str, n: int, chunk: int, peer: _Peer, *, time_limit: float, witness_limit: float
) -> dict[str, Any]:
    """Both sides on ``n`` boards of family ``name``, taking turns by blocks of ``chunk``."""
    from mjsat.methods import solve
    from mjsat.replay import check_solution

    make, _ = FAMILIES[name]
    boards = [make(seed) for seed in range(n + WARM[name])]
    lines, orders = [], []
    for seed, board in enumerate(boards):
        line, order = peer_line(board, f"{name}-{seed}", time_limit, witness_limit)
        lines.append(line)
        orders.append(order)
    peer.run(lines[n:])  # warm-up, other seeds
    for board in boards[n:]:
        solve(board, "auto", time_limit=time_limit)
    cpu: dict[str, list[float]] = {s: [] for s in SIDES}
    verdict: dict[str, list[bool | None]] = {s: [] for s in SIDES}
    bad_witness: list[int] = []
    unchecked = 0
    for b, lo in enumerate(range(0, n, chunk)):
        hi = min(n, lo + chunk)
        got: dict[str, Any] = {}
        for side in SIDES if b % 2 == 0 else SIDES[::-1]:
            if side == "peer":
                got[side] = peer.run(lines[lo:hi])
            else:
                got[side] = []
                for board in boards[lo:hi]:
                    c0 = time.process_time()
                    r = solve(board, "auto", time_limit=time_limit)
                    got[side].append((time.process_time() - c0, r.status))
        for i, d in zip(range(lo, hi), got["peer"]):
            cpu["peer"].append(max(float(d["cpu_ms"]), 0.0) / 1e3)
            verdict["peer"].append(_verdict(d["status"]))
            if d["status"] == "solvable":
                if d.get("witness") is None:
                    unchecked += 1
                    continue
                moves = [tuple(sorted((orders[i][a], orders[i][b]))) for a, b in d["witness"]]
                try:
                    check_solution(boards[i], moves)
                except ValueError:
                    bad_witness.append(i)
        cpu["mjsat"] += [c for c, _ in got["mjsat"]]
        verdict["mjsat"] += [_verdict(s) for _, s in got["mjsat"]]
    ways = {s: summary(cpu[s]) for s in SIDES}
    tiles = [len(b) for b in boards[:n]]
    return {
        "boards": n,
        "tiles": [min(tiles), max(tiles)],
        "chunk": chunk,
        "ways": ways,
        "peer_over_mjsat": {k: ways["peer"][k] / ways["mjsat"][k] for k in ways["peer"]},
        "unsolvable": {s: sum(1 for v in verdict[s] if v is False) for s in SIDES},
        "undecided": {s: sum(1 for v in verdict[s] if v is None) for s in SIDES},
        "disagreements": [
            i for i, (p, m) in enumerate(zip(verdict["peer"], verdict["mjsat"])) if None not in (p, m) and p != m
        ],
        "peer_witnesses_refused": bad_witness,
        "peer_witnesses_unchecked": unchecked,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="bench_shisen_peer",
        description=__doc__.split("\n\n")[0],
        epilog="examples:\n"
        "  python -m benchmarks.bench_shisen_peer --peer ~/peers/shisen/peer.jar            # 2,000 small, 100 9x16\n"
        "  python -m benchmarks.bench_shisen_peer --peer ~/peers/shisen/peer.jar --small 500 --big 0",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--peer", default=os.environ.get("MJSAT_SHISEN_PEER"),
                    help="the peer's jar built with Adapter.kt (default: $MJSAT_SHISEN_PEER)")  # fmt: skip
    ap.add_argument("--java", default="java", help="the Java executable (default: java)")
    ap.add_argument("--quick", action="store_true", help="200 small boards, 10 of 9x16")
    ap.add_argument("--small", type=int, default=None, help="small boards (default 2,000)")
    ap.add_argument("--big", type=int, default=None, help="9x16 boards (default 100)")
    ap.add_argument("--chunk", type=int, default=50, help="boards per turn (default 50)")
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per board and side (default 30)")
    ap.add_argument("--witness-limit", type=float, default=5.0,
                    help="seconds for the peer's witness of a solvable board, not timed (default 5; 0: none)")  # fmt: skip
    args = ap.parse_args(argv)
    if not args.peer:
        print("skipped: no --peer (italankin/shisensho-base built with ../shared/peers/shisen/Adapter.kt)")
        return 0
    jar = Path(args.peer).expanduser()
    if not jar.is_file():
        print(f"{jar}: no such peer jar", file=sys.stderr)
        return 2
    java = shutil.which(args.java)
    if java is None:
        print(f"{args.java}: Java not found", file=sys.stderr)
        return 2
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    from mjsat.search.solver import warm_up

    warm_up()  # every kernel loaded outside the timings
    counts = {
        "small": args.small if args.small is not None else (200 if args.quick else FAMILIES["small"][1]),
        "9x16": args.big if args.big is not None else (10 if args.quick else FAMILIES["9x16"][1]),
    }
    version = subprocess.run([java, "-version"], capture_output=True, text=True).stderr.splitlines()[:1]
    data: dict[str, Any] = {
        "benchmark": "shisen_peer", "commit": _commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "java": version[0] if version else "?", "time_limit": args.time_limit,
        "load_start": os.getloadavg()[0], "families": {},
    }  # fmt: skip
    peer = _Peer(java, jar)
    try:
        for name, n in counts.items():
            if n > 0:
                data["families"][name] = run_family(
                    name, n, args.chunk, peer, time_limit=args.time_limit, witness_limit=args.witness_limit
                )
    finally:
        peer.close()
    data["load_end"] = os.getloadavg()[0]
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / "shisen_peer.json"
    tmp = out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(out)
    _print(data)
    bad = any(e["disagreements"] or e["peer_witnesses_refused"] for e in data["families"].values())
    return 1 if bad else 0


def _print(data: dict[str, Any]) -> None:
    print(f"commit {data['commit']}, {data['date']}, {data['java']}, "
          f"load {data['load_start']:.1f} -> {data['load_end']:.1f}, time limit {data['time_limit']:g} s")  # fmt: skip
    print(f"{'boards':7} {'side':6} {'n':>5} {'tiles':>7} {'median':>8} {'p90':>8} {'p99':>9} {'mean':>8}"
          "  unsolvable undecided")  # fmt: skip
    for name, e in data["families"].items():
        tiles = f"{e['tiles'][0]}-{e['tiles'][1]}"
        for s, w in e["ways"].items():
            print(f"{name:7} {s:6} {e['boards']:5d} {tiles:>7} {w['median_ms']:8.3f} {w['p90_ms']:8.3f}"
                  f" {w['p99_ms']:9.2f} {w['mean_ms']:8.2f}  {e['unsolvable'][s]:10d} {e['undecided'][s]:9d}")  # fmt: skip
        r = e["peer_over_mjsat"]
        print(f"{name:7} peer / mjsat {'':>11} {r['median_ms']:7.2f}x {r['p90_ms']:7.2f}x {r['p99_ms']:8.2f}x"
              f" {r['mean_ms']:7.2f}x")  # fmt: skip
        print(f"{name:7} disagreements: {e['disagreements'] or 0}; peer witnesses refused by replay:"
              f" {e['peer_witnesses_refused'] or 0} (unchecked {e['peer_witnesses_unchecked']})")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
