"""Finding the layouts the Mahjongg games installed on this system.

Discovery looks at a list of directories (by default :data:`SYSTEM_DIRS`, where the
Debian packages put them) and at their immediate subdirectories:

* files without a suffix are xmahjongg layouts (plain or Kyodai), named
  ``xmahjongg:<file>``;
* ``*.layout`` files are KMahjongg layouts, named ``kmahjongg:<stem>``;
* ``*.map`` files are GNOME map files; each map is named ``gnome:<scorename>``.

A path in the list may also be a single file. Unreadable, oversized or malformed files
and empty layouts are skipped silently; the first of two layouts with the same name wins.
Nothing is cached: every call reads the files again (a hundred small files, a few
tens of milliseconds).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from pathlib import Path

from mjsat.board import Layout
from mjsat.fileio import InputFileError, read_text

from ._common import PathLike
from .gnome import parse_gnome_maps
from .kmahjongg import parse_kmahjongg
from .xmahjongg import parse_xmahjongg

__all__ = ["LayoutInfo", "PACKAGES", "SOURCES", "SYSTEM_DIRS", "MAX_FILE_BYTES", "discover_layouts", "load_info"]

SOURCES: tuple[str, ...] = ("shipped", "xmahjongg", "kmahjongg", "gnome")
"""The values of :attr:`LayoutInfo.source`."""

SYSTEM_DIRS: tuple[str, ...] = (
    "/usr/share/games/xmahjongg/layouts",
    "/usr/share/kmahjongg/layouts",
    "/usr/share/games/kmahjongg/layouts",
    "/usr/share/kde4/apps/kmahjongg/layouts",
    "/usr/share/gnome-mahjongg",
    "/usr/share/games/gnome-mahjongg",
)
"""Where the Debian packages xmahjongg, kmahjongg and gnome-mahjongg install layouts."""

PACKAGES: dict[str, str] = {"xmahjongg": "xmahjongg", "kmahjongg": "kmahjongg", "gnome": "gnome-mahjongg"}
"""The Debian package that installs each source's layouts into :data:`SYSTEM_DIRS`."""

MAX_FILE_BYTES = 1 << 20
"""Files larger than this are skipped by discovery."""
_MAX_FILES_PER_DIR = 2000


@dataclasses.dataclass(frozen=True)
class LayoutInfo:
    """A layout that :func:`mjsat.layouts.load_layout` can load by name.

    Attributes
    ----------
    name : str
        The name to pass to ``load_layout`` (``"turtle"``, ``"xmahjongg:default"``,
        ``"kmahjongg:default"``, ``"gnome:easy"``).
    source : str
        One of :data:`SOURCES`.
    tiles : int
        Number of tiles.
    path : str or None
        The file it comes from (``None`` for shipped layouts).
    map_name : str or None
        For GNOME maps, the map's ``name`` within the file.
    """

    name: str
    source: str
    tiles: int
    path: str | None = None
    map_name: str | None = None


def _files(dirs: Iterable[PathLike]) -> Iterator[Path]:
    """The candidate files of ``dirs`` and their immediate subdirectories, sorted."""
    for d in dirs:
        p = Path(d)
        try:
            if p.is_file():
                yield p
                continue
            if not p.is_dir():
                continue
            entries = sorted(p.iterdir())[:_MAX_FILES_PER_DIR]
        except OSError:
            continue
        subdirs: list[Path] = []
        for e in entries:
            try:
                if e.name.startswith("."):
                    continue
                if e.is_dir():
                    subdirs.append(e)
                elif e.is_file():
                    yield e
            except OSError:
                continue
        for sub in subdirs:
            try:
                sub_entries = sorted(sub.iterdir())[:_MAX_FILES_PER_DIR]
            except OSError:
                continue
            for e in sub_entries:
                try:
                    if not e.name.startswith(".") and e.is_file():
                        yield e
                except OSError:
                    continue


def _read_small(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        return read_text(path)
    except (OSError, InputFileError):
        return None


def _infos_of(path: Path) -> list[LayoutInfo]:
    """The layouts in one file (empty when it is none of ours or malformed)."""
    suffix = path.suffix.lower()
    if suffix not in ("", ".layout", ".map"):
        return []
    text = _read_small(path)
    if text is None:
        return []
    text = text.lstrip("\ufeff")
    try:
        if suffix == ".map":
            return [
                LayoutInfo(f"gnome:{m.scorename}", "gnome", len(m.layout), str(path), m.name)
                for m in parse_gnome_maps(text, path)
                if len(m.layout)
            ]
        if suffix == ".layout":
            layout = parse_kmahjongg(text, path)
            source = "kmahjongg"
        else:
            layout = parse_xmahjongg(text, path)
            source = "kmahjongg" if text.startswith("k") else "xmahjongg"
    except (InputFileError, RecursionError, MemoryError):
        return []
    if not len(layout):
        return []
    return [LayoutInfo(f"{source}:{path.stem}", source, len(layout), str(path))]


def discover_layouts(
    dirs: Iterable[PathLike] | None = None,
    *,
    extra_dirs: Iterable[PathLike] | None = None,
) -> list[LayoutInfo]:
    """The layouts installed in ``dirs`` (default :data:`SYSTEM_DIRS`).

    Parameters
    ----------
    dirs : iterable of str or path-like, optional
        Directories (searched with their immediate subdirectories) or single files;
        ``None`` means :data:`SYSTEM_DIRS`.
    extra_dirs : iterable of str or path-like, optional
        More places to search, before ``dirs`` (so their layouts win name clashes).

    Returns
    -------
    list of LayoutInfo
        In directory order, then file-name order; names are unique (first wins).
        Never raises for unreadable or malformed files: they are skipped.
    """
    seen: set[str] = set()
    out: list[LayoutInfo] = []
    where = [*(extra_dirs or ()), *(SYSTEM_DIRS if dirs is None else dirs)]
    for f in _files(where):
        for info in _infos_of(f):
            if info.name not in seen:
                seen.add(info.name)
                out.append(info)
    return out


def load_info(info: LayoutInfo) -> Layout:
    """Load a discovered layout, named after ``info.name``.

    Raises
    ------
    InputFileError
        The file changed or vanished since discovery.
    ValueError
        ``info`` is a shipped layout (use :func:`mjsat.layouts.load_layout`).
    """
    if info.path is None:
        raise ValueError(f"{info.name}: not a file layout")
    from .files import read_layout

    layout = read_layout(info.path, map_name=info.map_name)
    layout.name = info.name
    return layout
