"""The package works alone: ``python -m build`` makes an sdist and a wheel, and the wheel,
installed into a fresh virtual environment outside the repository, runs the command and
imports the public API with its shipped layouts and the game's static files.

The fresh environment reaches the dependencies of the project's own environment through
a ``.pth`` file (a path line adds that folder to ``sys.path`` without running its ``.pth``
files, so the project's editable install of mjsat is not seen); mjsat itself comes from
the wheel alone. Building fetches setuptools from PyPI into an isolated build
environment, as ``pip install`` of the sdist would.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=1200, **kw)


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # one build at a time in the source tree: each xdist worker that runs this module builds,
    # and the sdist step makes and removes mjsat-VERSION/ and the egg-info in the tree itself
    lock = tmp_path_factory.getbasetemp().parent / "mjsat-build.lock"
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        build = _run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)])
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert "BuildBackendWarning" not in build.stdout + build.stderr
    return out


@pytest.fixture(scope="module")
def venv(dist, tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("venv")
    env_dir = home / "env"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)])
    assert made.returncode == 0, made.stderr
    python = env_dir / "bin" / "python"
    site = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    Path(site, "project-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    (wheel,) = dist.glob("mjsat-*.whl")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index"]
    installed = _run([*pip, str(wheel)])
    assert installed.returncode == 0, installed.stderr
    return env_dir


def test_sdist_and_wheel_hold_the_data_files(dist):
    (wheel,) = dist.glob("mjsat-*.whl")
    (sdist,) = dist.glob("mjsat-*.tar.gz")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in (
        "mjsat/py.typed",
        "mjsat/game/static/index.html",
        "mjsat/layouts/shipped.py",
        "mjsat/search/solver.py",
    ):
        assert name in names, name
    assert not any(n.startswith(("tests/", "benchmarks/", "docs/")) for n in names)
    assert sdist.stat().st_size > 0


def test_the_installed_wheel_runs_alone(venv, tmp_path):
    """From a folder outside the repository: the command, the layouts, the game's help,
    and the public API from the wheel's own files."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # The numba kernels run as Python here: compiling them for this copy of the package
    # takes minutes and tests numba, not the wheel (the compiled path is the rest of the suite).
    env["NUMBA_DISABLE_JIT"] = "1"
    mjsat = str(venv / "bin" / "mjsat")
    python = str(venv / "bin" / "python")

    solved = _run([mjsat, "solve", "--layout", "turtle", "--seed", "1", "--json"], cwd=tmp_path, env=env)
    assert solved.returncode == 0, solved.stderr
    answer = json.loads(solved.stdout)
    assert answer["status"] == "solvable" and len(answer["moves"]) == 72

    layouts = _run([mjsat, "layouts"], cwd=tmp_path, env=env)
    assert layouts.returncode == 0, layouts.stderr
    assert "turtle" in layouts.stdout and "144" in layouts.stdout

    game = _run([mjsat, "game", "--help"], cwd=tmp_path, env=env)
    assert game.returncode == 0 and "Usage: mjsat game" in game.stdout, game.stderr

    code = (
        "import mjsat, pathlib\n"
        "from mjsat import solve, load_layout, deal_random, load_board, write_board, check_solution\n"
        "from importlib import resources\n"
        "assert pathlib.Path(mjsat.__file__).parent.parent.name == 'site-packages', mjsat.__file__\n"
        "b = deal_random(load_layout('pyramid'), seed=2)\n"
        "write_board(b, 'b.json')\n"
        "r = solve(load_board('b.json'), 'ref')\n"
        "page = resources.files('mjsat.game').joinpath('static').joinpath('index.html').read_text()\n"
        "assert '<html' in page.lower()\n"
        "print(mjsat.__version__, r.status, sorted(set(mjsat.__all__) - set(dir(mjsat))))\n"
    )
    api = _run([python, "-c", code], cwd=tmp_path, env=env)
    assert api.returncode == 0, api.stderr
    from importlib.metadata import version

    assert api.stdout.split() == [version("mjsat"), "unsolvable", "[]"]
