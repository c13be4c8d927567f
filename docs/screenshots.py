"""Take the README's pictures of the game: the page in Debian's chromium (the turtle with
its faces at 1280x720, and the end card of a cleared board), the terminal interface as
Textual's SVG screenshot, and the lessons (the guided play of a formula's board, a
falsifying assignment stuck, a height-two board's blocked cycle).
Run: ``.venv/bin/python docs/screenshots.py [page] [end] [tui] [teach]`` (all by default)."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

from mjsat.game.difficulty import find_deal
from mjsat.game.engine import Game
from mjsat.game.teach import FormulaLesson, Height2Lesson
from mjsat.game.teach_web import lesson_game
from mjsat.game.tui import GameApp
from mjsat.game.web import GameSettings, ServerThread, Session
from mjsat.game.worker import SolverProcess
from mjsat.layouts import load_layout
from mjsat.methods import solve

HERE = Path(__file__).resolve().parent
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
            ctx = p.chromium.launch_persistent_context(
                profile, executable_path=chromium, headless=True, args=FLAGS, viewport={"width": 1280, "height": 720}
            )
            pg = ctx.new_page()
            pg.goto(url)
            pg.wait_for_selector("body[data-ready='1']")
            pg.wait_for_function("document.getElementById('status').dataset.checking == '0'")
            pg.click("#hint")
            pg.wait_for_selector(".tile.hinted")
            pg.click(".tile.hinted")  # selected, with the tiles of its kind marked
            pg.check("#opt-match")
            pg.screenshot(path=str(out))
            ctx.close()


def end(worker: SolverProcess, out: Path, chromium: str = "/usr/bin/chromium") -> None:
    """The end card of a cleared Shisen-Sho 8x6 board."""
    from playwright.sync_api import sync_playwright

    settings = GameSettings(layout="rect-8x6", game="shisen-sho", difficulty="normal", seed=11, check_seconds=20)
    deal = find_deal(load_layout("rect-8x6"), difficulty="normal", seed=11, game="shisen-sho")
    game = Game(deal.board, meta=deal.meta(), decider=lambda b, t: worker.decide(b, t))
    with ServerThread(Session(game, settings, worker=worker)) as url, sync_playwright() as p:
        with tempfile.TemporaryDirectory() as profile:
            ctx = p.chromium.launch_persistent_context(
                profile, executable_path=chromium, headless=True, args=FLAGS, viewport={"width": 1280, "height": 720}
            )
            pg = ctx.new_page()
            pg.goto(url)
            pg.wait_for_selector("body[data-ready='1']")
            pg.keyboard.press("h")  # one hint, then a clearing found by the exact method
            pg.wait_for_selector(".tile.hinted", timeout=120_000)
            pairs = [[int(g.get_attribute("data-tile")) for g in pg.locator(".tile.hinted").all()]]
            while pairs:
                left = game.board.remaining()
                for t in pairs.pop(0):
                    pg.click(f'#board .tile[data-tile="{t}"]')
                pg.wait_for_function(f"document.querySelectorAll('#board .tile').length < {left}")
                if not pairs and not game.status().won:
                    position, back = game.board.position_board()
                    moves = solve(position, "exact", time_limit=60).moves
                    pairs = [[back[a], back[b]] for a, b in moves]
            pg.wait_for_selector("#endcard:not([hidden])")
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


def _lesson_page(worker: SolverProcess, lesson, chromium: str):
    """A context manager's worth of set-up: the server of ``lesson`` and a page on it."""
    from contextlib import contextmanager

    from playwright.sync_api import sync_playwright

    @contextmanager
    def opened():
        session = Session(lesson_game(lesson), GameSettings(), worker=worker, lesson=lesson)
        with ServerThread(session) as url, sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
            ctx = p.chromium.launch_persistent_context(
                profile, executable_path=chromium, headless=True, args=FLAGS, viewport={"width": 1400, "height": 980}
            )
            pg = ctx.new_page()
            pg.goto(url)
            pg.wait_for_selector("body[data-ready='1']")
            pg.wait_for_function("document.getElementById('status').dataset.checking == '0'")
            yield pg
            ctx.close()

    return opened()


def teach(worker: SolverProcess, out_dir: Path, chromium: str = "/usr/bin/chromium") -> None:
    """The guided view of three-vars.cnf's stack board (a clause about to be satisfied),
    a falsifying assignment stuck, and a planted blocked cycle."""
    os.chdir(HERE.parent)  # the page names the file as given
    lesson = FormulaLesson.from_file("instances/three-vars.cnf", "stacks")
    with _lesson_page(worker, lesson, chromium) as pg:
        pg.wait_for_selector("#step-count[data-total]")
        for _ in range(8):  # the next move pairs the x-chain C3 with a C3 its literal freed
            pg.click("#step-next")
        pg.screenshot(path=str(out_dir / "teach-guided.png"))
        for v, on in ((1, True), (2, False), (3, False)):  # falsifies (-V1 v V2)
            pg.set_checked(f'#switches input[data-var="{v}"]', on)
        pg.wait_for_selector("#step-count[data-play='1 -2 -3']")
        pg.click("#step-end")
        pg.eval_on_selector("#teach", "e => { e.scrollTop = document.getElementById('stepper').offsetTop - 60; }")
        pg.screenshot(path=str(out_dir / "teach-stuck.png"))
    shisen = FormulaLesson.from_file("instances/three-vars.cnf", "shisen-sho")
    with _lesson_page(worker, shisen, chromium) as pg:  # the 11,512 px strip: fit, and the stuck tiles together
        pg.wait_for_selector("#step-count[data-total]")
        for v, on in ((1, True), (2, False), (3, False)):
            pg.set_checked(f'#switches input[data-var="{v}"]', on)
        pg.wait_for_selector("#step-count[data-play='1 -2 -3']")
        pg.keyboard.press("End")
        pg.wait_for_selector("#board .tile.waiting")
        pg.evaluate("() => window.scrollTo(0, 0)")
        pg.screenshot(path=str(out_dir / "teach-shisen.png"))
    with _lesson_page(worker, Height2Lesson.planted(1, 16), chromium) as pg:
        pg.wait_for_selector("#h2-cycles li")
        pg.screenshot(path=str(out_dir / "teach-height2.png"))


if __name__ == "__main__":
    which = set(sys.argv[1:]) or {"page", "end", "tui", "teach"}
    worker = SolverProcess()
    try:
        if "page" in which:
            page(worker, HERE / "game-page.png")
        if "end" in which:
            end(worker, HERE / "game-end.png")
        if "tui" in which:
            tui(worker, HERE / "game-tui.svg")
        if "teach" in which:
            teach(worker, HERE)
    finally:
        worker.close()
    sys.exit(0)
