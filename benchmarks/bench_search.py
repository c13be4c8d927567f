"""Benchmark of the pairing-set search: seeded random deals of the turtle and xmahjongg layouts.

``python -m benchmarks.bench_search [--quick] [--deals N] [--workers W] [--layouts a,b,...]
[--time-limit S] [--game G] [-O KEY=VALUE ...] [--versus KEY=VALUE[,KEY=VALUE...] ...]``

For each layout: N deals (seeds 0..N-1) decided by ``mjsat.search`` through the sampling
library (results kept in ``benchmarks/results/search_<layout>_<game>.jsonl``, so an
interrupted run goes on where it stopped), then % unsolvable with its Wilson 95 %
interval beside de Bondt's published figure, and the time per deal (mean, median, p99,
max), wall-clock and CPU time of the process (``cpu_seconds``, replay included). Targets of issue 4: turtle mean <= 10 ms, max <= 2 s, none undecided at 10 s;
bridge and ox means <= 50 ms. The table goes to ``benchmarks/results/search.json``.

With ``--versus``, every deal is instead decided once with the ``-O`` options (the base)
and once more per ``--versus`` set (the base with those options changed), one after the
other in one process, the order rotating from deal to deal; the table gives the CPU time
(``time.process_time`` around ``mjsat.methods.solve``, replay included) and the search
nodes per deal of each set, and counts the deals whose answers differ from the base's
(``benchmarks/results/search_versus.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
XMAHJONGG = Path(__file__).resolve().parents[2] / "shared" / "layout-sources" / "xmahjongg"

DE_BONDT = {  # % of unwinnable deals, de Bondt 2012, section 3.4 (100,000 deals; default: 10 million)
    "default": 2.95,
    "arena": 2.6,
    "arrow": 8.2,
    "boar": 4.7,
    "bridge": 32.0,
    "ceremonial": 1.8,
    "deepwell": 6.0,
    "dog": 7.3,
    "dragon": 7.5,
    "farandole": 7.9,
    "hare": 18.0,
    "horse": 20.0,
    "hourglass": 100.0,
    "monkey": 9.9,
    "ox": 47.0,
    "papillon": 100.0,
    "ram": 6.9,
    "rat": 5.1,
    "rooster": 22.0,
    "snake": 4.2,
    "theater": 0.62,
    "tiger": 22.0,
    "wedges": 4.8,
}
"""de Bondt 2020 gives 2.959 % for the default layout over a larger sample."""


def _layout(name: str):
    """The layout ``name``: an xmahjongg file of the shared sources, or a layout the
    project ships (``turtle``, ``rect-16x9``, ...); None when neither has it."""
    from mjsat.layouts import load_layout

    path = XMAHJONGG / name
    if name == "turtle" or not path.exists():
        try:
            return load_layout(name)
        except ValueError:
            return None
    lay = load_layout(str(path))
    lay.name = name
    return lay


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_search", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="200 turtle deals, 50 of bridge and ox")
    ap.add_argument("--deals", type=int, default=None, help="deals per layout (default 10000; quick 200)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--layouts", default=None, help="comma-separated (turtle, or xmahjongg names; 'all')")
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--game", default="mahjong")
    ap.add_argument(
        "-O",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a search option (as mjsat solve -O); the results file name gets a tag",
    )
    ap.add_argument(
        "--versus",
        action="append",
        default=[],
        metavar="KEY=VALUE[,KEY=VALUE...]",
        help="compare the base options with these changed, interleaved deal by deal",
    )
    args = ap.parse_args(argv)
    from mjsat.cli import _parse_value

    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key.strip()] = _parse_value(value.strip())
    tag = "".join(f"_{k}-{v}" for k, v in sorted(options.items()))
    if args.versus:
        sets = [options] + [
            {
                **options,
                **{k.strip(): _parse_value(v.strip()) for k, _, v in (x.partition("=") for x in item.split(","))},
            }
            for item in args.versus
        ]
        return _versus(args, ["base"] + list(args.versus), sets)

    from rich.console import Console
    from rich.table import Table

    from mjsat.runs.sample import sample, summarize

    if args.layouts == "all":
        names = (
            ["turtle"] + sorted(p.name for p in XMAHJONGG.iterdir() if p.is_file() and p.name != "README.md")
            if XMAHJONGG.is_dir()
            else ["turtle"]
        )
    elif args.layouts:
        names = args.layouts.split(",")
    else:
        names = ["turtle", "bridge", "ox"]
    RESULTS.mkdir(parents=True, exist_ok=True)
    console = Console(width=200)
    rows = []
    for name in names:
        lay = _layout(name)
        if lay is None:
            console.print(f"[yellow]skip {name}: {XMAHJONGG / name} not found")
            continue
        n = args.deals or (200 if args.quick else 10_000)
        if args.quick and name != "turtle" and not args.deals:
            n = 50
        out = RESULTS / f"search_{name}_{args.game}{tag}.jsonl"
        t0 = time.perf_counter()
        done = sample(
            lay, range(n), out, game=args.game, time_limit=args.time_limit, workers=args.workers, options=options
        )
        wall = time.perf_counter() - t0
        s = summarize(done)
        ref = DE_BONDT.get("default" if name == "turtle" else name)
        rows.append(
            {
                "layout": name,
                "game": args.game,
                "options": options,
                "wall_seconds_this_run": wall,
                "de_bondt_pct": ref,
                **s,
            }
        )
        cpu = f", CPU mean {1e3 * s['cpu_mean']:.1f} ms" if "cpu_mean" in s else ""
        console.print(
            f"{name}: {s['deals']} deals, mean {1e3 * s['seconds_mean']:.1f} ms, max {s['seconds_max']:.2f} s{cpu}"
        )
    table = Table(title=f"pairing-set search ({args.game}), seconds per deal")
    for col in (
        "layout",
        "deals",
        "unsolvable % (95 % CI)",
        "de Bondt %",
        "unknown",
        "mean ms",
        "median ms",
        "p99 ms",
        "max s",
        "CPU mean ms",
        "CPU median ms",
        "CPU p99 ms",
        "CPU max s",
    ):
        table.add_column(col, justify="right")
    for r in rows:
        lo, hi = r["ci95_pct"]
        table.add_row(
            r["layout"],
            str(r["deals"]),
            f"{r['unsolvable_pct']:.2f} ({lo:.2f}-{hi:.2f})",
            "" if r["de_bondt_pct"] is None else f"{r['de_bondt_pct']}",
            str(r["unknown"]),
            f"{1e3 * r['seconds_mean']:.1f}",
            f"{1e3 * r['seconds_median']:.1f}",
            f"{1e3 * r['seconds_p99']:.0f}",
            f"{r['seconds_max']:.2f}",
            *(
                (
                    f"{1e3 * r['cpu_mean']:.1f}",
                    f"{1e3 * r['cpu_median']:.1f}",
                    f"{1e3 * r['cpu_p99']:.0f}",
                    f"{r['cpu_max']:.2f}",
                )
                if "cpu_mean" in r
                else ("", "", "", "")
            ),
        )
    console.print(table)
    (RESULTS / f"search{tag}.json").write_text(json.dumps({"argv": list(argv or []), "rows": rows}, indent=1))
    return 0


def _versus(args: argparse.Namespace, labels: list[str], sets: list[dict]) -> int:
    """Decide each deal with every option set in turn (see the module docstring)."""
    import statistics

    from rich.console import Console
    from rich.table import Table

    from mjsat.deals import deal_random
    from mjsat.methods import solve

    console = Console(width=200)
    names = args.layouts.split(",") if args.layouts else ["turtle"]
    rows = []
    for name in names:
        lay = _layout(name)
        if lay is None:
            console.print(f"[yellow]skip {name}: not found")
            continue
        n = args.deals or (200 if args.quick else 1000)
        cpu: list[list[float]] = [[] for _ in sets]
        nodes: list[list[int]] = [[] for _ in sets]
        unknown = [0] * len(sets)
        differ = [0] * len(sets)
        solve(deal_random(lay, seed=0, game=args.game), "search", **sets[0])  # kernels loaded before any clock
        for seed in range(n):
            board = deal_random(lay, seed=seed, game=args.game)
            status: dict[int, str] = {}
            for j in range(len(sets)):
                i = (seed + j) % len(sets)
                t = time.process_time()
                r = solve(board, "search", time_limit=args.time_limit, **sets[i])
                cpu[i].append(time.process_time() - t)
                nodes[i].append(int(r.stats.get("nodes", 0)))
                status[i] = r.status
                unknown[i] += r.status == "unknown"
            for i in range(1, len(sets)):
                if "unknown" not in (status[0], status[i]) and status[i] != status[0]:
                    differ[i] += 1
        for i, label in enumerate(labels):
            rows.append(
                {
                    "layout": name,
                    "set": label,
                    "options": sets[i],
                    "deals": n,
                    "cpu_mean": statistics.fmean(cpu[i]),
                    "cpu_median": statistics.median(cpu[i]),
                    "cpu_max": max(cpu[i]),
                    "nodes_mean": statistics.fmean(nodes[i]),
                    "nodes_max": max(nodes[i]),
                    "unknown": unknown[i],
                    "differ": differ[i],
                }
            )
    table = Table(title=f"pairing-set search ({args.game}), option sets interleaved deal by deal")
    for col in ("layout", "set", "deals", "CPU mean ms", "CPU median ms", "CPU max s", "nodes mean", "nodes max"):
        table.add_column(col, justify="right")
    table.add_column("unknown", justify="right")
    table.add_column("answers differ", justify="right")
    for r in rows:
        table.add_row(
            r["layout"],
            r["set"],
            str(r["deals"]),
            f"{1e3 * r['cpu_mean']:.1f}",
            f"{1e3 * r['cpu_median']:.1f}",
            f"{r['cpu_max']:.2f}",
            f"{r['nodes_mean']:.1f}",
            str(r["nodes_max"]),
            str(r["unknown"]),
            str(r["differ"]),
        )
    console.print(table)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "search_versus.json").write_text(json.dumps({"argv": list(args.versus), "rows": rows}, indent=1))
    return 0 if not any(r["differ"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
