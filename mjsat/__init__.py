"""mjsat: decide, explain and manufacture hard Mahjong Solitaire and Shisen-Sho boards.

The core package holds the board model (:mod:`mjsat.board`), replay (:mod:`mjsat.replay`),
the method registry (:mod:`mjsat.methods`), deals, board files, pictures and the CLI. The
three parts live in sub-packages: :mod:`mjsat.reductions`, :mod:`mjsat.encoders`,
:mod:`mjsat.search`, beside :mod:`mjsat.layouts`.
"""

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
    Status,
    TileId,
    TransposedMahjongBoard,
    find_variant,
)
from mjsat.replay import InvalidSolutionError, replay
from mjsat.result import SOLVABLE, UNKNOWN, UNSOLVABLE, MjsatUnfeasible, SolveResult

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "VARIANTS",
    "Board",
    "GroupId",
    "IllegalMoveError",
    "InvalidBoardError",
    "InvalidLayoutError",
    "InvalidSolutionError",
    "Layout",
    "MahjongBoard",
    "Move",
    "MjsatUnfeasible",
    "SOLVABLE",
    "ShisenShoBoard",
    "SolveResult",
    "Status",
    "TileId",
    "TransposedMahjongBoard",
    "UNKNOWN",
    "UNSOLVABLE",
    "find_variant",
    "replay",
    "__version__",
]
