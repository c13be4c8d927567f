"""The game in a real browser (Debian's chromium driven by Playwright), and the server's
guards: loopback only, no file outside its assets, JSON-only requests."""

from __future__ import annotations

import http.client
import json

from game_page import click_pair as _click_pair, open_page as _open, tiles_shown as _tiles

from mjsat.deal import deal_solvable
from mjsat.game.engine import Game
from mjsat.game.web import GameSettings, ServerThread, Session
from mjsat.layouts import load_layout


def _session(worker, spec, game_name, seed, **settings):
    board, order = deal_solvable(load_layout(spec), seed=seed, game=game_name)
    s = GameSettings(layout=spec, game=game_name, seed=seed, **settings)
    game = Game(board, undo_limit=s.undo_limit, hint_limit=s.hint_limit, meta={"difficulty": "normal", "seed": seed})
    return Session(game, s, worker=worker), order


def test_play_a_small_board_to_the_end_by_clicking(browser, worker):
    session, order = _session(worker, "rect-4x3", "shisen-sho", 3)
    with ServerThread(session) as url:
        page = _open(browser, url)
        assert _tiles(page) == 12
        # a refused pair says why and keeps the tiles
        a, b = order[0]
        other = next(t for t in range(12) if session.game.board.groups[t] != session.game.board.groups[a])
        page.click(f'.tile[data-tile="{a}"]')
        page.click(f'.tile[data-tile="{other}"]')
        page.wait_for_function("document.getElementById('message').textContent.startsWith('refused')")
        assert "do not match" in page.text_content("#message") and _tiles(page) == 12
        for i, (a, b) in enumerate(order):
            _click_pair(page, a, b)
            if i == 0:  # a Shisen-Sho pair shows its path for a moment
                assert page.locator("polyline.path").count() == 1
        page.wait_for_selector("#status.won")
        assert "you won" in page.text_content("#status")
        assert session.game.status().won and session.game.moves == [tuple(m) for m in order]
        page.close()


def test_undo_and_a_hint(browser, worker):
    from game_positions import fatal_position

    board, fatal = fatal_position()
    start = board.copy()
    game = Game(board)
    session = Session(game, GameSettings(layout=board.layout.name, game=board.game), worker=worker)
    with ServerThread(session) as url:
        page = _open(browser, url)
        n = _tiles(page)
        _click_pair(page, *fatal)
        # the page says at once that the position is lost, and how far back to go
        page.wait_for_selector("#status.lost", timeout=20_000)
        assert "1 undo(s) lead back" in page.text_content("#status")
        page.click("#undo")
        page.wait_for_function(f"document.querySelectorAll('#board .tile').length == {n}")
        page.wait_for_function("document.getElementById('status').dataset.verdict == 'solvable'")
        assert session.game.board.presence == start.presence
        page.click("#hint")
        page.wait_for_selector(".tile.hinted", timeout=20_000)
        hinted = sorted(int(g.get_attribute("data-tile")) for g in page.locator(".tile.hinted").all())
        assert len(hinted) == 2 and start.is_legal(tuple(hinted))
        assert "hints 9" in page.text_content("#status")
        _click_pair(page, *hinted)
        page.wait_for_function("document.getElementById('status').dataset.verdict == 'solvable'", timeout=20_000)
        page.close()


def test_save_reload_load_and_continue(browser, worker, tmp_path):
    session, order = _session(worker, "pyramid", "shisen-sho-3d", 4)
    with ServerThread(session) as url:
        page = _open(browser, url)
        for a, b in order[:3]:
            _click_pair(page, a, b)
        page.fill("#savename", "my game.anything")
        with page.expect_download() as info:
            page.click("#save")
        download = info.value
        assert download.suggested_filename == "my game.anything"
        saved = tmp_path / "saved.mjsat"
        download.save_as(saved)
        _click_pair(page, *order[3])  # one more move, lost by the load below
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert _tiles(page) == 20 - 8
        # a foreign file is refused in one line and the game on screen is kept
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": "mjsat-board", "version": 1}')
        page.set_input_files("#load", str(bad))
        page.wait_for_function("document.getElementById('message').textContent.startsWith('not loaded')")
        assert "mjsat-board" in page.text_content("#message") and _tiles(page) == 12
        page.set_input_files("#load", str(saved))
        page.wait_for_function("document.getElementById('message').textContent.startsWith('loaded')")
        assert _tiles(page) == 20 - 6
        for a, b in order[3:]:
            _click_pair(page, a, b)
        page.wait_for_selector("#status.won")
        assert session.game.moves == [tuple(m) for m in order]
        page.close()


# ---------------------------------------------------------------- the server's guards


def _raw(port, path, *, method="GET", host=None, body=None, ctype=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", host or f"127.0.0.1:{port}")
    if ctype:
        conn.putheader("Content-Type", ctype)
    data = body.encode() if body else b""
    conn.putheader("Content-Length", str(len(data)))
    conn.endheaders(data)
    res = conn.getresponse()
    out = res.status, res.read()
    conn.close()
    return out


def test_server_serves_only_its_assets_on_loopback():
    board, _ = deal_solvable(load_layout("tiny"), seed=1)
    session = Session(Game(board), GameSettings(layout="tiny"))
    server = ServerThread(session)
    with server as url:
        port = server.port
        assert url == f"http://127.0.0.1:{port}/"
        assert server.sock.getsockname()[0] == "127.0.0.1"
        assert all(s.getsockname()[0] == "127.0.0.1" for srv in server.server.servers for s in srv.sockets)
        status, body = _raw(port, "/")
        assert status == 200 and b"mjsat game" in body
        assert _raw(port, "/static/app.js")[0] == 200
        for path in (
            "/static/../web.py",
            "/static/..%2fweb.py",
            "/static/%2e%2e/web.py",
            "/static/%2e%2e%2fweb.py",
            "/static/..%5cweb.py",
            "/../game/web.py",
            "/%2e%2e/%2e%2e/etc/passwd",
            "/static/%252e%252e%252fweb.py",
            "/static/engine.py",
            "/static/",
            "/static/index.html/../../engine.py",
            "//etc/passwd",
        ):
            status, body = _raw(port, path)
            assert status == 404 and b"import" not in body and b"root:" not in body, path
        # another site's page cannot drive the game: foreign Host, or a form post
        assert _raw(port, "/api/state", host="evil.example")[0] == 400
        status, _ = _raw(port, "/api/pair", method="POST", body="a=1&b=2", ctype="application/x-www-form-urlencoded")
        assert status == 400
        status, body = _raw(port, "/api/pair", method="POST", body='{"a": 0, "b": 1}', ctype="application/json")
        assert status == 200 and "played" in json.loads(body)
        status, body = _raw(port, "/api/load", method="POST", body='{"text": "[[[["}', ctype="application/json")
        assert status == 400 and "not loaded" not in body.decode() and "invalid or truncated JSON" in body.decode()
