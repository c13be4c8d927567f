"""Tests of mjsat.layouts.json_format: round trips (property test) and errors with lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mjsat.board import Layout
from mjsat.fileio import InputFileError
from mjsat.layouts.json_format import (
    layout_to_json,
    parse_layout_json,
    read_layout_json,
    write_layout_json,
)


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    """Random valid layouts: positions drawn at random, overlapping ones dropped, count made even."""
    raw = draw(
        st.lists(
            st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(0, 4)),
            max_size=40,
        )
    )
    cells: set[tuple[int, int, int]] = set()
    kept: list[tuple[int, int, int]] = []
    for r, c, l in raw:
        mine = {(l, r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)}
        if not mine & cells:
            cells |= mine
            kept.append((r, c, l))
    if len(kept) % 2:
        kept.pop()
    if not kept:  # a layout needs at least one pair (an empty one is refused on reading)
        kept = [(0, 0, 0), (0, 2, 0)]
    name = draw(st.text(max_size=12))
    return Layout(kept, name=name, block_any_higher=draw(st.booleans()))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=layouts())
def test_round_trip(layout: Layout, tmp_path: Path) -> None:
    path = tmp_path / "layout.json"
    write_layout_json(layout, path)
    back = read_layout_json(path)
    assert back == layout  # positions in order and the covering rule
    assert back.name == layout.name
    assert back.above == layout.above and back.left == layout.left
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "mjsat-layout" and data["version"] == 1
    assert data["tiles"] == [list(p) for p in layout.positions]


def test_written_text_has_one_tile_per_line() -> None:
    text = layout_to_json(Layout([(0, 0, 0), (0, 2, 0)], name="pair"))
    assert text.splitlines()[6:8] == ["    [0, 0, 0],", "    [0, 2, 0]"]
    assert text.endswith("]\n}\n")
    with pytest.raises(InputFileError, match="no tiles"):  # written, but refused on reading
        parse_layout_json(layout_to_json(Layout([])))


def test_optional_keys_and_compact_json() -> None:
    layout = parse_layout_json('{"format":"mjsat-layout","version":1,"tiles":[[0,0,0],[0,2,0]],"x":1}')
    assert layout.positions == ((0, 0, 0), (0, 2, 0))
    assert layout.name == "" and not layout.block_any_higher


# --------------------------------------------------------------------------- errors


def _text(tiles: list[object], **head: object) -> str:
    doc: dict[str, object] = {"format": "mjsat-layout", "version": 1, "name": "t", "block_any_higher": False}
    doc.update(head)
    lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in doc.items()]
    lines += ['  "tiles": ['] + [f"    {json.dumps(t)}," for t in tiles[:-1]] + [f"    {json.dumps(tiles[-1])}"]
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def _error(tmp_path: Path, text: str) -> InputFileError:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError) as info:
        read_layout_json(path)
    err = info.value
    assert err.path == str(path)
    assert str(err).startswith(f"{path}:{err.line}: ")
    return err


TWO = [[0, 0, 0], [0, 2, 0]]


def test_wrong_magic(tmp_path: Path) -> None:
    err = _error(tmp_path, _text(TWO, format="kmahjongg"))
    assert err.line == 2 and "mjsat-layout" in err.message
    err = _error(tmp_path, '{"tiles": []}')
    assert err.line == 1 and "format" in err.message


def test_wrong_version(tmp_path: Path) -> None:
    err = _error(tmp_path, _text(TWO, version=2))
    assert err.line == 3 and "version 2" in err.message
    assert _error(tmp_path, _text(TWO, version=True)).line == 3


def test_bad_header_values(tmp_path: Path) -> None:
    assert _error(tmp_path, _text(TWO, name=3)).line == 4
    assert _error(tmp_path, _text(TWO, block_any_higher="no")).line == 5
    assert _error(tmp_path, '{"format": "mjsat-layout", "version": 1,\n"tiles": {}}').line == 2


def test_not_json(tmp_path: Path) -> None:
    err = _error(tmp_path, '{"format": "mjsat-layout",\n "version": 1,\n "tiles": [0 0]}')
    assert err.line == 3 and "invalid JSON" in err.message
    assert _error(tmp_path, "[1, 2]").line == 1


def test_tile_of_wrong_length(tmp_path: Path) -> None:
    err = _error(tmp_path, _text([[0, 0, 0], [0, 2]]))
    assert err.line == 8 and "tile 1" in err.message and "2 values" in err.message
    assert _error(tmp_path, _text([[0, 0, 0], 5])).line == 8


def test_tile_not_integers(tmp_path: Path) -> None:
    err = _error(tmp_path, _text([[0, 0, 0], [0, 2, 0], [0, 4.0, 0], [0, 6, 0]]))
    assert err.line == 9 and "tile 2" in err.message
    assert _error(tmp_path, _text([[0, 0, 0], [0, True, 0]])).line == 8


def test_out_of_range(tmp_path: Path) -> None:
    err = _error(tmp_path, _text([[0, 0, 0], [0, 2, -1]]))
    assert err.line == 8 and "level" in err.message


def test_overlap_names_second_tile(tmp_path: Path) -> None:
    err = _error(tmp_path, _text([[0, 0, 0], [0, 4, 0], [1, 1, 0], [5, 5, 0]]))
    assert err.line == 9 and "overlaps" in err.message and "(line 7)" in err.message


def test_odd_count(tmp_path: Path) -> None:
    err = _error(tmp_path, _text([[0, 0, 0], [0, 2, 0], [0, 4, 0]]))
    assert err.line == 9 and "odd" in err.message


def test_name_containing_tiles_key_does_not_confuse_lines(tmp_path: Path) -> None:
    err = _error(tmp_path, _text([[0, 0, 0], [0, 0, 0]], name='"tiles": [[1, 1, 1]]'))
    assert err.line == 8 and "overlaps" in err.message
