"""The game's JSON API as the page uses it: honest new games (a fresh seed, or the same
deal again), restart, shuffle, deal progress and cancel, the layouts; bad parameters are
answered 400 with a message."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

from mjsat.deals import deal_solvable
from mjsat.game.engine import Game
from mjsat.game.web import KSHISEN_SIZES, GameSettings, ServerThread, Session
from mjsat.layouts import load_layout
from mjsat.methods import solve
from mjsat.replay import replay


def _call(url, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path.lstrip("/"), data=data, method="GET" if body is None else "POST")
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=120) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _tiles(state):
    return [(t[4], t[6]) for t in state["tiles"]]


@pytest.fixture
def served(worker):
    board, _ = deal_solvable(load_layout("rect-6x4"), seed=5, game="shisen-sho")
    settings = GameSettings(layout="rect-6x4", game="shisen-sho", seed=5, playouts=20)
    session = Session(
        Game(board, meta={"difficulty": "normal"}), settings, worker=worker, seeds=np.random.default_rng(1)
    )
    with ServerThread(session) as url:
        yield url, session


def test_new_game_deals_a_fresh_seed_and_a_seed_replays_its_deal(served):
    url, _ = served
    status, first = _call(url, "/api/new", {})
    assert status == 200 and first["ok"]
    status, second = _call(url, "/api/new", {})
    assert second["ok"] and second["state"]["seed"] != first["state"]["seed"]
    assert _tiles(second["state"]) != _tiles(first["state"])
    seed = first["state"]["seed"]
    status, again = _call(url, "/api/new", {"seed": seed})
    assert again["state"]["seed"] == seed and _tiles(again["state"]) == _tiles(first["state"])
    st = again["state"]
    assert st["difficulty"] == "normal" and st["counts"] == {"moves": 0, "hints": 0, "undos": 0, "shuffles": 0}


def test_impossible_is_never_the_normal_or_hard_deal_of_its_seed(served):
    url, session = served
    session.settings.playouts = 100
    for seed in (0, 1, 2, 3):
        deals = {}
        for difficulty in ("normal", "hard", "impossible"):
            status, res = _call(url, "/api/new", {"seed": seed, "difficulty": difficulty, "layout": "rect-12x8"})
            assert status == 200 and res["ok"], res
            deals[difficulty] = _tiles(res["state"])
        assert deals["impossible"] != deals["normal"] and deals["impossible"] != deals["hard"]
        # the background check says whether the impossible deal can be cleared
        status, res = _call(url, "/api/verdict")
        assert res["status"]["verdict"] in ("solvable", "unsolvable")


def test_restart_and_shuffle(served):
    url, session = served
    start = _tiles(_call(url, "/api/state")[1])
    hint = _call(url, "/api/hint", {})[1]
    a, b = hint["move"]
    assert _call(url, "/api/pair", {"a": a, "b": b})[1]["played"]
    status, res = _call(url, "/api/shuffle", {})
    assert status == 200 and res["ok"], res
    st = res["state"]
    assert st["counts"]["shuffles"] == 1 and st["status"]["verdict"] == "solvable"
    # the same places are left; the position is clearable by an exact method
    presence = [t[6] for t in st["tiles"]]
    assert presence == [t not in (a, b) for t in range(len(presence))]
    sub, _ = session.game.board.position_board()
    result = solve(sub, "exact", time_limit=30)
    assert result.status == "solvable"
    replay(sub, result.moves)
    status, res = _call(url, "/api/restart", {})
    assert res["ok"] and _tiles(res["state"]) == start
    assert res["state"]["counts"] == {"moves": 0, "hints": 0, "undos": 0, "shuffles": 0}


def test_layouts_and_deal_progress_and_cancel(served):
    url, session = served
    status, res = _call(url, "/api/layouts")
    names = [d["name"] for d in res["layouts"]]
    assert status == 200 and "turtle" in names and "rect-12x8" in names
    assert res["sizes"] == [f"rect-{w}x{h}" for w, h in KSHISEN_SIZES]
    assert _call(url, "/api/deal")[1] == {"dealing": False}
    session.settings.playouts = 100
    answer = {}
    t = threading.Thread(
        target=lambda: answer.update(
            res=_call(url, "/api/new", {"layout": "rect-30x16", "game": "shisen-sho", "difficulty": "hard"})
        )
    )
    t.start()
    try:
        end = time.monotonic() + 60
        while True:
            progress = _call(url, "/api/deal")[1]
            if progress.get("dealing") or time.monotonic() > end:
                break
            time.sleep(0.1)
        assert progress["dealing"] and progress["candidates"] >= 0 and progress["seconds"] >= 0, progress
        assert _call(url, "/api/cancel", {})[1]["ok"]
    finally:
        t.join(60)
    status, res = answer["res"]
    assert status == 200 and res["cancelled"] and not res["ok"]
    assert res["state"]["layout"] == "rect-6x4"  # the game on screen is kept
    assert _call(url, "/api/deal")[1] == {"dealing": False}


@pytest.mark.parametrize(
    "path, body, words",
    [
        ("/api/new", {"seed": -1}, "seed"),
        ("/api/new", {"seed": "7"}, "seed"),
        ("/api/new", {"difficulty": "easy"}, "difficulty"),
        ("/api/new", {"layout": "../etc/passwd"}, "layout"),
        ("/api/new", {"game": 3}, "names"),
        ("/api/restart", [], "object"),
        ("/api/shuffle", [1], "object"),
        ("/api/cancel", "x", "object"),
    ],
)
def test_bad_parameters_are_400_with_a_message(served, path, body, words):
    url, _ = served
    status, res = _call(url, path, body)
    assert status == 400 and words in res["reason"], res


def test_a_save_with_odd_meta_loads_and_its_state_is_served(served):
    url, session = served
    save = json.loads(_raw_save(url))
    for meta in ({"deal_seed": "x", "difficulty": [1]}, {"deal_seed": float("1e300")}, {"deal_seed": True}):
        save["meta"] = meta
        status, res = _call(url, "/api/load", {"text": json.dumps(save), "name": "odd.json"})
        assert status == 200 and res["ok"], res
        faces = [t[7] for t in res["state"]["tiles"]]
        assert all(isinstance(f, str) and f for f in faces)
        assert _call(url, "/api/state")[0] == 200


def _raw_save(url):
    with urllib.request.urlopen(url + "api/save", timeout=60) as res:
        return res.read().decode()
