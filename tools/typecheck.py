"""Run mypy over the whole package `mjsat`, sub-packages in top-level folders included.

The package's sub-packages live in top-level folders (`reductions/` is imported as
`mjsat.reductions`, by setuptools' ``package-dir`` in ``pyproject.toml``). The editable
install maps them with an import hook, which static tools do not run, and mypy has no
option that maps a folder to a dotted package name. This script therefore builds a
link tree that has the installed shape::

    build/typing/mjsat/<each entry of mjsat/>   -> ../../../mjsat/<entry>
    build/typing/mjsat/reductions               -> ../../../reductions
    ...

(one link per entry, so nothing is copied and a new module is seen at once), runs mypy
with ``mypy_path = "build/typing"`` and ``packages = ["mjsat"]`` from ``pyproject.toml``,
and prints mypy's report with the paths of the source files instead of the links. The
tree is brought up to date on every run from the ``package-dir`` table, so a new module or
a new sub-package needs no reinstall.

Usage: ``python tools/typecheck.py [mypy options]``; the exit code is mypy's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: mypy depends on tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
TREE = Path("build") / "typing"
PACKAGE = "mjsat"
SKIP = {"__pycache__"}


def package_dirs(pyproject: Path) -> dict[str, str]:
    """Return the sub-package folders of `PACKAGE` from setuptools' ``package-dir`` table.

    Parameters
    ----------
    pyproject : Path
        The project's ``pyproject.toml``.

    Returns
    -------
    dict of str to str
        Sub-package name (``"reductions"`` for ``mjsat.reductions``) -> folder relative to
        the project root.
    """
    table = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    mapping = table["tool"]["setuptools"]["package-dir"]
    prefix = PACKAGE + "."
    return {name[len(prefix) :]: folder for name, folder in mapping.items() if name.startswith(prefix)}


def wanted_links(root: Path) -> dict[str, str]:
    """Return the links of the tree: name inside ``build/typing/mjsat`` -> source path.

    Parameters
    ----------
    root : Path
        The project root.

    Returns
    -------
    dict of str to str
        Link name -> path of its target relative to the project root.
    """
    links = {p.name: f"{PACKAGE}/{p.name}" for p in sorted((root / PACKAGE).iterdir()) if p.name not in SKIP}
    for sub, folder in package_dirs(root / "pyproject.toml").items():
        if sub in links:
            raise SystemExit(f"typecheck: {PACKAGE}/{sub} exists and is also the package-dir of {PACKAGE}.{sub}")
        links[sub] = folder
    return links


def build_tree(root: Path, links: dict[str, str]) -> Path:
    """Make ``build/typing/mjsat`` hold exactly `links` (relative symbolic links).

    Parameters
    ----------
    root : Path
        The project root.
    links : dict of str to str
        Link name -> target relative to the project root.

    Returns
    -------
    Path
        The package folder of the tree.
    """
    pkg = root / TREE / PACKAGE
    pkg.mkdir(parents=True, exist_ok=True)
    up = os.path.relpath(root, pkg)
    for entry in pkg.iterdir():
        if entry.name not in links:
            entry.unlink()
    for name, target in links.items():
        link = pkg / name
        want = os.path.join(up, target)
        if link.is_symlink() and os.readlink(link) == want:
            continue
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(want, target_is_directory=(root / target).is_dir())
    return pkg


def source_path_rewriter(links: dict[str, str]) -> re.Pattern[str]:
    """Return a pattern matching the tree's paths at the start of a line of mypy's report."""
    names = "|".join(re.escape(name) for name in sorted(links, key=len, reverse=True))
    prefix = re.escape(f"{TREE.as_posix()}/{PACKAGE}/")
    return re.compile(rf"^{prefix}({names})(?=[/:])", re.MULTILINE)


def main(argv: list[str]) -> int:
    """Build the tree, run mypy over `PACKAGE`, print its report with source paths."""
    os.chdir(ROOT)
    links = wanted_links(ROOT)
    build_tree(ROOT, links)
    proc = subprocess.run([sys.executable, "-m", "mypy", *argv], capture_output=True, text=True, check=False)
    pattern = source_path_rewriter(links)
    sys.stdout.write(pattern.sub(lambda m: links[m.group(1)], proc.stdout))
    sys.stderr.write(proc.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
