"""A child process that solves positions and finds deals for an interface.

The exact methods run compiled code that holds Python's global lock, so a solve in a
thread of the server would still stall its event loop. :class:`SolverProcess` runs them
in one child process instead (started with ``spawn``, so no server thread is copied);
the caller's thread waits on a pipe, which releases the lock. A request that outlives
its time limit plus :data:`GRACE_SECONDS` ends the child, which is started again on the
next request, and is answered ``unknown``.

The child is started with ``SIGINT`` ignored (a Ctrl-C in the terminal is the parent's to
handle: the child ends when its pipe closes or on ``SIGTERM``/``SIGKILL``) and with
standard streams that have file descriptors: an interface such as Textual replaces
``sys.stderr`` by an object whose ``fileno()`` is ``-1``, which multiprocessing would
pass to the child it starts. :meth:`SolverProcess.start` starts it before such an
interface runs.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from mjsat.board import Board, Layout
from mjsat.result import UNKNOWN, SolveResult

__all__ = ["GRACE_SECONDS", "SolverProcess", "WorkerError"]

GRACE_SECONDS = 3.0
"""Seconds a request may overrun its time limit before the child is ended."""


def _decide(board_json: str, method: str, time_limit: float, seed: int, report: Any) -> dict[str, Any]:
    from mjsat.boardio import board_from_json_text
    from mjsat.methods import solve

    result = solve(board_from_json_text(board_json), method, time_limit=time_limit, seed=seed)
    return {
        "status": result.status,
        "method": result.method,
        "moves": [list(m) for m in result.moves],
        "seconds": result.seconds,
        "reason": result.reason,
    }


def _deal(
    positions: list[list[int]], name: str, any_higher: bool, kwargs: dict[str, Any], report: Any
) -> dict[str, Any]:
    from mjsat.boardio import board_to_json
    from mjsat.game.difficulty import find_deal

    layout = Layout(positions, name=name, block_any_higher=any_higher)
    deal = find_deal(layout, progress=report, **kwargs)
    return {"board": board_to_json(deal.board), "meta": deal.meta(), "seconds": deal.seconds}


def _ping(report: Any) -> str:
    return "pong"


_TASKS: dict[str, Callable[..., Any]] = {"decide": _decide, "deal": _deal, "ping": _ping}


def _serve(conn: Any) -> None:  # pragma: no cover - runs in the child
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's; the pipe's end is ours

    def report(info: dict[str, Any]) -> None:
        conn.send(("progress", info))

    while True:
        try:
            kind, args = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("ok", _TASKS[kind](*args, report)))
        except Exception as exc:  # every failure goes back to the caller as a message
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


def _has_fd(stream: Any) -> bool:
    try:
        return stream is not None and stream.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        return False


@contextlib.contextmanager
def _startable() -> Iterator[None]:
    """Real standard streams while a child starts (multiprocessing hands ``sys.stderr``'s
    file descriptor to the helper processes it starts), and ``SIGINT`` ignored when this
    is the main thread (the child inherits it from its first instruction; a child
    started from another thread ignores it once :func:`_serve` runs)."""
    saved = sys.stdout, sys.stderr
    devnull = None
    for name in ("stdout", "stderr"):
        if not _has_fd(getattr(sys, name)):
            real = getattr(sys, f"__{name}__")
            if not _has_fd(real):
                devnull = devnull or open(os.devnull, "w")
                real = devnull
            setattr(sys, name, real)
    main = threading.current_thread() is threading.main_thread()
    if main:  # an ignored signal stays ignored across exec, and Python keeps it so
        old_handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGINT, old_handler)
        sys.stdout, sys.stderr = saved
        if devnull is not None:
            devnull.close()


class WorkerError(RuntimeError):
    """The child failed on a request (the message names the exception)."""


class SolverProcess:
    """One child process answering solves and deal searches, one request at a time."""

    def __init__(self) -> None:
        self._ctx = multiprocessing.get_context("spawn")
        self._proc: Any = None
        self._conn: Any = None
        self._lock = threading.Lock()

    def _ensure(self) -> None:
        if self._proc is None or not self._proc.is_alive():
            parent, child = self._ctx.Pipe()
            self._proc = self._ctx.Process(target=_serve, args=(child,), daemon=True, name="mjsat-game-solver")
            with _startable():
                self._proc.start()
            child.close()
            self._conn = parent

    def start(self) -> None:
        """Start the child now (without waiting for its imports)."""
        with self._lock:
            self._ensure()

    def _kill(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.join(5)
        self._proc = self._conn = None

    def call(
        self,
        kind: str,
        args: tuple[Any, ...],
        timeout: float,
        *,
        progress: Callable[[dict[str, Any]], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> tuple[bool, Any]:
        """``(True, answer)``, or ``(False, None)`` when no answer came within ``timeout``
        or ``cancel`` was set (the child is ended either way).

        ``progress`` is called with each report the task sends on the way.

        Raises
        ------
        WorkerError
            The child raised (the message says what).
        """
        with self._lock:
            self._ensure()
            self._conn.send((kind, args))
            end = time.monotonic() + timeout
            while True:
                left = end - time.monotonic()
                if (cancel is not None and cancel.is_set()) or left <= 0:
                    self._kill()
                    return False, None
                if not self._conn.poll(min(left, 0.1)):
                    continue
                try:
                    what, answer = self._conn.recv()
                except EOFError:
                    self._kill()
                    raise WorkerError("the solver process ended") from None
                if what == "progress":
                    if progress is not None:
                        progress(answer)
                    continue
                if what == "error":
                    raise WorkerError(answer)
                return True, answer

    def warm_up(self, timeout: float = 120.0, *, quiet: bool = False) -> None:
        """Start the child and wait until it answers (imports done).

        With ``quiet``, a child that ended meanwhile (the program is being stopped) is
        not an error: the next request starts another.
        """
        try:
            self._warm_up(timeout)
        except (WorkerError, OSError):
            if not quiet:
                raise

    def _warm_up(self, timeout: float) -> None:
        self.call("ping", (), timeout)
        from mjsat.board import MahjongBoard

        self.decide(MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 0, 1, 1]), timeout)
        for game in ("mahjong", "shisen-sho"):  # the compiled playouts of the deals
            square = Layout([(0, 0, 0), (0, 2, 0), (2, 0, 0), (2, 2, 0)])
            self.find_deal(square, timeout=timeout, difficulty="normal", seed=0, game=game, playouts=2)

    def decide(self, board: Board, time_limit: float, *, method: str = "auto", seed: int = 0) -> SolveResult:
        """Decide ``board`` (its full deal) in the child: a :class:`SolveResult`."""
        from mjsat.boardio import board_to_json

        answered, data = self.call(
            "decide", (board_to_json(board.copy(stack=False)), method, time_limit, seed), time_limit + GRACE_SECONDS
        )
        if not answered:
            return SolveResult(UNKNOWN, method, reason=f"no answer within {time_limit:g} s")
        return SolveResult(
            data["status"], data["method"], [tuple(m) for m in data["moves"]], data["seconds"], reason=data["reason"]
        )

    def find_deal(
        self,
        layout: Layout,
        *,
        timeout: float,
        progress: Callable[[dict[str, Any]], None] | None = None,
        cancel: threading.Event | None = None,
        **kwargs: Any,
    ) -> tuple[Board, dict[str, Any]] | None:
        """A deal of :func:`mjsat.game.difficulty.find_deal` made in the child (board,
        meta), or ``None`` when it took longer than ``timeout`` or ``cancel`` was set;
        ``progress`` receives the deal's reports (candidates tried, seconds)."""
        from mjsat.boardio import board_from_json_text

        args = ([list(p) for p in layout.positions], layout.name, layout.block_any_higher, kwargs)
        answered, data = self.call("deal", args, timeout, progress=progress, cancel=cancel)
        if not answered:
            return None
        board = board_from_json_text(data["board"])
        return board, data["meta"]

    def close(self) -> None:
        """End the child at once (a request under way in another thread then fails)."""
        proc, conn = self._proc, self._conn
        if proc is not None:
            proc.kill()
            proc.join(5)
        if conn is not None:
            conn.close()
