"""Take the README's pictures of the game: the page in Debian's chromium, the terminal
interface as Textual's SVG screenshot. Run: ``.venv/bin/python docs/screenshots.py``."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from mjsat.game.difficulty import find_deal
from mjsat.game.engine import Game
from mjsat.game.tui import GameApp
from mjsat.game.web import GameSettings, ServerThread, Session
from mjsat.game.worker import SolverProcess
from mjsat.layouts import load_layout

HERE = Path(__file__).resolve().parent
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _game(worker: SolverProcess) -> tuple[Game, GameSettings]:
    settings = GameSettings(layout="turtle", game="mahjong", difficulty="normal", seed=7)
    deal = find_deal(load_layout("turtle"), difficulty="normal", seed=7)
    game = Game(deal.board, meta=deal.meta(), decider=lambda b, t: worker.decide(b, t))
    for _ in range(6):  # a few hinted moves, so the picture shows a game under way
        game.pair(*game.hint(time_limit=10).move)
    return game, settings


def page(worker: SolverProcess, out: Path, chromium: str = "/usr/bin/chromium") -> None:
    from playwright.sync_api import sync_playwright

    game, settings = _game(worker)
    with ServerThread(Session(game, settings, worker=worker)) as url, sync_playwright() as p:
        with tempfile.TemporaryDirectory() as profile:
            ctx = p.chromium.launch_persistent_context(profile, executable_path=chromium, headless=True, args=FLAGS,
                                                       viewport={"width": 1100, "height": 720})
            pg = ctx.new_page()
            pg.goto(url)
            pg.wait_for_selector("body[data-ready='1']")
            pg.wait_for_function("document.getElementById('status').dataset.checking == '0'")
            pg.click("#hint")
            pg.wait_for_selector(".tile.hinted")
            pg.screenshot(path=str(out))
            ctx.close()


def tui(worker: SolverProcess, out: Path) -> None:
    game, settings = _game(worker)
    app = GameApp(game, settings, worker=worker)

    async def run() -> None:
        async with app.run_test(size=(100, 26)) as pilot:
            await pilot.press("h")
            for _ in range(100):
                await pilot.pause(0.05)
                if not app.busy:
                    break
            app.save_screenshot(out.name, str(out.parent))

    asyncio.run(run())


if __name__ == "__main__":
    worker = SolverProcess()
    try:
        page(worker, HERE / "game-page.png")
        tui(worker, HERE / "game-tui.svg")
    finally:
        worker.close()
    sys.exit(0)
