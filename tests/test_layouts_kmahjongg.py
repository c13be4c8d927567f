"""Tests of mjsat.layouts.kmahjongg: v1.0 and v1.1 files, errors, and KMahjongg's 72 layouts."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from mjsat.fileio import InputFileError
from mjsat.layouts.kmahjongg import parse_kmahjongg, read_kmahjongg

SOURCES = Path(__file__).resolve().parents[1].parent / "shared" / "layout-sources"
KM = SOURCES / "kmahjongg"


def _index() -> dict[str, dict[str, str]]:
    path = KM / "index.tsv"
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8", newline="") as f:
        return {row["file"]: row for row in csv.DictReader(f, delimiter="\t")}


INDEX = _index()
FILES = sorted(INDEX) or [pytest.param(None, marks=pytest.mark.skip(reason=f"{KM} not found"))]


def _grid(width: int, height: int, depth: int, tiles: list[tuple[int, int, int]]) -> list[str]:
    """Data lines (one per row) with a drawn tile (1 2 / 4 3) at each (y, x, z)."""
    cells = [[["."] * width for _ in range(height)] for _ in range(depth)]
    for y, x, z in tiles:
        for dy, dx, ch in ((0, 0, "1"), (0, 1, "2"), (1, 1, "3"), (1, 0, "4")):
            if cells[z][y + dy][x + dx] == ".":
                cells[z][y + dy][x + dx] = ch
    return ["".join(row) for level in cells for row in level]


def _v11(width: int, height: int, depth: int, tiles: list[tuple[int, int, int]]) -> str:
    lines = ["kmahjongg-layout-v1.1", "# size", f"w{width}", f"h{height}", "# depth", f"d{depth}"]
    lines += _grid(width, height, depth, tiles)
    return "\n".join(lines) + "\n"


def _write(tmp_path: Path, text: str, name: str = "bad.layout") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _error(path: Path) -> InputFileError:
    with pytest.raises(InputFileError) as info:
        read_kmahjongg(path)
    err = info.value
    assert err.path == str(path)
    assert str(err).startswith(f"{path}:{err.line}: " if err.line else f"{path}: ")
    return err


# --------------------------------------------------------------------------- formats


def test_v10_fixed_size_and_comments(tmp_path: Path) -> None:
    tiles = [(0, 0, 0), (0, 2, 0), (3, 5, 1), (14, 30, 4)]
    data = _grid(32, 16, 5, tiles)
    lines = ["kmahjongg-layout-v1.0", "# level 0", *data[:16], "# level 1", *data[16:]]
    layout = read_kmahjongg(_write(tmp_path, "\r\n".join(lines) + "\r\n", "four.layout"))
    assert layout.positions == ((0, 0, 0), (0, 2, 0), (3, 5, 1), (14, 30, 4))
    assert layout.name == "four"


def test_v11_header_sets_size() -> None:
    layout = parse_kmahjongg(_v11(6, 4, 2, [(0, 0, 0), (2, 4, 0), (1, 2, 1), (0, 4, 0)]), name="t")
    assert layout.positions == ((0, 0, 0), (0, 4, 0), (2, 4, 0), (1, 2, 1))
    assert layout.name == "t"


def test_only_ones_place_tiles() -> None:
    text = "kmahjongg-layout-v1.1\nw4\nh2\nd1\n1x23\n4.1?\n"
    # '1' at (0,0) and (1,2): the other characters are empty cells
    assert parse_kmahjongg(text).positions == ((0, 0, 0), (1, 2, 0))


def test_data_may_be_split_anywhere() -> None:
    rows = _grid(4, 2, 1, [(0, 0, 0), (0, 2, 0)])
    text = "kmahjongg-layout-v1.1\nw4\nh2\nd1\n" + "\n".join("".join(rows)[i : i + 3] for i in range(0, 8, 3))
    assert parse_kmahjongg(text).positions == ((0, 0, 0), (0, 2, 0))


# --------------------------------------------------------------------------- errors


def test_wrong_magic(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, _v11(4, 2, 1, [(0, 0, 0), (0, 2, 0)]).replace("v1.1", "v2.0")))
    assert err.line == 1 and "kmahjongg-layout-v1.0" in err.message
    assert _error(_write(tmp_path, "")).line == 1


def test_missing_or_bad_header(tmp_path: Path) -> None:
    text = "kmahjongg-layout-v1.1\nw4\nd1\n12121212\n43434343\n"
    err = _error(_write(tmp_path, text))
    assert err.line is None and "missing header" in err.message and "h" in err.message
    assert _error(_write(tmp_path, "kmahjongg-layout-v1.1\nw4\nw4\nh2\nd1\n")).line == 3
    assert _error(_write(tmp_path, "kmahjongg-layout-v1.1\nw0\nh2\nd1\n")).line == 2


def test_wrong_length(tmp_path: Path) -> None:
    text = _v11(4, 2, 1, [(0, 0, 0), (0, 2, 0)])
    err = _error(_write(tmp_path, text.rstrip("\n") + ".\n"))
    assert err.line == 8 and "more than 4x2x1 = 8 cells" in err.message
    err = _error(_write(tmp_path, text.rstrip("\n")[:-1] + "\n"))
    assert err.line == 8 and "got 7" in err.message
    v10 = "kmahjongg-layout-v1.0\n" + "\n".join(_grid(32, 16, 5, [(0, 0, 0), (0, 2, 0)])[:-1]) + "\n"
    err = _error(_write(tmp_path, v10))
    assert err.line == 80 and "2560" in err.message


def test_overlap_names_second_tile(tmp_path: Path) -> None:
    text = "kmahjongg-layout-v1.1\nw4\nh3\nd1\n1...\n.1..\n....\n"
    err = _error(_write(tmp_path, text))
    assert err.line == 6 and "overlaps" in err.message and "(line 5)" in err.message


def test_odd_count(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, _v11(6, 4, 1, [(0, 0, 0), (0, 2, 0), (2, 2, 0)])))
    assert err.line == 9 and "odd" in err.message


# --------------------------------------------------------------------------- the 72 files


def test_index_lists_72_layouts() -> None:
    if not KM.is_dir():
        pytest.skip(f"{KM} not found")
    assert len(INDEX) == 72
    assert sorted(p.name for p in KM.glob("*.layout")) == sorted(INDEX)
    assert sum(int(row["tiles"]) == 144 for row in INDEX.values()) == 41


@pytest.mark.parametrize("name", FILES)
def test_every_file_loads_with_index_counts(name: str) -> None:
    row = INDEX[name]
    layout = read_kmahjongg(KM / name)
    assert len(layout) == int(row["tiles"])
    assert layout.level_counts() == [int(v) for v in row["tiles_per_level"].split("/")]
    assert layout.name == Path(name).stem
    bounds = layout.bounds()
    assert bounds[2] < int(row["height"]) and bounds[3] < int(row["width"])
