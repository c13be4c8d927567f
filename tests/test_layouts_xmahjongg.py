"""Tests of mjsat.layouts.xmahjongg: the plain format, Kyodai 3.0 and the 24 xmahjongg files."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjsat.fileio import InputFileError
from mjsat.layouts.xmahjongg import KYODAI_SHAPE, parse_kyodai, parse_xmahjongg, read_xmahjongg

SOURCES = Path(__file__).resolve().parents[1].parent / "shared" / "layout-sources"
XM = SOURCES / "xmahjongg"


def _readme_table() -> dict[str, tuple[int, list[int]]]:
    """file -> (tiles, tiles per level) from the table in the xmahjongg README."""
    out: dict[str, tuple[int, list[int]]] = {}
    readme = XM / "README.md"
    if not readme.is_file():
        return out
    for line in readme.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[2].isdigit():
            out[cells[0].split()[0]] = (int(cells[2]), [int(v) for v in cells[3].split("/")])
    return out


TABLE = _readme_table()
FILES = sorted(TABLE) or [pytest.param(None, marks=pytest.mark.skip(reason=f"{XM} not found"))]


def _write(tmp_path: Path, text: str, name: str = "lay") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _error(path: Path) -> InputFileError:
    with pytest.raises(InputFileError) as info:
        read_xmahjongg(path)
    err = info.value
    assert err.path == str(path)
    assert str(err).startswith(f"{path}:{err.line}: ")
    return err


# --------------------------------------------------------------------------- plain format


def test_plain_comments_blank_lines_crlf_and_name(tmp_path: Path) -> None:
    text = "# header\r\n\r\n  0 0 0\r\n0 2 0   # inline comment\r\n\t1\t1\t1\r\n7 13 1\r\n"
    layout = read_xmahjongg(_write(tmp_path, text, "mine"))
    assert layout.positions == ((0, 0, 0), (0, 2, 0), (1, 1, 1), (7, 13, 1))
    assert layout.name == "mine"
    assert not layout.block_any_higher
    assert read_xmahjongg(_write(tmp_path, text), name="other").name == "other"


def test_plain_wrong_number_of_fields(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, "0 0 0\n0 2\n"))
    assert err.line == 2 and "3 integers" in err.message
    assert _error(_write(tmp_path, "0 0 0\n0 2 0 1\n")).line == 2


def test_plain_non_integer(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, "# c\n0 0 0\n0 2.5 0\n"))
    assert err.line == 3 and "col" in err.message and "'2.5'" in err.message
    assert _error(_write(tmp_path, "x 0 0\n0 2 0\n")).line == 1


def test_plain_out_of_range(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, "0 0 0\n0 -2 0\n"))
    assert err.line == 2 and "0..32766" in err.message
    assert _error(_write(tmp_path, "0 0 0\n0 2 0\n0 4 200\n0 6 0\n")).line == 3
    assert _error(_write(tmp_path, "0 0 0\n40000 2 0\n")).line == 2


def test_plain_overlap_names_second_tile(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, "0 0 0\n0 4 0\n# gap\n1 1 0\n2 2 0\n"))
    assert err.line == 4
    assert "overlaps" in err.message and "(line 1)" in err.message
    # the same cells on different levels do not overlap
    assert len(read_xmahjongg(_write(tmp_path, "0 0 0\n0 0 1\n"))) == 2


def test_plain_odd_count(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, "0 0 0\n0 2 0\n\n0 4 0\n# end\n"))
    assert err.line == 4 and "odd" in err.message


@pytest.mark.parametrize("text", ["# nothing\n", "", "\ufeff", "\ufeff\n\n"])
def test_plain_empty_file_is_refused(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(InputFileError, match=rf"^{path}: no tiles"):
        read_xmahjongg(path)


def test_missing_file() -> None:
    with pytest.raises(InputFileError, match="no such file"):
        read_xmahjongg("/nonexistent/layout")


# --------------------------------------------------------------------------- Kyodai 3.0


def _kyodai(ones: list[tuple[int, int, int]], *, magic: str = "Kyodai 3.0", extra: int = 0) -> str:
    """A Kyodai text with 1s at (lev, row, col), 34 characters per line."""
    levels, rows, cols = KYODAI_SHAPE
    cells = ["0"] * (levels * rows * cols + extra)
    for lev, row, col in ones:
        cells[(lev * rows + row) * cols + col] = "1"
    body = "".join(cells)
    lines = [body[i : i + cols] for i in range(0, len(body), cols)]
    return "\r\n".join([magic, "Test Board", *lines]) + "\r\n"


def test_kyodai_decoding(tmp_path: Path) -> None:
    text = _kyodai([(0, 2, 2), (0, 2, 4), (1, 2, 3), (4, 19, 32)])
    layout = read_xmahjongg(_write(tmp_path, text))
    assert sorted(layout.positions) == [(2, 2, 0), (2, 3, 1), (2, 4, 0), (19, 32, 4)]
    assert layout.name == "Test Board"
    assert parse_kyodai(text, name="x").name == "x"


def test_kyodai_whitespace_is_ignored() -> None:
    text = _kyodai([(0, 0, 0), (0, 0, 2)])
    squeezed = "\n".join(text.splitlines()[:2]) + "\n" + "".join(text.splitlines()[2:]).replace("0", "0 ")
    assert parse_xmahjongg(squeezed).positions == ((0, 0, 0), (0, 2, 0))


def test_kyodai_wrong_magic(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, _kyodai([(0, 0, 0), (0, 0, 2)], magic="Kyodai 2.0")))
    assert err.line == 1 and "Kyodai 3.0" in err.message


def test_kyodai_bad_character(tmp_path: Path) -> None:
    lines = _kyodai([(0, 0, 0), (0, 0, 2)]).splitlines()
    lines[5] = "2" + lines[5][1:]
    err = _error(_write(tmp_path, "\n".join(lines)))
    assert err.line == 6 and "'2'" in err.message


def test_kyodai_wrong_length(tmp_path: Path) -> None:
    short = "\n".join(_kyodai([(0, 0, 0), (0, 0, 2)]).splitlines()[:-1])
    err = _error(_write(tmp_path, short))
    assert err.line == 101 and "3400" in err.message and "3366" in err.message
    err = _error(_write(tmp_path, _kyodai([(0, 0, 0), (0, 0, 2)], extra=1)))
    assert err.line == 103 and "more than" in err.message


def test_kyodai_overlap_and_odd(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, _kyodai([(0, 0, 0), (0, 0, 1)])))
    assert err.line == 3 and "overlaps" in err.message
    err = _error(_write(tmp_path, _kyodai([(0, 0, 0), (0, 0, 2), (2, 5, 0)])))
    assert err.line == 3 + (2 * 20 + 5) and "odd" in err.message


# --------------------------------------------------------------------------- the 24 files


def test_readme_lists_24_files() -> None:
    if not XM.is_dir():
        pytest.skip(f"{XM} not found")
    assert len(TABLE) == 24
    assert sorted(p.name for p in XM.iterdir() if p.suffix != ".md") == sorted(TABLE)


@pytest.mark.parametrize("name", FILES)
def test_every_file_loads_with_readme_counts(name: str) -> None:
    tiles, per_level = TABLE[name]
    layout = read_xmahjongg(XM / name)
    assert len(layout) == tiles == 144
    assert layout.level_counts() == per_level
    # every tile of a level above 0 rests on something
    assert all(layout.below[t] for t, p in enumerate(layout.positions) if p[2] > 0)


def test_kyodai_dragon_file() -> None:
    if not XM.is_dir():
        pytest.skip(f"{XM} not found")
    layout = read_xmahjongg(XM / "dragon")
    assert layout.name == "Old Dragon"
    assert min(r for r, _, _ in layout.positions) == 2 and min(c for _, c, _ in layout.positions) == 2
