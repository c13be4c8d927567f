"""The ``mjsat play`` command: Stam's strategies play without peeking."""

from __future__ import annotations

import json
from typing import Any

import click

from mjsat.runs.cli import scheduler_option, workers_option

__all__ = ["play"]

_STRATEGIES = ("random", "multiple-first", "greedy", "obstruction-tree", "all")
_HEURISTICS = ("random", "maxblock", "maxblock-literal", "all")


@click.command()
@click.argument("board_file", metavar="[BOARD]", required=False, type=click.Path(dir_okay=False))
@click.option(
    "--layout", "layout_spec", metavar="NAME|FILE", help="Deal boards on this layout instead of reading BOARD."
)
@click.option("--map", "map_name", metavar="MAP", help="Map of a GNOME .map file (name or scorename).")
@click.option(
    "-n",
    "--boards",
    "count",
    type=click.IntRange(min=1),
    default=None,
    help="Boards to deal with --layout (default 100), or games on BOARD (default 1).",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Deal i comes from seed SEED+i; the play on it from a seed derived from that.",
)
@click.option("--solvable", is_flag=True, help="With --layout: deals solvable by construction (Stam's Algorithm 1).")
@click.option(
    "-s",
    "--strategy",
    "strategies",
    multiple=True,
    type=click.Choice(_STRATEGIES, case_sensitive=False),
    help="Strategy (repeatable; `all` for the four). Default random.",
)
@click.option(
    "-H",
    "--heuristic",
    "heuristics",
    multiple=True,
    type=click.Choice(_HEURISTICS, case_sensitive=False),
    help="Heuristic (repeatable; `all` for the three). Default maxblock.",
)
@workers_option
@scheduler_option
@click.option("--fatal", is_flag=True, help="For every game not cleared, find the fatal move with an exact solver.")
@click.option("--method", default=None, help="Exact method for --fatal (default: auto; see `mjsat methods`).")
@click.option(
    "--time-limit",
    type=float,
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="Per position solved by --fatal; beyond it the answer is `unknown`.",
)
@click.option("--moves", "with_moves", is_flag=True, help="With --json: include every game's moves.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print JSON: percent_cleared, avg_tiles_left, boards, ... (see below)."
)
def play(
    board_file: str | None,
    layout_spec: str | None,
    map_name: str | None,
    count: int | None,
    seed: int,
    solvable: bool,
    strategies: tuple[str, ...],
    heuristics: tuple[str, ...],
    workers: int,
    scheduler: str | None,
    fatal: bool,
    method: str | None,
    time_limit: float,
    with_moves: bool,
    as_json: bool,
) -> None:
    """Play boards the way a person does: no peeking under tiles, no undo.

    The player sees the faces of the tiles that are not completely covered, and plays
    until the board is clear or no free pair is left. Strategies (Stam 2007):
    `random` (the heuristic's best free pair), `multiple-first` (free quadruples, then
    triples, then pairs), `greedy` (the pair that frees most stones), `obstruction-tree`
    (search for a path that frees a stone's match). Heuristics: `random`, `maxblock`
    (the stone that blocks most: eq. 2 read transitively, every stone of the pile
    underneath adding its own blocking value, and the side chains of eq. 1 counted on
    the layout as dealt) and `maxblock-literal` (eq. 2 over the stones directly below,
    chains of the stones still present). Per configuration it prints the boards
    cleared, with a 95 % Wilson interval, and the tiles left on average on boards not
    cleared.

    \b
    mjsat play --layout turtle -n 200 --solvable -s random -H maxblock
    mjsat play --layout turtle -n 1000 --solvable -s all -H all --workers 2
    mjsat play --layout turtle -n 100000 --solvable --scheduler tcp://10.0.0.5:8786
    mjsat play board.json -n 50 -s greedy --json
    mjsat play --layout pyramid -n 20 --solvable -s random -H random --fatal

    --json prints one object with `percent_cleared`, `ci95`, `avg_tiles_left` (null when
    every board was cleared), `boards`, `cleared`, `strategy`, `heuristic` and `games`
    (per board: index, seed, cleared, tiles_left, and `fatal` with --fatal); with
    several configurations, an object {"configurations": [...]} of those. With --fatal
    the histogram of fatal move numbers is under `fatal_histogram`.
    """
    from mjsat.play.batch import BoardSource, play_batch, summarize
    from mjsat.play.heuristics import HEURISTICS
    from mjsat.play.strategies import STAM_STRATEGIES
    from mjsat.runs.cluster import Runner
    from mjsat.runs.progress import RunProgress

    if board_file and layout_spec:
        raise click.UsageError("give either a BOARD file or --layout, not both")
    if not board_file and not layout_spec:
        raise click.UsageError("name a BOARD file or a layout with --layout NAME (see `mjsat layouts`)")
    if board_file and solvable:
        raise click.UsageError("--solvable goes with --layout, not with a BOARD file")
    strat = _expand(strategies or ("random",), list(STAM_STRATEGIES))
    heur = _expand(heuristics or ("maxblock",), list(HEURISTICS))
    configs = [(s, h) for h in heur for s in strat]
    if board_file:
        from mjsat.boardio import load_board

        source = BoardSource(board=load_board(board_file), seed=seed)
        n = count or 1
    else:
        from mjsat.layouts import load_layout

        assert layout_spec is not None  # a BOARD file or --layout, checked above
        source = BoardSource(layout=load_layout(layout_spec, map_name=map_name), solvable=solvable, seed=seed)
        n = count or 100
    if source.board is not None:
        from mjsat.play.view import PlayerView

        PlayerView(source.board)  # a Shisen-Sho board fails here, with a one-line message
    fatal_opts: dict[str, Any] | None = None
    if fatal and not 0 < time_limit < float("inf"):
        raise click.BadParameter(f"must be a positive number of seconds, got {time_limit}", param_hint="--time-limit")
    if method is not None and not fatal:
        raise click.UsageError("--method names the exact method of --fatal: give --fatal too")
    if fatal:
        from mjsat.methods import METHODS

        chosen = method or "auto"
        if chosen not in METHODS:
            raise click.BadParameter(
                f"unknown method {chosen!r} (known: {', '.join(sorted(METHODS))})", param_hint="--method"
            )
        fatal_opts = {"method": chosen, "time_limit": time_limit}
    results: list[dict[str, Any]] = []
    runner = Runner(workers, scheduler, warm=fatal_opts is not None)
    with runner, RunProgress("playing", n, runner, enabled=_is_tty(), transient=True) as bar:
        for res in play_batch(source, configs, range(n), runner=runner, fatal=fatal_opts):
            results.append(res)
            bar.advance()
    results.sort(key=lambda r: r["index"])
    summaries = []
    for strategy, heuristic in configs:
        games = [g for r in results for g in r["games"] if g["strategy"] == strategy and g["heuristic"] == heuristic]
        summary = {"strategy": strategy, "heuristic": heuristic, **summarize(games)}
        summary["games"] = [
            {k: v for k, v in g.items() if k not in ("strategy", "heuristic") and (with_moves or k != "moves")}
            for g in games
        ]
        if fatal_opts:
            summary["fatal_method"] = fatal_opts["method"]
        summaries.append(summary)
    if as_json:
        click.echo(json.dumps(summaries[0] if len(summaries) == 1 else {"configurations": summaries}))
        return
    _print_table(summaries, source, n)


def _expand(chosen: tuple[str, ...], names: list[str]) -> list[str]:
    out: list[str] = []
    for c in chosen:
        for name in names if c.lower() == "all" else [c.lower()]:
            if name not in out:
                out.append(name)
    return out


def _is_tty() -> bool:
    import sys

    return sys.stderr.isatty()


def _print_table(summaries: list[dict[str, Any]], source: Any, n: int) -> None:
    from rich.console import Console
    from rich.table import Table

    what = "board" if source.board is not None else ("solvable deals" if source.solvable else "random deals")
    title = (
        f"{n} games on one {what}"
        if source.board is not None
        else f"{n} {what} on {source.layout.name or 'the layout'}"
    )
    table = Table(title=title)
    for col in ("strategy", "heuristic", "boards", "cleared", "%", "95 % CI", "avg tiles left"):
        table.add_column(col, justify="left" if col in ("strategy", "heuristic") else "right")
    for s in summaries:
        left = "-" if s["avg_tiles_left"] is None else f"{s['avg_tiles_left']:.2f}"
        table.add_row(
            s["strategy"],
            s["heuristic"],
            str(s["boards"]),
            str(s["cleared"]),
            f"{s['percent_cleared']:.2f}",
            f"{s['ci95'][0]:.1f}-{s['ci95'][1]:.1f}",
            left,
        )
    console = Console()
    console.print(table)
    for s in summaries:
        if "fatal_histogram" in s:
            hist = ", ".join(f"{k}: {v}" for k, v in s["fatal_histogram"].items()) or "none (every board cleared)"
            console.print(f"fatal move numbers, {s['strategy']}/{s['heuristic']} ({s['fatal_method']}): {hist}")
