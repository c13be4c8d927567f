"""The ``mjsat sample`` command: many seeded deals of a layout, decided, summarised."""

from __future__ import annotations

import json
import math
from typing import Any

import click

from mjsat.board import GAMES

__all__ = ["sample"]


@click.command("sample")
@click.option("--layout", "layout_spec", required=True, metavar="NAME|FILE", help="Layout to deal on (see `mjsat layouts`).")
@click.option("--map", "map_name", metavar="MAP", help="Map of a GNOME .map file.")
@click.option("--game", type=click.Choice(list(GAMES), case_sensitive=False), default="mahjong", show_default=True, help="Game rules.")
@click.option("-n", "count", type=click.IntRange(min=1), required=True, help="Number of deals (seeds S .. S+N-1).")
@click.option("--seed-start", type=int, default=0, show_default=True, help="First seed.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="JSONL results file (appended; resumable).")
@click.option("--method", default="search", show_default=True, help="Solving method (see `mjsat methods`).")
@click.option("--time-limit", type=float, default=10.0, show_default=True, help="Seconds per deal before `unknown`.")
@click.option("-O", "--option", "option_items", multiple=True, metavar="KEY=VALUE", help="Method option, e.g. -O critical=off.")
@click.option("--retry-unknown", is_flag=True, help="Run the file's `unknown` rows again at --time-limit (which may then differ from the file's) and replace them.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def sample(
    layout_spec: str,
    map_name: str | None,
    game: str,
    count: int,
    seed_start: int,
    workers: int,
    out: str,
    method: str,
    time_limit: float,
    option_items: tuple[str, ...],
    retry_unknown: bool,
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
    and the hardest seeds.

    \b
    Examples:
      mjsat sample --layout turtle -n 1000 --out turtle.jsonl
      mjsat sample --layout turtle -n 10000 --workers 2 --out turtle.jsonl --json
      mjsat sample --layout turtle -n 1000 --out turtle.jsonl --time-limit 60 --retry-unknown
      mjsat sample --layout ../shared/layout-sources/xmahjongg/bridge -n 500 --out bridge.jsonl
      mjsat sample --layout rect-6x5 --game shisen-sho -n 200 --out s.jsonl -O critical=off
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from mjsat.cli import parse_key_values
    from mjsat.fileio import prepare_output
    from mjsat.layouts import load_layout
    from mjsat.methods import check_options
    from mjsat.search.sample import read_done
    from mjsat.search.sample import sample as run_sample
    from mjsat.search.sample import summarize

    if time_limit is not None and not 0 < time_limit < math.inf:
        raise click.BadParameter(f"must be a positive number of seconds, got {time_limit}", param_hint="--time-limit")
    options = check_options(method, parse_key_values(option_items))  # before any file is read or deal run
    layout = load_layout(layout_spec, map_name=map_name)
    prepare_output(out)
    read_done(out, repair=False)  # a bad results file is refused before the progress bar starts
    seeds = range(seed_start, seed_start + count)
    console = Console(stderr=True)
    tally = {"unsolvable": 0, "unknown": 0}
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[tally]}"), TimeRemainingColumn(), console=console, transient=as_json,
    ) as bar:
        task = bar.add_task(f"{layout.name or layout_spec} ({game})", total=count, tally="")

        def progress(row: dict[str, Any]) -> None:
            if row["status"] in tally:
                tally[row["status"]] += 1
            bar.update(task, advance=1, tally=f"unsolvable {tally['unsolvable']}  unknown {tally['unknown']}")

        rows = run_sample(
            layout, seeds, out, game=game, method=method, time_limit=time_limit,
            options=options, workers=workers, progress=progress, retry_unknown=retry_unknown,
        )
        bar.update(task, completed=count)
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
    table.add_row("hardest seeds", ", ".join(f"{h['seed']} ({h['status']}, {h['seconds']:.2f} s)" for h in s["hardest"]))
    table.add_row("results", s["out"])
    Console().print(table)
