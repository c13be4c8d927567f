"""Shared test fixtures: where the raw layout files of other games are, seeded RNGs, the
game's solver process and the browser of the browser tests (``game_page.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
LAYOUT_SOURCES = REPO.parent / "shared" / "layout-sources"


@pytest.fixture
def layout_sources() -> Path:
    """The folder of xmahjongg/KMahjongg/GNOME layout files; skips when it is absent."""
    if not LAYOUT_SOURCES.is_dir():
        pytest.skip("../shared/layout-sources is not present")
    return LAYOUT_SOURCES


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261122)


@pytest.fixture(scope="session")
def worker():
    """The game's solver child process, warmed up once per test process."""
    from mjsat.game.worker import SolverProcess

    w = SolverProcess()
    w.warm_up()
    yield w
    w.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Debian's chromium, headless, driven by Playwright. One per test module: Playwright's
    synchronous API runs an event loop while it is open, which the terminal tests' own
    ``asyncio.run`` must not meet."""
    from game_page import launch
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = launch(p, tmp_path_factory.mktemp("chromium-profile"))
        yield context
        context.close()
