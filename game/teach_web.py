"""The lessons' part of the game server: routes under ``/api/lesson``.

Every route answers JSON; every POST takes a JSON object (the guards of
:func:`mjsat.game.web.create_app` apply). The lessons' work (reductions, plays, every
assignment) runs in the session's thread pool, so the event loop never waits for it.

* ``GET /api/lesson``: ``{"id", "lesson"}``, the lesson shown (its
  :meth:`describe`, with the board's picture) or ``null``.
* ``POST /api/lesson/formula`` ``{"text", "target"}``: a formula (DIMACS or infix) and
  its reduction board; the game restarts on that board.
* ``POST /api/lesson/guided`` ``{"values": [true, false, ...]}``: the intended play of an
  assignment (:meth:`FormulaLesson.guided`).
* ``POST /api/lesson/tryall`` ``{"offset", "count"}``: a batch of the assignments of
  :meth:`FormulaLesson.samples` (all of them up to the bound without ``count``;
  :meth:`FormulaLesson.try_all`); the page asks batch after batch, with progress and Cancel.
* ``POST /api/lesson/position`` ``{"moves": [[a, b], ...]}``: the game restarts on the
  lesson's board with these moves played (each checked by the engine), to play on by hand
  from a position of a guided play.
* ``POST /api/lesson/height2`` ``{"board": "current" | "planted" | "random", "seed",
  "tiles"}``: a height-two lesson of the game's board (its full deal) or of a new board.
* ``POST /api/lesson/height2/play`` ``{"strategy", "seed"}``: a play of Theorem 5 or 7
  (:meth:`Height2Lesson.play`).
* ``POST /api/lesson/close`` ``{}``: back to the plain game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from mjsat.game.engine import Game
from mjsat.game.teach import FormulaLesson, Height2Lesson, LessonError

__all__ = ["lesson_routes", "lesson_game", "MAX_FORMULA_CHARS"]

MAX_FORMULA_CHARS = 1_000_000
"""Longest formula text the page may send."""

TRY_ALL_BATCH = 256
"""Most assignments one request of ``/api/lesson/tryall`` runs (the page asks in batches)."""

HEIGHT2_MAX_TILES = 400
"""Largest height-two board the page deals."""


def lesson_game(lesson: Any, *, hint_limit: int = 10) -> Game:
    """A new game on a lesson's board (its full deal); every move can be taken back."""
    board = lesson.board.copy(stack=False)
    return Game(
        board, undo_limit=len(board) // 2, hint_limit=hint_limit, meta={"lesson": lesson.kind, "source": lesson.source}
    )


def lesson_routes(session: Any) -> list[Route]:
    """The routes of the lessons of ``session`` (a :class:`mjsat.game.web.Session`)."""
    from mjsat.game.web import BadRequestError, _int, _json_body

    async def run(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(session.executor, fn, *args)

    def refused(exc: Exception) -> Response:
        return JSONResponse({"ok": False, "reason": str(exc), "state": session.state()}, status_code=400)

    def lesson_of(kind: type[Any]) -> Any:
        if not isinstance(session.lesson, kind):
            raise BadRequestError(f"no {kind.kind} lesson is shown")
        return session.lesson

    async def show(request: Request) -> Response:
        lesson = session.lesson
        data = None if lesson is None else await run(lesson.describe)
        return JSONResponse({"id": session.lesson_id, "lesson": data})

    async def formula(request: Request) -> Response:
        data = await _json_body(request)
        text, target = data.get("text"), data.get("target", "stacks")
        if not isinstance(text, str) or not isinstance(target, str):
            raise BadRequestError('"text" must be the formula and "target" a target name')
        if len(text) > MAX_FORMULA_CHARS:
            raise BadRequestError(f"the formula has {len(text):,} characters, more than {MAX_FORMULA_CHARS:,}")
        try:
            lesson = await run(FormulaLesson.from_text, text, target)
            described = await run(lesson.describe)
        except ValueError as exc:  # a formula that does not parse, a board too large: the game is kept
            return refused(exc)
        session.set_lesson(lesson, lesson_game(lesson, hint_limit=session.settings.hint_limit))
        session.schedule_check()
        return JSONResponse({"ok": True, "id": session.lesson_id, "lesson": described, "state": session.state()})

    async def guided(request: Request) -> Response:
        data = await _json_body(request)
        lesson = lesson_of(FormulaLesson)
        values = data.get("values")
        if not isinstance(values, list):
            raise BadRequestError('"values" must be a list of true/false, one per variable')
        try:
            play = await run(lesson.guided, values)
        except LessonError as exc:
            raise BadRequestError(str(exc)) from None
        return JSONResponse({"ok": True, "play": play})

    async def try_all(request: Request) -> Response:
        data = await _json_body(request)
        lesson = lesson_of(FormulaLesson)
        offset = _int(data, "offset") if "offset" in data else 0
        count = _int(data, "count") if "count" in data else None
        if offset < 0 or (count is not None and not 1 <= count <= TRY_ALL_BATCH):
            raise BadRequestError(f'"offset" must be >= 0 and "count" 1..{TRY_ALL_BATCH}')
        return JSONResponse({"ok": True, **await run(lambda: lesson.try_all(offset=offset, count=count))})

    async def position(request: Request) -> Response:
        data = await _json_body(request)
        lesson = session.lesson
        if lesson is None:
            raise BadRequestError("no lesson is shown")
        moves = data.get("moves")
        if not isinstance(moves, list) or len(moves) > len(lesson.board) // 2:
            raise BadRequestError('"moves" must be a list of moves of the lesson\'s board')
        game = lesson_game(lesson, hint_limit=session.settings.hint_limit)
        for k, m in enumerate(moves, 1):
            if not (
                isinstance(m, list) and len(m) == 2 and all(isinstance(t, int) and not isinstance(t, bool) for t in m)
            ):
                raise BadRequestError(f"move {k} is not a pair of tile numbers")
            out = game.pair(*m)
            if not out.played:
                raise BadRequestError(f"move {k} ({m[0]}, {m[1]}) is refused: {out.reason}")
        session.game.replace_with(game)  # the same lesson: the page keeps its picture
        session.checks.clear()
        session.schedule_check()
        return JSONResponse({"ok": True, "state": session.state()})

    async def height2(request: Request) -> Response:
        data = await _json_body(request)
        which = data.get("board", "current")
        try:
            if which == "current":
                lesson = await run(
                    lambda: Height2Lesson(
                        session.game.board, source=str(session.game.meta.get("source") or "the board")
                    )
                )
            elif which in ("planted", "random"):
                seed = _int(data, "seed") if "seed" in data else session.settings.seed
                tiles = _int(data, "tiles") if "tiles" in data else 16
                if not 2 <= tiles <= HEIGHT2_MAX_TILES or tiles % 2:
                    raise BadRequestError(f'"tiles" must be an even number of 2..{HEIGHT2_MAX_TILES}')
                make = Height2Lesson.planted if which == "planted" else Height2Lesson.random
                lesson = await run(make, seed, tiles)
            else:
                raise BadRequestError('"board" is "current", "planted" or "random"')
            described = await run(lesson.describe)
        except LessonError as exc:
            return refused(exc)
        session.set_lesson(lesson, lesson_game(lesson, hint_limit=session.settings.hint_limit))
        session.schedule_check()
        return JSONResponse({"ok": True, "id": session.lesson_id, "lesson": described, "state": session.state()})

    async def height2_play(request: Request) -> Response:
        data = await _json_body(request)
        lesson = lesson_of(Height2Lesson)
        strategy = data.get("strategy", "theorem5")
        seed = _int(data, "seed") if "seed" in data else 0
        if not isinstance(strategy, str):
            raise BadRequestError('"strategy" must be a name')
        try:
            play = await run(lesson.play, strategy, seed)
        except LessonError as exc:
            raise BadRequestError(str(exc)) from None
        return JSONResponse({"ok": True, "play": play})

    async def close(request: Request) -> Response:
        await _json_body(request)
        session.set_lesson(None)
        return JSONResponse({"ok": True, "state": session.state()})

    return [
        Route("/api/lesson", show),
        Route("/api/lesson/formula", formula, methods=["POST"]),
        Route("/api/lesson/guided", guided, methods=["POST"]),
        Route("/api/lesson/tryall", try_all, methods=["POST"]),
        Route("/api/lesson/position", position, methods=["POST"]),
        Route("/api/lesson/height2", height2, methods=["POST"]),
        Route("/api/lesson/height2/play", height2_play, methods=["POST"]),
        Route("/api/lesson/close", close, methods=["POST"]),
    ]
