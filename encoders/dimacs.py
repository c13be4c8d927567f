"""DIMACS out and back: CNF files, variable maps, and the answers of external solvers.

``mjsat encode`` writes a board's CNF and, beside it, a *variable map* (JSON) naming
every meaningful variable (``["m", a, b]``, ``["r", t, s]``, ``["lt", u, v]``, ...), the
encoding and its parameters, and a digest of the board. ``mjsat decode`` reads the
answer of any solver -- SAT-competition ``s``/``v`` lines, or MiniSat's result file
(``SAT`` then the literals) -- and turns the model into a move list that is replayed
before it is printed.

>>> parse_solver_output("s SATISFIABLE\\nv 1 -2 3 0\\n")
('sat', [1, -2, 3])
>>> parse_solver_output("UNSAT\\n")
('unsat', [])
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Any

from pysat.formula import CNF

from mjsat import __version__
from mjsat.board import Board
from mjsat.encoders.common import Decoder, InvalidMapError
from mjsat.fileio import (
    MAX_DIGITS,
    InputFileError,
    json_array_lines,
    parse_json,
    read_text,
    text_lines,
    write_text_atomic,
    write_texts_atomic,
)

__all__ = [
    "MAP_FORMAT",
    "board_digest",
    "cnf_text",
    "cnf_file_text",
    "map_text",
    "write_cnf",
    "write_map",
    "write_encoding",
    "read_map",
    "parse_solver_output",
    "default_map_path",
]

MAP_FORMAT = "mjsat-varmap"


def board_digest(board: Board) -> str:
    """A short SHA-256 of the game, the positions and the groups (ties a map to a board)."""
    text = json.dumps([board.game, [list(p) for p in board.layout.positions], list(board.groups)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cnf_text(cnf: CNF, comments: list[str] | tuple[str, ...] = ()) -> str:
    """DIMACS text of ``cnf`` with ``c`` comment lines first.

    Notes
    -----
    Linear in the number of literals.
    """
    lines = [f"c {c}" for c in comments]
    lines.append(f"p cnf {cnf.nv} {len(cnf.clauses)}")
    lines.extend(" ".join(map(str, c)) + " 0" if c else "0" for c in cnf.clauses)
    return "\n".join(lines) + "\n"


def default_map_path(cnf_path: str | os.PathLike[str]) -> str:
    """The map file beside a CNF file: ``board.cnf`` -> ``board.map``."""
    root, ext = os.path.splitext(str(cnf_path))
    return (root if ext else str(cnf_path)) + ".map"


def cnf_file_text(cnf: CNF, board: Board, decoder: Decoder) -> str:
    """The DIMACS text :func:`write_cnf` writes: a provenance header (mjsat version,
    encoding, board digest), then the CNF."""
    params = " ".join(f"{k}={v}" for k, v in sorted(decoder.params.items()) if not isinstance(v, (list, dict)))
    comments = [
        f"mjsat {__version__}: {board.game} board of {len(board)} tiles, digest {board_digest(board)}",
        f"encoding {decoder.encoding} {params}",
        "decode a model with: mjsat decode BOARD MAP SOLVER_OUTPUT",
    ]
    return cnf_text(cnf, comments)


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
    """Write the CNF with a provenance header (mjsat version, encoding, board digest)."""
    write_text_atomic(path, cnf_file_text(cnf, board, decoder))


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
    write_texts_atomic([(cnf_path, cnf_file_text(cnf, board, decoder)), (map_path, map_text(cnf, board, decoder))])


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
        raise InputFileError(path, 1, f"not an mjsat variable map (no \"format\": \"{MAP_FORMAT}\")")
    for key in ("encoding", "vars", "board_digest"):
        if key not in data:
            raise InputFileError(path, 1, f"the map has no {key!r}")
    if not isinstance(data["board_digest"], str):
        raise InputFileError(path, 1, '"board_digest" must be text')
    try:
        decoder = Decoder.from_json(data)
    except InvalidMapError as exc:
        line = 1
        if exc.item is not None:
            lines = json_array_lines(text, "vars")
            line = lines[exc.item] if exc.item < len(lines) else None
        raise InputFileError(path, line, str(exc)) from None
    return data, decoder


_LITERALS = re.compile(r"[+-]?[0-9]{1,%d}(?:\s+[+-]?[0-9]{1,%d})*" % (MAX_DIGITS, MAX_DIGITS))


def parse_solver_output(
    text: str, path: str | os.PathLike[str] = "<solver output>", *, n_vars: int | None = None
) -> tuple[str, list[int]]:
    """The answer and the model in a solver's output.

    Parameters
    ----------
    text : str
        SAT-competition output (``s SATISFIABLE`` / ``s UNSATISFIABLE`` /
        ``s UNKNOWN`` and ``v`` lines), MiniSat's result file (``SAT`` or ``UNSAT``
        first, then the literals), or bare literal lines ending with ``0``.
    path : str
        Named in errors.
    n_vars : int, optional
        The CNF's number of variables: a literal beyond it is an error.

    Returns
    -------
    status : {'sat', 'unsat', 'unknown'}
    model : list of int
        The literals (empty unless ``sat``).

    Raises
    ------
    InputFileError
        A ``v`` line with a non-integer or a literal beyond ``n_vars``, or no answer at all.
    """
    status: str | None = None
    model: list[int] = []
    for i, raw in enumerate(text_lines(text), 1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        word = line.split()[0]
        if word == "s":
            answer = line[1:].strip().upper()
            status = {"SATISFIABLE": "sat", "UNSATISFIABLE": "unsat"}.get(answer, "unknown")
            continue
        if word in ("SAT", "SATISFIABLE"):
            status = "sat"
            continue
        if word in ("UNSAT", "UNSATISFIABLE"):
            status = "unsat"
            continue
        if word in ("INDET", "UNKNOWN"):
            status = "unknown"
            continue
        body = line[1:].strip() if word == "v" else line
        if body and not _LITERALS.fullmatch(body):
            raise InputFileError(path, i, f"expected literals, got {line[:40]!r}")
        lits = [int(x) for x in body.split()]
        if n_vars is not None:
            bad = next((x for x in lits if abs(x) > n_vars), None)
            if bad is not None:
                raise InputFileError(path, i, f"literal {bad}: the CNF has variables 1..{n_vars}")
        model.extend(x for x in lits if x != 0)
        if status is None:
            status = "sat"
    if status is None:
        raise InputFileError(path, None, "no answer found (no `s` line, no SAT/UNSAT line, no literals)")
    return status, (model if status == "sat" else [])
