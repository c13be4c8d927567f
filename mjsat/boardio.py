"""Board and solution files.

Boards
------
* JSON (``.json``), the project's own format, documented in the README::

      {"format": "mjsat-board", "version": 1, "game": "mahjong",
       "block_any_higher": false, "layout": "turtle",
       "tiles": [[row, col, lev, group], ...],
       "group_names": {"0": "SAT"}, "meta": {"seed": 1}}

  ``tiles`` lists one tile per entry in :data:`~mjsat.board.TileId` order; ``group_names``
  and ``meta`` are optional.
* Plain text (``.txt`` or anything else), the format of de Bondt's solver: one tile a
  line, ``row col level group``, decimal, half-tile units. Blank lines and lines starting
  with ``#`` are skipped. The game is not stored: it is ``mahjong`` unless told.

Saved games
-----------
A JSON *record* holds a deal and the moves played on it; :data:`RECORD_FORMATS` names the
readers of such formats (the game's save files, ``"format": "mjsat-game"``), imported
when a file of that format is read. :func:`load_board` reads a record as the board of
its *position*, the tiles still present (:meth:`~mjsat.board.Board.position_board`,
numbered anew; ``meta["record_tiles"]`` maps them back), so every command that takes a
board decides, draws or converts the position; :func:`load_record` gives the deal and
its moves.

Solutions
---------
The object ``mjsat solve --json`` prints (its ``moves`` key), a bare JSON list of pairs,
or text with one move a line: ``a b`` (``a-b`` and ``a,b`` also do).
"""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mjsat.board import Board, InvalidBoardError, InvalidLayoutError, Layout, Move, find_variant
from mjsat.fileio import InputFileError, read_text, write_text_atomic

__all__ = [
    "BOARD_FORMAT",
    "RECORD_FORMATS",
    "load_board",
    "load_record",
    "board_from_json_text",
    "board_from_text",
    "board_to_json",
    "board_to_text",
    "write_board",
    "load_solution",
    "solution_from_text",
]

BOARD_FORMAT = "mjsat-board"

PathLike = str | os.PathLike[str]


def _array_item_lines(text: str, key: str) -> list[int]:
    """1-based line of each element of the top-level JSON array under ``key`` (best effort)."""
    m = re.search(r'"%s"\s*:\s*\[' % re.escape(key), text)
    if not m:
        return []
    lines: list[int] = []
    depth = 1
    line = text.count("\n", 0, m.end()) + 1
    in_str = False
    expect_item = True
    i = m.end()
    while i < len(text) and depth > 0:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif in_str:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
            if depth == 1 and expect_item:
                lines.append(line)
                expect_item = False
        elif ch in "[{":
            if depth == 1 and expect_item:
                lines.append(line)
                expect_item = False
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 1:
            expect_item = True
        elif depth == 1 and expect_item and not ch.isspace():
            lines.append(line)
            expect_item = False
        i += 1
    return lines


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def _make_board(
    path: PathLike,
    positions: list[tuple[int, int, int]],
    groups: list[int],
    lines: Sequence[int | None],
    *,
    game: str,
    block_any_higher: bool = False,
    name: str = "",
    names: dict[int, str] | None = None,
    meta: dict[str, Any] | None = None,
) -> Board:
    """Build the board, turning model errors into file errors that name a line."""
    try:
        cls = find_variant(game)
    except InvalidBoardError as exc:
        raise InputFileError(path, None, str(exc)) from None
    try:
        layout = Layout(positions, name=name, block_any_higher=block_any_higher)
    except InvalidLayoutError as exc:
        at = exc.tiles[-1] if exc.tiles else len(lines) - 1
        raise InputFileError(path, lines[at] if 0 <= at < len(lines) else None, str(exc)) from None
    try:
        return cls(layout, groups, names=names, meta=meta)
    except InvalidBoardError as exc:
        msg = str(exc)
        line = None
        m = re.match(r"group (\S+) has", msg)
        if m:
            label = m.group(1)
            gid = next((g for g, s in (names or {}).items() if s == label), None)
            if gid is None and label.lstrip("-").isdigit():
                gid = int(label)
            where = [i for i, g in enumerate(groups) if g == gid]
            if where:
                line = lines[where[-1]]
        raise InputFileError(path, line, msg) from None


def board_from_text(text: str, path: PathLike = "<text>", *, game: str = "mahjong") -> Board:
    """Parse de Bondt's plain text board format (``row col level group`` per line)."""
    positions: list[tuple[int, int, int]] = []
    groups: list[int] = []
    lines: list[int | None] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        fields = s.split()
        if len(fields) != 4:
            raise InputFileError(path, lineno, f"expected 4 integers 'row col level group', got {len(fields)} fields")
        try:
            r, c, l, g = (int(f) for f in fields)
        except ValueError:
            bad = next(f for f in fields if not re.fullmatch(r"[+-]?\d+", f))
            raise InputFileError(path, lineno, f"not an integer: {bad!r}") from None
        positions.append((r, c, l))
        groups.append(g)
        lines.append(lineno)
    if not positions:
        raise InputFileError(path, None, "no tiles (expected lines 'row col level group')")
    return _make_board(path, positions, groups, lines, game=game)


def board_from_json_text(text: str, path: PathLike = "<json>", *, game: str | None = None) -> Board:
    """Parse the project's JSON board format."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(path, exc.lineno, f"invalid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != BOARD_FORMAT:
        raise InputFileError(path, 1, f'not an mjsat board: expected "format": "{BOARD_FORMAT}"')
    version = data.get("version", 1)
    if version != 1:
        raise InputFileError(path, 1, f"unsupported board format version {version!r} (this mjsat reads 1)")
    tiles = data.get("tiles")
    if not isinstance(tiles, list) or not tiles:
        raise InputFileError(path, None, '"tiles" must be a non-empty list of [row, col, lev, group]')
    item_lines = _array_item_lines(text, "tiles")
    lines: list[int | None] = [item_lines[i] if i < len(item_lines) else None for i in range(len(tiles))]
    positions: list[tuple[int, int, int]] = []
    groups: list[int] = []
    for i, tile in enumerate(tiles):
        if not isinstance(tile, list) or len(tile) != 4:
            raise InputFileError(path, lines[i], f"tile {i}: expected [row, col, lev, group], got {tile!r}")
        try:
            r, c, l, g = (_int(v) for v in tile)
        except ValueError as exc:
            raise InputFileError(path, lines[i], f"tile {i}: {exc}") from None
        positions.append((r, c, l))
        groups.append(g)
    raw_names = data.get("group_names") or {}
    if not isinstance(raw_names, dict):
        raise InputFileError(path, None, '"group_names" must map group numbers to names')
    try:
        names = {int(k): str(v) for k, v in raw_names.items()}
    except ValueError:
        raise InputFileError(path, None, '"group_names" keys must be group numbers') from None
    meta = data.get("meta") or {}
    if not isinstance(meta, dict):
        raise InputFileError(path, None, '"meta" must be an object')
    return _make_board(
        path,
        positions,
        groups,
        lines,
        game=game or str(data.get("game", "mahjong")),
        block_any_higher=bool(data.get("block_any_higher", False)),
        name=str(data.get("layout", "")),
        names=names,
        meta=meta,
    )


RECORD_FORMATS: dict[str, str] = {
    "mjsat-game": "mjsat.game.save:record_from_json_text",
}
"""JSON formats of records (a deal and the moves played on it): the ``format`` name ->
``module:function`` of a reader ``fn(text, path) -> (deal, moves)``, imported lazily."""


def _record_reader(text: str) -> Any:
    """The reader of a JSON record format, or ``None`` for any other text."""
    if not any(f'"{name}"' in text for name in RECORD_FORMATS):
        return None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    target = RECORD_FORMATS.get(data.get("format")) if isinstance(data, dict) else None
    if target is None:
        return None
    module, _, func = target.partition(":")
    return getattr(importlib.import_module(module), func)


def load_record(path: PathLike, *, check: bool = True) -> tuple[Board, list[Move]]:
    """Read a record (a saved game): its deal and the moves played.

    With ``check`` (the default) the moves are replayed on the deal first.

    Raises
    ------
    InputFileError
        The file is not a record of a known format, is malformed, or (with ``check``) a
        move does not replay (named with its number and the rule it breaks).
    """
    text = read_text(path)
    reader = _record_reader(text)
    if reader is None:
        raise InputFileError(path, None, f"not a saved game (known formats: {', '.join(RECORD_FORMATS)})")
    deal, moves = reader(text, str(path))
    if check:
        board = deal.copy(stack=False)
        for i, m in enumerate(moves):
            reason = board.illegal_reason(m)
            if reason is not None:
                raise InputFileError(path, None, f"move {i + 1} {tuple(m)} of the saved game does not replay: {reason}")
            board.push(m)
    return deal, list(moves)


def load_board(path: PathLike, *, game: str | None = None) -> Board:
    """Read a board file in either format (JSON when its text starts with ``{``).

    ``game`` overrides the file's game (the text format stores none: default ``mahjong``).
    A record (a saved game, see :data:`RECORD_FORMATS`) is read as the board of its
    position: the tiles still present, numbered anew.

    Raises
    ------
    InputFileError
        One line naming the file, the line and the problem.
    """
    text = read_text(path)
    if text.lstrip().startswith("{"):
        if _record_reader(text) is not None:
            deal, moves = load_record(path)
            for m in moves:
                deal.push(m)
            board, back = deal.position_board()
            board.meta["record_tiles"] = back
            return board
        return board_from_json_text(text, path, game=game)
    return board_from_text(text, path, game=game or "mahjong")


def board_to_json(board: Board) -> str:
    """The JSON text of ``board`` (one tile a line, so errors can name lines)."""
    head: dict[str, Any] = {
        "format": BOARD_FORMAT,
        "version": 1,
        "game": board.game,
        "block_any_higher": board.layout.block_any_higher,
        "layout": board.layout.name,
    }
    tiles = ",\n".join(
        f"    [{r}, {c}, {l}, {g}]" for (r, c, l), g in zip(board.layout.positions, board.groups)
    )
    parts = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in head.items()]
    parts.append(f'  "tiles": [\n{tiles}\n  ]')
    if board.names:
        parts.append(f'  "group_names": {json.dumps({str(k): v for k, v in sorted(board.names.items())})}')
    if board.meta:
        parts.append(f'  "meta": {json.dumps(board.meta, sort_keys=True)}')
    return "{\n" + ",\n".join(parts) + "\n}\n"


def board_to_text(board: Board) -> str:
    """De Bondt's plain text format (the game, names and meta are not kept)."""
    return "".join(f"{r} {c} {l} {g}\n" for (r, c, l), g in zip(board.layout.positions, board.groups))


def write_board(board: Board, path: PathLike) -> None:
    """Write ``board`` in the format named by the extension (``.json``, else text)."""
    text = board_to_json(board) if Path(path).suffix.lower() == ".json" else board_to_text(board)
    write_text_atomic(path, text)


def solution_from_text(text: str, path: PathLike = "<solution>") -> list[Move]:
    """Parse a move list (see the module docstring for the accepted forms)."""
    s = text.lstrip()
    if s.startswith("{") or s.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputFileError(path, exc.lineno, f"invalid JSON: {exc.msg}") from None
        if isinstance(data, dict):
            if "moves" not in data:
                raise InputFileError(path, 1, 'a JSON solution needs a "moves" key')
            data = data["moves"]
        if not isinstance(data, list):
            raise InputFileError(path, 1, '"moves" must be a list of [a, b] pairs')
        moves: list[Move] = []
        for i, m in enumerate(data):
            if not isinstance(m, list) or len(m) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in m):
                raise InputFileError(path, None, f"move {i + 1}: expected a pair of tile indices, got {m!r}")
            moves.append((m[0], m[1]))
        return moves
    moves = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = re.split(r"[\s,\-]+", line)
        if len(fields) != 2:
            raise InputFileError(path, lineno, f"expected a move 'a b' (two tile indices), got {line!r}")
        try:
            moves.append((int(fields[0]), int(fields[1])))
        except ValueError:
            raise InputFileError(path, lineno, f"not a tile index: {line!r}") from None
    return moves


def load_solution(path: PathLike, board: Board | None = None) -> list[Move]:
    """Read a move list; with ``board``, tile indices out of range are file errors."""
    text = read_text(path)
    moves = solution_from_text(text, path)
    if board is not None:
        plain = not text.lstrip().startswith(("{", "["))
        numbered = [i for i, raw in enumerate(text.splitlines(), 1) if raw.split("#", 1)[0].strip()]
        for k, (a, b) in enumerate(moves):
            for t in (a, b):
                if not 0 <= t < len(board):
                    line = numbered[k] if plain and k < len(numbered) else None
                    raise InputFileError(
                        path, line, f"move {k + 1}: unknown tile index {t} (the board has tiles 0..{len(board) - 1})"
                    )
    return moves
