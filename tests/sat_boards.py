"""Seeded small boards of the three games the SAT and CP-SAT models cover, for the
encoder tests (groups of 2, of 2 and 4, and of 2, 4 and 6 tiles)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mjsat.board import Board
from mjsat.generate import random_grid_board, random_small_board

GAMES = ["mahjong", "mahjong-transposed", "shisen-sho"]
SIZES = [(2,), (2, 4), (2, 4, 6)]


def small_boards(seed: int, count: int, *, max_tiles: int = 14) -> Iterator[Board]:
    """``count`` random small boards, cycling through the games and the group sizes
    (seeded: the same boards for the same ``seed``)."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        game = GAMES[i % 3]
        sizes = SIZES[(i // 3) % 3]
        if game == "shisen-sho":
            yield random_grid_board(rng, max_width=5, max_height=4, group_sizes=sizes)
        else:
            yield random_small_board(rng, game=game, max_tiles=max_tiles, group_sizes=sizes)
