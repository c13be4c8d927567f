"""Tests of mjsat.layouts.discover: finding the games' layouts, skipping bad files."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from mjsat.layouts.discover import SYSTEM_DIRS, LayoutInfo, discover_layouts, load_info

SOURCES = Path(__file__).resolve().parents[1].parent / "shared" / "layout-sources"


@pytest.fixture(scope="module")
def sources() -> Path:
    if not SOURCES.is_dir():
        pytest.skip(f"layout sources not found at {SOURCES}")
    return SOURCES


@pytest.fixture(scope="module")
def found(sources: Path) -> list[LayoutInfo]:
    return discover_layouts([sources / "xmahjongg", sources / "kmahjongg", sources / "gnome-mahjongg"])


def test_finds_every_layout_of_the_shared_folder(found: list[LayoutInfo]) -> None:
    assert Counter(i.source for i in found) == {"xmahjongg": 24, "kmahjongg": 72, "gnome": 10}
    names = [i.name for i in found]
    assert len(set(names)) == len(names)
    assert {"xmahjongg:default", "xmahjongg:dragon", "kmahjongg:default", "kmahjongg:up&down", "gnome:easy"} <= set(
        names
    )
    assert all(i.tiles == 144 for i in found if i.source != "kmahjongg")
    by_name = {i.name: i for i in found}
    assert by_name["kmahjongg:tower"].tiles == 228 and by_name["kmahjongg:clubs"].tiles == 74
    gnome = by_name["gnome:easy"]
    assert gnome.map_name == "Turtle" and gnome.path is not None and gnome.path.endswith("mahjongg.map")
    assert all(i.map_name is None for i in found if i.source != "gnome")


def test_root_folder_is_searched_one_level_down(sources: Path, found: list[LayoutInfo]) -> None:
    def key(i: LayoutInfo) -> str:
        return i.name

    assert sorted(discover_layouts([sources]), key=key) == sorted(found, key=key)


def test_single_file_and_load_info(sources: Path, found: list[LayoutInfo]) -> None:
    only = discover_layouts([sources / "gnome-mahjongg" / "mahjongg.map"])
    assert [i.name for i in only] == [i.name for i in found if i.source == "gnome"]
    for info in (only[0], *(i for i in found if i.name in ("xmahjongg:dragon", "kmahjongg:cat"))):
        layout = load_info(info)
        assert layout.name == info.name and len(layout) == info.tiles
    assert load_info(only[0]).block_any_higher


def test_extra_dirs_come_first(sources: Path, tmp_path: Path) -> None:
    (tmp_path / "default").write_text("0 0 0\n0 2 0\n", encoding="utf-8")
    infos = discover_layouts([sources / "xmahjongg"], extra_dirs=[tmp_path])
    first = [i for i in infos if i.name == "xmahjongg:default"]
    assert len(first) == 1 and first[0].tiles == 2 and first[0].path == str(tmp_path / "default")
    assert len(infos) == 24


def test_bad_files_are_skipped(tmp_path: Path) -> None:
    good = tmp_path / "good"
    good.write_text("0 0 0\n0 2 0\n", encoding="utf-8")
    (tmp_path / "junk").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "odd").write_text("0 0 0\n", encoding="utf-8")
    (tmp_path / "empty").write_text("# nothing\n", encoding="utf-8")
    (tmp_path / "bad.layout").write_text("kmahjongg-layout-v1.0\n1212\n", encoding="utf-8")
    (tmp_path / "bad.map").write_text("<mahjongg><map name='x'>", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("0 0 0\n0 2 0\n", encoding="utf-8")
    (tmp_path / ".hidden").write_text("0 0 0\n0 2 0\n", encoding="utf-8")
    (tmp_path / "dangling").symlink_to(tmp_path / "missing")
    locked = tmp_path / "locked"
    locked.write_text("0 0 0\n0 2 0\n", encoding="utf-8")
    locked.chmod(0)
    readable = os.access(locked, os.R_OK)  # root reads anything
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "deep.layout").write_text("kmahjongg-layout-v1.1\nw4\nh2\nd1\n1212\n4343\n", encoding="utf-8")
    (sub / "deeper").mkdir()
    (sub / "deeper" / "hidden-too").write_text("0 0 0\n0 2 0\n", encoding="utf-8")
    try:
        infos = discover_layouts([tmp_path, tmp_path / "nonexistent"])
    finally:
        locked.chmod(0o600)
    names = {i.name for i in infos}
    assert names == {"xmahjongg:good", "kmahjongg:deep"} | ({"xmahjongg:locked"} if readable else set())


def test_read_failures_are_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root, chmod cannot make a file unreadable: make the read fail instead."""
    import mjsat.layouts.discover as discover
    from mjsat.fileio import InputFileError, read_text

    for name in ("a", "b"):
        (tmp_path / name).write_text("0 0 0\n0 2 0\n", encoding="utf-8")

    def failing(path: Path) -> str:
        if Path(path).name == "a":
            raise InputFileError(path, None, "Permission denied")
        return read_text(path)

    monkeypatch.setattr(discover, "read_text", failing)
    assert [i.name for i in discover.discover_layouts([tmp_path])] == ["xmahjongg:b"]


def test_system_dirs_never_crash() -> None:
    assert all(isinstance(d, str) and d.startswith("/usr/share/") for d in SYSTEM_DIRS)
    infos = discover_layouts()
    assert all(i.source in ("xmahjongg", "kmahjongg", "gnome") for i in infos)
    assert discover_layouts([]) == []
