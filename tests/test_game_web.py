"""The game in a real browser (Debian's chromium driven by Playwright), and the server's
guards: loopback only, no file outside its assets, JSON-only requests."""

from __future__ import annotations

import http.client
import json

import pytest
from game_page import (
    arrow_path,
    click_pair as _click_pair,
    deal as _deal,
    open_page as _open,
    shown_groups,
    shown_position,
    tiles_shown as _tiles,
)

from mjsat.deals import deal_solvable
from mjsat.game.difficulty import find_deal
from mjsat.game.engine import Game
from mjsat.game.web import GameSettings, ServerThread, Session, create_app
from mjsat.layouts import load_layout
from mjsat.methods import solve
from mjsat.replay import replay


def _session(worker, spec, game_name, seed, **settings):
    board, order = deal_solvable(load_layout(spec), seed=seed, game=game_name)
    s = GameSettings(layout=spec, game=game_name, seed=seed, **settings)
    game = Game(board, undo_limit=s.undo_limit, hint_limit=s.hint_limit, meta={"difficulty": "normal", "seed": seed})
    return Session(game, s, worker=worker), order


def _routes(session):
    return {r.path for r in create_app(session).routes}


def _dealt_session(worker, spec, game_name, seed, difficulty="normal", **settings):
    """A session whose game is the page's own deal of ``seed`` (as New game makes it)."""
    s = GameSettings(layout=spec, game=game_name, seed=seed, difficulty=difficulty, **settings)
    d = find_deal(load_layout(spec), difficulty=difficulty, seed=seed, game=game_name)
    game = Game(d.board, undo_limit=s.undo_limit, hint_limit=s.hint_limit, meta=d.meta())
    return Session(game, s, worker=worker)


def _clock_ms(page):
    return int(page.get_attribute("#clock", "data-ms"))


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
        message = page.text_content("#message")
        assert "do not match" in message and _tiles(page) == 12
        for t in (a, other):  # named by face and place, as the tiles' titles say
            title = page.text_content(f'#board .tile[data-tile="{t}"] title')
            assert title in message and " at row " in title
        for i, (a, b) in enumerate(order):
            _click_pair(page, a, b)
            if i == 0:  # a Shisen-Sho pair shows its path for a moment
                assert page.locator("polyline.path").count() == 1
        page.wait_for_selector("#status.won")
        assert "you won" in page.text_content("#status")
        assert session.game.status().won and session.game.moves == [tuple(m) for m in order]
        # the end card: the time of the clock (stopped), the counts, the deal; a best time kept
        page.wait_for_selector("#endcard:not([hidden])")
        facts = dict(
            zip(page.locator("#end-facts dt").all_text_contents(), page.locator("#end-facts dd").all_text_contents())
        )
        assert facts["Time"] == page.text_content("#clock") and page.get_attribute("#clock", "data-running") == "0"
        assert facts["Moves"] == str(len(order)) and facts["Hints"] == "0" and facts["Shuffles"] == "0"
        assert facts["Seed"] == "3" and facts["Difficulty"] == "normal" and "rect-4x3" in facts["Board"]
        assert facts["Best time"].endswith("(a new best)")
        best = json.loads(page.evaluate("localStorage.getItem('mjsat-best-times')"))
        assert list(best) == ["rect-4x3|shisen-sho|normal"]
        assert best["rect-4x3|shisen-sho|normal"] // 1000 == _clock_ms(page) // 1000
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
        assert page.text_content("#count-hints") == "1" and page.text_content("#hints-left") == "9"
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


def test_faces_not_digits_by_default_free_tiles_and_matches(browser, worker):
    session, _ = _session(worker, "turtle", "mahjong", 2)
    board = session.game.board
    with ServerThread(session) as url:
        page = _open(browser, url)
        n = _tiles(page)
        # every tile shows a face of the set, no number
        assert page.locator("#board .tile use.face-img").count() == n
        assert page.locator("#board .tile text.label").count() == 0
        kinds = {
            f.split("-")[0] for f in page.eval_on_selector_all("#board .tile", "gs => gs.map(g => g.dataset.face)")
        }
        assert kinds <= {"dots", "bamboo", "chars", "wind", "dragon", "flower", "season"} and len(kinds) == 7
        # a face belongs to one group; a group has one face, but flowers (and seasons) match each other
        pairs = page.eval_on_selector_all("#board .tile", "gs => gs.map(g => [g.dataset.face, g.dataset.group])")
        pairs = {tuple(p) for p in pairs}
        assert len({f for f, _ in pairs}) == len(pairs)
        for group in {g for _, g in pairs}:
            its = {f.split("-")[0] for f, g in pairs if g == group}
            assert len([f for f, g in pairs if g == group]) == 1 or its in ({"flower"}, {"season"})
        titles = page.eval_on_selector_all("#board .tile title", "ts => ts.map(t => t.textContent)")
        assert all("row" in t and "column" in t and not t.startswith("tile") for t in titles)
        # free tiles bright, blocked ones shaded: the engine's free tiles exactly
        free = {int(g.get_attribute("data-tile")) for g in page.locator("#board .tile.free").all()}
        assert free == set(board.free_tiles()) and page.locator("#board .tile.blocked").count() == n - len(free) > 0
        # the tiles matching the selected one, on request
        t = min(free)
        same = {u for u in range(len(board)) if board.groups[u] == board.groups[t] and u != t}
        page.click(f'#board .tile[data-tile="{t}"]')
        assert page.locator("#board .tile.match").count() == 0
        page.check("#opt-match")
        assert {int(g.get_attribute("data-tile")) for g in page.locator("#board .tile.match").all()} == same
        page.keyboard.press("Escape")
        # numbers on request (t), kept over a reload, and faces back
        page.keyboard.press("t")
        assert page.locator("#board .tile text.label").count() == n
        assert page.locator("#board .tile use.face-img").count() == 0
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#board .tile text.label").count() == n
        page.uncheck("#opt-numbers")
        page.uncheck("#opt-match")
        assert page.locator("#board .tile use.face-img").count() == n
        # a hint names its tiles by face and place
        page.keyboard.press("h")
        page.wait_for_selector(".tile.hinted", timeout=20_000)
        message = page.text_content("#message")
        assert message.startswith("hint: ") and "row" in message and "tiles " not in message
        page.close()


def test_more_groups_than_faces_keep_faces_of_their_own(browser):
    import numpy as np

    from mjsat.board import MahjongBoard

    layout = load_layout("rect-24x12")
    groups = np.random.default_rng(3).permutation([t // 4 for t in range(len(layout))]).tolist()  # 72 groups
    session = Session(Game(MahjongBoard(layout, groups)), GameSettings(layout="rect-24x12"))
    with ServerThread(session) as url:
        page = _open(browser, url)
        pairs = page.eval_on_selector_all("#board .tile", "gs => gs.map(g => [g.dataset.face, g.dataset.group])")
        face_group = {}
        for face, group in pairs:
            assert face_group.setdefault(face, group) == group, face  # a face belongs to one group
        assert len(set(face_group.values())) == 72
        variants = {f for f in face_group if f.count("-") == 2}
        assert variants and page.locator("#board use.face-img").count() == len(layout)
        for face in list(variants)[:3]:  # drawn with the set's number in a corner
            mark = page.text_content(f"#board symbol#face-{face} text:last-of-type")
            assert mark == face.rsplit("-", 1)[1]
        page.close()


def test_new_game_replay_seed_and_restart(browser, worker):
    session = _dealt_session(worker, "rect-6x4", "shisen-sho", 5)
    with ServerThread(session) as url:
        page = _open(browser, url)
        assert page.get_attribute("#seed-shown", "data-seed") == "5"
        first = shown_groups(page)
        _deal(page, "#new")  # a new seed, a new board
        seed = page.get_attribute("#seed-shown", "data-seed")
        assert seed != "5" and shown_groups(page) != first
        assert session.game.board.groups == tuple(shown_groups(page)[t] for t in range(24))
        _deal(page, "#replay-seed", seed=5)  # the first deal again
        assert shown_groups(page) == first and page.get_attribute("#seed-shown", "data-seed") == "5"
        # two moves, then Restart: the same deal from the start, the clock at 0:00
        moves = solve(session.game.board.position_board()[0], "exact", time_limit=30).moves
        for a, b in moves[:2]:
            _click_pair(page, a, b)
        assert page.text_content("#count-moves") == "2"
        page.wait_for_function("parseInt(document.getElementById('clock').dataset.ms, 10) > 0")
        _deal(page, "#restart")
        assert shown_groups(page) == first and page.text_content("#count-moves") == "0"
        assert _clock_ms(page) < 1500 and page.get_attribute("#seed-shown", "data-seed") == "5"
        page.close()


def test_every_layout_and_kshisen_sizes_offered_and_a_deal_cancelled(browser, worker):
    from mjsat.game.web import layout_choices

    session = _dealt_session(worker, "rect-6x4", "shisen-sho", 5)
    with ServerThread(session) as url:
        page = _open(browser, url)
        page.wait_for_function("document.querySelectorAll('#layout option').length > 7")
        offered = set(page.eval_on_selector_all("#layout option", "os => os.map(o => o.value)"))
        sizes = {f"rect-{s}" for s in ("14x6", "16x9", "18x8", "24x12", "26x14", "30x16")}
        assert sizes <= offered and {d["name"] for d in layout_choices()} <= offered
        first = shown_groups(page)
        # a long deal shows its progress and stops on Cancel; the game on screen stays
        page.select_option("#layout", "rect-30x16")
        page.select_option("#difficulty", "hard")
        page.click("#new")
        page.wait_for_selector("#dealing:not([hidden])")
        page.wait_for_function("document.getElementById('deal-progress').textContent.includes('candidate')")
        page.click("#cancel")
        page.wait_for_function("document.getElementById('message').textContent == 'deal cancelled'", timeout=30_000)
        assert (
            page.is_hidden("#dealing") and shown_groups(page) == first and session.game.board.layout.name == "rect-6x4"
        )
        page.close()


def _deal_verdict(page):
    page.wait_for_function("document.getElementById('deal-verdict').dataset.verdict != ''", timeout=60_000)
    return page.get_attribute("#deal-verdict", "data-verdict")


def test_impossible_differs_from_hard_and_normal_and_says_its_verdict(browser, worker):
    session = _dealt_session(worker, "rect-8x6", "shisen-sho", 1, check_seconds=20.0)
    with ServerThread(session) as url:
        page = _open(browser, url)
        for spec, game_name, seed in (
            ("rect-8x6", "shisen-sho", 1),
            ("rect-8x6", "shisen-sho", 6),
            ("turtle", "mahjong", 1),
            ("turtle", "mahjong", 2),
        ):
            deals = {}
            for difficulty in ("normal", "hard", "impossible"):
                message = _deal(page, "#replay-seed", layout=spec, game=game_name, difficulty=difficulty, seed=seed)
                assert message == f"dealt: seed {seed}", (spec, seed, difficulty, message)
                deals[difficulty] = shown_groups(page)
                if difficulty != "impossible":
                    assert page.text_content("#deal-verdict") == ""  # said for impossible deals only
            assert deals["impossible"] != deals["normal"] and deals["impossible"] != deals["hard"], (spec, seed)
            if spec == "rect-8x6":  # the verdict, once the background check knows, is the exact method's
                verdict = _deal_verdict(page)
                exact = solve(shown_position(page, load_layout(spec), game_name), "exact", time_limit=60)
                assert verdict == exact.status, seed
                words = page.text_content("#deal-verdict")
                assert ("cannot be cleared" in words) == (verdict == "unsolvable")
        page.close()


def test_shuffle_gives_a_position_proved_solvable(browser, worker):
    session, order = _session(worker, "rect-6x4", "shisen-sho", 4)
    if "/api/shuffle" not in _routes(session):
        pytest.skip("this server has no /api/shuffle")
    layout = session.game.board.layout
    with ServerThread(session) as url:
        page = _open(browser, url)
        for a, b in order[:3]:
            _click_pair(page, a, b)
        before = shown_groups(page)
        page.keyboard.press("s")
        page.wait_for_function("document.getElementById('count-shuffles').textContent == '1'", timeout=60_000)
        after = shown_groups(page)
        assert set(after) == set(before) and sorted(after.values()) == sorted(before.values())
        position = shown_position(page, layout, "shisen-sho")
        result = solve(position, "exact", time_limit=60)
        assert result.status == "solvable"
        assert replay(position, result.moves).is_solved()
        page.close()


def test_clock_pauses_when_hidden_or_on_pause(browser, worker):
    session, _ = _session(worker, "rect-4x3", "shisen-sho", 3)
    with ServerThread(session) as url:
        page = _open(browser, url)
        page.wait_for_function("parseInt(document.getElementById('clock').dataset.ms, 10) >= 1200")
        assert page.get_attribute("#clock", "data-running") == "1"
        assert page.text_content("#clock") in ("0:01", "0:02", "0:03")
        page.click("#pause")
        assert page.get_attribute("#clock", "data-running") == "0" and page.is_visible("#paused")
        stopped = _clock_ms(page)
        page.wait_for_timeout(700)
        assert _clock_ms(page) == stopped
        page.click(f'#board .tile[data-tile="{0}"]', force=True)  # no play while paused
        assert page.locator("#board .tile.selected").count() == 0
        page.click("#resume")
        page.wait_for_function(f"parseInt(document.getElementById('clock').dataset.ms, 10) > {stopped}")
        page.keyboard.press("p")  # p pauses too, and goes on
        assert page.get_attribute("#clock", "data-running") == "0" and page.is_visible("#paused")
        page.keyboard.press("p")
        assert page.get_attribute("#clock", "data-running") == "1" and page.is_hidden("#paused")
        # the page hidden (another tab, a minimised window): the clock stands still
        hide = "v => { Object.defineProperty(document, 'visibilityState', {value: v, configurable: true});"
        hide += " document.dispatchEvent(new Event('visibilitychange')); }"
        page.evaluate(hide, "hidden")
        assert page.get_attribute("#clock", "data-running") == "0"
        stopped = _clock_ms(page)
        page.wait_for_timeout(700)
        assert _clock_ms(page) == stopped
        page.evaluate(hide, "visible")
        page.wait_for_function(f"parseInt(document.getElementById('clock').dataset.ms, 10) > {stopped}")
        # a reload goes on with the time of this deal
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert _clock_ms(page) >= stopped
        page.close()


def test_keyboard_play_clears_a_small_board(browser, worker):
    session, order = _session(worker, "rect-4x3", "shisen-sho", 3)
    board = session.game.board
    pos = board.layout.positions
    with ServerThread(session) as url:
        page = _open(browser, url)
        page.keyboard.press("?")
        assert page.is_visible("#help") and "hint" in page.text_content("#help-keys")
        page.keyboard.press("Escape")
        assert not page.is_visible("#help")
        cursor = None
        for i, move in enumerate(order):
            for target in move:
                tiles = [(t, pos[t][0], pos[t][1]) for t in board.free_tiles()]
                keys = arrow_path(tiles, cursor, target)
                assert keys is not None, (move, target)
                for key in keys:
                    page.keyboard.press(key)
                if keys:
                    assert page.get_attribute("#board", "data-cursor") == str(target)
                cursor = target
                before = _tiles(page)
                page.keyboard.press("Space")
            page.wait_for_function(f"document.querySelectorAll('#board .tile').length < {before}")
            cursor = None
            if i == 1:  # u takes the move back, r plays it again
                page.keyboard.press("u")
                page.wait_for_function(f"document.querySelectorAll('#board .tile').length == {before}")
                page.keyboard.press("r")
                page.wait_for_function(f"document.querySelectorAll('#board .tile').length == {before - 2}")
        page.wait_for_selector("#endcard:not([hidden])")
        assert session.game.status().won and page.text_content("#count-undos") == "1"
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


def test_bad_parameters_answer_400_with_a_message():
    board, _ = deal_solvable(load_layout("tiny"), seed=1)
    session = Session(Game(board), GameSettings(layout="tiny"))
    routes = _routes(session)
    bad = [
        ("/api/new", '{"seed": "seven"}'),
        ("/api/new", '{"seed": -1}'),
        ("/api/new", '{"seed": 1.5}'),
        ("/api/new", '{"layout": 5}'),
        ("/api/new", '{"layout": "../../etc/passwd"}'),
        ("/api/new", '{"difficulty": "trivial"}'),
        ("/api/new", '{"game": "chess"}'),
        ("/api/pair", '{"a": "x", "b": 1}'),
        ("/api/pair", "[1, 2]"),
        ("/api/load", '{"text": 5}'),
        ("/api/hint", "not json"),
        ("/api/shuffle", "[]"),
        ("/api/restart", '"x"'),
        ("/api/cancel", "{{"),
    ]
    server = ServerThread(session)
    with server:
        for path, body in bad:
            if path not in routes:
                continue
            status, answer = _raw(server.port, path, method="POST", body=body, ctype="application/json")
            assert status == 400, (path, body, answer)
            reason = json.loads(answer)["reason"]
            assert reason and "Traceback" not in reason, (path, body)
        # the game on screen is kept
        assert session.game.board.remaining() == len(board) and session.settings.layout == "tiny"
