"""Board and solution files: round trips and one-line errors naming file and line."""

from __future__ import annotations

import numpy as np
import pytest
from game_positions import saved_game
from hypothesis import given, settings, strategies as st

from mjsat.board import Layout, ShisenShoBoard
from mjsat.boardio import (
    board_from_json_text,
    board_from_text,
    board_to_json,
    board_to_text,
    load_board,
    load_solution,
    write_board,
)
from mjsat.fileio import InputFileError
from mjsat.generate import random_grid_board, random_small_board


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["mahjong", "mahjong-transposed", "shisen-sho"]))
def test_round_trips(seed, game):
    rng = np.random.default_rng(seed)
    b = random_small_board(rng, game=game)
    b.names = {g: f"g{g}" for g in b.group_sizes()} if seed % 2 else {}
    again = board_from_json_text(board_to_json(b))
    assert (again.layout, again.groups, again.game, again.names) == (b.layout, b.groups, b.game, b.names)
    plain = board_from_text(board_to_text(b), game=game)
    assert (plain.layout, plain.groups, plain.game) == (b.layout, b.groups, b.game)


def test_write_by_extension(tmp_path):
    b = random_grid_board(np.random.default_rng(2))
    write_board(b, tmp_path / "b.json")
    write_board(b, tmp_path / "b.txt")
    assert isinstance(load_board(tmp_path / "b.json"), ShisenShoBoard)
    assert load_board(tmp_path / "b.txt").game == "mahjong"  # the text format has no game
    assert load_board(tmp_path / "b.txt", game="shisen-sho").groups == b.groups


BAD_TEXT = [
    ("0 0 0 1\n0 2 0\n", 2, "expected 4 integers"),
    ("0 0 0 1\n0 2 zero 1\n", 2, "level: expected an integer, got 'zero'"),
    ("0 0 0 1\n0 1 0 1\n", 2, "overlap"),
    ("0 0 0 1\n0 2 0 1\n0 4 0 2\n0 6 0 3\n", 3, "odd number"),
    ("0 0 0 1\n0 2 0 1\n-3 4 0 2\n0 6 0 2\n", 3, "row: -3 is out of range 0..32766"),
    ("# nothing\n", None, "no tiles"),
]


@pytest.mark.parametrize("text,line,words", BAD_TEXT)
def test_text_errors_name_the_line(tmp_path, text, line, words):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InputFileError) as exc:
        load_board(path)
    assert exc.value.line == line and words in str(exc.value)
    assert str(exc.value).startswith(str(path)) and "\n" not in str(exc.value)


def _json(tiles: str, head: str = '"format": "mjsat-board", "version": 1') -> str:
    return "{\n  " + head + ',\n  "tiles": [\n' + tiles + "\n  ]\n}\n"


BAD_JSON = [
    ('{"tiles": [', 1, "invalid JSON"),
    (_json("    [0, 0, 0, 1],\n    [0, 2, 0, 1]", head='"format": "other"'), 1, "not an mjsat board"),
    (_json("    [0, 0, 0, 1],\n    [0, 2, 0]"), 5, "expected [row, col, lev, group]"),
    (_json('    [0, 0, 0, 1],\n    [0, 2, 0, "a"]'), 5, "expected an integer"),
    (_json("    [0, 0, 0, 1],\n    [0, 2, 0, 1],\n    [0, 4, 0, 2],\n    [0, 6, 0, 3]"), 6, "odd number"),
    (_json("    [0, 0, 0, 1],\n    [0, 1, 0, 1]"), 5, "overlap"),
    (_json("    [0, 0, 0, 1],\n    [0, 2, 0, 1]", head='"format": "mjsat-board", "version": 9'), 2, "version"),
    (_json("    [0, 0, 0, 1],\n    [0, 2, 0, 1]", head='"format": "mjsat-board", "game": "go"'), None, "unknown game"),
]


@pytest.mark.parametrize("text,line,words", BAD_JSON)
def test_json_errors_name_the_line(tmp_path, text, line, words):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(InputFileError) as exc:
        load_board(path)
    assert exc.value.line == line and words in str(exc.value)


def test_solution_forms(tmp_path):
    b = board_from_text("0 0 0 1\n0 2 0 1\n0 4 0 2\n0 6 0 2\n")
    for name, text in [
        ("a.json", '{"status": "solvable", "moves": [[0, 1], [2, 3]]}'),
        ("b.json", "[[0, 1], [2, 3]]"),
        ("c.txt", "# two moves\n0 1\n2-3\n"),
    ]:
        (tmp_path / name).write_text(text)
        assert load_solution(tmp_path / name, b) == [(0, 1), (2, 3)]


@pytest.mark.parametrize(
    "text,line,words",
    [
        ("0 1\n2\n", 2, "two tile indices"),
        ("0 1\n2 x\n", 2, "not a tile index"),
        ("0 1\n2 9\n", 2, "unknown tile index 9"),
        ('{"moves": [[0, 1], [2]]}', 1, "pair of tile indices"),
        ('{"status": "solvable"}', 1, '"moves"'),
        ('{"moves": [[0, 1], [2, 3]', 1, "invalid JSON"),
    ],
)
def test_solution_errors(tmp_path, text, line, words):
    b = board_from_text("0 0 0 1\n0 2 0 1\n0 4 0 2\n0 6 0 2\n")
    path = tmp_path / "sol.txt"
    path.write_text(text)
    with pytest.raises(InputFileError) as exc:
        load_solution(path, b)
    assert exc.value.line == line and words in str(exc.value)


def test_missing_file():
    with pytest.raises(InputFileError, match="no such file"):
        load_board("/nonexistent/board.json")


def test_layout_name_and_meta_survive(tmp_path):
    b = random_small_board(np.random.default_rng(1))
    b.meta = {"seed": 5, "gadgets": [{"label": "x", "tiles": [0, 1]}]}
    b.layout.name = "tiny"
    again = board_from_json_text(board_to_json(b))
    assert again.meta == b.meta and again.layout.name == "tiny"
    assert isinstance(again.layout, Layout)


def test_a_saved_game_loads_as_the_board_of_its_position(tmp_path):
    from mjsat.boardio import load_record

    path, deal, order = saved_game(tmp_path)
    pos = load_board(path)
    played = deal.copy()
    for m in order[:3]:
        played.push(m)
    assert len(pos) == len(deal) - 6 and pos.game == "shisen-sho"
    back = pos.meta["record_tiles"]
    assert back == played.present_tiles()
    mapped = sorted(tuple(sorted((back[a], back[b]))) for a, b in pos.generate_legal_moves())
    assert mapped == sorted(played.generate_legal_moves())
    again, moves = load_record(path)
    assert again.groups == deal.groups and moves == [tuple(m) for m in order[:3]]


def test_a_saved_game_whose_moves_do_not_replay_is_refused(tmp_path):
    from mjsat.boardio import load_record

    path, _, order = saved_game(tmp_path, tamper=True)
    with pytest.raises(InputFileError, match=r"move 4 .* does not replay: tile \d+ already gone"):
        load_board(path)
    deal, moves = load_record(path, check=False)
    assert len(moves) == 4
    plain = tmp_path / "plain.json"
    plain.write_text(board_to_json(deal))
    with pytest.raises(InputFileError, match="not a saved game"):
        load_record(plain)


def test_a_format_that_is_not_text_is_an_input_error(tmp_path):
    from mjsat.boardio import load_record

    path = tmp_path / "odd.json"
    path.write_text('{"format": ["mjsat-game"], "tiles": []}\n')
    with pytest.raises(InputFileError, match="not a saved game"):
        load_record(path)
    with pytest.raises(InputFileError):
        load_board(path)
