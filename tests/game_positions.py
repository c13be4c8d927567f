"""Positions shared by the game's, the CLI's and the board I/O's tests (no test module
imports another)."""

from __future__ import annotations

import json

import numpy as np

from mjsat.boardio import board_to_json
from mjsat.deals import deal_solvable
from mjsat.game.engine import SOLVABLE, UNSOLVABLE
from mjsat.layouts import load_layout
from mjsat.methods import solve

SMALL = [
    ("tiny", "mahjong"),
    ("pyramid", "mahjong"),
    ("cross", "mahjong-transposed"),
    ("rect-4x3", "shisen-sho"),
    ("rect-4x4", "shisen-sho"),
    ("rect-3x2x2", "shisen-sho-3d"),
    ("pyramid", "shisen-sho-3d"),
]


def fatal_position():
    """A solvable position of random play on small deals with a legal move after which
    it is not, found with the reference solver."""
    rng = np.random.default_rng(9)
    for _ in range(300):
        spec, game_name = SMALL[int(rng.integers(len(SMALL)))]
        board, _ = deal_solvable(load_layout(spec), seed=int(rng.integers(1 << 30)), game=game_name)
        while True:
            legal = sorted(board.generate_legal_moves())
            if not legal or solve(board.position_board()[0], "ref").status != SOLVABLE:
                break
            for m in legal:
                trial = board.copy()
                trial.push(m)
                if solve(trial.position_board()[0], "ref").status == UNSOLVABLE:
                    return board, m
            board.push(legal[int(rng.integers(len(legal)))])
    raise AssertionError("no position with a fatal move")


def saved_game(tmp_path, moves_count=3, tamper=False):
    """A save file of mjsat's game, written by hand (the format of mjsat.game.save)."""
    board, order = deal_solvable(load_layout("rect-4x3"), seed=2, game="shisen-sho")
    moves = [list(m) for m in order[:moves_count]]
    if tamper:
        moves.append(list(order[0]))  # a tile already gone
    data = {
        "format": "mjsat-game",
        "version": 1,
        "board": json.loads(board_to_json(board)),
        "moves": moves,
        "undo": {"limit": 10, "left": 1},
        "redo": [],
        "hints": {"limit": 10, "used": 0},
        "meta": {},
    }
    path = tmp_path / "game.anyname"
    path.write_text(json.dumps(data))
    return path, board, order
