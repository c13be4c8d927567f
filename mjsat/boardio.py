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

from mjsat.board import MAX_COORD, MAX_LEVEL, Board, InvalidBoardError, InvalidLayoutError, Layout, Move, find_variant
from mjsat.fileio import (
    InputFileError,
    json_array_lines,
    parse_decimal,
    parse_json,
    read_text,
    text_lines,
    write_text_atomic,
)
from mjsat.limits import MAX_TILES

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

GROUP_MIN, GROUP_MAX = -(2**63), 2**63 - 1
"""The range of group numbers in board files (int64)."""
_INDEX_MAX = 2**63 - 1
"""The largest tile index a solution file may name (the board, when known, narrows it)."""

PathLike = str | os.PathLike[str]


class _ItemLines(Sequence):
    """The line of each element of a JSON array, found only when an error asks for one
    (finding them walks the text in Python: seconds for a million tiles)."""

    def __init__(self, text: str, key: str | None, count: int) -> None:
        self._text, self._key, self._count = text, key, count
        self._lines: list[int] | None = None

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i: int) -> int | None:  # type: ignore[override]
        if self._lines is None:
            self._lines = json_array_lines(self._text, self._key)
        return self._lines[i] if 0 <= i < len(self._lines) else None


def _json_int(value: Any, what: str, low: int, high: int) -> int:
    """A JSON value that must be an integer in ``low..high`` (booleans are not integers)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what}: expected an integer, got {_short(value)}")
    if not low <= value <= high:
        raise ValueError(f"{what}: {value} is out of range {low}..{high}")
    return value


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _tile_count(path: PathLike, count: int, line: int | None, *, at_least: bool = False) -> None:
    message = MAX_TILES.exceeded(count, "the board", at_least=at_least)
    if message is not None:
        raise InputFileError(path, line, message)


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


_TILE_LINE = re.compile(r"([0-9]{1,5})[ \t]+([0-9]{1,5})[ \t]+([0-9]{1,3})[ \t]+([+-]?[0-9]{1,19})")
"""The common text tile line, read at once; anything else goes field by field for the message."""


def board_from_text(text: str, path: PathLike = "<text>", *, game: str = "mahjong") -> Board:
    """Parse de Bondt's plain text board format (``row col level group`` per line)."""
    positions: list[tuple[int, int, int]] = []
    groups: list[int] = []
    lines: list[int | None] = []
    limit = MAX_TILES.value
    for lineno, raw in enumerate(text_lines(text), 1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        if len(positions) == limit:
            _tile_count(path, limit + 1, lineno, at_least=True)
        m = _TILE_LINE.fullmatch(s)
        if m is not None:
            r, c, l, g = int(m[1]), int(m[2]), int(m[3]), int(m[4])
            ok = r <= MAX_COORD and c <= MAX_COORD and l <= MAX_LEVEL and GROUP_MIN <= g <= GROUP_MAX
        if m is None or not ok:
            fields = s.split()
            if len(fields) != 4:
                raise InputFileError(
                    path, lineno, f"expected 4 integers 'row col level group', got {len(fields)} fields"
                )
            r = parse_decimal(path, lineno, fields[0], "row", 0, MAX_COORD)
            c = parse_decimal(path, lineno, fields[1], "col", 0, MAX_COORD)
            l = parse_decimal(path, lineno, fields[2], "level", 0, MAX_LEVEL)
            g = parse_decimal(path, lineno, fields[3], "group", GROUP_MIN, GROUP_MAX)
        positions.append((r, c, l))
        groups.append(g)
        lines.append(lineno)
    if not positions:
        raise InputFileError(path, None, "no tiles (expected lines 'row col level group')")
    return _make_board(path, positions, groups, lines, game=game)


_GROUP_KEY = re.compile(r"[+-]?[0-9]{1,19}")


def _key_line(text: str, key: str) -> int | None:
    m = re.search(rf'"{re.escape(key)}"\s*:', text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def _gadgets(path: PathLike, text: str, meta: dict[str, Any], n: int) -> None:
    """Check ``meta["gadgets"]`` (what the pictures outline): a list of
    ``{"label": str, "tiles": [tile, ...]}``."""
    if "gadgets" not in meta:
        return
    line = _key_line(text, "gadgets")
    gadgets = meta["gadgets"]
    if not isinstance(gadgets, list):
        raise InputFileError(path, line, f'"meta": "gadgets" must be a list, got {_short(gadgets)}')
    for i, g in enumerate(gadgets):
        if (
            not isinstance(g, dict)
            or not isinstance(g.get("label", ""), str)
            or not isinstance(g.get("tiles", []), list)
        ):
            raise InputFileError(
                path, line, f'"meta": gadget {i}: expected {{"label": text, "tiles": [tile, ...]}}, got {_short(g)}'
            )
        for t in g.get("tiles", []):
            try:
                _json_int(t, f'"meta": gadget {i}', 0, n - 1)
            except ValueError as exc:
                raise InputFileError(path, line, str(exc)) from None


def board_from_json_text(text: str, path: PathLike = "<json>", *, game: str | None = None) -> Board:
    """Parse the project's JSON board format.

    Every key has its type checked (``"block_any_higher": "false"``, a string, is
    refused, not read as true); coordinates, levels and groups must lie in their ranges.
    """
    data = parse_json(text, path)
    if not isinstance(data, dict) or data.get("format") != BOARD_FORMAT:
        raise InputFileError(path, 1, f'not an mjsat board: expected "format": "{BOARD_FORMAT}"')
    version = data.get("version", 1)
    if isinstance(version, bool) or version != 1 or not isinstance(version, int):
        raise InputFileError(
            path,
            _key_line(text, "version") or 1,
            f"unsupported board format version {_short(version)} (this mjsat reads 1)",
        )
    for key, kind, what in (
        ("game", str, "a game name"),
        ("layout", str, "a layout name (text)"),
        ("block_any_higher", bool, "true or false"),
    ):
        if key in data and not isinstance(data[key], kind):
            raise InputFileError(path, _key_line(text, key), f'"{key}" must be {what}, got {_short(data[key])}')
    tiles = data.get("tiles")
    if not isinstance(tiles, list) or not tiles:
        raise InputFileError(
            path, _key_line(text, "tiles"), '"tiles" must be a non-empty list of [row, col, lev, group]'
        )
    if len(tiles) > MAX_TILES.value:
        _tile_count(path, len(tiles), _key_line(text, "tiles"))
    lines = _ItemLines(text, "tiles", len(tiles))
    positions: list[tuple[int, int, int]] = []
    groups: list[int] = []
    for i, tile in enumerate(tiles):
        if not isinstance(tile, list) or len(tile) != 4:
            raise InputFileError(path, lines[i], f"tile {i}: expected [row, col, lev, group], got {_short(tile)}")
        try:
            r = _json_int(tile[0], f"tile {i}: row", 0, MAX_COORD)
            c = _json_int(tile[1], f"tile {i}: col", 0, MAX_COORD)
            l = _json_int(tile[2], f"tile {i}: lev", 0, MAX_LEVEL)
            g = _json_int(tile[3], f"tile {i}: group", GROUP_MIN, GROUP_MAX)
        except ValueError as exc:
            raise InputFileError(path, lines[i], str(exc)) from None
        positions.append((r, c, l))
        groups.append(g)
    raw_names = data.get("group_names", {})
    if not isinstance(raw_names, dict):
        raise InputFileError(path, _key_line(text, "group_names"), '"group_names" must map group numbers to names')
    names: dict[int, str] = {}
    for k, v in raw_names.items():
        if not (isinstance(v, str) and _GROUP_KEY.fullmatch(k) and GROUP_MIN <= int(k) <= GROUP_MAX):
            line = _key_line(text, "group_names")  # found only for the message
            group = parse_decimal(path, line, k, '"group_names" key', GROUP_MIN, GROUP_MAX)
            raise InputFileError(path, line, f'"group_names": the name of group {group} must be text, got {_short(v)}')
        names[int(k)] = v
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise InputFileError(path, _key_line(text, "meta"), '"meta" must be an object')
    _gadgets(path, text, meta, len(tiles))
    return _make_board(
        path,
        positions,
        groups,
        lines,
        game=game or data.get("game", "mahjong"),
        block_any_higher=data.get("block_any_higher", False),
        name=data.get("layout", ""),
        names=names,
        meta=meta,
    )


RECORD_FORMATS: dict[str, str] = {
    "mjsat-game": "mjsat.game.save:record_from_json_text",
}
"""JSON formats of records (a deal and the moves played on it): the ``format`` name ->
``module:function`` of a reader ``fn(text, path) -> (deal, moves)``, imported lazily."""


def _record_reader(text: str, path: PathLike) -> Any:
    """The reader of a JSON record format, or ``None`` for any other text.

    Raises
    ------
    InputFileError
        Text that names a record format and is not JSON (:func:`~mjsat.fileio.parse_json`).
    """
    if not any(f'"{name}"' in text for name in RECORD_FORMATS):
        return None
    data = parse_json(text, path)
    fmt = data.get("format") if isinstance(data, dict) else None
    target = RECORD_FORMATS.get(fmt) if isinstance(fmt, str) else None
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
    reader = _record_reader(text, path)
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
        if _record_reader(text, path) is not None:
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
    tiles = ",\n".join(f"    [{r}, {c}, {l}, {g}]" for (r, c, l), g in zip(board.layout.positions, board.groups))
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


_MOVE = re.compile(r"([0-9]+)(?:[ \t]*,[ \t]*|[ \t]+|-)([0-9]+)")


def solution_from_text(text: str, path: PathLike = "<solution>") -> list[Move]:
    """Parse a move list (see the module docstring for the accepted forms).

    Tile indices are non-negative decimal integers: ``1 -2`` is refused, not read as
    the move ``(1, 2)``.
    """
    s = text.lstrip()
    if s.startswith(("{", "[")):
        data = parse_json(text, path)
        key: str | None = None
        if isinstance(data, dict):
            if "moves" not in data:
                raise InputFileError(path, 1, 'a JSON solution needs a "moves" key')
            data, key = data["moves"], "moves"
        if not isinstance(data, list):
            raise InputFileError(path, _key_line(text, "moves") or 1, '"moves" must be a list of [a, b] pairs')
        item_lines = _ItemLines(text, key, len(data))
        moves: list[Move] = []
        for i, m in enumerate(data):
            line = item_lines[i]
            if not isinstance(m, list) or len(m) != 2:
                raise InputFileError(path, line, f"move {i + 1}: expected a pair of tile indices, got {_short(m)}")
            try:
                a = _json_int(m[0], f"move {i + 1}: tile index", 0, _INDEX_MAX)
                b = _json_int(m[1], f"move {i + 1}: tile index", 0, _INDEX_MAX)
            except ValueError as exc:
                raise InputFileError(path, line, f"{exc} (a pair of tile indices)") from None
            moves.append((a, b))
        return moves
    moves = []
    for lineno, raw in enumerate(text_lines(text), 1):
        entry = raw.split("#", 1)[0].strip()
        if not entry:
            continue
        found = _MOVE.fullmatch(entry)
        if found is None:
            fields = re.split(r"[\s,]+", entry)
            if len(fields) != 2 and not re.fullmatch(r"[0-9]+-[0-9]+", entry):
                raise InputFileError(path, lineno, f"expected a move 'a b' (two tile indices), got {entry[:40]!r}")
            raise InputFileError(path, lineno, f"not a tile index (expected 'a b' with a, b >= 0): {entry[:40]!r}")
        first, second = found.group(1), found.group(2)
        moves.append(
            (
                parse_decimal(path, lineno, first, "tile index", 0, _INDEX_MAX),
                parse_decimal(path, lineno, second, "tile index", 0, _INDEX_MAX),
            )
        )
    return moves


def load_solution(path: PathLike, board: Board | None = None) -> list[Move]:
    """Read a move list; with ``board``, tile indices out of range are file errors."""
    text = read_text(path)
    moves = solution_from_text(text, path)
    if board is not None:
        plain = not text.lstrip().startswith(("{", "["))
        numbered: Sequence[int | None]
        if plain:
            numbered = [i for i, raw in enumerate(text_lines(text), 1) if raw.split("#", 1)[0].strip()]
        else:
            numbered = _ItemLines(text, "moves" if text.lstrip().startswith("{") else None, len(moves))
        for k, (a, b) in enumerate(moves):
            for t in (a, b):
                if not 0 <= t < len(board):
                    line = numbered[k] if k < len(numbered) else None
                    raise InputFileError(
                        path, line, f"move {k + 1}: unknown tile index {t} (the board has tiles 0..{len(board) - 1})"
                    )
    return moves
