"""The kernels' cache is dropped when any kernel source changes (numba alone would keep a
caller's compiled copy of a callee defined in another file)."""

from __future__ import annotations

import shutil
from pathlib import Path

from mjsat.search import kernel_cache


def _folder(tmp_path: Path) -> Path:
    src = Path(kernel_cache.__file__).parent
    folder = tmp_path / "search"
    folder.mkdir()
    for path in list(src.glob("kernels*.py")) + [src / "config.py"]:
        shutil.copy(path, folder / path.name)
    cache = folder / "__pycache__"
    cache.mkdir()
    for name in ("kernels._apply-1.py311.nbi", "kernels._apply-1.py311.1.nbc", "kernels_shisen._sh_ok-9.py311.nbi"):
        (cache / name).write_bytes(b"x")
    (cache / "config.cpython-311.pyc").write_bytes(b"x")
    return folder


def test_a_changed_callee_file_drops_every_cached_kernel(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    folder = _folder(tmp_path)
    cache = folder / "__pycache__"
    assert kernel_cache.drop_stale_cache(folder)  # no stamp yet: the cache is not trusted
    assert sorted(p.name for p in cache.iterdir()) == ["config.cpython-311.pyc", kernel_cache.SOURCES_STAMP]
    (cache / "kernels._apply-1.py311.nbi").write_bytes(b"x")  # compiled again from these sources
    assert not kernel_cache.drop_stale_cache(folder)  # unchanged sources: kept
    assert (cache / "kernels._apply-1.py311.nbi").exists()
    callee = folder / "kernels_shisen.py"
    callee.write_text(callee.read_text() + "\n# changed\n")  # only the callee's file changes
    assert kernel_cache.drop_stale_cache(folder)
    assert not (cache / "kernels._apply-1.py311.nbi").exists()
    assert (cache / "config.cpython-311.pyc").exists()


def test_the_folder_under_numba_cache_dir_is_numbas(tmp_path, monkeypatch):
    folder = _folder(tmp_path)
    root = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(root))
    import hashlib

    mine = root / f"search_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    other = root / "elsewhere_0123"
    for d in (mine, other):
        d.mkdir(parents=True)
        (d / "kernels.f-1.py311.nbi").write_bytes(b"x")
    assert kernel_cache.drop_stale_cache(folder)
    assert not (mine / "kernels.f-1.py311.nbi").exists()
    assert (other / "kernels.f-1.py311.nbi").exists()  # another project's cache is not ours


def test_a_changed_module_of_the_kernels_package_drops_both_caches(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    folder = _folder(tmp_path)
    package = folder / kernel_cache.PACKAGE
    (package / "__pycache__").mkdir(parents=True)
    (package / "events.py").write_text("x = 1\n")
    assert kernel_cache.drop_stale_cache(folder)
    kept = [
        folder / "__pycache__" / "kernels._apply-1.py311.nbi",
        package / "__pycache__" / "events._mj_apply-9.py311.nbi",
    ]
    for path in kept:
        path.write_bytes(b"x")
    assert not kernel_cache.drop_stale_cache(folder)
    (package / "events.py").write_text("x = 2\n")
    assert kernel_cache.drop_stale_cache(folder)
    assert not any(path.exists() for path in kept)
