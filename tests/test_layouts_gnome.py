"""Tests of mjsat.layouts.gnome: elements, map choice, errors, and GNOME's ten maps."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjsat.board import Layout
from mjsat.fileio import InputFileError
from mjsat.layouts.gnome import parse_gnome, parse_gnome_maps, read_gnome, read_gnome_maps

SOURCES = Path(__file__).resolve().parents[1].parent / "shared" / "layout-sources"
MAP = SOURCES / "gnome-mahjongg" / "mahjongg.map"

TWO_MAPS = """<?xml version="1.0"?>
<!-- two small maps -->
<mahjongg>
  <map name="First Map" scorename="first">
    <layer z="0">
      <row y="0" left="0" right="3"/>
      <column x="0" top="1" bottom="2"/>
      <tile x="1.5" y="1.5"/>
      <tile x="3" y="2" z="2"/>
    </layer>
    <BLOCK Z="1" Left="0.5" right="3.5" top="0.5" bottom="0.5"/>
  </map>
  <map name="Second" scorename="second">
    <tile x="0" y="0"/>
    <tile x="1" y="0"/>
  </map>
</mahjongg>
"""


def _readme_table() -> dict[str, tuple[str, int, list[int]]]:
    """scorename -> (name, tiles, tiles per level) from the GNOME README table."""
    out: dict[str, tuple[str, int, list[int]]] = {}
    readme = MAP.parent / "README.md"
    if not readme.is_file():
        return out
    for line in readme.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[2].isdigit():
            out[cells[1]] = (cells[0], int(cells[2]), [int(v) for v in cells[3].split("/")])
    return out


TABLE = _readme_table()
MAPS = sorted(TABLE) or [pytest.param(None, marks=pytest.mark.skip(reason=f"{MAP} not found"))]


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "test.map"
    p.write_text(text, encoding="utf-8")
    return p


def _error(path: Path, map_name: str | None = None) -> InputFileError:
    with pytest.raises(InputFileError) as info:
        read_gnome(path, map_name)
    err = info.value
    assert err.path == str(path)
    assert str(err).startswith(f"{path}:{err.line}: " if err.line else f"{path}: ")
    return err


def _one_map(body: str) -> str:
    return f'<mahjongg>\n<map name="M" scorename="m">\n{body}\n</map>\n</mahjongg>\n'


# --------------------------------------------------------------------------- elements


def test_elements_layers_and_half_units() -> None:
    first = parse_gnome(TWO_MAPS, map_name="first")
    assert first.name == "First Map" and first.block_any_higher
    assert first.positions == (
        (0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0),  # row y=0, x=0..3
        (2, 0, 0), (4, 0, 0),  # column x=0, y=1..2
        (3, 3, 0),  # tile at (1.5, 1.5)
        (4, 6, 2),  # z overrides the layer
        (1, 1, 1), (1, 3, 1), (1, 5, 1), (1, 7, 1),  # block (upper-case names), outside the layer: z=1
    )  # fmt: skip


def test_all_maps_in_order() -> None:
    maps = parse_gnome_maps(TWO_MAPS)
    assert [(m.name, m.scorename, len(m.layout), m.line) for m in maps] == [
        ("First Map", "first", 12, 4),
        ("Second", "second", 2, 13),
    ]


def test_choose_by_name_scorename_and_case(tmp_path: Path) -> None:
    path = _write(tmp_path, TWO_MAPS)
    by_name = read_gnome(path, "Second")
    assert by_name == read_gnome(path, "second") == read_gnome(path, "SECOND")
    assert by_name.positions == ((0, 0, 0), (0, 2, 0))
    assert read_gnome(path, "first map").name == "First Map"
    assert [m.name for m in read_gnome_maps(path)] == ["First Map", "Second"]


def test_several_maps_need_a_name(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, TWO_MAPS))
    assert "2 maps" in err.message and "'First Map' (first)" in err.message and "'Second' (second)" in err.message
    err = _error(_write(tmp_path, TWO_MAPS), "third")
    assert "no map called 'third'" in err.message and "First Map" in err.message


def test_single_map_needs_no_name() -> None:
    assert len(parse_gnome(_one_map('<row y="0" left="0" right="1"/>'))) == 2


def test_no_map(tmp_path: Path) -> None:
    assert "no <map>" in _error(_write(tmp_path, "<mahjongg/>")).message


# --------------------------------------------------------------------------- errors


def test_malformed_xml(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, _one_map('<tile x="0" y="0">\n<tile x="1" y="0"/>')))
    assert err.line == 5 and "malformed XML" in err.message


def test_missing_attribute(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, _one_map('<tile x="0" y="0"/>\n<row y="1" left="0"/>')))
    assert err.line == 4 and "'right'" in err.message


def test_non_number(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, _one_map('<tile x="0" y="0"/>\n<tile x="one" y="0"/>')))
    assert err.line == 4 and "'one'" in err.message
    err = _error(_write(tmp_path, _one_map('<tile x="0" y="0"/>\n<tile x="1.25" y="0"/>')))
    assert err.line == 4 and "multiple of 0.5" in err.message
    err = _error(_write(tmp_path, _one_map('<tile x="0" y="0"/>\n<tile x="1" y="0" z="1.5"/>')))
    assert err.line == 4 and "integer" in err.message


def test_out_of_range(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, _one_map('<tile x="0" y="0"/>\n<tile x="-1" y="0"/>')))
    assert err.line == 4 and "0..32766" in err.message


def test_unknown_element_and_empty_range(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, _one_map('<tile x="0" y="0"/>\n<tiles x="1" y="0"/>')))
    assert err.line == 4 and "unknown element <tiles>" in err.message
    err = _error(_write(tmp_path, _one_map('<row y="0" left="3" right="1"/>')))
    assert err.line == 3 and "empty range" in err.message


def test_overlap_names_second_element(tmp_path: Path) -> None:
    body = '<row y="0" left="0" right="3"/>\n<tile x="5" y="0"/>\n<tile x="2.5" y="0.5"/>'
    err = _error(_write(tmp_path, _one_map(body)))
    assert err.line == 5 and "overlaps" in err.message and "(line 3)" in err.message


def test_odd_count(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, _one_map('<row y="0" left="0" right="1"/>\n<tile x="0" y="2"/>')))
    assert err.line == 4 and "odd number of tiles (3)" in err.message


# --------------------------------------------------------------------------- GNOME's file


def test_file_has_ten_maps() -> None:
    if not MAP.is_file():
        pytest.skip(f"{MAP} not found")
    maps = read_gnome_maps(MAP)
    assert len(maps) == 10 == len(TABLE)
    assert {m.scorename for m in maps} == set(TABLE)
    err = _error(MAP)
    assert "10 maps" in err.message and "'Turtle' (easy)" in err.message and "(difficult)" in err.message


@pytest.mark.parametrize("scorename", MAPS)
def test_every_map_loads_with_readme_counts(scorename: str) -> None:
    name, tiles, per_level = TABLE[scorename]
    by_scorename = read_gnome(MAP, scorename)
    by_name = read_gnome(MAP, name)
    assert by_name == by_scorename
    assert by_name.name == name and by_name.block_any_higher
    assert len(by_name) == tiles == 144
    assert by_name.level_counts() == per_level


def test_taipei_is_xmahjongg_schoon() -> None:
    schoon = SOURCES / "xmahjongg" / "schoon"
    if not (MAP.is_file() and schoon.is_file()):
        pytest.skip("layout sources not found")
    from mjsat.layouts.xmahjongg import read_xmahjongg

    assert read_gnome(MAP, "Taipei").same_shape(read_xmahjongg(schoon))
    assert not read_gnome(MAP, "Turtle").same_shape(read_xmahjongg(schoon))


def _blockers(layout: Layout) -> list[frozenset[int]]:
    """For each tile every tile that must go before it from above (transitively)."""
    order = sorted(range(len(layout)), key=lambda t: -layout.positions[t][2])
    out: dict[int, frozenset[int]] = {}
    for t in order:
        acc: set[int] = set(layout.above[t])
        for o in layout.above[t]:
            acc |= out[o]
        out[t] = frozenset(acc)
    return [out[t] for t in range(len(layout))]


def test_any_higher_rule_matters_on_overpass_only() -> None:
    if not MAP.is_file():
        pytest.skip(f"{MAP} not found")
    for m in read_gnome_maps(MAP):
        gnome = _blockers(m.layout)
        plain = _blockers(Layout(m.layout.positions))
        differ = sum(a != b for a, b in zip(gnome, plain))
        assert differ == (16 if m.scorename == "overpass" else 0), m.name
