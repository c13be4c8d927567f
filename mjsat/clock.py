"""The clock time limits are measured on: wall time, or this process's CPU time.

Every method that stops at a time limit reads the clock through :func:`now` (a deadline is
``now() + time_limit``, checked as ``now() > deadline``), and a solver stopped from another
thread is stopped through :func:`interrupt_at`. :func:`mjsat.methods.solve` with
``clock="cpu"`` runs the method inside :func:`using` ``("cpu")``, so the same ``time_limit``
then counts CPU seconds of the process (``time.process_time``: every thread, a CP-SAT
worker's too) instead of wall seconds: the limit a research run on a loaded machine
needs, where a wall-clock limit buys whatever CPU time the other processes leave.

The clock is a context variable: a worker thread of Dask or of the game runs with the wall
clock unless its own call says otherwise.

>>> kind()
'wall'
>>> with using("cpu"):
...     kind(), abs(now() - time.process_time()) < 0.1
('cpu', True)
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
from collections.abc import Callable, Iterator

__all__ = ["CLOCKS", "ClockError", "kind", "now", "reader", "using", "interrupt_at"]

CLOCKS: dict[str, Callable[[], float]] = {"wall": time.monotonic, "cpu": time.process_time}
"""The clocks by name: ``wall`` (``time.monotonic``) and ``cpu`` (``time.process_time``,
the CPU time of every thread of this process)."""

_CLOCK: contextvars.ContextVar[str] = contextvars.ContextVar("mjsat_clock", default="wall")

_POLL_SECONDS = 0.005
"""How often :func:`interrupt_at` looks at the CPU clock."""


class ClockError(ValueError):
    """A clock name that is not one of :data:`CLOCKS`."""


def kind() -> str:
    """The name of the clock limits are measured on now (``wall`` or ``cpu``)."""
    return _CLOCK.get()


def now() -> float:
    """The current reading of the clock limits are measured on (seconds, any origin)."""
    return CLOCKS[_CLOCK.get()]()


def reader() -> Callable[[], float]:
    """The function :func:`now` calls now (for a thread, which does not see the context)."""
    return CLOCKS[_CLOCK.get()]


class using:  # lower case: used as a function, ``with using("cpu"):``
    """Measure time limits on the clock ``name`` inside the block.

    A class rather than a generator: :func:`mjsat.methods.solve` enters it on every call,
    and a generator's context manager costs several microseconds a call.

    Raises
    ------
    ClockError
        ``name`` is not one of :data:`CLOCKS`.
    """

    __slots__ = ("_name", "_token")

    def __init__(self, name: str) -> None:
        if name not in CLOCKS:
            raise ClockError(f"unknown clock {name!r} (known: {', '.join(CLOCKS)})")
        self._name = name
        self._token: contextvars.Token[str] | None = None

    def __enter__(self) -> None:
        self._token = _CLOCK.set(self._name)

    def __exit__(self, *exc: object) -> None:
        assert self._token is not None
        _CLOCK.reset(self._token)
        self._token = None


@contextlib.contextmanager
def interrupt_at(deadline: float | None, stop: Callable[[], object]) -> Iterator[None]:
    """Call ``stop()`` from another thread once the clock passes ``deadline`` (a
    :func:`now` value) while the block runs; nothing when ``deadline`` is ``None``.

    On the wall clock a :class:`threading.Timer`; on the CPU clock a thread that looks at
    the clock every few milliseconds (it sleeps in between, so it costs no CPU time).
    """
    if deadline is None:
        yield
        return
    read = reader()
    done = threading.Event()
    if read is time.monotonic:
        timer = threading.Timer(max(0.0, deadline - read()), stop)
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
        return

    def watch() -> None:
        while not done.wait(_POLL_SECONDS):
            if read() > deadline:
                stop()
                return

    thread = threading.Thread(target=watch, name="mjsat-cpu-limit", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
