"""The Shisen-Sho pair tests of the search kernels: de Bondt's bitsets against the cell walk.

``python -m benchmarks.bench_pairs [--quick] [-n N] [--queries Q] [--time-limit S]
[--family NAME ...]``

Families: full rectangles of 8 x 12 and 9 x 16 tiles in groups of four (Shisen-Sho), and
turtle deals of Shisen-Sho on the Mahjong grid. For each family:

* **per query**: on positions of the deals with random pairs of each group gone (each
  pair with probability 1/4: *dense*, or 3/4: *sparse*), every pair of present tiles of
  one group (the queries the search asks) tested ``Q`` times over by a compiled loop,
  once with each test (:data:`mjsat.search.config.PAIR_TESTS`); CPU ns per query, and
  the answers must agree;
* **per query by size**: random square grids of side 10 to 64 (margin included), each
  board cell filled with probability 0.8, 0.5 or 0.2, random pairs of cells: how each
  test's cost grows with the grid;
* **per deal**: :func:`mjsat.search.solver.solve_search` on each deal with each test, the
  two runs of a deal one after the other, in alternating order (CPU time, the replay of a
  ``solvable`` answer outside it; every kernel loaded before); the statuses must agree.

Writes ``benchmarks/results/pairs.json``; exit 1 when two answers differ.
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

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"


def _deal(layout: str, game: str) -> Callable[[int], Any]:
    """Seed -> a uniformly dealt board of ``layout`` in groups of four."""

    def make(seed: int) -> Any:
        from mjsat.deals import deal_random
        from mjsat.layouts import load_layout

        return deal_random(load_layout(layout), seed=seed, game=game)

    return make


FAMILIES: dict[str, tuple[Callable[[int], Any], int]] = {
    # name -> (seed -> board, default number of deals)
    "full-8x12": (_deal("rect-12x8", "shisen-sho"), 100),
    "full-9x16": (_deal("rect-16x9", "shisen-sho"), 100),
    "turtle-3d": (_deal("turtle", "shisen-sho-3d"), 100),
}


def _query_loop() -> Callable[..., int]:
    """A compiled loop that asks the kernels' pair test ``repeat`` times over each pair."""
    from numba import njit

    from mjsat.search.kernels_shisen import _sh_ok

    @njit(cache=False)
    def loop(d3, pairs, repeat, sh, grid, bits):  # pragma: no cover - compiled
        hits = 0
        for _ in range(repeat):
            for i in range(pairs.shape[0]):
                hits += _sh_ok(d3, pairs[i, 0], pairs[i, 1], sh, grid, bits)
        return hits

    return loop


def _positions(board: Any, rng: np.random.Generator, count: int, gone: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` positions of ``board`` (each pair of a group gone with probability
    ``gone``) with the pairs of present tiles of one group."""
    from mjsat.search.pairing import geometry

    geo = geometry(board)
    out = []
    for _ in range(count):
        present = np.ones(geo.n, dtype=np.uint8)
        for tiles in geo.members:
            tiles = list(tiles)
            rng.shuffle(tiles)
            present[tiles[: 2 * int(rng.binomial(len(tiles) // 2, gone))]] = 0
        pairs = [
            (a, b)
            for tiles in geo.members
            for i, a in enumerate(tiles)
            for b in tiles[i + 1 :]
            if present[a] and present[b]
        ]
        out.append((present, np.array(pairs, dtype=np.int64).reshape(-1, 2)))
    return out


def _per_query(make: Callable[[int], Any], n: int, queries: int, seed_start: int, gone: float) -> dict[str, Any]:
    """CPU ns per pair test of each kind on positions of ``n`` deals with a share ``gone``
    of the pairs taken off (interleaved per position)."""
    from mjsat.search import kernels as K
    from mjsat.search.config import PAIR_TESTS
    from mjsat.search.kernels_bits import WORDS_OF_PAIR_TEST
    from mjsat.search.kernels_shisen import _sh_grid
    from mjsat.search.pairing import SH3D, geometry

    loop = _query_loop()
    rng = np.random.default_rng(seed_start)
    cpu = dict.fromkeys(PAIR_TESTS, 0.0)
    asked = 0
    mismatches = 0
    for i in range(n):
        board = make(seed_start + i)
        geo = geometry(board)
        kind, _, _, sh, _ = K.arrays(geo)
        d3 = kind == SH3D
        grid = np.zeros(int(sh[2] * sh[3]), dtype=np.uint8)
        words = {t: np.zeros(WORDS_OF_PAIR_TEST[t](sh, d3), dtype=np.uint64) for t in PAIR_TESTS}
        for present, pairs in _positions(board, rng, 4, gone):
            hits = {}
            for t in PAIR_TESTS:
                _sh_grid(d3, present, sh, grid, words[t])
                loop(d3, pairs[:1], 1, sh, grid, words[t])  # compiled outside the timing
                c0 = time.process_time()
                hits[t] = loop(d3, pairs, queries, sh, grid, words[t])
                cpu[t] += time.process_time() - c0
            asked += queries * len(pairs)
            mismatches += len(set(hits.values())) > 1
    return {"queries": asked, "ns": {t: 1e9 * cpu[t] / max(1, asked) for t in PAIR_TESTS}, "mismatches": mismatches}


SIDES = (10, 18, 32, 64)
"""Sides of the square grids of the per-query-by-size part (margin included)."""
FILLS = (0.8, 0.5, 0.2)
"""Shares of their board cells holding a tile."""


def _per_query_sizes(queries: int, seed: int) -> list[dict[str, Any]]:
    """CPU ns per pair test of each kind on random grids of each side and fill."""
    from mjsat.search.config import PAIR_TESTS
    from mjsat.search.kernels_bits import WORDS_OF_PAIR_TEST
    from mjsat.search.kernels_shisen import _sh_grid

    loop = _query_loop()
    rng = np.random.default_rng(seed)
    rows = []
    for side in SIDES:
        for fill in FILLS:
            occ = np.zeros((side, side), dtype=bool)
            occ[1:-1, 1:-1] = rng.random((side - 2, side - 2)) < fill
            ys, xs = np.nonzero(np.ones((side - 2, side - 2), dtype=bool))
            cy, cx = (ys + 1).astype(np.int32), (xs + 1).astype(np.int32)
            sh = (cy, cx, np.int64(side), np.int64(side))
            present = occ[cy, cx].astype(np.uint8)
            pairs = rng.integers(0, len(cy), size=(2000, 2)).astype(np.int64)
            pairs = pairs[pairs[:, 0] != pairs[:, 1]]
            grid = np.zeros(side * side, dtype=np.uint8)
            ns, hits = {}, {}
            for t in PAIR_TESTS:
                bits = np.zeros(WORDS_OF_PAIR_TEST[t](sh, False), dtype=np.uint64)
                _sh_grid(False, present, sh, grid, bits)
                loop(False, pairs[:1], 1, sh, grid, bits)
                c0 = time.process_time()
                hits[t] = loop(False, pairs, queries, sh, grid, bits)
                ns[t] = 1e9 * (time.process_time() - c0) / (queries * len(pairs))
            rows.append({"side": side, "fill": fill, "ns": ns, "mismatch": len(set(hits.values())) > 1})
    return rows


def _per_deal(make: Callable[[int], Any], n: int, seed_start: int, time_limit: float) -> dict[str, Any]:
    """CPU per deal of the whole search with each pair test, the two runs of a deal in a row."""
    from mjsat.replay import replay
    from mjsat.search.config import PAIR_TESTS
    from mjsat.search.solver import solve_search, warm_up

    warm_up()  # every kernel loaded outside the timings (the search's own on its first deal otherwise)
    warm = make(10**9)
    for t in PAIR_TESTS:
        solve_search(warm, pair_test=t, time_limit=time_limit)
    cpu: dict[str, list[float]] = {t: [] for t in PAIR_TESTS}
    statuses: dict[str, dict[str, int]] = {t: {} for t in PAIR_TESTS}
    clashes = []
    for i in range(n):
        board = make(seed_start + i)
        seen = set()
        for t in PAIR_TESTS if i % 2 == 0 else PAIR_TESTS[::-1]:
            c0 = time.process_time()
            r = solve_search(board, pair_test=t, time_limit=time_limit)
            cpu[t].append(time.process_time() - c0)
            if r.status == "solvable":
                replay(board, r.moves)
            statuses[t][r.status] = statuses[t].get(r.status, 0) + 1
            seen.add(r.status)
        if {"solvable", "unsolvable"} <= seen:
            clashes.append(seed_start + i)
    return {
        t: {
            "mean_ms": 1e3 * statistics.fmean(cpu[t]),
            "median_ms": 1e3 * statistics.median(cpu[t]),
            "max_ms": 1e3 * max(cpu[t]),
            "total_s": sum(cpu[t]),
            "statuses": statuses[t],
        }
        for t in PAIR_TESTS
    } | {"disagreements": clashes}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_pairs", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="10 deals per family")
    ap.add_argument("-n", type=int, default=None, help="deals per family (default: each family's own)")
    ap.add_argument("--queries", type=int, default=200, help="times each pair is asked per position")
    ap.add_argument("--seed-start", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per deal and test")
    ap.add_argument("--family", action="append", choices=list(FAMILIES), help="repeatable (default: all)")
    args = ap.parse_args(argv)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    from mjsat.search.config import PAIR_TESTS

    out: dict[str, Any] = {"load": os.getloadavg()[0], "families": {}}
    bad = 0
    out["sizes"] = _per_query_sizes(max(1, args.queries // 4), args.seed_start)
    for row in out["sizes"]:
        ns = row["ns"]
        bad += row["mismatch"]
        print(
            f"grid {row['side']:>2}x{row['side']:<2} fill {row['fill']:.1f}: "
            + ", ".join(f"{t} {ns[t]:.1f} ns" for t in PAIR_TESTS)
            + f"; cells/bits {ns['cells'] / ns['bits']:.2f}"
            + ("; MISMATCH" if row["mismatch"] else ""),
            flush=True,
        )
    for fam in args.family or list(FAMILIES):
        make, default_n = FAMILIES[fam]
        n = args.n or (10 if args.quick else default_n)
        per_query = {}
        for label, gone in (("dense", 0.25), ("sparse", 0.75)):
            q = _per_query(make, min(n, 20), args.queries, args.seed_start, gone)
            per_query[label] = q
            bad += q["mismatches"]
            ns = q["ns"]
            print(
                f"{fam:<10} per query, {label} ({q['queries']} asked): "
                + ", ".join(f"{t} {ns[t]:.1f} ns" for t in PAIR_TESTS)
                + f"; cells/bits {ns['cells'] / ns['bits']:.2f}; mismatches {q['mismatches']}",
                flush=True,
            )
        d = _per_deal(make, n, args.seed_start, args.time_limit)
        out["families"][fam] = {"per_query": per_query, "per_deal": d}
        bad += len(d["disagreements"])
        print(
            f"{fam:<10} per deal ({n}): "
            + ", ".join(
                f"{t} mean {d[t]['mean_ms']:.1f} ms median {d[t]['median_ms']:.1f} max {d[t]['max_ms']:.0f} "
                f"total {d[t]['total_s']:.2f} s {d[t]['statuses']}"
                for t in PAIR_TESTS
            )
            + f"; cells/bits total {d['cells']['total_s'] / d['bits']['total_s']:.2f};"
            f" disagreements {d['disagreements']}",
            flush=True,
        )
    out["load_end"] = os.getloadavg()[0]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "pairs.json").write_text(json.dumps(out, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
