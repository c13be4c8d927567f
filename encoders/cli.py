"""The ``mjsat encode`` and ``mjsat decode`` commands: DIMACS out to any solver, and back."""

from __future__ import annotations

import json
import sys

import click

from mjsat.board import Board
from mjsat.cli import board_options
from mjsat.encoders.encodings import DEFAULT_ENCODING, ENCODINGS
from mjsat.encoders.requirements import ENCODED_GAMES
from mjsat.fileio import write_text_atomic

__all__ = ["encode", "decode"]


@click.command()
@board_options
@click.option(
    "--encoding",
    type=click.Choice(list(ENCODINGS)),
    default=None,
    help=f"Encoding (default: {DEFAULT_ENCODING}, exhaustive and compact).",
)
@click.option(
    "--steps",
    type=click.IntRange(min=1),
    default=None,
    help="Layered or parity: number of parallel steps (default: the proved bound, exhaustive); steps x tiles at most MJSAT_MAX_STEP_CELLS (100,000,000).",
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="CNF file to write (DIMACS); its folder is created. The CNF and the map are replaced together or not at all.",
)
@click.option(
    "--map-output",
    type=click.Path(dir_okay=False),
    default=None,
    help="Variable map to write (default: beside the CNF, .map).",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary (files, encoding, variables, clauses).")
def encode(
    board: Board,
    encoding: str | None,
    steps: int | None,
    output: str,
    map_output: str | None,
    as_json: bool,
) -> None:
    """Write a board's CNF (DIMACS) and a variable map beside it, for any SAT solver.

    A model of the CNF decodes into a clearing move list; with the default step bound
    (layered) and with the order and acyclic encodings, an unsatisfiable CNF means the
    board is unsolvable.

    \b
    mjsat encode board.json -o board.cnf            # writes board.cnf and board.map
    cadical board.cnf > board.out                   # any solver; `v` lines or MiniSat's file
    mjsat decode board.json board.map board.out     # verified move list
    mjsat encode --layout turtle --seed 3 --encoding acyclic -o t.cnf --json
    """
    from mjsat.encoders.encodings import encode as encode_board
    from mjsat.encoders.varmap import default_map_path, write_encoding

    map_path = map_output or default_map_path(output)
    cnf, decoder = encode_board(board, encoding=encoding, steps=steps)
    write_encoding(output, map_path, cnf, board, decoder)
    summary = {
        "cnf": output,
        "map": map_path,
        "encoding": decoder.encoding,
        "params": decoder.params,
        "variables": cnf.nv,
        "clauses": len(cnf.clauses),
        "tiles": len(board),
        "game": board.game,
    }
    if as_json:
        click.echo(json.dumps(summary))
    else:
        exhaustive = "exhaustive" if decoder.params.get("exhaustive") else "not exhaustive (steps below the bound)"
        click.echo(
            f"wrote {output} ({cnf.nv} variables, {len(cnf.clauses)} clauses, {decoder.encoding}, {exhaustive}) and {map_path}"
        )


@click.command()
@click.argument("board_file", metavar="BOARD", type=click.Path(dir_okay=False))
@click.argument("map_file", metavar="MAP", type=click.Path(dir_okay=False))
@click.argument("output_file", metavar="SOLVER_OUTPUT", type=click.Path(dir_okay=False))
@click.option("--game", type=click.Choice(list(ENCODED_GAMES)), default=None, help="Game of a .txt board.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (status, moves, verified).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Also write the result as JSON to this file.")
def decode(
    board_file: str, map_file: str, output_file: str, game: str | None, as_json: bool, output: str | None
) -> None:
    """Turn an external SAT solver's answer into a verified move list.

    SOLVER_OUTPUT is what the solver printed (`s SATISFIABLE` and `v ...` lines) or
    MiniSat's result file. The moves are replayed before they are printed; exit 1 when
    the model does not decode into a clearing sequence (wrong map or board?).

    \b
    mjsat encode board.json -o board.cnf
    minisat board.cnf board.res ; mjsat decode board.json board.map board.res
    cadical board.cnf > board.out ; mjsat decode board.json board.map board.out --json
    """
    from mjsat.boardio import load_board
    from mjsat.encoders.dimacs import parse_solver_output
    from mjsat.encoders.varmap import board_digest, read_map
    from mjsat.fileio import InputFileError, read_text
    from mjsat.replay import InvalidSolutionError, replay

    board = load_board(board_file, game=game)
    head, decoder = read_map(map_file)
    if head["board_digest"] != board_digest(board):
        raise InputFileError(
            map_file,
            1,
            f"the map was made for another board (digest {head['board_digest']}, {board_file} has {board_digest(board)})",
        )
    status, model = parse_solver_output(read_text(output_file), output_file, n_vars=head.get("variables"))
    data: dict = {"status": "unknown", "moves": [], "verified": False, "encoding": decoder.encoding, "reason": ""}
    if status == "sat":
        moves = decoder.decode(model).moves
        try:
            replay(board, moves)
        except InvalidSolutionError as exc:
            data.update(status="invalid", reason=str(exc), moves=[list(m) for m in moves])
            click.echo(json.dumps(data) if as_json else f"invalid: the model decodes to moves that fail replay: {exc}")
            sys.exit(1)
        data.update(status="solvable", moves=[list(m) for m in moves], verified=True)
    elif status == "unsat":
        if decoder.params.get("exhaustive"):
            data["status"] = "unsolvable"
        else:
            data["reason"] = (
                f"unsatisfiable with {decoder.params.get('steps')} steps, below the proved bound {decoder.params.get('bound')}"
            )
    else:
        data["reason"] = "the solver gave no answer"
    if output:
        write_text_atomic(output, json.dumps(data) + "\n")
    if as_json:
        click.echo(json.dumps(data))
        return
    why = f" ({data['reason']})" if data["reason"] else ""
    extra = f", {len(data['moves'])} moves, verified by replay" if data["verified"] else ""
    click.echo(f"{data['status']}{why}: external solver, {decoder.encoding} encoding{extra}")
    if data["moves"]:
        click.echo("moves: " + " ".join(f"{a}-{b}" for a, b in data["moves"]))
