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


def deals_done(page):
    """How many deals (New game, Replay seed, Restart) the page has finished."""
    return int(page.evaluate("document.body.dataset.deals || '0'"))


def deal(page, click, **choice):
    """Set the page's choosers (``layout``, ``game``, ``difficulty``, ``seed``), click the
    button ``click`` and wait until the deal is on the board; the message it left."""
    before = deals_done(page)
    ids = {"layout": "#layout", "game": "#gamekind", "difficulty": "#difficulty"}
    for key, value in choice.items():
        if key == "seed":
            page.fill("#seed", str(value))
        else:
            page.select_option(ids[key], value)
    page.click(click)
    page.wait_for_function(f"parseInt(document.body.dataset.deals || '0', 10) > {before}", timeout=120_000)
    return page.text_content("#message")


def shown_groups(page):
    """The group of each tile on the board the page shows: ``{tile: group}``."""
    pairs = page.eval_on_selector_all(
        "#board .tile", "gs => gs.map(g => [parseInt(g.dataset.tile, 10), parseInt(g.dataset.group, 10)])"
    )
    return dict(pairs)


def shown_position(page, layout, game):
    """The position the page shows as a deal of its own (``Board.position_board``): the
    tiles on the board with their groups, the tiles gone paired among themselves."""
    from mjsat.board import find_variant

    groups = shown_groups(page)
    gone = [t for t in range(len(layout)) if t not in groups]
    top = max(groups.values(), default=0) + 1
    full = dict(groups)
    full.update({t: top + i // 2 for i, t in enumerate(gone)})  # the tiles gone, paired in order
    board = find_variant(game)(layout, [full[t] for t in range(len(layout))])
    for i in range(0, len(gone), 2):
        board.push((gone[i], gone[i + 1]))
    return board.position_board()[0]


def cursor_step(tiles, cursor, drow, dcol):
    """Where an arrow key moves the page's cursor: ``tiles`` are ``(t, row, col)`` of the
    free tiles in tile order; the nearest in the arrow's direction, counting a step across
    twice (the top-left tile when there is no cursor yet)."""
    if cursor is None:
        return min(tiles, key=lambda x: (x[1], x[2]))[0]
    _, r, c = next(x for x in tiles if x[0] == cursor)
    best, score = None, None
    for t, tr, tc in tiles:
        dr, dc = tr - r, tc - c
        along = dr * drow + dc * dcol
        if along <= 0:
            continue
        across = abs(dc) if drow else abs(dr)
        s = along + 2 * across
        if score is None or s < score or (s == score and across < best[1]):
            score, best = s, (t, across)
    return cursor if best is None else best[0]


ARROWS = {"ArrowLeft": (0, -1), "ArrowRight": (0, 1), "ArrowUp": (-1, 0), "ArrowDown": (1, 0)}


def arrow_path(tiles, cursor, target):
    """The shortest list of arrow keys that brings the cursor to ``target`` (breadth first
    over :func:`cursor_step`), or ``None``."""
    from collections import deque

    start = cursor_step(tiles, None, 0, 0) if cursor is None else cursor
    first = [] if cursor is not None else ["ArrowRight"]
    seen = {start: first}
    todo = deque([start])
    while todo:
        at = todo.popleft()
        if at == target:
            return seen[at]
        for key, (dr, dc) in ARROWS.items():
            nxt = cursor_step(tiles, at, dr, dc)
            if nxt not in seen:
                seen[nxt] = seen[at] + [key]
                todo.append(nxt)
    return None
