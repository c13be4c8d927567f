"""Tests of the mjsat.layouts API: load_layout, list_layouts, format sniffing.

The docstring examples run in tests/test_doctests.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mjsat.board import Layout
from mjsat.fileio import InputFileError
from mjsat.layouts import (
    LayoutInfo,
    list_layouts,
    load_layout,
    parse_layout,
    sniff_format,
    turtle,
    write_layout_json,
)

SOURCES = Path(__file__).resolve().parents[1].parent / "shared" / "layout-sources"


@pytest.fixture(scope="module")
def sources() -> Path:
    if not SOURCES.is_dir():
        pytest.skip(f"layout sources not found at {SOURCES}")
    return SOURCES


# --------------------------------------------------------------------------- load_layout


def test_shipped_names() -> None:
    assert load_layout("turtle") == turtle()
    assert load_layout("turtle").name == "turtle"
    assert len(load_layout("rect-6x4")) == 24 and load_layout("rect-2x2x3").levels == 3
    assert load_layout("row-4").positions == ((0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0))
    with pytest.raises(ValueError, match="odd"):
        load_layout("rect-3x3")
    with pytest.raises(ValueError, match="map_name"):
        load_layout("turtle", map_name="easy")


def test_shipped_names_do_not_search_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    import mjsat.layouts as api

    def boom(*args: object, **kwargs: object) -> list[LayoutInfo]:
        raise AssertionError("discovery called")

    monkeypatch.setattr(api, "discover_layouts", boom)
    assert len(api.load_layout("pyramid")) == 20


def test_files_of_every_format(tmp_path: Path) -> None:
    two = Layout([(0, 0, 0), (0, 2, 0)], name="two")
    write_layout_json(two, tmp_path / "two.json")
    (tmp_path / "plain").write_text("0 0 0\n0 2 0\n", encoding="utf-8")
    (tmp_path / "k.layout").write_text("kmahjongg-layout-v1.1\nw4\nh2\nd1\n1212\n4343\n", encoding="utf-8")
    (tmp_path / "k-no-suffix").write_text("kmahjongg-layout-v1.1\nw4\nh2\nd1\n1212\n4343\n", encoding="utf-8")
    (tmp_path / "g.map").write_text(
        '<mahjongg><map name="G" scorename="g"><row y="0" left="0" right="1"/></map></mahjongg>', encoding="utf-8"
    )
    (tmp_path / "g.xml").write_text(
        '<mahjongg><map name="G" scorename="g"><row y="0" left="0" right="1"/></map></mahjongg>', encoding="utf-8"
    )
    (tmp_path / "j.txt").write_text((tmp_path / "two.json").read_text(encoding="utf-8"), encoding="utf-8")
    for name in ("two.json", "plain", "k.layout", "k-no-suffix", "g.map", "g.xml", "j.txt"):
        path = tmp_path / name
        for spec in (str(path), path):
            layout = load_layout(spec)
            assert layout.positions == two.positions, name
            assert layout.block_any_higher == name.startswith("g.")
    assert load_layout(tmp_path / "two.json").name == "two"
    assert load_layout(str(tmp_path / "g.map"), map_name="g").name == "G"
    with pytest.raises(ValueError, match="map_name"):
        load_layout(tmp_path / "plain", map_name="g")


def test_malformed_file_raises_input_file_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.layout"
    bad.write_text("kmahjongg-layout-v9\n", encoding="utf-8")
    with pytest.raises(InputFileError) as info:
        load_layout(str(bad))
    assert info.value.path == str(bad) and info.value.line == 1
    with pytest.raises(InputFileError, match="no such file"):
        load_layout(tmp_path / "missing.json")


def test_discovered_names(sources: Path) -> None:
    dirs = [sources]
    assert load_layout("xmahjongg:default", dirs=dirs).same_shape(turtle())
    assert load_layout("kmahjongg:default", dirs=dirs).name == "kmahjongg:default"
    easy = load_layout("gnome:easy", dirs=dirs)
    assert easy == load_layout("gnome:Turtle", dirs=dirs) == load_layout("Turtle", dirs=dirs)
    assert easy.block_any_higher and easy.name == "gnome:easy"
    assert len(load_layout("tower", dirs=dirs)) == 228  # bare name, only kmahjongg has it
    assert len(load_layout("up&down", dirs=dirs)) == 222
    assert load_layout("SCHOON", dirs=dirs).same_shape(load_layout("gnome:difficult", dirs=dirs))
    with pytest.raises(ValueError, match=r"ambiguous.*kmahjongg:dragon.*xmahjongg:dragon|ambiguous"):
        load_layout("dragon", dirs=dirs)
    # shipped names win over the games' layouts of the same name
    assert len(load_layout("pyramid", dirs=dirs)) == 20
    with pytest.raises(ValueError, match="map_name"):
        load_layout("xmahjongg:ox", dirs=dirs, map_name="x")


def test_unknown_name_lists_known_names(sources: Path) -> None:
    with pytest.raises(ValueError) as info:
        load_layout("turtel", dirs=[sources])
    message = str(info.value)
    assert "unknown layout 'turtel'" in message and "Did you mean turtle?" in message
    for name in ("turtle", "rect-WxH", "row-N", "xmahjongg:arena", "kmahjongg:4_winds", "gnome:easy"):
        assert name in message
    with pytest.raises(ValueError, match="Known names include: turtle"):
        load_layout("nothing/like/this.layout", dirs=[])
    assert not isinstance(info.value, InputFileError)


def test_a_games_layouts_not_installed_name_its_package(tmp_path: Path) -> None:
    for spec, package in (("gnome:easy", "gnome-mahjongg"), ("xmahjongg:bridge", "xmahjongg")):
        with pytest.raises(ValueError, match=rf"installed \(`apt-get install {package}`\)"):
            load_layout(spec, dirs=[tmp_path])
    with pytest.raises(ValueError) as info:
        load_layout("turtel", dirs=[tmp_path])
    assert "apt-get" not in str(info.value)


def test_a_games_unknown_map_names_no_package_when_it_is_installed(sources: Path) -> None:
    with pytest.raises(ValueError, match="unknown layout 'gnome:no-such-map'") as info:
        load_layout("gnome:no-such-map", dirs=[sources])
    assert "apt-get" not in str(info.value)


# --------------------------------------------------------------------------- list_layouts


def test_list_layouts_shipped_first(sources: Path) -> None:
    infos = list_layouts([sources])
    shipped = [i for i in infos if i.source == "shipped"]
    assert infos[: len(shipped)] == shipped
    assert [i.name for i in shipped][:4] == ["turtle", "pyramid", "tiny", "cross"]
    assert all(i.path is None and i.map_name is None for i in shipped)
    assert {i.source for i in infos} == {"shipped", "xmahjongg", "kmahjongg", "gnome"}
    assert len(infos) == len(shipped) + 24 + 72 + 10
    for info in infos:
        if info.source == "shipped" or info.name in ("gnome:overpass", "kmahjongg:cat", "xmahjongg:schoon"):
            assert len(load_layout(info.name, dirs=[sources])) == info.tiles


def test_list_layouts_extra_dirs(tmp_path: Path) -> None:
    (tmp_path / "mine").write_text("0 0 0\n0 2 0\n", encoding="utf-8")
    infos = list_layouts([], extra_dirs=[tmp_path])
    assert infos[-1] == LayoutInfo("xmahjongg:mine", "xmahjongg", 2, str(tmp_path / "mine"))
    assert load_layout("mine", dirs=[], extra_dirs=[tmp_path]).name == "xmahjongg:mine"


# --------------------------------------------------------------------------- sniffing


@pytest.mark.parametrize(
    ("text", "path", "fmt"),
    [
        ("0 0 0\n", "x", "xmahjongg"),
        ("# comment\n0 0 0\n", "x.txt", "xmahjongg"),
        ("Kyodai 3.0\nName\n", "dragon", "kyodai"),
        ("kmahjongg-layout-v1.0\n", "x", "kmahjongg"),
        ("0 0 0\n", "x.layout", "kmahjongg"),
        ("<mahjongg/>", "x", "gnome"),
        ("0 0 0", "x.MAP", "gnome"),
        ('  {"format": "mjsat-layout"}', "x", "json"),
        ("0 0 0", "x.json", "json"),
        ("\ufeffkmahjongg-layout-v1.1\n", "x", "kmahjongg"),
    ],
)
def test_sniff_format(text: str, path: str, fmt: str) -> None:
    assert sniff_format(text, path) == fmt


def test_parse_layout_forced_format() -> None:
    assert parse_layout("0 0 0\n0 2 0\n", fmt="xmahjongg").positions == ((0, 0, 0), (0, 2, 0))
    with pytest.raises(InputFileError):
        parse_layout("0 0 0\n0 2 0\n", fmt="json")
    with pytest.raises(ValueError, match="unknown layout format"):
        parse_layout("", fmt="yaml")
