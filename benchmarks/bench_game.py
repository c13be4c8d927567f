"""The game: hint latency, the time to find a deal of each difficulty, the playout shares.

``python -m benchmarks.bench_game [--quick] [--positions N] [--deals K] [--shares M]``
``python -m benchmarks.bench_game --only deals [--seeds S] [--before-seeds B]``

* **Hint latency**: ``N`` (default 200) turtle positions, each a uniform deal (seeded)
  after a random number (0-60) of random legal moves; a fresh :class:`Game` per position
  (no cached verdict) asks :meth:`Game.hint` with a 10 s limit, in this process, on one
  core. Median, p99 and max of wall and CPU time, and the kinds of answer.
* **Time to find a deal**: :func:`find_deal` for ``normal`` and ``hard`` on the turtle
  (Mahjong) and on a 12 x 8 Shisen-Sho board, ``K`` seeds each (default 10): median and
  max seconds and candidates dealt.
* **Playout shares**: the distribution of the share of 100 random playouts that clear
  ``M`` uniform deals (default 100 turtle, 50 Shisen-Sho), with the exact verdict: what
  the thresholds of :data:`mjsat.game.difficulty.THRESHOLDS` were chosen from.
* **Deal times, before and after**: :func:`find_deal` for ``normal`` and ``hard`` on the
  turtle, Shisen-Sho 16 x 9 (KShisen's default) and 12 x 8, seeds ``0 .. S-1`` (default
  20), CPU seconds per deal (``time.process_time``), median and p90, with the playouts
  in Python (``engine="python"``, :func:`~mjsat.game.difficulty.playout_share`: before)
  and compiled (``engine="compiled"``, :mod:`mjsat.search.random_play`, stopping once
  the class is certain: after), in one run; ``--before-seeds`` plays fewer seeds on the
  Python side when time is short. The kernels are loaded before the clock starts.

Writes ``benchmarks/results/game.json``.
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
BOARDS = (("turtle", "mahjong"), ("rect-12x8", "shisen-sho"))


def _q(values: list[float], q: float) -> float:
    return float(np.quantile(np.array(values), q)) if values else float("nan")


def hint_latency(positions: int, seed: int = 1) -> dict[str, Any]:
    from mjsat.deals import deal_random
    from mjsat.game.engine import Game
    from mjsat.layouts import load_layout

    layout = load_layout("turtle")
    rng = np.random.default_rng(seed)
    wall: list[float] = []
    cpu: list[float] = []
    kinds: dict[str, int] = {}
    Game(deal_random(layout, seed=0)).hint(time_limit=10)  # compile / load the kernels first
    for _ in range(positions):
        board = deal_random(layout, seed=int(rng.integers(1 << 30)))
        for _ in range(int(rng.integers(0, 61))):
            legal = list(board.generate_legal_moves())
            if not legal:
                break
            board.push(legal[int(rng.integers(len(legal)))])
        game = Game(board)
        w0, c0 = time.perf_counter(), time.process_time()
        hint = game.hint(time_limit=10)
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
        kinds[hint.kind] = kinds.get(hint.kind, 0) + 1
    return {
        "positions": positions,
        "kinds": kinds,
        "wall_median": statistics.median(wall),
        "wall_p99": _q(wall, 0.99),
        "wall_max": max(wall),
        "cpu_median": statistics.median(cpu),
        "cpu_p99": _q(cpu, 0.99),
        "cpu_max": max(cpu),
    }


def find_times(deals: int) -> list[dict[str, Any]]:
    from mjsat.game.difficulty import find_deal
    from mjsat.layouts import load_layout

    rows = []
    for spec, game in BOARDS:
        layout = load_layout(spec)
        for difficulty in ("normal", "hard"):
            secs, cands = [], []
            for seed in range(deals):
                t0 = time.perf_counter()
                deal = find_deal(layout, difficulty=difficulty, seed=seed, game=game)
                secs.append(time.perf_counter() - t0)
                cands.append(deal.candidates)
            rows.append(
                {
                    "layout": spec,
                    "game": game,
                    "difficulty": difficulty,
                    "deals": deals,
                    "seconds_median": statistics.median(secs),
                    "seconds_max": max(secs),
                    "candidates_median": statistics.median(cands),
                    "candidates_max": max(cands),
                }
            )
    return rows


def shares(counts: dict[str, int]) -> list[dict[str, Any]]:
    from mjsat.deals import deal_random
    from mjsat.game.difficulty import playout_share
    from mjsat.layouts import load_layout
    from mjsat.methods import solve

    rows = []
    for spec, game in BOARDS:
        layout = load_layout(spec)
        values, solvable = [], []
        for seed in range(counts[spec]):
            board = deal_random(layout, seed=seed, game=game)
            cleared, played = playout_share(board, playouts=100, seed=seed)
            values.append(cleared / played)
            solvable.append(solve(board, "auto", time_limit=10, seed=seed).status == "solvable")
        v = np.array(values)
        s = np.array(solvable)
        row: dict[str, Any] = {"layout": spec, "game": game, "deals": len(values), "solvable": float(s.mean())}
        row["quantiles"] = {str(q): float(np.quantile(v, q)) for q in (0.1, 0.25, 0.5, 0.75, 0.9)}
        row["below"] = {
            str(t): {
                "share": float((v < t).mean()),
                "solvable_share": float((v < t).sum() and (s & (v < t)).sum() / (v < t).sum()),
            }
            for t in (0.01, 0.05, 0.1)
        }
        row["at_least"] = {str(t): float((v >= t).mean()) for t in (0.05, 0.1, 0.5)}
        rows.append(row)
    return rows


DEAL_BOARDS = (("turtle", "mahjong"), ("rect-16x9", "shisen-sho"), ("rect-12x8", "shisen-sho"))


def deal_times(seeds: int, before_seeds: int) -> list[dict[str, Any]]:
    """CPU seconds per :func:`find_deal`, per board, difficulty and playout engine."""
    from mjsat.game.difficulty import find_deal
    from mjsat.layouts import load_layout

    for spec, game in DEAL_BOARDS:  # load the compiled kernels (playouts and solvers) first
        find_deal(load_layout(spec), difficulty="normal", seed=10_000, game=game)
    rows = []
    for spec, game in DEAL_BOARDS:
        layout = load_layout(spec)
        for difficulty in ("normal", "hard"):
            for engine, count in (("python", before_seeds), ("compiled", seeds)):
                cpu, cands = [], []
                for seed in range(count):
                    c0 = time.process_time()
                    deal = find_deal(layout, difficulty=difficulty, seed=seed, game=game, engine=engine)
                    cpu.append(time.process_time() - c0)
                    cands.append(deal.candidates)
                row = {
                    "layout": spec,
                    "game": game,
                    "difficulty": difficulty,
                    "engine": engine,
                    "seeds": count,
                    "cpu_median": statistics.median(cpu) if cpu else float("nan"),
                    "cpu_p90": _q(cpu, 0.9),
                    "cpu_max": max(cpu, default=float("nan")),
                    "candidates_median": statistics.median(cands) if cands else float("nan"),
                }
                rows.append(row)
                print(
                    f"  {spec:10} {difficulty:7} {engine:8} seeds {count:3}: CPU median {row['cpu_median']:.3f} s,"
                    f" p90 {row['cpu_p90']:.3f} s, max {row['cpu_max']:.3f} s; candidates median {row['candidates_median']}",
                    flush=True,
                )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_game")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--positions", type=int, default=None)
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--shares", type=int, default=None)
    parser.add_argument("--only", choices=["deals"], default=None, help="run only the deal times, before and after")
    parser.add_argument("--seeds", type=int, default=None, help="seeds per board and difficulty (default 20)")
    parser.add_argument("--before-seeds", type=int, default=None, help="seeds with Python playouts (default --seeds)")
    args = parser.parse_args(argv)
    seeds = args.seeds or (3 if args.quick else 20)
    before = args.before_seeds if args.before_seeds is not None else seeds
    if args.only == "deals":
        print("CPU seconds per deal, playouts in Python (before) and compiled (after):")
        rows = deal_times(seeds, before)
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "game-deals.json").write_text(json.dumps(rows, indent=1) + "\n")
        return 0
    positions = args.positions or (40 if args.quick else 200)
    deals = args.deals or (3 if args.quick else 10)
    m = args.shares or (20 if args.quick else 100)
    out: dict[str, Any] = {}
    out["hint"] = h = hint_latency(positions)
    print(f"hint latency, turtle, {positions} positions of random play ({h['kinds']}):")
    print(
        f"  wall median {h['wall_median'] * 1000:.1f} ms, p99 {h['wall_p99'] * 1000:.1f} ms, max {h['wall_max'] * 1000:.1f} ms"
    )
    print(
        f"  CPU  median {h['cpu_median'] * 1000:.1f} ms, p99 {h['cpu_p99'] * 1000:.1f} ms, max {h['cpu_max'] * 1000:.1f} ms"
    )
    out["find"] = find_times(deals)
    print("time to find a deal (seconds; candidates dealt):")
    for r in out["find"]:
        print(
            f"  {r['layout']:10} {r['game']:11} {r['difficulty']:7} median {r['seconds_median']:.2f} s, max {r['seconds_max']:.2f} s;"
            f" candidates median {r['candidates_median']}, max {r['candidates_max']}"
        )
    out["shares"] = shares({"turtle": m, "rect-12x8": max(1, m // 2)})
    print("share of 100 random playouts that clear a uniform deal:")
    for r in out["shares"]:
        print(
            f"  {r['layout']:10} {r['game']:11} deals {r['deals']}, solvable {r['solvable']:.2f}, quantiles {r['quantiles']}"
        )
        print(f"    below: {r['below']}; at least: {r['at_least']}")
    print("CPU seconds per deal, playouts in Python (before) and compiled (after):")
    out["deals"] = deal_times(seeds, before)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "game.json").write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
