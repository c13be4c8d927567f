"""mjsat: decide, explain and manufacture hard Mahjong Solitaire and Shisen-Sho boards.

The names a user needs are importable from the top, and loaded on first use (``import
mjsat`` itself imports nothing heavy, so ``mjsat --help`` starts at once):

>>> from mjsat import deal, solve
>>> board = deal("turtle", seed=1)
>>> result = solve(board, time_limit=60)
>>> result.status, len(result.moves), result.verified
('solvable', 72, True)

Layouts and deals
    :class:`Layout`, :func:`load_layout`, :func:`list_layouts`, :func:`deal`,
    :func:`deal_random`, :func:`deal_solvable`.
Boards and their rules
    :class:`Board` and one subclass per game (:data:`GAMES`, :func:`find_variant`),
    :class:`Status`; board files: :func:`load_board`, :func:`write_board`,
    :func:`board_to_json`, :func:`load_solution`.
Deciding
    :func:`solve` over the registry :data:`METHODS`; :class:`SolveResult` with
    :data:`SOLVABLE`, :data:`UNSOLVABLE` or :data:`UNKNOWN`; :func:`check_solution`
    replays any claimed solution.
Pictures
    :func:`svg_board`, :func:`ascii_board`.

The three parts live in sub-packages: :mod:`mjsat.search` (direct search),
:mod:`mjsat.encoders` (SAT and CP-SAT), :mod:`mjsat.reductions` (3-SAT to boards), beside
:mod:`mjsat.layouts`, :mod:`mjsat.play`, :mod:`mjsat.runs` and :mod:`mjsat.game`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mjsat.board import (
        GAMES,
        VARIANTS,
        Board,
        GroupId,
        IllegalMoveError,
        InvalidBoardError,
        InvalidLayoutError,
        Layout,
        MahjongBoard,
        Move,
        ShisenShoBoard,
        ShisenShoMahjongBoard,
        Status,
        TileId,
        TransposedMahjongBoard,
        find_variant,
    )
    from mjsat.boardio import board_to_json, load_board, load_solution, write_board
    from mjsat.deals import DealError, deal, deal_random, deal_solvable
    from mjsat.fileio import InputFileError
    from mjsat.layouts import list_layouts, load_layout
    from mjsat.methods import METHODS, solve
    from mjsat.render import ascii_board, svg_board
    from mjsat.replay import InvalidSolutionError, check_solution
    from mjsat.result import (
        SOLVABLE,
        UNKNOWN,
        UNSOLVABLE,
        MethodNotApplicableError,
        MjsatUnfeasible,
        SolverError,
        SolveResult,
    )

    __version__: str

__all__ = [
    # layouts and deals
    "Layout",
    "load_layout",
    "list_layouts",
    "deal",
    "deal_random",
    "deal_solvable",
    # boards and their rules
    "Board",
    "MahjongBoard",
    "TransposedMahjongBoard",
    "ShisenShoBoard",
    "ShisenShoMahjongBoard",
    "GAMES",
    "VARIANTS",
    "find_variant",
    "Status",
    "TileId",
    "GroupId",
    "Move",
    # board and solution files
    "load_board",
    "write_board",
    "board_to_json",
    "load_solution",
    # deciding
    "solve",
    "METHODS",
    "SolveResult",
    "SOLVABLE",
    "UNSOLVABLE",
    "UNKNOWN",
    "check_solution",
    # pictures
    "svg_board",
    "ascii_board",
    # errors
    "InvalidLayoutError",
    "InvalidBoardError",
    "IllegalMoveError",
    "InvalidSolutionError",
    "InputFileError",
    "DealError",
    "MethodNotApplicableError",
    "MjsatUnfeasible",
    "SolverError",
    "__version__",
]

_HOME: dict[str, str] = {
    **dict.fromkeys(
        (
            "GAMES",
            "VARIANTS",
            "Board",
            "GroupId",
            "IllegalMoveError",
            "InvalidBoardError",
            "InvalidLayoutError",
            "Layout",
            "MahjongBoard",
            "Move",
            "ShisenShoBoard",
            "ShisenShoMahjongBoard",
            "Status",
            "TileId",
            "TransposedMahjongBoard",
            "find_variant",
        ),
        "mjsat.board",
    ),
    **dict.fromkeys(("board_to_json", "load_board", "load_solution", "write_board"), "mjsat.boardio"),
    **dict.fromkeys(("DealError", "deal", "deal_random", "deal_solvable"), "mjsat.deals"),
    "InputFileError": "mjsat.fileio",
    **dict.fromkeys(("list_layouts", "load_layout"), "mjsat.layouts"),
    **dict.fromkeys(("METHODS", "solve"), "mjsat.methods"),
    **dict.fromkeys(("ascii_board", "svg_board"), "mjsat.render"),
    **dict.fromkeys(("InvalidSolutionError", "check_solution"), "mjsat.replay"),
    **dict.fromkeys(
        (
            "SOLVABLE",
            "UNKNOWN",
            "UNSOLVABLE",
            "MethodNotApplicableError",
            "MjsatUnfeasible",
            "SolverError",
            "SolveResult",
        ),
        "mjsat.result",
    ),
}
"""The module each public name is defined in (imported when the name is first read)."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mjsat")
    except PackageNotFoundError:  # the source tree, not installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = _version()
    elif name in _HOME:
        value = getattr(importlib.import_module(_HOME[name]), name)
    else:
        raise AttributeError(f"module 'mjsat' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
