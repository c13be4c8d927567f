"""Height two: the polynomial method against the exact search on boards of growing size,
and how often Theorem 5's player without peeking clears boards solvable with peeking.

``python -m benchmarks.bench_height2 [--quick] [--time-limit S] [--boards K]``

Board kinds per size (seeded, :mod:`mjsat.generate`): ``four`` (uniform deal,
groups of four: always solvable, Theorem 5), ``mixed`` (groups of 2 and 4, solvable by
construction), ``planted`` (groups of four around a planted blocked cycle of 8 groups:
unsolvable). Each board is decided by ``height2`` and by ``search`` (the numba pairing
search, at the time limit) through :func:`mjsat.methods.solve` (so both times include the
replay of a ``solvable`` answer); the layout's relation tables are built before either is
timed. The answers must agree. Writes ``benchmarks/results/height2.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"
SIZES = (16, 64, 256, 1024, 4096, 10_000)
QUICK_SIZES = (16, 64, 256, 1024)


def _board(kind: str, n: int, seed: int) -> Any:
    from mjsat.generate import planted_cycle_board, random_height2_board

    rng = np.random.default_rng([n, seed])
    if kind == "four":
        return random_height2_board(rng, n_tiles=n, group_sizes=(4,))
    if kind == "mixed":
        return random_height2_board(rng, n_tiles=n, solvable=True)
    return planted_cycle_board(rng, n_tiles=n, cycle_length=min(8, n // 4), group_sizes=(4,))


def _run(method: str, board: Any, time_limit: float) -> tuple[str, float]:
    from mjsat.methods import solve

    t0 = time.perf_counter()
    try:
        status = solve(board, method, time_limit=time_limit).status
    except ValueError as exc:  # e.g. a board size the method refuses
        status = f"refused: {exc}"[:60]
    return status, time.perf_counter() - t0


def scaling(sizes: tuple[int, ...], boards: int, time_limit: float, methods: tuple[str, ...]) -> list[dict[str, Any]]:
    from mjsat.methods import METHODS

    methods = tuple(m for m in methods if m in METHODS)
    rows = []
    for n in sizes:
        for kind in ("four", "mixed", "planted"):
            per: dict[str, list[tuple[str, float]]] = {m: [] for m in methods}
            for s in range(boards):
                board = _board(kind, n, s)
                board.layout.is_isolated_stacks()  # the layout's relation tables, shared by both
                _ = board.layout.side_tables(("left", "right")).csr  # methods, built once before either is timed
                for m in methods:
                    per[m].append(_run(m, board, time_limit))
            row: dict[str, Any] = {"tiles": n, "kind": kind, "boards": boards}
            answers = [tuple(st for st, _ in per[m]) for m in methods]
            row["agree"] = all(
                a == b or "unknown" in (a, b) or a.startswith("refused") or b.startswith("refused")
                for col in zip(*answers)
                for a in col
                for b in col
            )
            for m in methods:
                ts = [t for _, t in per[m]]
                sts = [st for st, _ in per[m]]
                row[m] = {
                    "median_s": statistics.median(ts),
                    "max_s": max(ts),
                    "decided": sum(st in ("solvable", "unsolvable") for st in sts),
                    "status": sorted(set(sts)),
                }
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def nopeek(boards: int, seed: int) -> dict[str, Any]:
    from mjsat.generate import random_height2_board
    from mjsat.play.height2 import measure

    out = {}
    for n in (16, 48, 96, 144):
        rng = np.random.default_rng([seed, n])
        bs = [random_height2_board(rng, n_tiles=n, group_sizes=(4,)) for _ in range(boards)]
        out[str(n)] = measure(bs, seed=seed)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_height2", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="sizes up to 1,024 tiles, fewer boards")
    ap.add_argument("--boards", type=int, default=None, help="boards per size and kind (default 3; quick 2)")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per board for the exact search")
    ap.add_argument(
        "--nopeek-boards", type=int, default=None, help="boards per size for the no-peek player (default 300; quick 50)"
    )
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else SIZES
    boards = args.boards or (2 if args.quick else 3)
    npb = args.nopeek_boards or (50 if args.quick else 300)
    from mjsat.generate import planted_cycle_board, random_height2_board
    from mjsat.methods import solve

    warm = [random_height2_board(np.random.default_rng(0), n_tiles=16, solvable=True)]
    warm.append(planted_cycle_board(np.random.default_rng(0), n_tiles=16, cycle_length=4, group_sizes=(4,)))
    for board in warm:  # compile / load the numba kernels (every path) outside the timings
        for m in ("height2", "search"):
            try:
                solve(board, m)
            except ValueError:
                pass
    t0 = time.perf_counter()
    rows = scaling(sizes, boards, args.time_limit, ("height2", "search"))
    np_res = nopeek(npb, args.seed)
    data = {
        "benchmark": "height2",
        "quick": args.quick,
        "time_limit": args.time_limit,
        "scaling": rows,
        "nopeek": np_res,
        "seconds": time.perf_counter() - t0,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "height2.json").write_text(json.dumps(data, indent=1) + "\n")

    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"height two: height2 vs search (time limit {args.time_limit:g} s, {boards} boards per row)")
    for c in (
        "tiles",
        "kind",
        "height2 median s",
        "height2 max s",
        "search median s",
        "search max s",
        "search decided",
        "agree",
    ):
        t.add_column(c, justify="right")
    for r in rows:
        h, s = r.get("height2", {}), r.get("search", {})
        t.add_row(
            str(r["tiles"]),
            r["kind"],
            f"{h.get('median_s', float('nan')):.4f}",
            f"{h.get('max_s', float('nan')):.4f}",
            f"{s.get('median_s', float('nan')):.4f}" if s else "-",
            f"{s.get('max_s', float('nan')):.4f}" if s else "-",
            f"{s.get('decided', 0)}/{r['boards']}" if s else "-",
            "yes" if r["agree"] else "NO",
        )
    console = Console()
    console.print(t)
    t2 = Table(title=f"no peeking, groups of four ({npb} boards per size, all solvable with peeking)")
    for c in (
        "tiles",
        "theorem5 cleared %",
        "random cleared %",
        "theorem5 losses",
        "after a guess",
        "fatal guesses / guesses",
    ):
        t2.add_column(c, justify="right")
    for n, m in np_res.items():
        p, q = m["players"]["theorem5"], m["players"]["random"]
        t2.add_row(
            n,
            f"{p['percent']:.2f}",
            f"{q['percent']:.2f}",
            str(p["losses"]),
            str(p["losses_after_guess"]),
            f"{p['losses_after_guess']}/{p['guesses']}",
        )
    console.print(t2)
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
