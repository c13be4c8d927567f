"""The game in the terminal, driven by Textual's pilot: the browser tests' three scripts."""

from __future__ import annotations

import asyncio
import time

from textual.widgets import Input

from mjsat.deals import deal_solvable
from mjsat.game.engine import Game
from mjsat.game.tui import BoardView, GameApp
from mjsat.game.web import GameSettings
from mjsat.layouts import load_layout


def _app(worker, spec, game_name, seed):
    board, order = deal_solvable(load_layout(spec), seed=seed, game=game_name)
    settings = GameSettings(layout=spec, game=game_name, seed=seed)
    return GameApp(Game(board, meta={"difficulty": "normal", "seed": seed}), settings, worker=worker), order


async def _until(pilot, cond, timeout=20.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("condition not reached in time")
        await pilot.pause(0.05)


async def _click_tile(pilot, app, t):
    view = app.query_one(BoardView)
    x, y = view.offset_of(t)
    await pilot.click(BoardView, offset=(x + 1, y))  # + the view's left padding


async def _pair_by_mouse(pilot, app, a, b):
    before = app.game.board.remaining()
    await _click_tile(pilot, app, a)
    await _click_tile(pilot, app, b)
    await _until(pilot, lambda: app.game.board.remaining() < before)


def _status(app):
    return str(app.query_one("#status").render())


def test_play_a_small_board_to_the_end(worker):
    app, order = _app(worker, "rect-4x3", "shisen-sho", 3)

    async def script():
        async with app.run_test(size=(100, 30)) as pilot:
            view = app.query_one(BoardView)
            # a refused pair says why
            a, _ = order[0]
            other = next(t for t in range(12) if app.game.board.groups[t] != app.game.board.groups[a])
            await _click_tile(pilot, app, a)
            await _click_tile(pilot, app, other)
            await pilot.pause()
            assert "refused: they do not match" in str(app.query_one("#message").render())
            # the first pair by keys: move the cursor onto each tile and press space
            for t in order[0]:
                for _ in range(20):
                    if view.cursor == t:
                        break
                    r, c, _ = app.game.board.layout.positions[t]
                    cr, cc, _ = app.game.board.layout.positions[view.cursor]
                    await pilot.press("down" if r > cr else "up" if r < cr else "right" if c > cc else "left")
                assert view.cursor == t
                await pilot.press("space")
            assert app.game.moves == [tuple(order[0])]
            for a, b in order[1:]:
                await _pair_by_mouse(pilot, app, a, b)
            await pilot.pause()
            assert app.game.status().won and "you won" in _status(app)
            assert app.game.moves == [tuple(m) for m in order]

    asyncio.run(script())


def test_undo_and_a_hint(worker):
    from game_positions import fatal_position

    board, fatal = fatal_position()
    start = board.copy()
    app = GameApp(Game(board), GameSettings(layout=board.layout.name, game=board.game), worker=worker)

    async def script():
        async with app.run_test(size=(100, 30)) as pilot:
            await _pair_by_mouse(pilot, app, *fatal)
            await _until(pilot, lambda: "1 undo(s) lead back" in _status(app))
            assert app.query_one("#status").has_class("lost")
            await pilot.press("u")
            await _until(pilot, lambda: app.game.status().verdict == "solvable" and not app.busy)
            assert app.game.board.presence == start.presence
            await pilot.press("h")
            view = app.query_one(BoardView)
            await _until(pilot, lambda: bool(view.hinted))
            hinted = tuple(sorted(view.hinted))
            assert start.is_legal(hinted) and "hints 9" in str(app.query_one("#counts").render())
            await pilot.press("space")  # the cursor stands on the first hinted tile
            await _click_tile(pilot, app, hinted[1])
            await _until(pilot, lambda: app.game.status().verdict == "solvable" and not app.busy)
            assert app.game.moves[-1] == hinted

    asyncio.run(script())


def test_save_load_and_continue(worker, tmp_path):
    app, order = _app(worker, "pyramid", "shisen-sho-3d", 4)
    path = tmp_path / "any name at all"
    bad = tmp_path / "bad"
    bad.write_text("{not json")

    async def script():
        async with app.run_test(size=(100, 30)) as pilot:
            for a, b in order[:3]:
                await _pair_by_mouse(pilot, app, a, b)
            await pilot.press("ctrl+s")
            app.query_one("#ask", Input).value = str(path)
            await pilot.press("enter")
            await pilot.pause()
            assert path.exists() and "saved to" in str(app.query_one("#message").render())
            await _pair_by_mouse(pilot, app, *order[3])
            for name, expect in ((bad, "not loaded"), (path, "loaded")):
                await pilot.press("l")
                app.query_one("#ask", Input).value = str(name)
                await pilot.press("enter")
                await pilot.pause()
                assert str(app.query_one("#message").render()).startswith(expect)
                if expect == "not loaded":  # the game on screen is kept
                    assert len(app.game.moves) == 4
            assert app.game.moves == [tuple(m) for m in order[:3]]
            for a, b in order[3:]:
                await _pair_by_mouse(pilot, app, a, b)
            assert app.game.status().won

    asyncio.run(script())


def test_a_long_deal_shows_its_progress_and_escape_cancels_it(worker):
    app, _ = _app(worker, "rect-4x3", "shisen-sho", 2)
    app.settings = GameSettings(layout="rect-30x16", game="shisen-sho", difficulty="hard")  # rare: a long search
    before = app.game.board.copy()

    async def script():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("n")
            await _until(pilot, lambda: "candidate(s) tried" in str(app.query_one("#message").render()), 60)
            await pilot.press("escape")
            await _until(pilot, lambda: "no new game" in str(app.query_one("#message").render()), 30)
            assert not app.dealing and app.game.board.groups == before.groups
            await pilot.press("p")  # pause hides the board and stops the clock
            assert app.query_one(BoardView).has_class("paused") and app.running_since is None
            await pilot.press("p")
            assert not app.query_one(BoardView).has_class("paused")

    asyncio.run(script())
