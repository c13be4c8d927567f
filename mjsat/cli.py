"""The ``mjsat`` command line: a thin shell over the library.

Each command parses its arguments, calls the library and writes the answer; there is no
logic here. Bad input (malformed files, unknown names, bad options) is reported on one
line with exit code 2; a solution that does not clear the board exits 1.

Commands of the core are defined here; the parts (search, encoders, reductions) define
theirs in their own ``cli`` modules, registered explicitly in :data:`LAZY_COMMANDS` and
imported only when used.
"""

from __future__ import annotations

import functools
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from mjsat.board import GAMES, Board
from mjsat.fileio import write_text_atomic
from mjsat.limits import SOLVE_TILE_BYTES, TILE_BYTES, limits_help, planned_use

__all__ = ["main", "cli", "LAZY_COMMANDS", "board_options", "board_from_options"]

LAZY_COMMANDS: dict[str, str] = {
    # name -> "module:command"; each part registers its commands here, explicitly.
    "crossval": "mjsat.runs.cli:crossval",
    "compare": "mjsat.runs.cli:compare",
    "play": "mjsat.play.cli:play",
    "encode": "mjsat.encoders.cli:encode",
    "reduce": "mjsat.reductions.cli:reduce",
    "decode": "mjsat.encoders.cli:decode",
    "sample": "mjsat.runs.cli:sample",
    "game": "mjsat.game.cli:game",
}


class MjsatGroup(click.Group):
    """A click group that loads the parts' commands lazily and reports bad input in one line.

    A part whose command fails to import is listed as unavailable in ``mjsat --help``
    instead of breaking it.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        cmd = super().get_command(ctx, name)
        if cmd is None and name in LAZY_COMMANDS:
            module, _, attr = LAZY_COMMANDS[name].partition(":")
            cmd = getattr(importlib.import_module(module), attr)
        return cmd

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows: list[tuple[str, str]] = []
        limit = formatter.width - 6 - max((len(n) for n in self.list_commands(ctx)), default=0)
        for name in self.list_commands(ctx):
            if name in self.commands:
                cmd = self.commands[name]
                if not cmd.hidden:
                    rows.append((name, cmd.get_short_help_str(limit)))
                continue
            try:
                short = self.get_command(ctx, name).get_short_help_str(limit)  # type: ignore[union-attr]
            except Exception as exc:  # a part that fails to import must not break --help
                short = f"(unavailable: {exc})"
            rows.append((name, short))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            _usage_error(ctx, exc)
            raise  # pragma: no cover - _usage_error exits

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a bad option of any command: one line, exit 2
            _usage_error(ctx, exc)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except ValueError as exc:  # every input error of the library is a ValueError
            click.echo(f"mjsat: error: {_one_line(str(exc))}", err=True)
            ctx.exit(2)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _usage_error(ctx: click.Context, exc: click.UsageError) -> None:
    """Print a usage error on one line (with the command whose --help tells more) and
    exit 2; a command called without arguments that prints its help instead goes on."""
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        raise exc
    where = exc.ctx.command_path if exc.ctx is not None else ctx.command_path
    click.echo(f"mjsat: error: {_one_line(exc.format_message())} (see '{where} --help')", err=True)
    ctx.exit(2)


_EPILOG = (
    "Files: every reader takes UTF-8 text (a byte-order mark is fine) and names the file "
    "and the line of a problem; every -o/--out creates missing folders, writes through a "
    "symbolic link, keeps an existing file's permissions, and replaces a file only once "
    "the new one is complete.\n\n\b\nSize limits (set the variable to lift one):\n" + limits_help()
)


@click.group(cls=MjsatGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=_EPILOG)
@click.version_option(package_name="mjsat", prog_name="mjsat")
def cli() -> None:
    """Decide, explain and manufacture Mahjong Solitaire and Shisen-Sho boards.

    \b
    Typical session:
      mjsat layouts                              # what layouts there are
      mjsat deal --layout turtle --seed 7 -o b.json
      mjsat solve b.json                         # solvable / unsolvable / unknown
      mjsat solve b.json --json > sol.json
      mjsat verify b.json sol.json               # replay the moves, name the first bad one
      mjsat render b.json -o b.svg --solution sol.json

    Tiles are numbered in the order they stand in the board file; a move is a pair of
    tile numbers. Every answer `solvable` has been replayed move by move before it is
    printed; `unsolvable` comes only from a method that searched exhaustively; `unknown`
    means a time or node limit was reached.
    """


_DONE_WITHOUT_TEARDOWN: list[str] = []
"""Commands that finished with all their output written and want no interpreter teardown."""


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``mjsat`` script.

    Run as the script (``argv`` ``None``), a command that has written all its output and
    asked for it (``mjsat solve``) ends the process without the interpreter's teardown:
    freeing numba's compiled code and LLVM at exit costs 0.1-0.2 s of CPU and does nothing
    for a command whose files are written and whose output is flushed.
    """
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="mjsat")
    except SystemExit as exc:
        if argv is None and _DONE_WITHOUT_TEARDOWN and exc.code in (None, 0):
            import logging
            import os

            logging.shutdown()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)
        raise


# --------------------------------------------------------------------------- shared options

_game_choice = click.Choice(list(GAMES), case_sensitive=False)


def board_options(func: Any) -> Any:
    """Options naming a board: a BOARD file argument, or ``--layout`` with ``--seed``.

    The decorated command receives the board built from them as its ``board`` argument.
    """

    @functools.wraps(func)
    def wrapper(
        *args: Any,
        board_file: str | None,
        layout_spec: str | None,
        map_name: str | None,
        seed: int | None,
        game: str | None,
        solvable: bool,
        **kwargs: Any,
    ) -> Any:
        with planned_use(*getattr(func, "planned_use", ("hold", TILE_BYTES))):  # refused before it is built
            board = board_from_options(board_file, layout_spec, map_name, seed, game, solvable)
        return func(*args, board=board, **kwargs)

    options = [
        click.argument("board_file", metavar="[BOARD]", required=False, type=click.Path(dir_okay=False)),
        click.option(
            "--layout", "layout_spec", metavar="NAME|FILE", help="Deal on this layout instead of reading BOARD."
        ),
        click.option("--map", "map_name", metavar="MAP", help="Map of a GNOME .map file (name or scorename)."),
        click.option("--seed", type=int, default=None, help="Seed of the deal (with --layout; default 0)."),
        click.option(
            "--game", type=_game_choice, default=None, help="Game rules (default: the board file's, else mahjong)."
        ),
        click.option(
            "--solvable", is_flag=True, help="With --layout: deal solvable by construction (Stam (2007), Algorithm 1)."
        ),
    ]
    for opt in reversed(options):
        wrapper = opt(wrapper)
    return wrapper


def sized_for(what: str, bytes_per_tile: int) -> Any:
    """Mark a command of :func:`board_options` (put it below): its board is sized for
    ``what`` at ``bytes_per_tile`` (:func:`mjsat.limits.planned_use`) while it is read or
    dealt, so a board too large for the job is refused before it is built."""

    def mark(func: Any) -> Any:
        func.planned_use = (what, bytes_per_tile)
        return func

    return mark


def board_from_options(
    board_file: str | None,
    layout_spec: str | None,
    map_name: str | None,
    seed: int | None,
    game: str | None,
    solvable: bool,
) -> Board:
    """The board named by :func:`board_options`."""
    from mjsat.boardio import load_board
    from mjsat.deals import deal_random, deal_solvable

    if board_file and layout_spec:
        raise click.UsageError("give either a BOARD file or --layout, not both")
    if board_file:
        if seed is not None or solvable:
            raise click.UsageError("--seed and --solvable go with --layout, not with a BOARD file")
        return load_board(board_file, game=game)
    if not layout_spec:
        raise click.UsageError("name a BOARD file or a layout with --layout NAME (see `mjsat layouts`)")
    from mjsat.layouts import load_layout

    layout = load_layout(layout_spec, map_name=map_name)
    seed = 0 if seed is None else seed
    if solvable:
        board, _ = deal_solvable(layout, seed=seed, game=game or "mahjong")
        return board
    return deal_random(layout, seed=seed, game=game or "mahjong")


def _parse_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_key_values(items: Sequence[str]) -> dict[str, Any]:
    """``["a=1", "b=off"]`` -> ``{"a": 1, "b": False}`` (ints, floats, booleans, strings)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, got {item!r}", param_hint="-O/--option")
        out[key.strip().replace("-", "_")] = _parse_value(value.strip())
    return out


def _spinner(message: str) -> Any:
    """A rich spinner on stderr while work runs, only when stderr is a terminal."""
    import contextlib

    if not sys.stderr.isatty():
        return contextlib.nullcontext()
    from rich.console import Console

    return Console(stderr=True).status(message)


# --------------------------------------------------------------------------- layouts


@cli.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
@click.option("--dir", "dirs", multiple=True, type=click.Path(file_okay=False), help="Also look for layout files here.")
@click.pass_context
def layouts(ctx: click.Context, as_json: bool, dirs: tuple[str, ...]) -> None:
    """List the layouts: those mjsat ships and those found on this system.

    \b
    mjsat layouts                       # table of name, source, tiles
    mjsat layouts show turtle --json    # the tiles of one layout
    """
    if ctx.invoked_subcommand is not None:
        return
    from mjsat.layouts import list_layouts

    infos = list_layouts(extra_dirs=list(dirs)) if dirs else list_layouts()
    if as_json:
        click.echo(json.dumps([info.__dict__ for info in infos], indent=1))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("name", "source", "tiles", "file", title="layouts")
    for info in infos:
        table.add_row(info.name, info.source, str(info.tiles), info.path or "")
    Console().print(table)


@layouts.command("show")
@click.argument("spec", metavar="NAME|FILE")
@click.option("--map", "map_name", metavar="MAP", help="Map of a GNOME .map file (name or scorename).")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the layout as JSON (the mjsat-layout format, with `levels` added)."
)
def layouts_show(spec: str, map_name: str | None, as_json: bool) -> None:
    """Show one layout: its tiles per level and a top view (or JSON with --json)."""
    from mjsat.board import MahjongBoard
    from mjsat.layouts import load_layout
    from mjsat.layouts.json_format import FORMAT as LAYOUT_FORMAT, VERSION as LAYOUT_VERSION
    from mjsat.render import ascii_top_view

    layout = load_layout(spec, map_name=map_name)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "format": LAYOUT_FORMAT,  # readable back as a layout (mjsat layouts show FILE)
                    "version": LAYOUT_VERSION,
                    "name": layout.name,
                    "tiles_count": len(layout),
                    "levels": layout.level_counts(),
                    "block_any_higher": layout.block_any_higher,
                    "tiles": [list(p) for p in layout.positions],
                }
            )
        )
        return
    click.echo(f"{layout.name or spec}: {len(layout)} tiles, per level {layout.level_counts()}")
    click.echo(ascii_top_view(MahjongBoard(layout, [0] * len(layout))))


# --------------------------------------------------------------------------- deal / convert


@cli.command()
@click.option("--layout", "layout_spec", metavar="NAME|FILE", help="Layout to deal on.")
@click.option("--map", "map_name", metavar="MAP", help="Map of a GNOME .map file.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every random choice.")
@click.option("--game", type=_game_choice, default="mahjong", show_default=True)
@click.option("--solvable", is_flag=True, help="Solvable by construction (Stam (2007), Algorithm 1).")
@click.option(
    "--group-sizes", metavar="S1,S2,...", help="Sizes of the groups (even; default: four, --height2: two and four)."
)
@click.option(
    "--height2",
    is_flag=True,
    help="Instead of a layout: isolated stacks of height one and two, as mjsat.generate makes them.",
)
@click.option(
    "--tiles", type=click.IntRange(2), default=16, show_default=True, help="--height2: tiles of the board (even)."
)
@click.option(
    "--p-two",
    type=click.FloatRange(0, 1),
    default=None,
    help="--height2: the chance that a stack has two tiles (default: random in 0.3 .. 1).",
)
@click.option(
    "--planted-cycle",
    type=click.IntRange(0),
    default=0,
    metavar="K",
    help="--height2: plant a blocked cycle of K groups of two (unsolvable; de Bondt, Definition 6).",
)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help="Board file to write (.json or .txt); default stdout JSON."
)
def deal(
    layout_spec: str,
    map_name: str | None,
    seed: int,
    game: str,
    solvable: bool,
    group_sizes: str | None,
    height2: bool,
    tiles: int,
    p_two: float | None,
    planted_cycle: int,
    output: str | None,
) -> None:
    """Deal a board: uniform random groups, or solvable by construction.

    --height2 deals isolated stacks of height at most two instead of a layout (the boards
    the polynomial `height2` method decides): --tiles tiles in stacks of one and two,
    groups of --group-sizes, solvable by construction with --solvable, or holding a
    blocked cycle of K groups with --planted-cycle K (then unsolvable).

    \b
    mjsat deal --layout turtle --seed 1 -o board.json
    mjsat deal --layout rect-6x4 --game shisen-sho --solvable -o s.json
    mjsat deal --height2 --tiles 40 --seed 7 -o h2.json
    mjsat deal --height2 --tiles 40 --planted-cycle 3 --group-sizes 2 -o cycle.json
    """
    from mjsat.boardio import board_to_json, write_board
    from mjsat.deals import deal_random, deal_solvable
    from mjsat.layouts import load_layout

    sizes = None
    if group_sizes:
        try:
            sizes = [int(s) for s in group_sizes.split(",")]
        except ValueError:
            raise click.BadParameter(
                f"expected comma-separated integers, got {group_sizes!r}", param_hint="--group-sizes"
            ) from None
    if height2:
        board = _deal_height2(layout_spec, game, seed, tiles, p_two, planted_cycle, solvable, sizes)
    elif layout_spec is None:
        raise click.UsageError("name a layout with --layout NAME (see `mjsat layouts`), or give --height2")
    elif planted_cycle or p_two is not None:
        raise click.UsageError("--planted-cycle and --p-two go with --height2")
    else:
        layout = load_layout(layout_spec, map_name=map_name)
        if solvable:
            board, _ = deal_solvable(layout, seed=seed, game=game, group_sizes=sizes)
        else:
            board = deal_random(layout, seed=seed, game=game, group_sizes=sizes)
    if output:
        write_board(board, output)
        click.echo(f"wrote {output}: {len(board)} tiles, {len(board.group_sizes())} groups, {board.game}", err=True)
    else:
        click.echo(board_to_json(board), nl=False)


def _deal_height2(
    layout_spec: str | None,
    game: str,
    seed: int,
    tiles: int,
    p_two: float | None,
    planted_cycle: int,
    solvable: bool,
    sizes: list[int] | None,
) -> Board:
    """The board of ``mjsat deal --height2``."""
    import numpy as np

    from mjsat.generate import planted_cycle_board, random_height2_board

    if layout_spec is not None:
        raise click.UsageError("give --layout or --height2, not both")
    if game not in ("mahjong", "mahjong-transposed"):
        raise click.BadParameter(f"height-two boards are Mahjong boards, not {game}", param_hint="--game")
    if planted_cycle and solvable:
        raise click.UsageError("a planted blocked cycle makes the board unsolvable: give --planted-cycle or --solvable")
    rng = np.random.default_rng(seed)
    groups = tuple(sizes) if sizes else (2, 4)
    if planted_cycle:
        board = planted_cycle_board(
            rng, n_tiles=tiles, cycle_length=planted_cycle, p_two=p_two, group_sizes=groups, game=game
        )
    else:
        board = random_height2_board(rng, n_tiles=tiles, p_two=p_two, group_sizes=groups, game=game, solvable=solvable)
    board.meta["seed"] = seed
    return board


@cli.command()
@click.argument("board_file", metavar="BOARD", type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="Output file; .json or .txt picks the format.",
)
@click.option("--game", type=_game_choice, default=None, help="Game of a .txt board (default mahjong).")
def convert(board_file: str, output: str, game: str | None) -> None:
    """Convert a board between the JSON format and de Bondt's text format.

    \b
    mjsat convert board.json -o board.txt
    mjsat convert board.txt -o board.json --game mahjong
    """
    from mjsat.boardio import load_board, write_board

    board = load_board(board_file, game=game)
    write_board(board, output)
    click.echo(f"wrote {output}", err=True)


# --------------------------------------------------------------------------- solve / verify


@cli.command()
@board_options
@click.option(
    "--method",
    default="auto",
    show_default=True,
    help="auto (the default plan: height2 where it applies, a budgeted search, then SAT), exact (the plan "
    "for reduction boards: sat with the acyclic encoding), search (numba pairing-set search), sat (a SAT "
    "encoding), cpsat (OR-Tools CP-SAT), height2 (isolated stacks of height <= 2 only), ref (plain "
    "exhaustive search, small boards). `mjsat methods` lists them with their games and options.",
)
@click.option(
    "--time-limit", type=float, default=None, metavar="SECONDS", help="Answer `unknown` after this many wall seconds."
)
@click.option(
    "--cpu-limit",
    type=float,
    default=None,
    metavar="SECONDS",
    help="Answer `unknown` after this many CPU seconds of this process instead (research runs on a loaded machine).",
)
@click.option("--node-limit", type=int, default=None, help="Search methods: answer `unknown` after this many nodes.")
@click.option(
    "--encoding",
    default=None,
    help="SAT method: auto (parity with few steps, then acyclic; the default), layered, parity, order, acyclic or stacks (boards of isolated stacks).",
)
@click.option("--solver", default=None, help="SAT method: which SAT solver (python-sat name).")
@click.option("--certify", is_flag=True, default=None, help="SAT method: check a DRUP proof of `unsolvable`.")
@click.option("--method-seed", type=int, default=0, show_default=True, help="Seed of the method's random choices.")
@click.option(
    "-O",
    "--option",
    "extra_options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A method-specific option (repeatable), e.g. -O attempts=0.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (status, moves, method, seconds, stats).")
@click.option("--show", is_flag=True, help="Also print an ASCII picture of the board.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Also write the result as JSON to this file.")
@sized_for("solve", SOLVE_TILE_BYTES)
def solve(
    board: Board,
    method: str,
    time_limit: float | None,
    cpu_limit: float | None,
    node_limit: int | None,
    encoding: str | None,
    solver: str | None,
    certify: bool | None,
    method_seed: int,
    extra_options: tuple[str, ...],
    as_json: bool,
    show: bool,
    output: str | None,
) -> None:
    """Decide whether a board can be cleared, and print how.

    The answer is `solvable` with a move list that has been replayed, `unsolvable`
    (only from an exhaustive method), or `unknown` (a limit was reached).

    \b
    mjsat solve board.json
    mjsat solve --layout turtle --seed 3 --time-limit 10 --json
    mjsat solve --layout turtle --seed 3 --method sat --cpu-limit 60
    mjsat solve board.json --method sat --encoding acyclic --solver glucose4 --certify
    mjsat solve board.json --method search -O attempts=0 -O critical=off
    """
    from mjsat.methods import METHODS, check_options, solve as run

    if method not in METHODS:
        raise click.BadParameter(
            f"unknown method {method!r} (known: {', '.join(sorted(METHODS))})", param_hint="--method"
        )
    options: dict[str, Any] = {"node_limit": node_limit, "encoding": encoding, "solver": solver, "certify": certify}
    for key, value in parse_key_values(extra_options).items():
        if options.get(key) is not None:
            raise click.UsageError(f"option {key!r} given twice (as --{key.replace('_', '-')} and -O)")
        options[key] = value
    if time_limit is not None and cpu_limit is not None:
        raise click.UsageError("give --time-limit (wall seconds) or --cpu-limit (CPU seconds), not both")
    clock, limit = ("wall", time_limit) if cpu_limit is None else ("cpu", cpu_limit)
    options = check_options(method, options, time_limit=limit)  # names and values, before the board is solved
    with _spinner(f"solving {len(board)} tiles with {method}"):
        result = run(board, method, time_limit=limit, clock=clock, seed=method_seed, **options)
    data = result.to_dict()
    data["tiles"] = len(board)
    data["game"] = board.game
    if board.meta.get("seed") is not None:
        data["deal_seed"] = board.meta["seed"]
    if output:
        write_text_atomic(output, json.dumps(data) + "\n")
    if as_json:
        click.echo(json.dumps(data))
        _DONE_WITHOUT_TEARDOWN.append("solve")
        return
    if show:
        click.echo(str(board))
    extra = f", {len(result.moves)} moves, verified by replay" if result.verified else ""
    why = f" ({result.reason})" if result.reason else ""
    click.echo(
        f"{result.label}{why}: method {result.method}, {result.seconds:.3f} s wall, {result.cpu_seconds:.3f} s CPU{extra}"
    )
    if result.moves:
        click.echo("moves: " + " ".join(f"{a}-{b}" for a, b in result.moves))
    if result.stats:
        click.echo("stats: " + ", ".join(f"{k}={v}" for k, v in result.stats.items()))
    _DONE_WITHOUT_TEARDOWN.append("solve")


@cli.command()
@click.argument("board_file", metavar="BOARD", type=click.Path(dir_okay=False))
@click.argument("solution_file", metavar="[SOLUTION]", required=False, type=click.Path(dir_okay=False))
@click.option("--game", type=_game_choice, default=None, help="Game of a .txt board (default mahjong).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object {ok, moves, error, move_index}.")
def verify(board_file: str, solution_file: str | None, game: str | None, as_json: bool) -> None:
    """Replay a move list on a board and name the first illegal move.

    SOLUTION is the JSON that `mjsat solve --json` prints (its `moves`), a JSON list of
    pairs, or text with one move `a b` a line. Exit 0 when the moves clear the board, 1
    when they do not, 2 for a malformed file.

    A saved game (`mjsat game`'s save file) without SOLUTION: replay the moves played in
    it on its deal (exit 0 when every one is legal). With SOLUTION, a saved game is the
    board of its position (the tiles left, numbered anew, as `mjsat solve SAVE` sees it).

    \b
    mjsat verify board.json solution.json
    mjsat verify game.save                       # the saved game's moves
    """
    from mjsat.boardio import load_board, load_record, load_solution
    from mjsat.replay import InvalidSolutionError, replay

    if solution_file is None:
        deal, played = load_record(board_file, check=False)  # not a saved game: exit 2
        try:
            left = replay(deal, played, require_clear=False).remaining()
        except InvalidSolutionError as exc:
            if as_json:
                click.echo(json.dumps({"ok": False, "moves": len(played), "error": str(exc), "move_index": exc.index}))
            else:
                click.echo(f"invalid: {exc}")
            sys.exit(1)
        if as_json:
            click.echo(
                json.dumps({"ok": True, "moves": len(played), "error": None, "move_index": None, "tiles_left": left})
            )
        else:
            click.echo(
                f"ok: the {len(played)} moves of the saved game replay on its deal ({left} of {len(deal)} tiles left)"
            )
        return
    board = load_board(board_file, game=game)
    moves = load_solution(solution_file, board)
    try:
        replay(board, moves)
    except InvalidSolutionError as exc:
        if as_json:
            click.echo(json.dumps({"ok": False, "moves": len(moves), "error": str(exc), "move_index": exc.index}))
        else:
            click.echo(f"invalid: {exc}")
        sys.exit(1)
    if as_json:
        click.echo(json.dumps({"ok": True, "moves": len(moves), "error": None, "move_index": None}))
    else:
        click.echo(f"ok: {len(moves)} moves clear the board ({len(board)} tiles)")


# --------------------------------------------------------------------------- render


@cli.command()
@board_options
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="SVG file to write; without it, ASCII on stdout.")
@click.option(
    "--solution", "solution_file", type=click.Path(dir_okay=False), help="Write each tile's move number (SVG)."
)
@click.option("--unit", type=click.IntRange(6, 80), default=18, show_default=True, help="Pixels per half tile.")
@click.option("--title", default=None, help="Title written above the picture.")
@click.option(
    "--view",
    type=click.Choice(["auto", "top", "side"]),
    default="auto",
    show_default=True,
    help="SVG view: from above (levels shaded), or from the side (every tile of every column "
    "visible, the top at the top; for tiles standing in columns). auto: side for columns of "
    "two levels or more, else top.",
)
def render(
    board: Board,
    output: str | None,
    solution_file: str | None,
    unit: int,
    title: str | None,
    view: str,
) -> None:
    """Draw a board: SVG with -o (group labels, gadgets outlined), else ASCII.

    Boards of stacked columns (the isolated stacks of `mjsat reduce`) are drawn from the
    side, so every tile of every stack shows with its group label; other boards from
    above. Gadgets in the board file (reduction boards) are outlined and named; the
    Shisen-Sho images outline each 3x3 supertile and mark its `a` tile.

    \b
    mjsat render board.json -o board.svg --solution sol.json
    mjsat reduce f.cnf -o stacks.json && mjsat render stacks.json -o stacks.svg   # side view
    mjsat render stacks.json -o top.svg --view top  # only the top tile of each stack
    mjsat render --layout turtle --seed 1          # ASCII
    """
    from mjsat.boardio import load_solution
    from mjsat.render import svg_board

    moves = load_solution(solution_file, board) if solution_file else None
    if output is None:
        click.echo(str(board))
        return
    if Path(output).suffix.lower() != ".svg":
        raise click.BadParameter("the picture is SVG: name a .svg file", param_hint="-o")
    write_text_atomic(output, svg_board(board, solution=moves, unit=unit, title=title, view=view))
    click.echo(f"wrote {output}", err=True)


if __name__ == "__main__":  # pragma: no cover
    main()


@cli.command("methods")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of the methods.")
def methods_cmd(as_json: bool) -> None:
    """List the solving methods: the games each decides, whether its `unsolvable` is a
    proof, its options, and the steps of the plans.

    \b
    Examples:
      mjsat methods
      mjsat methods --json
      mjsat solve board.json --method sat -O encoding=acyclic
    """
    from mjsat.methods import METHODS, method_options
    from mjsat.plans import PLANS

    rows = []
    for name, info in METHODS.items():
        row: dict[str, Any] = {
            "name": name,
            "games": list(info.games),
            "exhaustive": info.exhaustive,
            "options": sorted(method_options(name)),
            "summary": info.summary,
        }
        if info.plan is not None:
            row["steps"] = [
                {"step": s.label, "method": s.method, "options": dict(s.options), "kinds": list(s.kinds or ())}
                for s in PLANS[info.plan]
            ]
        rows.append(row)
    if as_json:
        click.echo(json.dumps(rows, indent=1))
        return
    for row in rows:
        proof = "exhaustive" if row["exhaustive"] else "not exhaustive"
        click.echo(f"{row['name']:8} {row['summary']}")
        click.echo(f"{'':8} games: {', '.join(row['games'])}; {proof}; options: {', '.join(row['options']) or '-'}")
        if "steps" in row:
            click.echo(f"{'':8} steps: {' -> '.join(s['step'] for s in row['steps'])}")
