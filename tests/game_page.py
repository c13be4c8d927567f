"""Driving the game page in Debian's chromium (Playwright for Python), for the browser
tests of the game and of its lessons; the fixtures that start the browser and the solver
process are in ``conftest.py``."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = os.environ.get("MJSAT_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch(playwright, profile):
    """A persistent headless context of the system chromium (never a downloaded one)."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.fail(
            f"the browser tests need Debian's chromium at {CHROMIUM}: install it with "
            "`apt-get install -y chromium` (`make install` does it when run as root), "
            "or point MJSAT_CHROMIUM at a Chromium binary"
        )
    return playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=FLAGS, accept_downloads=True
    )


def open_page(browser, url):
    """A new page of the game at ``url``, once its script has drawn the first state."""
    page = browser.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


def tiles_shown(page):
    """Tiles on the board (a lesson's picture keeps removed tiles, marked ``gone``)."""
    return page.locator("#board .tile:not(.gone)").count()


def click_pair(page, a, b):
    """Click tiles ``a`` and ``b`` and wait until the pair has gone from the board."""
    before = tiles_shown(page)
    page.click(f'#board .tile[data-tile="{a}"]')
    page.click(f'#board .tile[data-tile="{b}"]')
    page.wait_for_function(f"document.querySelectorAll('#board .tile:not(.gone)').length < {before}")
