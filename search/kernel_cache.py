"""The kernels' on-disk cache, tied to every kernel source at once.

numba keys a cached kernel by the file that defines it: a kernel of
:mod:`mjsat.search.kernels` that calls one of :mod:`~mjsat.search.kernels_shisen` keeps its
compiled copy of the callee when only the callee's file changes, and would run the old
code. :func:`drop_stale_cache`, called when :mod:`mjsat.search.config` is first imported
(before any kernel module), hashes the sources of every kernel module and of the config;
when the hash differs from the one recorded beside the cache, it deletes the cached kernels
(``*.nbi``, ``*.nbc``) so that each is compiled afresh from the current sources.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["SOURCES_STAMP", "drop_stale_cache", "sources_digest"]

SOURCES_STAMP = "mjsat-kernel-sources.sha256"
"""The file beside the cache holding the digest of the sources it was compiled from."""

_HERE = Path(os.path.dirname(os.path.abspath(__file__)))


PACKAGE = "kernels"
"""The sub-package of the kernels (:mod:`mjsat.search.kernels`), cached in a folder of its own."""


def _sources(folder: Path) -> list[Path]:
    """The kernel sources of ``folder``: ``kernels*.py``, the modules of the package
    ``kernels/`` and ``config.py``."""
    return sorted(folder.glob("kernels*.py")) + sorted((folder / PACKAGE).glob("*.py")) + [folder / "config.py"]


def sources_digest(folder: Path = _HERE) -> str:
    """SHA-256 of the kernel modules (``kernels*.py`` and those of the package ``kernels/``)
    and ``config.py`` of ``folder``, in path order."""
    h = hashlib.sha256()
    for path in _sources(folder):
        h.update(path.relative_to(folder).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _cache_dir(folder: Path) -> Path:
    """Where numba keeps the kernels of ``folder``: ``__pycache__`` beside them, or under
    ``NUMBA_CACHE_DIR`` the folder numba names after ``folder`` (its name and the SHA-1 of
    its path, as numba's cache locators do)."""
    root = os.environ.get("NUMBA_CACHE_DIR")
    if not root:
        return folder / "__pycache__"
    return Path(root) / f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"


def drop_stale_cache(folder: Path = _HERE) -> bool:
    """Delete the cached kernels of ``folder`` (and of its package ``kernels/``) when their
    sources changed since they were compiled; return whether anything was deleted.

    Notes
    -----
    Reads and hashes the kernel sources once per process (a few hundred kilobytes). A
    folder that cannot be written is left alone (numba then compiles in memory).
    """
    cache = _cache_dir(folder)
    stamp = cache / SOURCES_STAMP
    digest = sources_digest(folder)
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    dropped = False
    try:
        for where, pattern in ((cache, "kernels*.nb[ic]"), (_cache_dir(folder / PACKAGE), "*.nb[ic]")):
            if where.is_dir():
                for path in where.glob(pattern):
                    path.unlink(missing_ok=True)
                    dropped = True
        cache.mkdir(parents=True, exist_ok=True)
        tmp = stamp.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(digest)
        tmp.replace(stamp)
    except OSError:
        return dropped
    return dropped
