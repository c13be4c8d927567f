"""Save files of games: one JSON object, every part validated when read.

::

    {"format": "mjsat-game", "version": 1,
     "board": {"format": "mjsat-board", "version": 1, "game": ..., "tiles": [...], ...},
     "moves": [[a, b], ...],                 # the moves played, in order
     "undo": {"limit": 10, "left": 3},       # the window and the undos left in it
     "redo": [[a, b], ...],                  # moves taken back, the next to redo last
     "hints": {"limit": 10, "used": 2},
     "meta": {"difficulty": "normal", ...}}

``board`` is a board in the project's JSON format (the full deal, tiles numbered as in
the moves). Reading checks the format name and version, the board, that every move is
a pair of tile numbers that replays from the deal in order, that the redo moves replay
after them, and the counts; any failure is one :class:`~mjsat.fileio.InputFileError`
naming the file and the problem. :func:`read_save` is the one reader: the game reads
saves with it (:func:`game_from_save_text`), and :func:`record_from_json_text`, what
:func:`mjsat.boardio.load_board` and ``mjsat solve/verify/render`` read a save with, is
built on it, so every command refuses what the game refuses.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from mjsat.board import Board, Move
from mjsat.boardio import board_from_json_text, board_to_json
from mjsat.fileio import InputFileError, parse_json

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "MAX_SAVE_BYTES",
    "game_to_save",
    "save_text",
    "Save",
    "read_save",
    "record_from_json_text",
    "game_from_save_text",
]

SAVE_FORMAT = "mjsat-game"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 32 * 1024 * 1024
"""Larger texts are refused before parsing."""
MAX_LIMIT = 1_000_000
"""Largest undo or hint limit accepted."""


def game_to_save(game: Any) -> dict[str, Any]:
    """The save object of a :class:`~mjsat.game.engine.Game`."""
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "board": json.loads(board_to_json(game.board.copy(stack=False))),
        "moves": [list(m) for m in game.moves],
        "undo": {"limit": game.undo_limit, "left": min(game.undo_depth, len(game.moves))},
        "redo": [list(m) for m in game.redo_stack],
        "hints": {"limit": game.hint_limit, "used": game.hints_used},
        "meta": dict(game.meta),
    }


def save_text(game: Any) -> str:
    """The text of a save file of ``game``."""
    return json.dumps(game_to_save(game), indent=1) + "\n"


def _parse(text: str, path: str) -> dict[str, Any]:
    if len(text) > MAX_SAVE_BYTES:
        raise InputFileError(
            path, None, f"too large for a save file ({len(text)} characters; at most {MAX_SAVE_BYTES})"
        )
    if not text.strip():
        raise InputFileError(path, None, "empty file, not an mjsat save")
    try:
        data = parse_json(text, path)  # nesting, number sizes, duplicate keys bounded
    except InputFileError as exc:
        why = exc.message
        if why.startswith("JSON nested"):
            why = f"JSON nested too deeply: {why}"
        elif why.startswith("invalid JSON: ") and exc.line is not None and "twice" not in why and "digits" not in why:
            why = f"invalid or truncated JSON ({why.removeprefix('invalid JSON: ')})"
        raise InputFileError(path, exc.line, f"not an mjsat save: {why}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        what = f'a "{found}" file' if isinstance(found, str) else "no mjsat save"
        raise InputFileError(path, None, f'{what}: expected "format": "{SAVE_FORMAT}"')
    if data.get("version") != SAVE_VERSION:
        raise InputFileError(
            path, None, f"unsupported save version {data.get('version')!r:.40} (this mjsat reads {SAVE_VERSION})"
        )
    return data


def _moves(value: Any, key: str, n: int, path: str) -> list[Move]:
    if not isinstance(value, list):
        raise InputFileError(path, None, f'"{key}" must be a list of [a, b] pairs')
    out: list[Move] = []
    for i, m in enumerate(value):
        if not (isinstance(m, list) and len(m) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in m)):
            raise InputFileError(path, None, f'"{key}" item {i + 1}: expected a pair of tile numbers, got {m!r:.60}')
        for t in m:
            if not 0 <= t < n:
                raise InputFileError(
                    path, None, f'"{key}" item {i + 1}: tile {t} does not exist (the board has tiles 0..{n - 1})'
                )
        out.append((m[0], m[1]) if m[0] <= m[1] else (m[1], m[0]))
    return out


def _count(section: Any, name: str, key: str, path: str, *, upper: int) -> int:
    if not isinstance(section, dict):
        raise InputFileError(path, None, f'"{name}" must be an object with "{key}"')
    v = section.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= upper:
        raise InputFileError(path, None, f'"{name}"."{key}" must be an integer in 0..{upper}, got {v!r:.40}')
    return v


@dataclasses.dataclass
class Save:
    """What a save file holds, checked (:func:`read_save`)."""

    board: Board
    """The deal (every tile present)."""
    moves: list[Move]
    """The moves played, in order."""
    redo: list[Move]
    """Moves taken back, the next to redo last."""
    undo_limit: int
    undo_left: int
    hint_limit: int
    hints_used: int
    meta: dict[str, Any]


def read_save(text: str, path: str = "<save>", *, replay: bool = True) -> Save:
    """The one reader of save files: the game's and every command's (through
    :func:`record_from_json_text`).

    Checks the format and version, the board, that every move and redo move is a pair of
    tile numbers, the undo and hint counts and their bounds, that ``meta`` is an object,
    and (``replay``) that the moves replay from the deal in order and the redo moves
    after them. Without ``replay`` the moves are left to the caller to replay (``mjsat
    verify`` names the first that fails); the redo moves are still replayed whenever
    the moves replay, so a save is never read as good when the game would refuse it.

    Raises
    ------
    InputFileError
        Corrupt, truncated, foreign or hostile text, or moves that do not replay: one
        line naming the file.
    """
    data = _parse(text, path)
    raw = data.get("board")
    if not isinstance(raw, dict):
        raise InputFileError(path, None, '"board" must be an mjsat board object')
    try:
        board = board_from_json_text(json.dumps(raw), path)
    except InputFileError as exc:
        raise InputFileError(path, None, f"its board: {exc.message}") from None
    except (RecursionError, ValueError) as exc:
        raise InputFileError(path, None, f"its board: {exc}") from None
    n = len(board)
    moves = _moves(data.get("moves"), "moves", n, path)
    undo_limit = _count(data.get("undo"), "undo", "limit", path, upper=MAX_LIMIT)
    undo_left = _count(data.get("undo"), "undo", "left", path, upper=MAX_LIMIT)
    hint_limit = _count(data.get("hints"), "hints", "limit", path, upper=MAX_LIMIT)
    hints_used = _count(data.get("hints"), "hints", "used", path, upper=MAX_LIMIT)
    redo = _moves(data.get("redo", []), "redo", n, path)
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise InputFileError(path, None, '"meta" must be an object')
    if hints_used > hint_limit:
        raise InputFileError(path, None, f"{hints_used} hints used but only {hint_limit} allowed")
    if undo_left > min(undo_limit, len(moves)):
        raise InputFileError(
            path, None, f"{undo_left} undos left, more than the window ({undo_limit}) or the moves ({len(moves)})"
        )
    if undo_left + len(redo) > undo_limit:
        raise InputFileError(
            path, None, f"{len(redo)} moves to redo and {undo_left} undos left exceed the undo window of {undo_limit}"
        )
    position = board.copy()
    if replay:
        _replay(position, moves, "move", path)
    elif any(_replays_not(position, m) for m in moves):
        return Save(board, moves, redo, undo_limit, undo_left, hint_limit, hints_used, meta)
    _replay(position, list(reversed(redo)), "redo move", path)
    return Save(board, moves, redo, undo_limit, undo_left, hint_limit, hints_used, meta)


def _replays_not(board: Board, move: Move) -> bool:
    """Play ``move`` on ``board`` when it is legal; whether it was not."""
    if board.illegal_reason(move) is not None:
        return True
    board.push(move)
    return False


def record_from_json_text(text: str, path: str = "<save>") -> tuple[Board, list[Move]]:
    """The deal and the moves played of a save, read by :func:`read_save` (so refused
    where the game refuses it), the moves left to the caller to replay."""
    save = read_save(text, path, replay=False)
    return save.board, save.moves


def _replay(board: Board, moves: list[Move], what: str, path: str) -> None:
    for i, m in enumerate(moves):
        reason = board.illegal_reason(m)
        if reason is not None:
            raise InputFileError(path, None, f"{what} {i + 1} {m} does not replay: {reason}")
        board.push(m)


def game_from_save_text(text: str, path: str = "<save>", *, decider: Any = None) -> Any:
    """A :class:`~mjsat.game.engine.Game` from the text of a save file.

    Raises
    ------
    InputFileError
        Corrupt, truncated, foreign or hostile text, or moves that do not replay.
    """
    from mjsat.game.engine import Game

    save = read_save(text, path)
    board = save.board
    for m in save.moves:
        board.push(m)
    game = Game(board, undo_limit=save.undo_limit, hint_limit=save.hint_limit, decider=decider, meta=save.meta)
    game.undo_depth = save.undo_left
    game.redo_stack = save.redo
    game.hints_used = save.hints_used
    return game
