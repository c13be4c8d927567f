"""Pictures: every tile drawn once with its label, gadgets and supertiles outlined round
their tiles, the side view piling each column with its top at the top."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjsat.board import Layout, MahjongBoard
from mjsat.boardio import write_board
from mjsat.cli import cli
from mjsat.deals import deal_random
from mjsat.encoders.dimacs import read_dimacs
from mjsat.layouts import load_layout
from mjsat.reductions.cnf import normalize_3cnf
from mjsat.reductions.targets import TARGETS, reduce_formula
from mjsat.reductions.witness import witness
from mjsat.render import (
    NotInColumnsError,
    UnknownViewError,
    choose_view,
    supertile_blocks,
    svg_board,
    svg_side_view,
    svg_top_view,
)

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]
FORMULAS = {
    "three-vars": normalize_3cnf(read_dimacs(ROOT / "instances" / "three-vars.cnf")),
    "two-clauses": normalize_3cnf([[1, -2], [-1, 2, 3, 1]]),
}


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def _tiles(root: ET.Element) -> dict[int, ET.Element]:
    """data-tile -> element; fails when a tile is drawn twice."""
    out: dict[int, ET.Element] = {}
    for g in root.iter(f"{NS}g"):
        if "tile" in _classes(g):
            t = int(g.get("data-tile"))
            assert t not in out, f"tile {t} drawn twice"
            out[t] = g
    return out


def _face(g: ET.Element) -> tuple[float, float, float, float]:
    r = next(r for r in g.iter(f"{NS}rect") if "face" in _classes(r))
    x, y = float(r.get("x")), float(r.get("y"))
    return x, y, x + float(r.get("width")), y + float(r.get("height"))


def _box(r: ET.Element) -> tuple[float, float, float, float]:
    x, y = float(r.get("x")), float(r.get("y"))
    return x, y, x + float(r.get("width")), y + float(r.get("height"))


def _inside(a, b) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def _label(g: ET.Element) -> str:
    return next(t for t in g.iter(f"{NS}text") if "label" in _classes(t)).text


@pytest.mark.parametrize("formula", sorted(FORMULAS))
@pytest.mark.parametrize("target", TARGETS)
def test_every_tile_once_with_its_label_and_every_gadget_round_its_tiles(target, formula):
    board = reduce_formula(FORMULAS[formula], target).board
    root = _parse(svg_board(board))
    tiles = _tiles(root)
    assert sorted(tiles) == list(range(len(board)))
    for t, g in tiles.items():
        assert _label(g) == g.get("data-label") == board.group_label(board.groups[t])
        assert int(g.get("data-group")) == board.groups[t]
    gadgets = board.meta["gadgets"]
    drawn = {int(g.get("data-gadget")): g for g in root.iter(f"{NS}g") if "gadget" in _classes(g)}
    assert sorted(drawn) == list(range(len(gadgets)))
    for k, gadget in enumerate(gadgets):
        g = drawn[k]
        assert g.get("data-label") == gadget["label"]
        assert [t.text for t in g.iter(f"{NS}text")] == [gadget["label"]]
        outlines = [_box(r) for r in g.iter(f"{NS}rect")]
        for t in gadget["tiles"]:
            assert any(_inside(_face(tiles[t]), o) for o in outlines), (gadget["label"], t)
            assert str(k) in tiles[t].get("data-gadget").split()
        others = {t for j, o in enumerate(gadgets) if j != k for t in o["tiles"]}
        for t in others:  # no outline of this gadget takes in another gadget's tile
            assert not any(_inside(_face(tiles[t]), o) for o in outlines)
    assert ("side-view" in root.get("class")) == (target == "stacks")


@pytest.mark.parametrize("target", ["shisen-sho", "shisen-rows"])
def test_shisen_images_outline_each_supertile_and_mark_its_a(target):
    red = reduce_formula(FORMULAS["three-vars"], target)
    board = red.board
    root = _parse(svg_board(board))
    tiles = _tiles(root)
    marked = {t for t, g in tiles.items() if "supertile-a" in _classes(g)}
    assert marked == set(red.main.values())
    blocks = [r for r in root.iter(f"{NS}rect") if "supertile" in _classes(r)]
    assert len(blocks) == len(board) // 9
    for r in blocks:
        a = int(r.get("data-tile-a"))
        k = int(r.get("data-block"))
        members = [t for t, g in tiles.items() if g.get("data-block") == str(k)]
        assert a in members and len(members) == 9
        assert {board.groups[t] for t in members} - {board.groups[a]} == {board.groups[t] for t in members if t != a}
        for t in members:
            assert _inside(_face(tiles[t]), _box(r))
        assert sum(_inside(_face(tiles[t]), _box(r)) for t in tiles) == 9


def test_supertile_blocks_need_the_pattern_and_the_numbering():
    board = reduce_formula(FORMULAS["two-clauses"], "shisen-sho").board
    assert len(supertile_blocks(board)) == len(board) // 9
    board.meta["supertile"] = ["aB", "BC"]  # blocks of 4 do not stand that way
    assert supertile_blocks(board) == []
    del board.meta["supertile"]
    assert supertile_blocks(board) == []


def test_side_view_piles_each_stack_top_first_and_no_tiles_overlap():
    red = reduce_formula(FORMULAS["three-vars"], "stacks")
    board = red.board
    assert choose_view(board) == "side"
    tiles = _tiles(_parse(svg_side_view(board)))
    faces = {t: _face(g) for t, g in tiles.items()}
    for s in range(len(red.stack_groups)):
        top, mid, bottom = (faces[3 * s + k] for k in range(3))  # tile 3s+k is k from the top
        assert top[0] == mid[0] == bottom[0]
        assert top[3] <= mid[1] and mid[3] <= bottom[1]
    ordered = sorted(faces.values())
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b[0] >= a[2]:
                break
            assert a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_side_view_draws_what_is_left_and_the_move_numbers():
    red = reduce_formula(FORMULAS["three-vars"], "stacks")
    moves = witness(red, {1: True, 2: True, 3: True})
    board = red.board.copy()
    for m in moves[:10]:
        board.play(m)
    gone = {t for m in moves[:10] for t in m}
    tiles = _tiles(_parse(svg_board(board)))
    assert set(tiles) == set(range(len(board))) - gone
    full = _tiles(_parse(svg_board(red.board, solution=moves)))
    for k, (a, b) in enumerate(moves, 1):
        for t in (a, b):
            assert [x.text for x in full[t].iter(f"{NS}text") if "move" in _classes(x)] == [str(k)]


def test_top_view_is_kept_and_draws_every_tile_too():
    board = reduce_formula(FORMULAS["three-vars"], "stacks").board
    root = _parse(svg_board(board, view="top"))
    assert "top-view" in root.get("class")
    assert sorted(_tiles(root)) == list(range(len(board)))
    turtle = deal_random(load_layout("turtle"), seed=1)
    assert choose_view(turtle) == "top"
    assert sorted(_tiles(_parse(svg_top_view(turtle)))) == list(range(len(turtle)))


def test_views_that_do_not_apply_are_refused():
    turtle = deal_random(load_layout("turtle"), seed=1)
    with pytest.raises(NotInColumnsError, match="columns"):
        svg_board(turtle, view="side")
    with pytest.raises(UnknownViewError, match="auto, top, side"):
        svg_board(turtle, view="front")


def test_columns_that_touch_are_drawn_from_the_side():
    lay = load_layout("rect-4x2x3")
    board = MahjongBoard(lay, [k // 4 for k in range(len(lay))])
    assert not lay.is_isolated_stacks() and choose_view(board) == "side"
    tiles = _tiles(_parse(svg_board(board)))
    assert sorted(tiles) == list(range(len(lay)))
    for column in lay.stacks():  # bottom to top: y falls
        ys = [_face(tiles[t])[1] for t in column]
        assert ys == sorted(ys, reverse=True) and len(set(ys)) == len(ys)


def test_a_cut_picture_draws_only_its_tiles_under_prefixed_ids():
    board = reduce_formula(FORMULAS["three-vars"], "stacks").board
    gadget = board.meta["gadgets"][2]
    svg = svg_board(board, tiles=gadget["tiles"], id_prefix="g2-")
    root = _parse(svg)
    tiles = _tiles(root)
    assert sorted(tiles) == sorted(gadget["tiles"])
    assert all(g.get("id") == f"g2-tile-{t}" for t, g in tiles.items())
    assert [g.get("data-label") for g in root.iter(f"{NS}g") if "gadget" in _classes(g)] == [gadget["label"]]
    assert float(root.get("width")) < float(_parse(svg_board(board)).get("width"))


def test_cli_render_views(tmp_path):
    runner = CliRunner()
    board = reduce_formula(FORMULAS["two-clauses"], "stacks").board
    path = tmp_path / "b.json"
    write_board(board, path)
    for view, cls in (("auto", "side-view"), ("side", "side-view"), ("top", "top-view")):
        out = tmp_path / f"{view}.svg"
        r = runner.invoke(cli, ["render", str(path), "-o", str(out), "--view", view])
        assert r.exit_code == 0, r.output
        root = _parse(out.read_text())
        assert cls in root.get("class") and sorted(_tiles(root)) == list(range(len(board)))
    r = runner.invoke(
        cli, ["render", "--layout", "turtle", "--seed", "1", "-o", str(tmp_path / "t.svg"), "--view", "side"]
    )
    assert r.exit_code == 2 and "columns" in r.output and len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "t.svg").exists()
    assert "--view" in runner.invoke(cli, ["render", "--help"]).output


def test_a_board_without_reduction_meta_draws_plainly():
    board = MahjongBoard(
        Layout([(0, 0, 0), (0, 0, 1), (0, 4, 0), (0, 4, 1)]), [0, 1, 1, 0], names={0: "a-very-long-name"}
    )
    root = _parse(svg_board(board))
    tiles = _tiles(root)
    assert [_label(tiles[t]) for t in range(4)] == ["a-very-long-name", "1", "1", "a-very-long-name"]
    assert not [g for g in root.iter(f"{NS}g") if "gadget" in _classes(g)]
