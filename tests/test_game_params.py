"""The page's API answers 400 with a message for every bad parameter: the wrong type, out
of range, huge and missing, sent to every route (the server on 127.0.0.1 in a thread,
requests by http.client: Starlette's TestClient needs httpx, which the project lacks)."""

from __future__ import annotations

import http.client
import json
import types
from urllib.parse import urlsplit

import pytest

from mjsat.deals import deal_solvable
from mjsat.game.engine import Game
from mjsat.game.web import GameSettings, ServerThread, Session
from mjsat.layouts import load_layout

HUGE = "9" * 5000  # a JSON integer of 5,000 digits (as text: Python will not print it)
WRONG_TYPES = ["1", 1.5, True, None, [1], {"a": 1}]


@pytest.fixture(scope="module")
def client():
    board, _ = deal_solvable(load_layout("rect-4x3"), seed=3, game="shisen-sho")
    session = Session(Game(board), GameSettings(layout="rect-4x3", game="shisen-sho", seed=3))
    with ServerThread(session) as url:
        yield types.SimpleNamespace(session=session, port=urlsplit(url).port)


def _post(client, route, body):
    text = body if isinstance(body, str) else json.dumps(body)
    conn = http.client.HTTPConnection("127.0.0.1", client.port, timeout=60)
    try:
        conn.request("POST", route, body=text.encode(), headers={"Content-Type": "application/json"})
        res = conn.getresponse()
        data = res.read()
    finally:
        conn.close()
    return types.SimpleNamespace(status_code=res.status, text=data.decode(), json=lambda: json.loads(data))


def _refused(client, route, body, *words):
    before = client.session.game.state()
    res = _post(client, route, body)
    assert res.status_code == 400, (route, body if len(str(body)) < 200 else "...", res.status_code, res.text[:300])
    reason = res.json()["reason"]
    assert isinstance(reason, str) and reason and "\n" not in reason
    for w in words:
        assert w in reason, reason
    assert client.session.game.state() == before
    return reason


ROUTES = [
    "/api/pair", "/api/undo", "/api/redo", "/api/hint", "/api/new", "/api/load", "/api/lesson/formula",
    "/api/lesson/guided", "/api/lesson/tryall", "/api/lesson/position", "/api/lesson/height2",
    "/api/lesson/height2/play", "/api/lesson/close",
]  # fmt: skip


@pytest.mark.parametrize("route", ROUTES)
def test_a_5000_digit_integer_anywhere_in_a_body_is_400(client, route):
    _refused(client, route, f'{{"a": {HUGE}, "b": 1, "seed": 1}}', "5000 digits")
    _refused(client, route, f'{{"x": [{HUGE}]}}', "5000 digits")
    _refused(client, route, '{"a": 1, "a": 2}', "twice")
    _refused(client, route, "[" * 100 + "]" * 100, "nested")


@pytest.mark.parametrize("key", ["a", "b"])
def test_pair_parameters(client, key):
    n = len(client.session.game.board)
    good = {"a": 0, "b": 1}
    for value in WRONG_TYPES:
        _refused(client, "/api/pair", {**good, key: value}, f'"{key}"')
    for value in (-1, n, 2**63, -(2**70)):
        _refused(client, "/api/pair", {**good, key: value}, f'"{key}"', f"0..{n - 1}")
    _refused(client, "/api/pair", {k: v for k, v in good.items() if k != key}, f'"{key}" is missing')


@pytest.mark.parametrize(
    "key, bad",
    [
        ("difficulty", ["x", "", 1, None, ["normal"], "n" * 5000]),
        ("seed", [-1, 2**63, "1", 1.5, True, None, -(10**29)]),
        ("layout", ["nope", 1, None, "x" * 5000]),
        ("game", ["nope", 1, None, {}]),
    ],
)
def test_new_parameters(client, key, bad):
    for value in bad:
        _refused(client, "/api/new", {key: value}, f'"{key}"' if key in ("difficulty", "seed") else "")


def test_load_parameters(client):
    for value in WRONG_TYPES:
        _refused(client, "/api/load", {"text": value}, "" if isinstance(value, str) else '"text"')
    _refused(client, "/api/load", {}, '"text"')
    _refused(client, "/api/load", {"text": f'{{"format": "mjsat-game", "version": {HUGE}}}'}, "5000 digits")
    _refused(client, "/api/load", {"text": "{}" * 10}, "")


def test_formula_parameters(client):
    for value in WRONG_TYPES:
        _refused(client, "/api/lesson/formula", {"text": value}, "" if isinstance(value, str) else '"text"')
        if value is not None and not isinstance(value, str):
            _refused(client, "/api/lesson/formula", {"text": "p cnf 1 1\n1 0\n", "target": value}, '"target"')
    _refused(client, "/api/lesson/formula", {}, '"text"')
    _refused(client, "/api/lesson/formula", {"text": f"p cnf {HUGE} 1\n1 0\n"}, "")


@pytest.mark.parametrize("route, key", [("/api/lesson/guided", "values"), ("/api/lesson/position", "moves")])
def test_lesson_parameters_without_a_lesson(client, route, key):
    for value in [*WRONG_TYPES, HUGE]:  # HUGE goes as a number
        _refused(client, route, {key: value} if value != HUGE else f'{{"{key}": {HUGE}}}')
    _refused(client, route, {})


@pytest.mark.parametrize(
    "key, bad",
    [
        ("seed", [-1, 2**63, "1", 1.5, True, None, [0]]),
        ("tiles", [-2, 0, 3, 401, 2**63, "16", 16.0, True, None]),
        ("board", ["x", 1, None, ["planted"], {}]),
    ],
)
def test_height2_parameters(client, key, bad):
    good = {"board": "planted", "seed": 1, "tiles": 8}
    for value in bad:
        _refused(client, "/api/lesson/height2", {**good, key: value}, f'"{key}"')


def test_height2_play_parameters(client):
    res = _post(client, "/api/lesson/height2", {"board": "planted", "seed": 1, "tiles": 8})
    assert res.status_code == 200, res.text
    try:
        for value in [-1, 2**63, "1", 1.5, True, None]:
            _refused(client, "/api/lesson/height2/play", {"seed": value}, '"seed"')
        for value in ["x", 1, None, ["theorem5"]]:
            _refused(client, "/api/lesson/height2/play", {"strategy": value}, "")
    finally:
        _post(client, "/api/lesson/close", {})
