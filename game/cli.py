"""The ``mjsat game`` command: play a board in the browser (or the terminal with --tui),
with a lesson beside it (``--cnf FILE --to TARGET``, ``--explain height2``)."""

from __future__ import annotations

import sys
import threading

import click
import numpy as np

from mjsat.board import GAMES
from mjsat.game.engine import Game
from mjsat.game.web import GameSettings
from mjsat.reductions.targets import TARGETS

__all__ = ["game"]


def _start_game(board_file: str | None, settings: GameSettings, game_name: str | None) -> Game:
    """The game to start: a saved game, a board file, or a deal of ``settings``."""
    from mjsat.boardio import load_board
    from mjsat.fileio import read_text
    from mjsat.game.web import new_game

    if board_file:
        text = read_text(board_file)
        if '"mjsat-game"' in text:
            return Game.from_save_text(text, board_file)
        board = load_board(board_file, game=game_name)
        return Game(board, undo_limit=settings.undo_limit, hint_limit=settings.hint_limit, meta={"source": board_file})
    s = settings
    click.echo(f"dealing a {s.difficulty} {s.game} board on {s.layout} (seed {s.seed}) ...", err=True)
    return new_game(s)


def _start_lesson(board_file: str | None, cnf: str | None, target: str, explain: str | None, seed: int) -> object:
    """The lesson to show (or None): a formula's reduction board, or a height-two board."""
    from mjsat.game.teach import FormulaLesson, Height2Lesson

    if cnf:
        return FormulaLesson.from_file(cnf, target)
    if explain != "height2":
        return None
    if board_file is None:
        return Height2Lesson.planted(seed)
    from mjsat.boardio import load_board

    return Height2Lesson(load_board(board_file), source=board_file)


@click.command()
@click.argument("board_file", metavar="[BOARD|SAVE]", required=False, type=click.Path(dir_okay=False))
@click.option(
    "--layout", default=None, metavar="NAME|FILE", help="Deal on this layout (default turtle; rect-WxH for Shisen-Sho)."
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=None,
    help="Seed of the deal (every random choice); the same seed deals the same board. "
    "Default: a fresh one, shown (0 for the lessons).",
)
@click.option(
    "--game",
    "game_name",
    type=click.Choice(list(GAMES), case_sensitive=False),
    default=None,
    help="Rules (default mahjong; a BOARD file's own game).",
)
@click.option(
    "--difficulty",
    type=click.Choice(["normal", "hard", "impossible"]),
    default="normal",
    show_default=True,
    help="normal/hard: solvable, proved before it is shown; random play clears it often (normal) or rarely (hard). impossible: a uniform random deal.",
)
@click.option(
    "--undo",
    "undo_limit",
    type=click.IntRange(0, 10_000),
    default=10,
    show_default=True,
    help="Moves that can be taken back.",
)
@click.option(
    "--hints", "hint_limit", type=click.IntRange(0, 10_000), default=10, show_default=True, help="Hints per game."
)
@click.option(
    "--check-seconds",
    type=click.FloatRange(0.05, 600),
    default=2.0,
    show_default=True,
    help="Time limit of each solvability check and hint.",
)
@click.option(
    "--faces",
    "face_style",
    type=click.Choice(["faces", "numbers"]),
    default="faces",
    show_default=True,
    help="Label tiles with the Mahjong set's faces, or with their group numbers.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="Port on 127.0.0.1 (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Do not open a browser; just print the address.")
@click.option("--tui", is_flag=True, help="Play in the terminal (Textual) instead of the browser.")
@click.option(
    "--cnf",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Teach a reduction: the board of this formula (DIMACS, or infix like (x1 | -x2) & x2), "
    "with the formula, its clauses and a switch per variable beside it.",
)
@click.option(
    "--to",
    "target",
    type=click.Choice(list(TARGETS)),
    default="stacks",
    show_default=True,
    help="The board the formula of --cnf becomes.",
)
@click.option(
    "--explain",
    type=click.Choice(["height2"]),
    default=None,
    help="height2: the blocked cycles of a board of isolated stacks of height at most two "
    "(de Bondt, Theorem 7), or Theorem 5's strategy move by move (default board: a planted "
    "cycle dealt with --seed).",
)
def game(
    board_file: str | None,
    layout: str | None,
    seed: int | None,
    game_name: str | None,
    difficulty: str,
    undo_limit: int,
    hint_limit: int,
    check_seconds: float,
    face_style: str,
    port: int | None,
    no_browser: bool,
    tui: bool,
    cnf: str | None,
    target: str,
    explain: str | None,
) -> None:
    """Play a board: click two tiles to pair them, with undo, hints and saves.

    Starts a web server on 127.0.0.1 (only), prints its address and opens the
    browser. A hint is a pair after which the board can still be cleared, proved by
    mjsat's exact methods; after every move the position is checked, and a position
    that can no longer be cleared is named at once with the undos that lead back.

    \b
    mjsat game                                        # a normal turtle deal
    mjsat game --layout turtle --seed 7 --difficulty hard
    mjsat game --layout rect-12x8 --game shisen-sho --difficulty normal
    mjsat game --layout pyramid --game shisen-sho-3d --undo 20 --hints 3
    mjsat game board.json --no-browser --port 8765   # any board file
    mjsat game saved.json --tui                      # a saved game, in the terminal

    Teaching (in the browser): a formula's board with the formula, its clauses and
    one switch per variable beside it; step through the intended play of an
    assignment (next / back / to the end), see where a falsifying one gets stuck,
    play the board yourself and see the assignment your play chose, try every
    assignment; or a height-two board's blocked cycles and Theorem 5's strategy.
    A formula can also be typed on the page (the Teach button).

    \b
    mjsat game --cnf instances/three-vars.cnf                  # the stack board (Theorem 3)
    mjsat game --cnf instances/three-vars.cnf --to shisen-sho  # its Shisen-Sho image
    mjsat game --cnf instances/all8-3vars.cnf                  # unsatisfiable: every assignment stops
    mjsat game --cnf formula.txt --to rows                     # infix: (x1 | -x2) & (x2 | x3)
    mjsat game --explain height2 --seed 3                      # a planted blocked cycle
    mjsat game stacks2.json --explain height2                  # any board of stacks of height <= 2
    """
    if seed is None:
        seed = 0 if (cnf or explain) else int(np.random.default_rng().integers(2**31))
    settings = GameSettings(
        layout=layout or "turtle",
        game=game_name or "mahjong",
        difficulty=difficulty,
        seed=seed,
        undo_limit=undo_limit,
        hint_limit=hint_limit,
        check_seconds=check_seconds,
        faces=face_style,
    )
    if board_file and layout:
        raise click.UsageError("give either a BOARD file or --layout, not both")
    if cnf and (board_file or layout or explain):
        raise click.UsageError("--cnf makes the board: give no BOARD, --layout or --explain with it")
    if explain and layout:
        raise click.UsageError("--explain height2 takes a BOARD file (or deals a planted board), not --layout")
    if tui and (cnf or explain):
        raise click.UsageError("the lessons (--cnf, --explain) are shown in the browser, not with --tui")
    if tui and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise click.UsageError("--tui needs a terminal: standard input and output are not one")
    try:
        _run(board_file, settings, game_name, cnf, target, explain, seed, hint_limit, tui, port, no_browser)
    except KeyboardInterrupt:  # Ctrl-C, at any moment: stop without a traceback
        click.echo("mjsat game: stopped", err=True)
        sys.exit(130)


def _run(
    board_file: str | None,
    settings: GameSettings,
    game_name: str | None,
    cnf: str | None,
    target: str,
    explain: str | None,
    seed: int,
    hint_limit: int,
    tui: bool,
    port: int | None,
    no_browser: bool,
) -> None:
    from mjsat.game.worker import SolverProcess

    lesson = _start_lesson(board_file, cnf, target, explain, seed)
    if lesson is not None:
        from mjsat.game.teach_web import lesson_game

        the_game = lesson_game(lesson, hint_limit=hint_limit)
    else:
        the_game = _start_game(board_file, settings, game_name)  # bad input stops here, before any child
    the_game.face_style = settings.faces
    worker = SolverProcess()
    worker.start()  # before any interface replaces the standard streams
    threading.Thread(target=worker.warm_up, kwargs={"quiet": True}, daemon=True).start()
    try:
        if tui:
            from mjsat.game.tui import GameApp

            GameApp(the_game, settings, worker=worker).run()
            return
        from mjsat.game.web import Session, serve

        session = Session(the_game, settings, worker=worker, lesson=lesson)
        serve(session, port=port, open_browser=not no_browser, echo=click.echo)
    finally:
        worker.close()
