"""The game in the browser: a small Starlette app served by uvicorn on 127.0.0.1.

The page (``static/``: plain HTML, CSS and JavaScript, nothing fetched from elsewhere)
draws the board as the SVG of :func:`mjsat.render.svg_board` does and talks to a JSON
API; every rule is the engine's (:class:`mjsat.game.engine.Game`). After each move the
server decides the new position in the background (:meth:`Game.check` in a thread that
waits on :class:`~mjsat.game.worker.SolverProcess`), so the event loop never waits for
a solver; ``GET /api/verdict`` answers once that check is done.

Routes: ``GET /`` the page, ``GET /static/NAME`` its assets (only the files listed in
:data:`ASSETS`, by name: no path is joined), ``GET /api/state``, ``POST /api/pair``
``{"a", "b"}``, ``POST /api/undo``, ``/api/redo``, ``/api/hint``, ``POST /api/new``
``{"difficulty", "seed", "layout", "game"}``, ``GET /api/save`` (the save file's text),
``POST /api/load`` ``{"text"}`` (the text of a file the browser read), ``GET
/api/verdict``, and the lessons' routes under ``/api/lesson`` (:mod:`mjsat.game.teach_web`).
A POST must be ``application/json`` and the ``Host`` must be the loopback address, so
other web pages cannot drive the game.
"""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from mjsat.board import GAMES
from mjsat.game import params
from mjsat.game.difficulty import DIFFICULTIES
from mjsat.game.engine import SOLVABLE, UNSOLVABLE, Game
from mjsat.game.params import BadRequestError
from mjsat.game.save import save_text
from mjsat.game.teach_web import lesson_routes
from mjsat.game.worker import GRACE_SECONDS, SolverProcess

__all__ = ["ASSETS", "PAGE_LAYOUTS", "GameSettings", "Session", "create_app", "bind_loopback", "ServerThread"]

ASSETS: dict[str, str] = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "teach.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
"""The only files the server sends, by name, with their media types."""

PAGE_LAYOUTS = ("turtle", "pyramid", "cross", "tiny", "rect-12x8", "rect-8x6", "rect-6x4")
"""Layouts the page offers for a new game (besides the one the game started with)."""

LOOPBACK = "127.0.0.1"


@dataclasses.dataclass
class GameSettings:
    """How new games are made and checked."""

    layout: str = "turtle"
    game: str = "mahjong"
    difficulty: str = "normal"
    seed: int = 0
    undo_limit: int = 10
    hint_limit: int = 10
    check_seconds: float = 2.0
    deal_seconds: float = 120.0
    playouts: int = 100


def _read_asset(name: str) -> bytes:
    return resources.files("mjsat.game").joinpath("static").joinpath(name).read_bytes()  # one part per call on 3.10


class Session:
    """The one game a server plays, with its settings and its background checks, and the
    lesson shown beside it (``lesson``: a :mod:`mjsat.game.teach` lesson of the game's
    board, or ``None``)."""

    def __init__(
        self, game: Game, settings: GameSettings, *, worker: SolverProcess | None = None, lesson: Any = None
    ) -> None:
        self.game = game
        self.settings = settings
        self.worker = worker
        self.lesson = lesson
        self.lesson_id = 0 if lesson is None else 1
        if worker is not None:
            game.decider = self._decide
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="mjsat-check")
        self.checks: dict[bytes, asyncio.Future[Any]] = {}

    def _decide(self, board: Any, time_limit: float) -> Any:
        assert self.worker is not None
        return self.worker.decide(board, time_limit, seed=self.settings.seed)

    # -- background checks
    def schedule_check(self) -> None:
        """Start deciding the current position unless it is known or under way."""
        if self.game.known().status in (SOLVABLE, UNSOLVABLE):
            return
        key = self.game.key()
        fut = self.checks.get(key)
        if fut is not None and not fut.done():
            return
        loop = asyncio.get_running_loop()
        self.checks[key] = loop.run_in_executor(self.executor, self.game.check, self.settings.check_seconds)

    async def wait_check(self) -> None:
        """Wait for the check of the current position, if one is running."""
        fut = self.checks.get(self.game.key())
        if fut is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(fut), self.settings.check_seconds + GRACE_SECONDS + 5)
        except Exception:  # a timeout or a failed check: the state says what is known
            pass

    # -- state for the page
    def state(self) -> dict[str, Any]:
        game = self.game
        board = game.board
        lay = board.layout
        present = board.presence
        tiles = [
            [t, r, c, l, board.names.get(g, str(g)), g, bool(present[t])]
            for t, ((r, c, l), g) in enumerate(zip(lay.positions, board.groups))
        ]
        status = game.status().to_dict()
        fut = self.checks.get(game.key())
        status["checking"] = bool(fut is not None and not fut.done())
        lesson = None
        if self.lesson is not None:
            lesson = {"id": self.lesson_id, "kind": self.lesson.kind}
            if hasattr(self.lesson, "free_play"):
                lesson["free"] = self.lesson.free_play(game.moves)
        return {
            "game": board.game,
            "layout": lay.name,
            "bounds": list(lay.bounds()),
            "levels": lay.levels,
            "tiles": tiles,
            "status": status,
            "meta": game.meta,
            "settings": dataclasses.asdict(self.settings),
            "games": list(GAMES),
            "layouts": sorted(set(PAGE_LAYOUTS) | {self.settings.layout}),
            "lesson": lesson,
        }

    def set_lesson(self, lesson: Any, game: Game | None = None) -> None:
        """Show ``lesson`` (or none) and, when given, play ``game`` instead of the current one."""
        if game is not None:
            self.game.replace_with(game)
            self.checks.clear()
        self.lesson = lesson
        self.lesson_id += 1


async def _json_body(request: Request) -> dict[str, Any]:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise BadRequestError("requests must be application/json")
    return params.json_object(await request.body())


def _int(data: dict[str, Any], key: str) -> int:
    return params.integer(data, key)


def create_app(session: Session) -> Starlette:
    """The Starlette app of ``session``."""

    async def page(request: Request) -> Response:
        return Response(_read_asset("index.html"), media_type=ASSETS["index.html"])

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS or name == "index.html":
            return JSONResponse({"error": "not found"}, status_code=404)
        return Response(_read_asset(name), media_type=ASSETS[name])

    async def state(request: Request) -> Response:
        session.schedule_check()
        return JSONResponse(session.state())

    async def verdict(request: Request) -> Response:
        await session.wait_check()
        return JSONResponse(session.state())

    async def pair(request: Request) -> Response:
        data = await _json_body(request)
        n = len(session.game.board)
        out = session.game.pair(params.integer(data, "a", high=n - 1), params.integer(data, "b", high=n - 1))
        if out.played:
            session.schedule_check()
        return JSONResponse(
            {
                "played": out.played,
                "move": list(out.move),
                "reason": out.reason,
                "path": out.path,
                "state": session.state(),
            }
        )

    def _undo_redo(which: str) -> Any:
        async def handler(request: Request) -> Response:
            await _json_body(request)
            try:
                move = getattr(session.game, which)()
            except ValueError as exc:
                return JSONResponse({"ok": False, "reason": str(exc), "state": session.state()})
            session.schedule_check()
            return JSONResponse({"ok": True, "move": list(move), "state": session.state()})

        return handler

    async def hint(request: Request) -> Response:
        await _json_body(request)
        await session.wait_check()
        loop = asyncio.get_running_loop()
        try:
            h = await loop.run_in_executor(session.executor, session.game.hint, session.settings.check_seconds)
        except RuntimeError as exc:  # the solver process failed: say so, show no move
            return JSONResponse(
                {"kind": "error", "move": None, "undos": None, "message": f"no hint: {exc}", "state": session.state()}
            )
        return JSONResponse(
            {
                "kind": h.kind,
                "move": list(h.move) if h.move else None,
                "undos": h.undos,
                "message": h.message,
                "state": session.state(),
            }
        )

    async def new(request: Request) -> Response:
        data = await _json_body(request)
        s = session.settings
        difficulty = params.name(data, "difficulty", DIFFICULTIES, s.difficulty)
        layout_name = data.get("layout", s.layout)
        game_name = data.get("game", s.game)
        seed = _int(data, "seed") if "seed" in data else s.seed + 1
        if not all(isinstance(v, str) for v in (difficulty, layout_name, game_name)):
            raise BadRequestError('"difficulty", "layout" and "game" must be names')
        if layout_name not in set(PAGE_LAYOUTS) | {s.layout}:
            raise BadRequestError(f"unknown layout {layout_name!r}")
        if game_name not in GAMES:
            raise BadRequestError(f"unknown game {game_name!r}")
        loop = asyncio.get_running_loop()
        settings = dataclasses.replace(s, difficulty=difficulty, layout=layout_name, game=game_name, seed=seed)
        try:
            game = await loop.run_in_executor(session.executor, new_game, settings, session.worker)
        except ValueError as exc:
            return JSONResponse({"ok": False, "reason": str(exc), "state": session.state()}, status_code=400)
        session.settings = settings
        session.set_lesson(None, game)
        session.schedule_check()
        return JSONResponse({"ok": True, "state": session.state()})

    async def save(request: Request) -> Response:
        return Response(save_text(session.game), media_type="application/json")

    async def load(request: Request) -> Response:
        data = await _json_body(request)
        text = data.get("text")
        name = str(data.get("name") or "the file")[:200]
        if not isinstance(text, str):
            raise BadRequestError('"text" must be the text of a save file')
        loop = asyncio.get_running_loop()
        try:
            loaded = await loop.run_in_executor(session.executor, Game.from_save_text, text, name)
        except ValueError as exc:  # the game on screen is kept
            return JSONResponse({"ok": False, "reason": str(exc), "state": session.state()}, status_code=400)
        session.set_lesson(None, loaded)
        session.schedule_check()
        return JSONResponse({"ok": True, "state": session.state()})

    async def bad_request(request: Request, exc: Exception) -> Response:
        return JSONResponse({"ok": False, "reason": str(exc)}, status_code=400)

    routes = [
        Route("/", page),
        Route("/static/{name}", asset),
        Route("/api/state", state),
        Route("/api/verdict", verdict),
        Route("/api/pair", pair, methods=["POST"]),
        Route("/api/undo", _undo_redo("undo"), methods=["POST"]),
        Route("/api/redo", _undo_redo("redo"), methods=["POST"]),
        Route("/api/hint", hint, methods=["POST"]),
        Route("/api/new", new, methods=["POST"]),
        Route("/api/save", save),
        Route("/api/load", load, methods=["POST"]),
        *lesson_routes(session),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=[LOOPBACK, "localhost"])],
        exception_handlers={BadRequestError: bad_request},
    )


def new_game(settings: GameSettings, worker: SolverProcess | None = None) -> Game:
    """A new game of ``settings`` (its deal found in ``worker`` when given).

    Raises
    ------
    ValueError
        Unknown layout, game or difficulty, or no deal found in time.
    """
    from mjsat.game.difficulty import find_deal
    from mjsat.layouts import load_layout

    layout = load_layout(settings.layout)
    kwargs: dict[str, Any] = {
        "difficulty": settings.difficulty,
        "seed": settings.seed,
        "game": settings.game,
        "playouts": settings.playouts,
    }
    if worker is not None:
        found = worker.find_deal(layout, timeout=settings.deal_seconds, **kwargs)
        if found is None:
            raise ValueError(f"no {settings.difficulty} deal found within {settings.deal_seconds:g} s")
        board, meta = found
    else:
        deal = find_deal(layout, **kwargs)
        board, meta = deal.board, deal.meta()
    return Game(board, undo_limit=settings.undo_limit, hint_limit=settings.hint_limit, meta=meta)


def bind_loopback(port: int | None = None) -> socket.socket:
    """A listening socket bound to 127.0.0.1 on ``port`` (a free one when ``None``)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((LOOPBACK, port or 0))
    sock.listen(128)  # connections wait in the backlog until the server accepts them
    return sock


class ServerThread:
    """Serve ``session`` on 127.0.0.1 from a thread: ``with ServerThread(s) as url:``."""

    def __init__(self, session: Session, port: int | None = None) -> None:
        import uvicorn

        self.session = session
        self.sock = bind_loopback(port)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://{LOOPBACK}:{self.port}/"
        config = uvicorn.Config(create_app(session), log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> str:
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the game server did not start")
            self.thread.join(0.02)
        return self.url

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
        self.session.executor.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def serve(session: Session, *, port: int | None = None, open_browser: bool = True, echo: Any = print) -> None:
    """Serve ``session`` until interrupted, printing the address (and opening a browser)."""
    import uvicorn

    sock = bind_loopback(port)
    url = f"http://{LOOPBACK}:{sock.getsockname()[1]}/"
    echo(f"mjsat game: {url}  (Ctrl-C stops the server)")
    if open_browser:
        import webbrowser

        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(create_app(session), log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        session.executor.shutdown(wait=False, cancel_futures=True)
