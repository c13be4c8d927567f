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
from typing import Any

from pysat.formula import CNF

from mjsat import __version__
from mjsat.board import Board
from mjsat.encoders.common import Decoder
from mjsat.fileio import InputFileError, read_text, write_text_atomic

__all__ = [
    "MAP_FORMAT",
    "board_digest",
    "cnf_text",
    "write_cnf",
    "write_map",
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


def write_cnf(path: str | os.PathLike[str], cnf: CNF, board: Board, decoder: Decoder) -> None:
    """Write the CNF with a provenance header (mjsat version, encoding, board digest)."""
    params = " ".join(f"{k}={v}" for k, v in sorted(decoder.params.items()) if not isinstance(v, (list, dict)))
    comments = [
        f"mjsat {__version__}: {board.game} board of {len(board)} tiles, digest {board_digest(board)}",
        f"encoding {decoder.encoding} {params}",
        "decode a model with: mjsat decode BOARD MAP SOLVER_OUTPUT",
    ]
    write_text_atomic(path, cnf_text(cnf, comments))


def write_map(path: str | os.PathLike[str], cnf: CNF, board: Board, decoder: Decoder) -> None:
    """Write the variable map of an encoded board (JSON, one variable per line)."""
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
    text = json.dumps(head)[:-1] + ',\n "vars": [\n  ' + body + "\n ]}\n"
    write_text_atomic(path, text)


def read_map(path: str | os.PathLike[str]) -> tuple[dict[str, Any], Decoder]:
    """The header and the decoder of a variable map file.

    Raises
    ------
    InputFileError
        Not JSON, not a map, or a malformed variable entry (with its line).
    """
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(path, exc.lineno, f"not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != MAP_FORMAT:
        raise InputFileError(path, 1, f"not an mjsat variable map (no \"format\": \"{MAP_FORMAT}\")")
    for key in ("encoding", "vars", "board_digest"):
        if key not in data:
            raise InputFileError(path, 1, f"the map has no {key!r}")
    for i, item in enumerate(data["vars"]):
        if not (isinstance(item, list) and len(item) >= 2 and isinstance(item[0], int) and isinstance(item[1], str)):
            raise InputFileError(path, i + 3, f"expected [variable, name, ...], got {item!r}")
    return data, Decoder.from_json(data)


def parse_solver_output(text: str, path: str | os.PathLike[str] = "<solver output>") -> tuple[str, list[int]]:
    """The answer and the model in a solver's output.

    Parameters
    ----------
    text : str
        SAT-competition output (``s SATISFIABLE`` / ``s UNSATISFIABLE`` /
        ``s UNKNOWN`` and ``v`` lines), MiniSat's result file (``SAT`` or ``UNSAT``
        first, then the literals), or bare literal lines ending with ``0``.
    path : str
        Named in errors.

    Returns
    -------
    status : {'sat', 'unsat', 'unknown'}
    model : list of int
        The literals (empty unless ``sat``).

    Raises
    ------
    InputFileError
        A ``v`` line with a non-integer, or no answer at all.
    """
    status: str | None = None
    model: list[int] = []
    for i, raw in enumerate(text.splitlines(), 1):
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
        body = line[1:] if word == "v" else line
        try:
            lits = [int(x) for x in body.split()]
        except ValueError:
            raise InputFileError(path, i, f"expected literals, got {line[:40]!r}") from None
        model.extend(x for x in lits if x != 0)
        if status is None:
            status = "sat"
    if status is None:
        raise InputFileError(path, None, "no answer found (no `s` line, no SAT/UNSAT line, no literals)")
    return status, (model if status == "sat" else [])
