"""The files of an encoded board: its CNF with provenance, and the variable map beside it.

``mjsat encode`` writes a board's CNF (:func:`mjsat.encoders.dimacs.dimacs_text`, headed
by the board's game, size and digest and the encoding) and, beside it, a *variable map*
(JSON) naming every meaningful variable (``["m", a, b]``, ``["r", t, s]``,
``["lt", u, v]``, ...), the encoding and its parameters, and the digest of the board.
``mjsat decode`` reads the map back into the encoding's decoder
(:func:`mjsat.encoders.encodings.decoder_from_json`) and the answer of any solver
(:func:`mjsat.encoders.dimacs.parse_solver_output`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from typing import Any

from pysat.formula import CNF

from mjsat import __version__
from mjsat.board import Board
from mjsat.encoders.decoding import Decoder, InvalidMapError
from mjsat.encoders.dimacs import dimacs_text
from mjsat.encoders.encodings import decoder_from_json
from mjsat.fileio import InputFileError, json_array_lines, parse_json, read_text, write_text_atomic, write_texts_atomic

__all__ = [
    "MAP_FORMAT",
    "board_digest",
    "default_map_path",
    "encoded_cnf_text",
    "map_text",
    "write_cnf",
    "write_map",
    "write_encoding",
    "read_map",
]

MAP_FORMAT = "mjsat-varmap"


def board_digest(board: Board) -> str:
    """A short SHA-256 of the game, the positions and the groups (ties a map to a board)."""
    text = json.dumps([board.game, [list(p) for p in board.layout.positions], list(board.groups)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def default_map_path(cnf_path: str | os.PathLike[str]) -> str:
    """The map file beside a CNF file: ``board.cnf`` -> ``board.map``.

    >>> default_map_path("dir/board.cnf"), default_map_path("board")
    ('dir/board.map', 'board.map')
    """
    root, ext = os.path.splitext(str(cnf_path))
    return (root if ext else str(cnf_path)) + ".map"


def encoded_cnf_text(cnf: CNF, board: Board, decoder: Decoder, *, comments: Sequence[str] = ()) -> str:
    """The DIMACS text :func:`write_cnf` writes: the provenance (mjsat version, the
    board's game, size and digest, the encoding and its parameters), any further
    ``comments`` lines, then the CNF."""
    params = " ".join(f"{k}={v}" for k, v in sorted(decoder.params.items()) if not isinstance(v, (list, dict)))
    return dimacs_text(
        cnf.clauses,
        cnf.nv,
        source=f"{board.game} board of {len(board)} tiles, digest {board_digest(board)}",
        comments=[
            f"encoding {decoder.encoding} {params}",
            "decode a model with: mjsat decode BOARD MAP SOLVER_OUTPUT",
            *comments,
        ],
    )


def map_text(cnf: CNF, board: Board, decoder: Decoder) -> str:
    """The variable map :func:`write_map` writes (JSON, one variable per line)."""
    data = decoder.to_json()
    head = {
        "format": MAP_FORMAT,
        "mjsat": __version__,
        "game": board.game,
        "tiles": len(board),
        "board_digest": board_digest(board),
        "variables": cnf.nv,
        "clauses": len(cnf.clauses),
        "encoding": data["encoding"],
        "params": data["params"],
    }
    body = ",\n  ".join(json.dumps(v) for v in data["vars"])
    return json.dumps(head)[:-1] + ',\n "vars": [\n  ' + body + "\n ]}\n"


def write_cnf(path: str | os.PathLike[str], cnf: CNF, board: Board, decoder: Decoder) -> None:
    """Write the CNF with its provenance (:func:`encoded_cnf_text`)."""
    write_text_atomic(path, encoded_cnf_text(cnf, board, decoder))


def write_map(path: str | os.PathLike[str], cnf: CNF, board: Board, decoder: Decoder) -> None:
    """Write the variable map of an encoded board (JSON, one variable per line)."""
    write_text_atomic(path, map_text(cnf, board, decoder))


def write_encoding(
    cnf_path: str | os.PathLike[str], map_path: str | os.PathLike[str], cnf: CNF, board: Board, decoder: Decoder
) -> None:
    """Write the CNF and its map together: both files are replaced, or neither is.

    Raises
    ------
    OutputFileError
        A file cannot be written, or the two paths are one file; nothing has changed.
    """
    write_texts_atomic([(cnf_path, encoded_cnf_text(cnf, board, decoder)), (map_path, map_text(cnf, board, decoder))])


def read_map(path: str | os.PathLike[str]) -> tuple[dict[str, Any], Decoder]:
    """The header and the decoder of a variable map file.

    Raises
    ------
    InputFileError
        Not JSON, not a map, or a malformed header or variable entry (with its line).
    """
    text = read_text(path)
    data = parse_json(text, path)
    if not isinstance(data, dict) or data.get("format") != MAP_FORMAT:
        raise InputFileError(path, 1, f'not an mjsat variable map (no "format": "{MAP_FORMAT}")')
    for key in ("encoding", "vars", "board_digest"):
        if key not in data:
            raise InputFileError(path, 1, f"the map has no {key!r}")
    if not isinstance(data["board_digest"], str):
        raise InputFileError(path, 1, '"board_digest" must be text')
    try:
        decoder = decoder_from_json(data)
    except InvalidMapError as exc:
        line: int | None = 1
        if exc.item is not None:
            lines = json_array_lines(text, "vars")
            line = lines[exc.item] if exc.item < len(lines) else None
        raise InputFileError(path, line, str(exc)) from None
    return data, decoder
