"""Table 1 of Stam (2007): 4 strategies x 2 heuristics on solvable turtle deals.

``python -m benchmarks.bench_play [--positions N] [--workers W] [--max-seconds T]
[--quick] [--fresh]``

``python -m benchmarks.bench_play --screen STRATEGY/HEURISTIC [--set KEY=VALUE ...]
--positions N`` plays one configuration with reading switches (the keyword options of
the strategy, e.g. ``stones=match``, ``max_level=4``, and of
:class:`~mjsat.play.heuristics.MaxBlockHeuristic`, e.g. ``chains=present``,
``pairs=max``) on the same positions and play seeds, in this process, resumable in
``benchmarks/results/play_screen_<label>.jsonl``; it prints the cleared % with its 95 %
Wilson interval and the CPU time per game, and writes ``play_screen_<label>.json``.

Every position ``i`` is the turtle dealt by Algorithm 1 from seed ``i``
(:func:`mjsat.deals.deal_solvable`); all eight configurations play it with the play seed
``i + PLAY_SEED_OFFSET``. One JSON line per position goes to
``benchmarks/results/play_positions.jsonl`` as it finishes, so an interrupted run
resumes where it stopped (``--fresh`` starts over). The summary table, beside the
paper's figures, goes to ``benchmarks/results/play.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from mjsat.fileio import write_text_atomic

RESULTS = Path(__file__).resolve().parent / "results"

PAPER: dict[tuple[str, str], tuple[int, float, float, int]] = {
    # (strategy, heuristic): (s, s%, r, t) of Table 1, 20,000 positions
    ("random", "random"): (7934, 39.67, 35.79, 360),
    ("multiple-first", "random"): (9602, 48.01, 32.19, 277),
    ("greedy", "random"): (9249, 46.25, 26.02, 387),
    ("obstruction-tree", "random"): (9484, 47.42, 28.27, 781),
    ("random", "maxblock"): (12425, 62.13, 25.28, 692),
    ("multiple-first", "maxblock"): (12182, 60.91, 25.40, 313),
    ("greedy", "maxblock"): (11206, 56.03, 22.32, 514),
    ("obstruction-tree", "maxblock"): (11928, 59.64, 22.94, 1295),
}
"""Stam (2007), Table 1: solved positions, % solved, tiles left when not solved, seconds."""

HEURISTIC_ORDER = ("random", "maxblock", "maxblock-literal")
"""The heuristics of the table: ``maxblock`` (eq. 2 transitive, static chains) and
``maxblock-literal`` both stand for the paper's MaxBlock rows."""

CONFIGS = tuple((s, h) for h in HEURISTIC_ORDER for s in ("random", "multiple-first", "greedy", "obstruction-tree"))


def paper_row(strategy: str, heuristic: str) -> tuple[int, float, float, int]:
    """The paper's Table 1 row a configuration is compared with (every MaxBlock reading
    with the MaxBlock rows)."""
    return PAPER[(strategy, "maxblock" if heuristic.startswith("maxblock") else heuristic)]


def _load(path: Path) -> dict[int, dict[str, Any]]:
    done: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:  # a line cut by an interrupted run
                    continue
                done[int(row["index"])] = row
    return done


def _all_games(stem: str, target: int) -> tuple[list[dict[str, Any]], int]:
    """The games of every position file of ``stem`` (one per strategy set), merged."""
    games: dict[tuple[int, str, str], dict[str, Any]] = {}
    for path in sorted(RESULTS.glob(f"{stem}_positions*.jsonl")):
        for i, row in _load(path).items():
            if i < target:
                for g in row["games"]:
                    games[(i, g["strategy"], g["heuristic"])] = g
    return list(games.values()), len({k[0] for k in games})


def summarize_games(all_games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per configuration: our figures, the paper's, and whether they agree."""
    from mjsat.play.batch import summarize
    from mjsat.runs.stats import wilson_interval

    out = []
    for strategy, heuristic in CONFIGS:
        games = [g for g in all_games if g["strategy"] == strategy and g["heuristic"] == heuristic]
        if not games:
            continue
        ours = summarize(games)
        s, sp, r, t = paper_row(strategy, heuristic)
        lo, hi = ours["ci95"]
        plo, phi = (100 * x for x in wilson_interval(s, 20_000))
        ours.update(
            strategy=strategy,
            heuristic=heuristic,
            seconds_per_game=round(sum(g.get("seconds", 0.0) for g in games) / len(games), 5),
            paper_solved=s,
            paper_percent=sp,
            paper_ci95=[round(plo, 2), round(phi, 2)],
            paper_avg_left=r,
            paper_seconds_per_game=round(t / 20_000, 5),
            paper_in_our_ci=lo <= sp <= hi,
            intervals_overlap=lo <= phi and plo <= hi,
        )
        out.append(ours)
    return out


def _table(summary: list[dict[str, Any]], target: int) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Stam (2007) Table 1: solvable turtle positions (target {target:,})")
    for col in (
        "heuristic",
        "strategy",
        "positions",
        "cleared %",
        "95 % CI",
        "paper %",
        "agree",
        "tiles left",
        "paper left",
        "ms/game",
    ):
        table.add_column(col, justify="right" if col not in ("heuristic", "strategy") else "left")
    for row in summary:
        left = "-" if row["avg_tiles_left"] is None else f"{row['avg_tiles_left']:.2f}"
        table.add_row(
            row["heuristic"],
            row["strategy"],
            f"{row['boards']:,}",
            f"{row['percent_cleared']:.2f}",
            f"{row['ci95'][0]:.2f}-{row['ci95'][1]:.2f}",
            f"{row['paper_percent']:.2f}",
            "yes" if row["paper_in_our_ci"] else "no",
            left,
            f"{row['paper_avg_left']:.2f}",
            f"{1000 * row['seconds_per_game']:.1f}",
        )
    Console(width=140).print(table)


def fatal_run(layout: Any, positions: int, *, time_limit: float, workers: int) -> dict[str, Any]:
    """Replay every configuration's game on positions ``0..positions-1`` and find the
    fatal move of each game lost; histograms per configuration."""
    from rich.progress import Progress

    from mjsat.play.batch import BoardSource, play_batch

    method = "auto"
    source = BoardSource(layout=layout, solvable=True, seed=0)
    rows = []
    with Progress() as progress:
        bar = progress.add_task("fatal moves", total=positions)
        for res in play_batch(
            source, CONFIGS, range(positions), workers=workers, fatal={"method": method, "time_limit": time_limit}
        ):
            rows.append(res)
            progress.advance(bar)
    from mjsat.play.batch import summarize

    out = []
    for strategy, heuristic in CONFIGS:
        games = [g for r in rows for g in r["games"] if g["strategy"] == strategy and g["heuristic"] == heuristic]
        summary = summarize(games)
        found = [g["fatal"]["move"] for g in games if "fatal" in g and g["fatal"]["status"] == "found"]
        lost = [g for g in games if not g["cleared"]]
        summary.update(
            strategy=strategy,
            heuristic=heuristic,
            lost=len(lost),
            fatal_found=len(found),
            fatal_unknown=sum(1 for g in lost if g["fatal"]["status"] == "unknown"),
            mean_fatal_move=round(sum(found) / len(found), 2) if found else None,
            mean_moves_after_fatal=round(
                sum(len(g["moves"]) - g["fatal"]["move"] for g in lost if g["fatal"]["status"] == "found") / len(found),
                2,
            )
            if found
            else None,
        )
        out.append(summary)
    return {
        "benchmark": "play-fatal",
        "positions": positions,
        "method": method,
        "time_limit": time_limit,
        "configurations": out,
    }


HEURISTIC_KEYS = {"transitive": "bool", "chains": "str", "ties": "str", "pairs": "str"}
"""The reading switches of :class:`~mjsat.play.heuristics.MaxBlockHeuristic` (``--set``)."""

STRATEGY_KEYS = {
    "max_nodes": "int",
    "max_level": "int",
    "stones": "str",
    "matches": "str",
    "cycles": "str",
    "side": "str",
    "tie_break": "str",
    "path": "str",
}
"""The options of :class:`~mjsat.play.strategies.ObstructionTreeStrategy` (``--set``)."""


class ScreenSpecError(ValueError):
    """A ``--screen`` configuration or ``--set`` option that does not exist."""


def _value(key: str, kind: str, text: str) -> Any:
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            raise ScreenSpecError(f"--set {key}={text}: not an integer") from None
    if kind == "bool":
        if text.lower() not in ("true", "false"):
            raise ScreenSpecError(f"--set {key}={text}: not true or false")
        return text.lower() == "true"
    return text


def screen_factory(screen: str, settings: list[str]) -> tuple[str, tuple[str, str], Any]:
    """``(label, (strategy, heuristic), make)`` for ``--screen STRATEGY/HEURISTIC`` with ``--set`` options:
    ``make()`` returns a fresh strategy (a strategy keeps a plan between moves, so each
    game needs its own)."""
    from mjsat.play.heuristics import MaxBlockHeuristic, UnknownHeuristicError, make_heuristic
    from mjsat.play.strategies import UnknownReadingError, UnknownStrategyError, make_strategy

    strategy, _, heuristic = screen.partition("/")
    if not heuristic:
        raise ScreenSpecError(f"--screen {screen}: expected STRATEGY/HEURISTIC")
    hopts: dict[str, Any] = {}
    sopts: dict[str, Any] = {}
    for item in settings:
        key, eq, text = item.partition("=")
        if not eq:
            raise ScreenSpecError(f"--set {item}: expected KEY=VALUE")
        if key in HEURISTIC_KEYS:
            hopts[key] = _value(key, HEURISTIC_KEYS[key], text)
        elif key in STRATEGY_KEYS:
            sopts[key] = _value(key, STRATEGY_KEYS[key], text)
        else:
            raise ScreenSpecError(f"--set {item}: unknown key (known: {', '.join([*HEURISTIC_KEYS, *STRATEGY_KEYS])})")
    try:
        base = make_heuristic(heuristic)
    except UnknownHeuristicError as exc:
        raise ScreenSpecError(str(exc)) from None
    if hopts and not isinstance(base, MaxBlockHeuristic):
        raise ScreenSpecError(f"--set {', '.join(hopts)}: heuristic {heuristic!r} has no reading switches")
    if hopts:
        assert isinstance(base, MaxBlockHeuristic)
        hopts = {"transitive": base.transitive, "chains": base.chains, "ties": base.ties, **hopts}

    def make() -> Any:
        h = MaxBlockHeuristic(**hopts) if hopts else make_heuristic(heuristic)
        return make_strategy(strategy, h, **sopts)

    try:
        strategy = make().name  # checks the strategy and its options now
    except (UnknownHeuristicError, UnknownStrategyError, UnknownReadingError) as exc:
        raise ScreenSpecError(str(exc)) from None
    except TypeError:
        raise ScreenSpecError(f"--set {', '.join(sopts)}: not options of strategy {strategy!r}") from None
    label = "_".join([strategy, base.name, *(f"{k}-{v}" for k, v in sorted({**hopts, **sopts}.items()))])
    return label, (strategy, base.name), make


def screen_run(
    layout: Any, screen: str, settings: list[str], positions: int, *, fresh: bool, start: int = 0
) -> dict[str, Any]:
    """Play one configuration with reading switches on positions ``start..start+positions-1``.

    The deals and play seeds are those of the table (:class:`~mjsat.play.batch.BoardSource`);
    the games run in this process, one JSON line per position, resumable.
    """
    from rich.progress import Progress

    from mjsat.play.batch import BoardSource, summarize
    from mjsat.play.game import Game

    label, (strategy, heuristic), make = screen_factory(screen, settings)
    if start:
        label = f"{label}_from{start}"
    jsonl = RESULTS / f"play_screen_{label}.jsonl"
    if fresh and jsonl.exists():
        jsonl.unlink()
    done = _load(jsonl)
    source = BoardSource(layout=layout, solvable=True, seed=0)
    wanted = range(start, start + positions)
    todo = [i for i in wanted if i not in done]
    with jsonl.open("a") as fh, Progress() as progress:
        bar = progress.add_task(label, total=positions, completed=positions - len(todo))
        for i in todo:
            board, seed = source.deal(i)
            t0 = time.process_time()
            rec = Game(board, make(), seed=seed).run()
            row = {
                "index": i,
                "cleared": rec.cleared,
                "tiles_left": rec.tiles_left,
                "cpu_seconds": round(time.process_time() - t0, 5),
            }
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done[i] = row
            progress.advance(bar)
    games = [done[i] for i in wanted]
    summary = summarize(games)
    try:
        sp: float | None = paper_row(strategy, heuristic)[1]
    except KeyError:  # not a configuration of Table 1
        sp = None
    lo, hi = summary["ci95"]
    summary.update(
        label=label,
        screen=screen,
        settings=settings,
        cpu_ms_per_game=round(1000 * sum(g["cpu_seconds"] for g in games) / len(games), 2),
        paper_percent=sp,
        paper_in_our_ci=sp is not None and lo <= sp <= hi,
    )
    write_text_atomic(RESULTS / f"play_screen_{label}.json", json.dumps(summary, indent=1) + "\n")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_play", description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20_000, help="positions 0..N-1 (default 20,000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=None, help="stop after this long (resume later)")
    parser.add_argument("--quick", action="store_true", help="200 positions, results kept apart")
    parser.add_argument("--fresh", action="store_true", help="forget earlier positions")
    parser.add_argument("--layout", default="turtle")
    parser.add_argument("--strategies", default="all", help="comma-separated strategies to play now (default all)")
    parser.add_argument("--heuristics", default="all", help="comma-separated heuristics to play now (default all)")
    parser.add_argument(
        "--fatal", type=int, default=None, metavar="K", help="instead: fatal-move histograms on positions 0..K-1"
    )
    parser.add_argument("--time-limit", type=float, default=10.0, help="per solve, with --fatal")
    parser.add_argument("--screen", default=None, metavar="STRATEGY/HEURISTIC", help="instead: one configuration")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a reading switch of --screen")
    parser.add_argument("--start", type=int, default=0, help="with --screen: the first position (new positions)")
    args = parser.parse_args(argv)

    from rich.progress import Progress

    from mjsat.play.batch import BoardSource, play_batch

    try:
        from mjsat.layouts import load_layout

        layout = load_layout(args.layout)
    except ImportError:  # the layouts part not installed yet: the shipped code
        from mjsat.layouts.shipped import shipped_layout

        layout = shipped_layout(args.layout)
    RESULTS.mkdir(parents=True, exist_ok=True)
    if args.screen is not None:
        try:
            row = screen_run(
                layout, args.screen, args.set, 200 if args.quick else args.positions, fresh=args.fresh, start=args.start
            )
        except ScreenSpecError as exc:
            print(f"bench_play: {exc}", file=sys.stderr)
            return 2
        print(
            f"{row['label']}: {row['cleared']}/{row['boards']} = {row['percent_cleared']:.2f} % "
            f"(95 % CI {row['ci95'][0]:.2f}-{row['ci95'][1]:.2f}; paper {row['paper_percent']}, "
            f"in: {'yes' if row['paper_in_our_ci'] else 'no'}), tiles left {row['avg_tiles_left']}, "
            f"{row['cpu_ms_per_game']} ms CPU/game"
        )
        return 0
    if args.fatal is not None:
        k = 10 if args.quick else args.fatal
        data = fatal_run(layout, k, time_limit=args.time_limit, workers=args.workers)
        for row in data["configurations"]:
            hist = ", ".join(f"{m}:{c}" for m, c in row.get("fatal_histogram", {}).items())
            print(
                f"{row['heuristic']:9s} {row['strategy']:17s} lost {row['lost']:4d}  mean fatal move {row['mean_fatal_move']}  histogram {hist}"
            )
        write_text_atomic(
            RESULTS / ("play_fatal_quick.json" if args.quick else "play_fatal.json"), json.dumps(data, indent=1) + "\n"
        )
        return 0
    target = 200 if args.quick else args.positions
    stem = "play_quick" if args.quick else "play"
    configs, suffix = CONFIGS, ""
    for field, chosen in ((0, args.strategies), (1, args.heuristics)):
        if chosen == "all":
            continue
        wanted = [s.strip() for s in chosen.split(",")]
        configs = tuple(c for c in configs if c[field] in wanted)
        if not configs:
            parser.error(f"no configuration with {wanted} (known: {', '.join(sorted({c[field] for c in CONFIGS}))})")
        suffix += "_" + "_".join(sorted({c[field] for c in configs}))
    jsonl = RESULTS / f"{stem}_positions{suffix}.jsonl"
    if args.fresh and jsonl.exists():
        jsonl.unlink()
    done = _load(jsonl)
    todo = [i for i in range(target) if i not in done]
    start = time.monotonic()
    source = BoardSource(layout=layout, solvable=True, seed=0)
    with jsonl.open("a") as fh, Progress() as progress:
        bar = progress.add_task("positions", total=target, completed=target - len(todo))
        for res in play_batch(source, configs, todo, workers=args.workers):
            for g in res["games"]:
                g.pop("moves", None)  # replayable from the seeds; keeps the file small
            fh.write(json.dumps(res) + "\n")
            fh.flush()
            done[res["index"]] = res
            progress.advance(bar)
            if args.max_seconds is not None and time.monotonic() - start > args.max_seconds:
                break
    games, positions = _all_games(stem, target)
    summary = summarize_games(games)
    _table(summary, target)
    data = {
        "benchmark": "play",
        "layout": args.layout,
        "positions": positions,
        "target": target,
        "complete": all(row["boards"] == target for row in summary) and len(summary) == len(CONFIGS),
        "seconds_this_run": round(time.monotonic() - start, 1),
        "configurations": summary,
        "resume": f"python -m benchmarks.bench_play --positions {target} --workers {args.workers}"
        + (" --quick" if args.quick else "")
        + ("" if args.strategies == "all" else f" --strategies {args.strategies}")
        + ("" if args.heuristics == "all" else f" --heuristics {args.heuristics}"),
    }
    write_text_atomic(RESULTS / f"{stem}.json", json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
