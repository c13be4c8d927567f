"""The commands of runs over many boards: ``mjsat sample`` (many seeded deals of a layout,
decided, summarised), ``mjsat crossval`` (every exact method on sets of boards, answers
compared) and ``mjsat compare`` (methods timed on sets of boards, rows, PAR-2, plots)."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from itertools import chain
from typing import Any

import click

from mjsat.board import GAMES
from mjsat.limits import MAX_COUNT

__all__ = ["sample", "crossval", "compare", "workers_option", "scheduler_option"]

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


def _options(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """One decorator applying ``decorators`` (click options) in their order on ``--help``."""

    def apply(func: Any) -> Any:
        for decorate in reversed(decorators):
            func = decorate(func)
        return func

    return apply


generated_sets_options = _options(
    click.option(
        "--random-small",
        type=click.IntRange(0),
        default=0,
        help="This many random small boards (mjsat.generate), of every game of --games in turn: groups of 2, of 4 "
        "and mixed; Shisen-Sho full rectangles and grids with holes.",
    ),
    click.option(
        "--max-tiles", type=click.IntRange(2), default=12, show_default=True, help="Size of --random-small boards."
    ),
    click.option(
        "--exhaustive",
        type=click.IntRange(0),
        default=0,
        metavar="N",
        help="Every board of at most N tiles (N even) of every game of --games on small grids and layouts, up to "
        "symmetry: 11,235 boards for 8.",
    ),
    click.option(
        "--games",
        "games_opt",
        multiple=True,
        metavar="G1,G2",
        help="Games of --random-small and --exhaustive (default: all four).",
    ),
    click.option(
        "--height2",
        "height2_count",
        type=click.IntRange(0),
        default=0,
        help="This many height-two boards (some with a planted blocked cycle).",
    ),
    click.option("--height2-max-tiles", type=click.IntRange(2), default=16, show_default=True),
)
"""The generated board sets of ``crossval`` and ``compare`` (:mod:`mjsat.runs.boards`)."""


def limit_options(default_clock: str) -> Callable[[Any], Any]:
    """``--time-limit`` (wall seconds) and ``--cpu-limit`` (CPU seconds) per method and
    board, ``default_clock``'s 10 s when neither is given (:func:`_limit_and_clock`), and
    ``--ref-max-tiles``."""
    default = {"wall": (" (default 10)", ""), "cpu": ("", " (default 10)")}[default_clock]
    return _options(
        click.option(
            "--time-limit",
            type=float,
            default=None,
            metavar="SECONDS",
            help=f"Wall seconds per method and board{default[0]}.",
        ),
        click.option(
            "--cpu-limit",
            type=float,
            default=None,
            metavar="SECONDS",
            help=f"CPU seconds per method and board{default[1]}.",
        ),
        click.option(
            "--ref-max-tiles",
            type=click.IntRange(2),
            default=20,
            show_default=True,
            help="Run ref only on boards this small.",
        ),
    )


@click.command("sample")
@click.option("--layout", "layout_spec", metavar="NAME|FILE", help="Layout to deal on (see `mjsat layouts`).")
@click.option("--map", "map_name", metavar="MAP", help="Map of a GNOME .map file.")
@click.option(
    "--boards", "board_paths", multiple=True, type=click.Path(), help="Instead of deals: board files and folders."
)
@click.option(
    "--height2", "height2_count", type=click.IntRange(0), default=0, help="Instead of deals: N height-two boards."
)
@click.option(
    "--random-small", type=click.IntRange(0), default=0, help="Instead of deals: N random small Mahjong boards."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of --height2 and --random-small.")
@click.option(
    "--game",
    type=click.Choice(list(GAMES), case_sensitive=False),
    default="mahjong",
    show_default=True,
    help="Game rules.",
)
@click.option("-n", "count", type=click.IntRange(min=1), help="Number of deals (seeds S .. S+N-1).")
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
@click.option(
    "--time-limit",
    type=float,
    default=None,
    metavar="SECONDS",
    help="Wall seconds per deal before `unknown` (default 10).",
)
@click.option(
    "--cpu-limit", type=float, default=None, metavar="SECONDS", help="CPU seconds per deal instead (research runs)."
)
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
    layout_spec: str | None,
    map_name: str | None,
    board_paths: tuple[str, ...],
    height2_count: int,
    random_small: int,
    seed: int,
    game: str,
    count: int | None,
    seed_start: int,
    workers: int,
    scheduler: str | None,
    out: str,
    method: str,
    time_limit: float | None,
    cpu_limit: float | None,
    option_items: tuple[str, ...],
    retry_unknown: bool,
    batch: bool,
    as_json: bool,
) -> None:
    """Decide N seeded random deals of a layout and summarise them.

    Each deal is `mjsat deal --layout NAME --seed S` for S = seed-start .. seed-start+N-1,
    decided with the method (the pairing-set search by default) at the time limit: 10 wall
    seconds, --time-limit S wall seconds, or --cpu-limit S CPU seconds of the process
    (what a research run on a shared machine needs). The
    first line of --out records the layout, game, method, -O options and time limit (with its clock); one
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

    Instead of deals, --boards (board files and folders), --height2 N and --random-small N
    (the boards of mjsat.generate, seeded by --seed) are decided the same way and
    summarised alike; their rows are those of `mjsat compare` (one per board, resumable).

    \b
    Examples:
      mjsat sample --layout turtle -n 1000 --out turtle.jsonl
      mjsat sample --layout turtle -n 10000 --method auto --batch --out turtle-auto.jsonl
      mjsat sample --layout turtle -n 10000 --workers 2 --out turtle.jsonl --json
      mjsat sample --layout turtle -n 100000 --scheduler tcp://10.0.0.5:8786 --out turtle.jsonl
      mjsat sample --layout turtle -n 1000 --out turtle.jsonl --time-limit 60 --retry-unknown
      mjsat sample --layout turtle -n 1000 --method sat --cpu-limit 30 --out turtle-sat.jsonl
      mjsat sample --layout xmahjongg:bridge -n 500 --out bridge.jsonl   # after apt-get install xmahjongg
      mjsat sample --layout rect-6x5 --game shisen-sho -n 200 --out s.jsonl -O critical=off
      mjsat sample --boards instances/ --method auto --out instances.jsonl
      mjsat sample --height2 500 --method height2 --out h2.jsonl
    """
    from mjsat.cli import parse_key_values
    from mjsat.fileio import exclusive_lock
    from mjsat.layouts import load_layout
    from mjsat.methods import check_options
    from mjsat.runs.cluster import Runner
    from mjsat.runs.progress import RunProgress
    from mjsat.runs.sample import read_done, sample as run_sample, summarize

    if time_limit is None and cpu_limit is None:
        time_limit, clock = 10.0, "wall"
    else:
        time_limit, clock = _limit_and_clock(time_limit, cpu_limit)
    if count is not None:
        MAX_COUNT.check(count, "-n", verb="asks for")  # before the list of seeds is made
    options = check_options(method, parse_key_values(option_items), time_limit=time_limit)  # before any file or deal
    others = bool(board_paths or height2_count or random_small)
    if layout_spec is not None and others:
        raise click.UsageError("give --layout (seeded deals) or --boards/--height2/--random-small, not both")
    if others:
        if retry_unknown or batch:
            raise click.UsageError("--retry-unknown and --batch go with --layout")
        _sample_boards(
            board_paths,
            height2_count,
            random_small,
            seed,
            method,
            options,
            time_limit,
            clock,
            out,
            workers,
            scheduler,
            as_json,
        )
        return
    if layout_spec is None or count is None:
        raise click.UsageError("name the deals with --layout NAME -n N (or give --boards, --height2, --random-small)")
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
                clock=clock,
            )
            bar.finish(count)
    summary = {
        "layout": layout.name or layout_spec, "game": game, "method": method, "out": out,
        "time_limit": time_limit, "clock": clock, **summarize(rows),
    }  # fmt: skip
    if as_json:
        click.echo(json.dumps(summary, indent=1))
        return
    _print_summary(summary)


def _print_summary(s: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    what = f"{s['deals']} deals" if "boards" not in s else f"{s['boards']} boards"
    limit = f", limit {s['time_limit']:g} s {'CPU' if s['clock'] == 'cpu' else 'wall'}"
    table = Table(title=f"{s['layout']} ({s['game']}, {s['method']}): {what}{limit}", show_header=False)
    pct = s["unsolvable_pct"]
    lo, hi = s["ci95_pct"]
    table.add_row("solvable / unsolvable / unknown", f"{s['solvable']} / {s['unsolvable']} / {s['unknown']}")
    table.add_row("unsolvable", "n/a" if math.isnan(pct) else f"{pct:.2f} %  (95 % CI {lo:.2f} .. {hi:.2f} %)")
    table.add_row(
        "wall seconds per deal",
        f"mean {s['seconds_mean']:.4f}  median {s['seconds_median']:.4f}  p99 {s['seconds_p99']:.3f}  max {s['seconds_max']:.3f}",
    )
    if "cpu_mean" in s:
        table.add_row(
            "CPU seconds per deal",
            f"mean {s['cpu_mean']:.4f}  median {s['cpu_median']:.4f}  p99 {s['cpu_p99']:.3f}  max {s['cpu_max']:.3f}",
        )
    table.add_row(
        "hardest seeds" if "boards" not in s else "hardest boards",
        ", ".join(
            f"{h['board'] if 'board' in h else h['seed']} ({h['status']}, {h['seconds']:.2f} s)" for h in s["hardest"]
        ),
    )
    if s.get("not_applicable") or s.get("errors"):
        table.add_row("n/a / errors", f"{s['not_applicable']} / {s['errors']}")
    table.add_row("results", s["out"])
    Console().print(table)


def _sample_boards(
    board_paths: tuple[str, ...],
    height2_count: int,
    random_small: int,
    seed: int,
    method: str,
    options: dict[str, Any],
    time_limit: float,
    clock: str,
    out: str,
    workers: int,
    scheduler: str | None,
    as_json: bool,
) -> None:
    """``mjsat sample`` on board files and generated sets: the run of ``mjsat compare``
    with one method, summarised as ``sample`` summarises deals."""
    from mjsat.fileio import prepare_output
    from mjsat.runs import boards as B, compare as cmp
    from mjsat.runs.cluster import Runner
    from mjsat.runs.crossval import MethodSpec
    from mjsat.runs.progress import RunProgress
    from mjsat.runs.sample import summarize

    sets: list[Any] = []
    names: list[str] = []
    if board_paths:
        sets.append(B.file_cases(board_paths))
        names.append(", ".join(board_paths))
    if height2_count:
        sets.append(B.height2_cases(seed=seed, count=height2_count))
        names.append(f"{height2_count} height-two boards")
    if random_small:
        sets.append(B.random_small_cases(seed=seed, count=random_small, games=("mahjong",)))
        names.append(f"{random_small} random small boards")
    label = ":".join([method, *(f"{k}={v}" for k, v in options.items())])
    spec = MethodSpec(label, method, tuple(options.items()))
    prepare_output(out)
    cmp.read_results(out)
    cases = list(chain.from_iterable(sets))
    runner = Runner(workers, scheduler, warm=method == "search")
    with runner, RunProgress("sample", len(cases), runner, transient=True, enabled=not as_json) as bar:
        rows, _ = cmp.compare(
            cases, [spec], out, time_limit=time_limit, clock=clock, seed=seed, runner=runner,
            progress=lambda _r: bar.advance(),
        )  # fmt: skip
    kept = [
        {"seed": i, "board": r["board"], "status": r["status"], "seconds": r["wall_seconds"],
         "cpu_seconds": r["cpu_seconds"], "nodes": r.get("nodes", 0)}
        for i, r in enumerate(rows) if r["status"] in ("solvable", "unsolvable", "unknown")
    ]  # fmt: skip
    summary = {
        "layout": "; ".join(names), "game": "boards", "method": label, "out": out,
        "time_limit": time_limit, "clock": clock, **summarize(kept),
    }  # fmt: skip
    by_index = {k["seed"]: k["board"] for k in kept}
    for h in summary["hardest"]:
        h["board"] = by_index[h.pop("seed")]
    summary["boards"] = len(rows)
    summary["not_applicable"] = sum(r["status"] == "n/a" for r in rows)
    summary["errors"] = sum(r["status"] == "error" for r in rows)
    if as_json:
        click.echo(json.dumps(summary, indent=1))
    else:
        _print_summary(summary)
    if summary["errors"]:
        sys.exit(1)


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
@generated_sets_options
@click.option("--shisen", is_flag=True, help="Short for --games shisen-sho.")
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
@limit_options("wall")
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
    time_limit: float | None,
    cpu_limit: float | None,
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
    --cpu-limit S limits each method to S CPU seconds of its process instead of
    --time-limit's wall seconds; the table's times are wall seconds either way.
    """
    from mjsat.board import GAMES, find_variant
    from mjsat.runs import crossval as cv
    from mjsat.runs.cluster import Runner
    from mjsat.runs.progress import RunProgress

    if time_limit is None and cpu_limit is None:
        time_limit = 10.0
    limit, clock = _limit_and_clock(time_limit, cpu_limit)
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
            time_limit=limit,
            clock=clock,
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
        "median wall s",
        "max wall s",
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


# --------------------------------------------------------------------------- compare


def _limit_and_clock(time_limit: float | None, cpu_limit: float | None) -> tuple[float, str]:
    """The limit and its clock: ``--cpu-limit`` (CPU seconds, the default 10), or
    ``--time-limit`` (wall seconds)."""
    if time_limit is not None and cpu_limit is not None:
        raise click.UsageError("give --time-limit (wall seconds) or --cpu-limit (CPU seconds), not both")
    for limit, hint in ((time_limit, "--time-limit"), (cpu_limit, "--cpu-limit")):
        if limit is not None and not 0 < limit < math.inf:
            raise click.BadParameter(f"must be a positive number of seconds, got {limit}", param_hint=hint)
    if time_limit is not None:
        return time_limit, "wall"
    return (10.0 if cpu_limit is None else cpu_limit), "cpu"


def _scatter_pair(scatter: str | None, labels: list[str]) -> tuple[str, str] | None:
    if scatter is None:
        return None
    pair = [s.strip() for s in scatter.split(",") if s.strip()]
    if len(pair) != 2:
        raise click.BadParameter(f"name two methods, A,B; got {scatter!r}", param_hint="--scatter")
    for p in pair:
        if p not in labels:
            raise click.BadParameter(f"{p!r} is not one of the methods ({', '.join(labels)})", param_hint="--scatter")
    return pair[0], pair[1]


def _compare_outputs(
    rows: list[dict[str, Any]],
    summary: dict[str, Any],
    *,
    csv_path: str | None,
    plot_dir: str | None,
    scatter: tuple[str, str] | None,
    labels: list[str],
    as_json: bool,
) -> None:
    from mjsat.runs import compare as cmp

    if csv_path:
        cmp.write_csv(rows, csv_path)
    if plot_dir:
        summary["plots"] = cmp.write_plots(
            rows,
            plot_dir,
            time_limit=summary["time_limit"],
            clock=summary["clock"],
            scatter=scatter,
            methods=labels,
        )
    if as_json:
        click.echo(json.dumps(summary, indent=1))
    else:
        _print_compare(summary)
    for d in summary["disagreements"]:
        click.echo(
            f"DISAGREEMENT on {d['board']}: {d['why']}" + (f" -> {d['file']}" if d.get("file") else ""), err=True
        )
    if summary["disagreements"]:
        sys.exit(1)


def _print_compare(s: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console = Console(width=200)
    clock = "CPU" if s["clock"] == "cpu" else "wall"
    t = Table(title=escape(f"compare: {s['boards']} boards, limit {s['time_limit']:g} s {clock}"))
    for col in (
        "method",
        "solved",
        "sat / unsat",
        "unknown",
        "errors",
        "n/a",
        f"PAR-2 ({clock} s)",
        "median CPU s",
        "p90 CPU s",
        "unique",
        "fastest",
    ):
        t.add_column(col, justify="left" if col == "method" else "right", no_wrap=True)
    for m in s["methods"]:
        t.add_row(
            escape(m["method"]),
            f"{m['solved']}/{m['boards']}",
            f"{m['solvable']} / {m['unsolvable']}",
            str(m["unknown"]),
            str(m["errors"]),
            str(m["not_applicable"]),
            _fmt(m["par2"]),
            _fmt(m["cpu_median"]),
            _fmt(m["cpu_p90"]),
            str(m["unique"]),
            str(m["fastest"]),
        )
    v = s["vbs"]
    t.add_row("virtual best", f"{v['solved']}/{v['boards']}", "", "", "", "", _fmt(v["par2"]), "", "", "", "")
    console.print(t)
    for p in s.get("plots", []):
        console.print(f"wrote {p}")
    if "out" in s:
        console.print(f"rows: {s['out']}")


@click.group("compare", invoke_without_command=True)
@click.option(
    "--methods",
    "methods_opt",
    multiple=True,
    metavar="M1,M2:key=value",
    help="Methods to compare (default: search,sat,cpsat); entries name[:key=value]..., key=* for every value.",
)
@click.option(
    "--layout", "layouts", multiple=True, metavar="NAME|FILE", help="Seeded random deals of this layout (repeatable)."
)
@click.option("--map", "map_name", metavar="MAP", help="Map of a GNOME .map file.")
@click.option(
    "--game",
    type=click.Choice(list(GAMES), case_sensitive=False),
    default="mahjong",
    show_default=True,
    help="Game of the --layout deals.",
)
@click.option("-n", "--count", type=click.IntRange(0), default=20, show_default=True, help="Deals per --layout.")
@click.option("--seed-start", type=int, default=0, show_default=True, help="Seed of the first deal.")
@click.option("--solvable-every", type=click.IntRange(0), default=0, help="Every K-th deal solvable by construction.")
@click.option(
    "--boards", "board_paths", multiple=True, type=click.Path(), help="A board file or a folder of them (repeatable)."
)
@click.option(
    "--cnf",
    "cnfs",
    multiple=True,
    type=click.Path(),
    help="CNF file or folder of .cnf files, turned into boards by the reductions (repeatable).",
)
@click.option(
    "--to",
    "targets_opt",
    multiple=True,
    metavar="T1,T2",
    help="Targets of --cnf and --family: stacks, rows, shisen-sho, shisen-rows (default: stacks for --family, stacks,rows for --cnf).",
)
@click.option(
    "--family",
    type=click.Choice(["random", "planted", "complete", "pigeonhole"]),
    help="Formulas of a family (as `mjsat reduce family`), turned into boards.",
)
@click.option(
    "--family-n",
    "family_n",
    metavar="N1,N2",
    help="Sizes of --family: variables (random, planted), k (complete), holes (pigeonhole).",
)
@click.option(
    "--family-count",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Formulas per size (random, planted: seeds --seed ...).",
)
@click.option(
    "--ratio", type=float, default=4.26, show_default=True, help="Clauses per variable of --family random/planted."
)
@generated_sets_options
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the generated sets, the formulas and the methods."
)
@limit_options("cpu")
@click.option(
    "-o",
    "--out",
    "out",
    type=click.Path(dir_okay=False),
    default="compare.jsonl",
    show_default=True,
    help="JSONL rows (appended; resumable).",
)
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="Also write the rows as CSV.")
@click.option(
    "--plot",
    "plot_dir",
    type=click.Path(file_okay=False),
    help="Write cactus, scatter (and scaling) plots, SVG and PNG, here.",
)
@click.option("--scatter", metavar="A,B", help="The two methods of the scatter plot (default: the first two).")
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    default="compare-disagreements",
    show_default=True,
    help="Where disagreeing boards are written.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@workers_option
@scheduler_option
@click.pass_context
def compare(
    ctx: click.Context,
    methods_opt: tuple[str, ...],
    layouts: tuple[str, ...],
    map_name: str | None,
    game: str,
    count: int,
    seed_start: int,
    solvable_every: int,
    board_paths: tuple[str, ...],
    cnfs: tuple[str, ...],
    targets_opt: tuple[str, ...],
    family: str | None,
    family_n: str | None,
    family_count: int,
    ratio: float,
    random_small: int,
    max_tiles: int,
    exhaustive: int,
    games_opt: tuple[str, ...],
    height2_count: int,
    height2_max_tiles: int,
    seed: int,
    time_limit: float | None,
    cpu_limit: float | None,
    ref_max_tiles: int,
    out: str,
    csv_path: str | None,
    plot_dir: str | None,
    scatter: str | None,
    out_dir: str,
    as_json: bool,
    no_progress: bool,
    workers: int,
    scheduler: str | None,
) -> None:
    """Compare methods on a set of boards: a row per board and method, CPU times, PAR-2,
    the virtual best method, cactus and scatter plots.

    Methods are entries name[:key=value]... (`mjsat methods`): `search`,
    `search:critical=off`, `sat:encoding=acyclic`, `sat:encoding=parity:solver=cadical195`,
    `sat:encoding=*` (every encoding), `cpsat`, `height2`, `auto`, `exact`, `ref`. Every
    name, option, encoding and solver is checked before any board runs.

    Boards: seeded deals (--layout, --game, -n, --seed-start), board files and folders
    (--boards), the reductions' boards of CNF files (--cnf, --to) and of formula families
    (--family, --family-n), and the generated sets (--random-small, --exhaustive,
    --height2). Each method runs on each board under --cpu-limit CPU seconds of its
    process (default 10) or --time-limit wall seconds; a row (status, CPU and wall
    seconds, peak memory, nodes, conflicts, clauses, verified) is appended to --out as
    soon as the board is done. Run the same command again to go on: the (board, method)
    pairs in the file are skipped, and added methods run on the boards they lack.

    The summary counts per method the boards solved (solvable / unsolvable), PAR-2 (the
    mean time, an unsolved board counting twice the limit), the median and 90th
    percentile CPU time of the solved boards, the boards only it solved, and the boards
    it solved fastest; `virtual best` takes the fastest method on each board. Two methods
    that disagree (or a method against what a board is known to be, or a method that
    fails) write the board to --out-dir and exit 1.

    \b
    mjsat compare --layout turtle -n 100 --methods search,sat:encoding=acyclic,sat:encoding=parity,cpsat --plot out/ --out turtle.jsonl
    mjsat compare --family random --family-n 4,6,8,10 --family-count 5 --methods search,sat:encoding=* --plot out/ --out r.jsonl
    mjsat compare --cnf instances/ --to stacks --methods exact,sat:encoding=acyclic --out cnf.jsonl --csv cnf.csv
    mjsat compare --height2 200 --methods height2,search,sat --out h2.jsonl --json
    mjsat compare report turtle.jsonl --plot out/ --scatter search,cpsat
    """
    if ctx.invoked_subcommand is not None:
        return
    from mjsat.board import find_variant
    from mjsat.runs import boards as B, compare as cmp
    from mjsat.runs.cluster import Runner
    from mjsat.runs.progress import RunProgress

    limit, clock = _limit_and_clock(time_limit, cpu_limit)
    if exhaustive % 2:
        raise click.BadParameter(f"the number of tiles must be even, got {exhaustive}", param_hint="--exhaustive")
    specs = cmp.parse_methods(list(methods_opt) or ["search,sat,cpsat"])  # before any board is made or run
    labels = [s.label for s in specs]
    pair = _scatter_pair(scatter, labels)
    targets = _split(targets_opt)
    from mjsat.reductions.targets import TARGETS

    for t in targets:
        if t not in TARGETS:
            raise click.BadParameter(f"unknown target {t!r} (known: {', '.join(TARGETS)})", param_hint="--to")
    sizes: list[int] = []
    if family:
        try:
            sizes = [int(v) for v in _split((family_n or "",))]
        except ValueError:
            raise click.BadParameter(
                f"expected whole numbers N1,N2,..., got {family_n!r}", param_hint="--family-n"
            ) from None
        if not sizes:
            raise click.UsageError("--family needs its sizes: --family-n N1,N2,...")
    games = tuple(dict.fromkeys(find_variant(g).game for g in _split(games_opt))) or GAMES
    sets: list[Any] = []
    for spec in layouts:
        sets.append(
            B.layout_cases(
                spec, count, seed_start=seed_start, solvable_every=solvable_every, game=game, map_name=map_name
            )
        )
    if board_paths:
        sets.append(B.file_cases(board_paths))
    if cnfs:
        sets.append(B.cnf_cases(cnfs, targets=targets or None))
    if family:
        sets.append(
            B.family_cases(family, sizes, count=family_count, seed=seed, ratio=ratio, targets=targets or ("stacks",))
        )
    if random_small:
        sets.append(B.random_small_cases(seed=seed, count=random_small, max_tiles=max_tiles, games=games))
    if exhaustive:
        sets.append(B.exhaustive_cases(exhaustive, games=games))
    if height2_count:
        sets.append(B.height2_cases(seed=seed, count=height2_count, max_tiles=height2_max_tiles))
    if not sets:
        raise click.UsageError(
            "name at least one board set: --layout, --boards, --cnf, --family, --random-small, --exhaustive or --height2"
        )
    from mjsat.fileio import prepare_output

    prepare_output(out)
    cmp.read_results(out)  # a bad results file is refused before any board is made
    cases = list(chain.from_iterable(sets))
    runner = Runner(workers, scheduler, warm=any(s.method == "search" for s in specs))
    show = not (no_progress or as_json or not sys.stderr.isatty())
    with runner, RunProgress("compare", len(cases), runner, enabled=show, transient=True) as bar:
        rows, dis = cmp.compare(
            cases,
            specs,
            out,
            time_limit=limit,
            clock=clock,
            seed=seed,
            ref_max_tiles=ref_max_tiles,
            runner=runner,
            out_dir=out_dir,
            progress=lambda _rows: bar.advance(),
        )
    summary = cmp.summarize(rows, time_limit=limit, clock=clock, methods=labels)
    summary["disagreements"] = dis
    summary["out"] = out
    _compare_outputs(rows, summary, csv_path=csv_path, plot_dir=plot_dir, scatter=pair, labels=labels, as_json=as_json)


@compare.command("report")
@click.argument("results", type=click.Path(dir_okay=False, exists=True))
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="Write the rows as CSV.")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False), help="Write the plots, SVG and PNG, here.")
@click.option("--scatter", metavar="A,B", help="The two methods of the scatter plot (default: the first two).")
@click.option(
    "--methods", "methods_opt", metavar="M1,M2", help="Only these methods (labels as in the file), in this order."
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def compare_report(
    results: str,
    csv_path: str | None,
    plot_dir: str | None,
    scatter: str | None,
    methods_opt: str | None,
    as_json: bool,
) -> None:
    """Redraw the summary (and the CSV and plots) of rows an `mjsat compare` run wrote.

    \b
    mjsat compare report turtle.jsonl
    mjsat compare report turtle.jsonl --plot out/ --scatter search,sat:encoding=acyclic --json
    """
    from mjsat.fileio import InputFileError
    from mjsat.runs import compare as cmp

    header, rows = cmp.read_results(results)
    if header is None:
        raise InputFileError(results, None, "an empty results file")
    present = list(dict.fromkeys(r["method"] for r in rows))
    labels = [m.strip() for m in methods_opt.split(",") if m.strip()] if methods_opt else present
    for m in labels:
        if m not in present:
            raise click.BadParameter(
                f"{m!r} has no rows in {results} (it has: {', '.join(present)})", param_hint="--methods"
            )
    rows = [r for r in rows if r["method"] in labels]
    pair = _scatter_pair(scatter, labels)
    summary = cmp.summarize(rows, time_limit=header.time_limit, clock=header.clock, methods=labels)
    summary["out"] = results
    _compare_outputs(rows, summary, csv_path=csv_path, plot_dir=plot_dir, scatter=pair, labels=labels, as_json=as_json)
