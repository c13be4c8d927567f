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
``{"difficulty", "seed", "layout", "game"}`` (without ``seed``: a fresh seed, drawn from
the session's generator; with one: that deal again), ``POST /api/restart`` (the same
deal from the start), ``POST /api/shuffle`` (the tiles left dealt again into a position
proved solvable), ``GET /api/deal`` (the progress of a deal under way: candidates
tried, seconds), ``POST /api/cancel`` (end it), ``GET /api/layouts`` (every layout
shipped or discovered, and KShisen's sizes), ``GET /api/save`` (the save file's text),
``POST /api/load`` ``{"text"}`` (the text of a file the browser read), ``GET
/api/verdict``, and the lessons' routes under ``/api/lesson`` (:mod:`mjsat.game.teach_web`).
The state lists each tile as ``[t, row, col, lev, label, group, present, face]``
(``face``: a face id of :mod:`mjsat.game.faces`), the free tiles, the deal's ``seed``
(the one that deals it again), its ``difficulty`` and the ``counts`` of moves, hints,
undos and shuffles used.
A POST must be ``application/json`` and the ``Host`` must be the loopback address, so
other web pages cannot drive the game.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import signal
import socket
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

import numpy as np
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
from mjsat.game.worker import GRACE_SECONDS, SolverProcess, WorkerError

__all__ = ["ASSETS", "PAGE_LAYOUTS", "GameSettings", "Session", "create_app", "bind_loopback", "ServerThread"]

ASSETS: dict[str, str] = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "faces.js": "text/javascript; charset=utf-8",
    "teach.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "teach.css": "text/css; charset=utf-8",
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
    faces: str = "faces"
    deal_seconds: float = 120.0
    playouts: int = 100


def _read_asset(name: str) -> bytes:
    return resources.files("mjsat.game").joinpath("static").joinpath(name).read_bytes()  # one part per call on 3.10


class Session:
    """The one game a server plays, with its settings and its background checks, and the
    lesson shown beside it (``lesson``: a :mod:`mjsat.game.teach` lesson of the game's
    board, or ``None``)."""

    def __init__(
        self,
        game: Game,
        settings: GameSettings,
        *,
        worker: SolverProcess | None = None,
        lesson: Any = None,
        seeds: np.random.Generator | None = None,
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
        self.seeds = seeds if seeds is not None else np.random.default_rng()
        self.dealing: dict[str, Any] | None = None
        self.cancel_deal = threading.Event()

    def next_seed(self) -> int:
        """A fresh seed for a new deal (from the session's generator: OS entropy unless given)."""
        return int(self.seeds.integers(2**31))

    def deal_progress(self, info: dict[str, Any]) -> None:
        """Record the progress report of the deal under way (see :meth:`SolverProcess.find_deal`)."""
        if self.dealing is not None:
            self.dealing = {**self.dealing, **info}

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
        faces = game.faces()
        tiles = [
            [t, r, c, l, board.names.get(g, str(g)), g, bool(present[t]), faces[t]]
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
            "free": board.free_tiles(),
            "status": status,
            "seed": game.meta.get("deal_seed"),
            "difficulty": game.meta.get("difficulty"),
            "counts": game.counts(),
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
        seed = _int(data, "seed") if "seed" in data else session.next_seed()
        if not 0 <= seed < 2**63:
            raise BadRequestError('"seed" must be 0 or more and below 2**63')
        if not all(isinstance(v, str) for v in (difficulty, layout_name, game_name)):
            raise BadRequestError('"difficulty", "layout" and "game" must be names')
        if layout_name not in set(PAGE_LAYOUTS) | {s.layout} and not _known_layout(layout_name):
            raise BadRequestError(f"unknown layout {layout_name!r}")
        if game_name not in GAMES:
            raise BadRequestError(f"unknown game {game_name!r}")
        loop = asyncio.get_running_loop()
        if difficulty not in DIFFICULTIES:
            raise BadRequestError(f"unknown difficulty {difficulty!r}")
        settings = dataclasses.replace(s, difficulty=difficulty, layout=layout_name, game=game_name, seed=seed)
        if session.dealing is not None:
            raise BadRequestError("a deal is under way")
        session.dealing = {"candidates": 0, "seconds": 0.0, "seed": seed}
        session.cancel_deal.clear()
        try:
            game = await loop.run_in_executor(
                session.executor, new_game, settings, session.worker, session.deal_progress, session.cancel_deal
            )
        except DealCancelledError as exc:
            return JSONResponse({"ok": False, "cancelled": True, "reason": str(exc), "state": session.state()})
        except ValueError as exc:
            return JSONResponse({"ok": False, "reason": str(exc), "state": session.state()}, status_code=400)
        finally:
            session.dealing = None
        session.settings = settings
        session.set_lesson(None, game)
        session.schedule_check()
        return JSONResponse({"ok": True, "state": session.state()})

    async def save(request: Request) -> Response:
        return Response(save_text(session.game), media_type="application/json")

    async def restart(request: Request) -> Response:
        await _json_body(request)
        session.game.restart()
        session.checks.clear()
        session.schedule_check()
        return JSONResponse({"ok": True, "state": session.state()})

    async def shuffle(request: Request) -> Response:
        await _json_body(request)
        loop = asyncio.get_running_loop()
        out = await loop.run_in_executor(session.executor, session.game.shuffle, session.next_seed())
        if out.ok:
            session.checks.clear()
        return JSONResponse(
            {"ok": out.ok, "reason": None if out.ok else out.message, "message": out.message, "state": session.state()}
        )

    async def deal_state(request: Request) -> Response:
        d = session.dealing
        if d is None:
            return JSONResponse({"dealing": False})
        return JSONResponse({"dealing": True, **d})

    async def cancel(request: Request) -> Response:
        await _json_body(request)
        if session.dealing is None or session.worker is None:
            return JSONResponse({"ok": False, "reason": "no deal is under way"})
        session.cancel_deal.set()
        return JSONResponse({"ok": True})

    async def layouts(request: Request) -> Response:
        return JSONResponse({"layouts": layout_choices(), "sizes": [f"rect-{w}x{h}" for w, h in KSHISEN_SIZES]})

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
        Route("/api/restart", restart, methods=["POST"]),
        Route("/api/shuffle", shuffle, methods=["POST"]),
        Route("/api/deal", deal_state),
        Route("/api/cancel", cancel, methods=["POST"]),
        Route("/api/layouts", layouts),
        Route("/api/load", load, methods=["POST"]),
        *lesson_routes(session),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=[LOOPBACK, "localhost"])],
        exception_handlers={BadRequestError: bad_request},
    )


class DealCancelledError(ValueError):
    """The deal was cancelled (or took longer than the settings allow)."""


KSHISEN_SIZES = ((14, 6), (16, 9), (18, 8), (24, 12), (26, 14), (30, 16))
"""KShisen's board sizes (width x height in tiles), offered as ``rect-WxH`` layouts."""


@functools.lru_cache(maxsize=1)
def _layout_list() -> tuple[dict[str, Any], ...]:
    from mjsat.layouts import list_layouts, load_layout

    found = {info.name: {"name": info.name, "tiles": info.tiles, "source": info.source} for info in list_layouts()}
    for name in PAGE_LAYOUTS:
        found.setdefault(name, {"name": name, "tiles": len(load_layout(name)), "source": "generated"})
    return tuple(found[name] for name in sorted(found))


def layout_choices() -> list[dict[str, Any]]:
    """Every layout shipped or discovered and those of :data:`PAGE_LAYOUTS`: ``{"name",
    "tiles", "source"}``, by name (the folders are searched once per process)."""
    return [dict(d) for d in _layout_list()]


def _known_layout(name: str) -> bool:
    if name in {f"rect-{w}x{h}" for w, h in KSHISEN_SIZES}:
        return True
    return any(info["name"] == name for info in layout_choices())


def new_game(
    settings: GameSettings,
    worker: SolverProcess | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    cancel: threading.Event | None = None,
) -> Game:
    """A new game of ``settings`` (its deal found in ``worker`` when given); ``progress``
    receives the deal's reports (candidates tried, seconds); setting ``cancel`` ends a
    deal made in ``worker``.

    Raises
    ------
    DealCancelledError
        The deal was cancelled or took too long.
    ValueError
        Unknown layout, game or difficulty, or no deal found among the candidates.
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
        try:
            found = worker.find_deal(layout, timeout=settings.deal_seconds, progress=progress, cancel=cancel, **kwargs)
        except WorkerError as exc:  # no deal among the candidates, said by the child
            raise ValueError(str(exc)) from None
        if found is None:
            raise DealCancelledError(f"no {settings.difficulty} deal within {settings.deal_seconds:g} s, or cancelled")
        board, meta = found
    else:
        deal = find_deal(layout, progress=progress, **kwargs)
        board, meta = deal.board, deal.meta()
    meta = {**meta, "deal_seed": settings.seed}  # the seed that deals this board again
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
    """Serve ``session`` until interrupted, printing the address (and opening a browser).

    ``SIGINT`` and ``SIGTERM`` stop the server at any moment, also while it starts (a
    handler of ours stands until uvicorn's, and asyncio's runner then leaves it alone);
    then ``KeyboardInterrupt`` is raised, or ``SystemExit(128 + signal)`` for ``SIGTERM``.
    """
    import uvicorn

    sock = bind_loopback(port)
    url = f"http://{LOOPBACK}:{sock.getsockname()[1]}/"
    server = uvicorn.Server(uvicorn.Config(create_app(session), log_level="warning", lifespan="off"))
    caught: list[int] = []

    def stop(sig: int, frame: Any) -> None:  # before uvicorn's own handlers are in place
        caught.append(sig)
        server.should_exit = True

    main = threading.current_thread() is threading.main_thread()
    # the handlers stand before the address is printed: a Ctrl-C right after it stops the server
    saved = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)} if main else {}
    try:
        echo(f"mjsat game: {url}  (Ctrl-C stops the server)")
        if open_browser:
            import webbrowser

            threading.Timer(0.5, webbrowser.open, args=(url,)).start()
        server.run(sockets=[sock])
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        sock.close()
        session.executor.shutdown(wait=False, cancel_futures=True)
    if signal.SIGINT in caught:
        raise KeyboardInterrupt
    if caught:
        raise SystemExit(128 + caught[0])
