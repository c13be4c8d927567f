"""The commands of runs over many boards: ``mjsat sample`` (many seeded deals of a layout,
decided, summarised) and ``mjsat crossval`` (every exact method on sets of boards, answers
compared)."""

from __future__ import annotations

import json
import math
import sys
from itertools import chain
from typing import Any

import click

from mjsat.board import GAMES
from mjsat.limits import MAX_COUNT

__all__ = ["sample", "crossval", "workers_option", "scheduler_option"]

workers_option = click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes: 1 runs in this process; more start a local Dask cluster on 127.0.0.1.",
)
scheduler_option = click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Run on an existing Dask cluster (tcp://HOST:8786) instead; its workers need the same mjsat.",
)


@click.command("sample")
@click.option(
    "--layout", "layout_spec", required=True, metavar="NAME|FILE", help="Layout to deal on (see `mjsat layouts`)."
)
@click.option("--map", "map_name", metavar="MAP", help="Map of a GNOME .map file.")
@click.option(
    "--game",
    type=click.Choice(list(GAMES), case_sensitive=False),
    default="mahjong",
    show_default=True,
    help="Game rules.",
)
@click.option("-n", "count", type=click.IntRange(min=1), required=True, help="Number of deals (seeds S .. S+N-1).")
@click.option("--seed-start", type=int, default=0, show_default=True, help="First seed.")
@workers_option
@scheduler_option
@click.option(
    "-o",
    "--out",
    "--output",
    "out",
    required=True,
    type=click.Path(dir_okay=False),
    help="JSONL results file (appended; resumable).",
)
@click.option("--method", default="search", show_default=True, help="Solving method (see `mjsat methods`).")
@click.option("--time-limit", type=float, default=10.0, show_default=True, help="Seconds per deal before `unknown`.")
@click.option(
    "-O", "--option", "option_items", multiple=True, metavar="KEY=VALUE", help="Method option, e.g. -O critical=off."
)
@click.option(
    "--retry-unknown",
    is_flag=True,
    help="Run the file's `unknown` rows again at --time-limit (which may then differ from the file's) and replace them.",
)
@click.option(
    "--batch",
    is_flag=True,
    help="With --method auto (no -O options) on Mahjong: decide the deals in compiled blocks (the same verdicts).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def sample(
    layout_spec: str,
    map_name: str | None,
    game: str,
    count: int,
    seed_start: int,
    workers: int,
    scheduler: str | None,
    out: str,
    method: str,
    time_limit: float,
    option_items: tuple[str, ...],
    retry_unknown: bool,
    batch: bool,
    as_json: bool,
) -> None:
    """Decide N seeded random deals of a layout and summarise them.

    Each deal is `mjsat deal --layout NAME --seed S` for S = seed-start .. seed-start+N-1,
    decided with the method (the pairing-set search by default) at the time limit. The
    first line of --out records the layout, game, method, -O options and time limit; one
    JSON line per deal (seed, status, seconds, nodes, ...) is appended as soon as it is
    decided. Run the same command again to go on after an interruption (seeds already in
    the file are skipped); a run with another layout, game, method, options or time limit
    is refused, naming the argument. --retry-unknown runs the file's `unknown` rows again
    at the given time limit (the only argument that may then differ) and replaces them,
    keeping every seed once; the file's header then records the new limit. The summary
    gives the share of unsolvable deals with its Wilson 95 % interval, the time per deal
    and the hardest seeds. --workers W (W > 1) decides the deals on a local Dask cluster
    of W processes, --scheduler on an existing one, in tasks of up to 200 deals; rows are
    appended as tasks end, and a task of a worker that died runs again elsewhere.
    --batch (with --method auto, no -O options, a Mahjong game) decides the deals in blocks
    of 64, each one compiled call of the pairing search's phases, the deals it leaves
    undecided then going to the auto plan one at a time: the same verdicts, the time of a
    block shared by its deals.

    \b
    Examples:
      mjsat sample --layout turtle -n 1000 --out turtle.jsonl
      mjsat sample --layout turtle -n 10000 --method auto --batch --out turtle-auto.jsonl
      mjsat sample --layout turtle -n 10000 --workers 2 --out turtle.jsonl --json
      mjsat sample --layout turtle -n 100000 --scheduler tcp://10.0.0.5:8786 --out turtle.jsonl
      mjsat sample --layout turtle -n 1000 --out turtle.jsonl --time-limit 60 --retry-unknown
      mjsat sample --layout ../shared/layout-sources/xmahjongg/bridge -n 500 --out bridge.jsonl
      mjsat sample --layout rect-6x5 --game shisen-sho -n 200 --out s.jsonl -O critical=off
    """
    from mjsat.cli import parse_key_values
    from mjsat.fileio import exclusive_lock
    from mjsat.layouts import load_layout
    from mjsat.methods import check_options
    from mjsat.runs.cluster import Runner
    from mjsat.runs.progress import RunProgress
    from mjsat.runs.sample import read_done, sample as run_sample, summarize

    if time_limit is not None and not 0 < time_limit < math.inf:
        raise click.BadParameter(f"must be a positive number of seconds, got {time_limit}", param_hint="--time-limit")
    MAX_COUNT.check(count, "-n", verb="asks for")  # before the list of seeds is made
    options = check_options(method, parse_key_values(option_items), time_limit=time_limit)  # before any file or deal
    runner = Runner(workers, scheduler, warm=method == "search" and options.get("engine", "numba") == "numba")
    layout = load_layout(layout_spec, map_name=map_name)
    with exclusive_lock(out):  # a second run on this file refuses here, before its progress bar
        read_done(out, repair=False)  # a bad results file is refused before the progress bar starts
        seeds = range(seed_start, seed_start + count)
        tally = {"unsolvable": 0, "unknown": 0}
        with runner, RunProgress(f"{layout.name or layout_spec} ({game})", count, runner, transient=as_json) as bar:

            def progress(row: dict[str, Any]) -> None:
                if row["status"] in tally:
                    tally[row["status"]] += 1
                bar.advance(tally=f"unsolvable {tally['unsolvable']}  unknown {tally['unknown']}")

            rows = run_sample(
                layout,
                seeds,
                out,
                game=game,
                method=method,
                time_limit=time_limit,
                options=options,
                runner=runner,
                progress=progress,
                retry_unknown=retry_unknown,
                batch=batch,
            )
            bar.finish(count)
    summary = {"layout": layout.name or layout_spec, "game": game, "method": method, "out": out, **summarize(rows)}
    if as_json:
        click.echo(json.dumps(summary, indent=1))
        return
    _print_summary(summary)


def _print_summary(s: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{s['layout']} ({s['game']}, {s['method']}): {s['deals']} deals", show_header=False)
    pct = s["unsolvable_pct"]
    lo, hi = s["ci95_pct"]
    table.add_row("solvable / unsolvable / unknown", f"{s['solvable']} / {s['unsolvable']} / {s['unknown']}")
    table.add_row("unsolvable", "n/a" if math.isnan(pct) else f"{pct:.2f} %  (95 % CI {lo:.2f} .. {hi:.2f} %)")
    table.add_row(
        "seconds per deal",
        f"mean {s['seconds_mean']:.4f}  median {s['seconds_median']:.4f}  p99 {s['seconds_p99']:.3f}  max {s['seconds_max']:.3f}",
    )
    table.add_row(
        "hardest seeds", ", ".join(f"{h['seed']} ({h['status']}, {h['seconds']:.2f} s)" for h in s["hardest"])
    )
    table.add_row("results", s["out"])
    Console().print(table)


def _split(values: tuple[str, ...]) -> list[str]:
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


@click.command()
@click.option(
    "--layout", "layouts", multiple=True, metavar="NAME|FILE", help="Seeded random deals of this layout (repeatable)."
)
@click.option("-n", "--count", type=click.IntRange(0), default=20, show_default=True, help="Deals per --layout.")
@click.option("--seed-start", type=int, default=0, show_default=True, help="Seed of the first deal of each layout.")
@click.option(
    "--solvable-every",
    type=click.IntRange(0),
    default=0,
    help="Every K-th deal solvable by construction (expected solvable).",
)
@click.option(
    "--folder",
    "folders",
    multiple=True,
    type=click.Path(file_okay=False),
    help="Every board file of this folder, e.g. instances/ (repeatable).",
)
@click.option(
    "--cnf",
    "cnfs",
    multiple=True,
    type=click.Path(),
    help="CNF file or folder of .cnf files: boards built by the reductions (repeatable).",
)
@click.option(
    "--random-small",
    type=click.IntRange(0),
    default=0,
    help="This many random small boards (mjsat.generate), of every game of --games in turn: groups of 2, of 4 and mixed; Shisen-Sho full rectangles and grids with holes.",
)
@click.option(
    "--max-tiles", type=click.IntRange(2), default=12, show_default=True, help="Size of --random-small boards."
)
@click.option(
    "--exhaustive",
    type=click.IntRange(0),
    default=0,
    metavar="N",
    help="Every board of at most N tiles (N even) of every game of --games on small grids and layouts, up to symmetry (see the README): 11,235 boards for 8.",
)
@click.option(
    "--games",
    "games_opt",
    multiple=True,
    metavar="G1,G2",
    help="Games of --random-small and --exhaustive (default: all four).",
)
@click.option("--shisen", is_flag=True, help="Short for --games shisen-sho.")
@click.option(
    "--height2",
    "height2_count",
    type=click.IntRange(0),
    default=0,
    help="This many height-two boards (some with a planted blocked cycle).",
)
@click.option("--height2-max-tiles", type=click.IntRange(2), default=16, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the generated sets and of the methods.")
@click.option(
    "--methods",
    "methods",
    multiple=True,
    metavar="M1,M2",
    help="Only these methods (default: every registered one but auto).",
)
@click.option(
    "--encodings", multiple=True, metavar="E1,E2", help="SAT encodings to run (default: all the encoders publish)."
)
@click.option("--solvers", multiple=True, metavar="S1,S2", help="SAT solvers to run (default: the encoders' list).")
@click.option(
    "--time-limit", type=float, default=10.0, show_default=True, metavar="SECONDS", help="Per method and board."
)
@click.option(
    "--ref-max-tiles", type=click.IntRange(2), default=20, show_default=True, help="Run ref only on boards this small."
)
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    default="crossval-disagreements",
    show_default=True,
    help="Where disagreeing boards are written.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the table as one JSON object.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@workers_option
@scheduler_option
def crossval(
    layouts: tuple[str, ...],
    count: int,
    seed_start: int,
    solvable_every: int,
    folders: tuple[str, ...],
    cnfs: tuple[str, ...],
    random_small: int,
    max_tiles: int,
    exhaustive: int,
    games_opt: tuple[str, ...],
    shisen: bool,
    height2_count: int,
    height2_max_tiles: int,
    seed: int,
    methods: tuple[str, ...],
    encodings: tuple[str, ...],
    solvers: tuple[str, ...],
    time_limit: float,
    ref_max_tiles: int,
    out_dir: str,
    as_json: bool,
    no_progress: bool,
    workers: int,
    scheduler: str | None,
) -> None:
    """Run every exact method on sets of boards and compare the answers.

    The methods are those registered (`mjsat solve --method ...`) except `auto`: `ref` on
    boards of at most --ref-max-tiles tiles, each SAT encoding with each solver, `cpsat`,
    `search`, `height2`. A method that says it does not apply to a board (`height2` off
    isolated stacks of height two) counts as n/a;
    any other failure is an error. Method, encoding and solver names are checked before
    any board runs. Every `solvable` answer is replayed. Prints per method the boards
    decided, solvable / unsolvable / unknown / n/a / errors, median and max time, and the
    agreement matrix (boards both decided: agreed / both). When two methods disagree, a
    method errs, or a method contradicts what the board is known to be, the board and all
    answers are written to --out-dir and the command exits 1.

    --exhaustive N runs every board of at most N tiles: Shisen-Sho on every set of cells
    of a grid of at most N+1 cells, the games on the Mahjong grid on every set of
    positions of four small layouts (each tile above level 0 resting on one), each in
    every grouping into groups of even size, up to the game's symmetries. With it the
    SAT encodings run with one solver (the first of --solvers' default list) unless
    --solvers names others.

    \b
    mjsat crossval --random-small 200 --height2 200
    mjsat crossval --exhaustive 8                       # every board of up to 8 tiles
    mjsat crossval --exhaustive 6 --games shisen-sho --methods ref,sat,cpsat
    mjsat crossval --random-small 2000 --shisen --max-tiles 12
    mjsat crossval --layout turtle -n 200 --methods search,sat,cpsat
    mjsat crossval --folder instances/ --cnf instances/ --json > table.json
    mjsat crossval --layout turtle -n 2000 --methods search,sat --workers 2

    --workers W (W > 1) runs the boards on a local Dask cluster of W processes,
    --scheduler on an existing one; the table is the same as in one process.
    """
    from mjsat.board import GAMES, find_variant
    from mjsat.runs import crossval as cv
    from mjsat.runs.cluster import Runner
    from mjsat.runs.progress import RunProgress

    if not 0 < time_limit < float("inf"):
        raise click.BadParameter(f"must be a positive number of seconds, got {time_limit}", param_hint="--time-limit")
    if exhaustive % 2:
        raise click.BadParameter(f"the number of tiles must be even, got {exhaustive}", param_hint="--exhaustive")
    for value, hint in ((count * len(layouts), "-n"), (random_small, "--random-small"), (height2_count, "--height2")):
        MAX_COUNT.check(value, hint, verb="asks for")  # before any list of boards is made
    if shisen and games_opt:
        raise click.UsageError("give --games or --shisen, not both")
    games = tuple(dict.fromkeys(find_variant(g).game for g in _split(games_opt))) or (
        ("shisen-sho",) if shisen else GAMES
    )
    if not (layouts or folders or cnfs or random_small or exhaustive or height2_count):
        raise click.UsageError(
            "name at least one board set: --layout, --folder, --cnf, --random-small, --exhaustive or --height2"
        )
    # every method, encoding and solver name is checked here, before any board is built or run
    specs = cv.discover_methods(
        only=_split(methods) or None,
        encodings=_split(encodings) or None,
        solvers=_split(solvers) or None,
        single_solver=bool(exhaustive),
    )
    if not specs:
        raise click.UsageError("no method to run")

    sets: list[Any] = []
    total = 0
    notes: list[str] = []
    for spec in layouts:
        sets.append(cv.layout_cases(spec, count, seed_start=seed_start, solvable_every=solvable_every))
        total += count
    folder_lists = [list(cv.folder_cases(f)) for f in folders]
    for fl in folder_lists:
        sets.append(iter(fl))
        total += len(fl)
    if cnfs:
        cl = list(cv.cnf_cases(cnfs))
        sets.append(iter(cl))
        total += len(cl)
    if random_small:
        sets.append(cv.random_small_cases(seed=seed, count=random_small, max_tiles=max_tiles, games=games))
        total += random_small
    if exhaustive:
        sets.append(cv.exhaustive_cases(exhaustive, games=games))
    if height2_count:
        sets.append(cv.height2_cases(seed=seed, count=height2_count, max_tiles=height2_max_tiles))
        total += height2_count
    for note in notes:
        click.echo(note, err=True)

    cases = chain.from_iterable(sets)
    runner = Runner(workers, scheduler, warm=any(spec.method == "search" for spec in specs))
    show = not (no_progress or as_json or not sys.stderr.isatty())
    if show and exhaustive:  # counted only for the bar (a second walk through the enumeration)
        from mjsat.generate import exhaustive_boards

        total += sum(1 for _ in exhaustive_boards(exhaustive, games=games))
    with runner, RunProgress("crossval", total, runner, enabled=show, transient=True) as bar:
        report = cv.run_crossval(
            cases,
            specs,
            time_limit=time_limit,
            ref_max_tiles=ref_max_tiles,
            seed=seed,
            out_dir=out_dir,
            progress=lambda _c: bar.advance(),
            runner=runner,
        )
    data = report.to_dict()
    data["notes"] = notes
    if as_json:
        click.echo(json.dumps(data))
    else:
        _print_tables(report)
    if report.disagreements:
        for d in report.disagreements:
            click.echo(f"DISAGREEMENT on {d.case}: {d.why}" + (f" -> {d.file}" if d.file else ""), err=True)
        sys.exit(1)


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.4f}"


def _print_tables(report: Any) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    if not console.is_terminal:  # piped: wide enough for labels like sat[encoding=...,solver=...]
        console = Console(width=200)
    src = ", ".join(f"{k}: {v}" for k, v in report.per_source.items())
    t = Table(title=escape(f"crossval: {report.boards} boards ({src}), {report.seconds:.1f} s"))
    for col in (
        "method",
        "applied",
        "decided",
        "solvable",
        "unsolvable",
        "unknown",
        "n/a",
        "errors",
        "median s",
        "max s",
    ):
        t.add_column(col, justify="left" if col == "method" else "right", no_wrap=True)
    for m in report.methods:
        d = report.per_method[m].to_dict()
        t.add_row(
            escape(m),
            str(d["applied"]),
            str(d["decided"]),
            str(d["solvable"]),
            str(d["unsolvable"]),
            str(d["unknown"]),
            str(d["not_applicable"]),
            str(d["errors"]),
            _fmt(d["median_seconds"]),
            _fmt(d["max_seconds"]),
        )
    console.print(t)
    if len(report.methods) > 1:
        mt = Table(title="agreement: agreed / both decided")
        mt.add_column("", no_wrap=True)
        for i in range(len(report.methods)):
            mt.add_column(f"({i + 1})", justify="right", no_wrap=True)
        for a in report.methods:
            row = []
            for b in report.methods:
                if a == b:
                    row.append("-")
                    continue
                key = (a, b) if (a, b) in report.both_decided else (b, a)
                row.append(f"{report.agreed[key]}/{report.both_decided[key]}")
            mt.add_row(escape(f"({report.methods.index(a) + 1}) {a}"), *row)
        console.print(mt)
    n = len(report.disagreements)
    console.print(
        f"disagreements: {n}" if n else "disagreements: 0 (every decided answer agrees; every solvable answer replayed)"
    )
