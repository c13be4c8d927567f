"""Where the boards of a run are decided: in this process, or as Dask tasks on a cluster.

A run is a function ``fn(shared, item) -> row``, the data every board needs (``shared``:
the layout, the method and its options, ...) and the items (seeds of a
:class:`~mjsat.runs.boards.SeedRange`, indices, board cases). :meth:`Runner.run` yields
one row per item as soon as it is done:

* ``Runner(workers=1)`` (the default) calls ``fn`` in this process, item after item: no
  Dask is imported or started;
* ``Runner(workers=W)`` starts a ``distributed.LocalCluster`` of ``W`` worker processes
  (one thread each) listening on 127.0.0.1 only;
* ``Runner(scheduler="tcp://host:8786")`` sends the tasks to an existing cluster
  (``dask scheduler`` / ``dask worker``, ``dask-ssh``, dask-jobqueue, ...).

On a cluster the items are cut into tasks of at most ``chunk`` items (a few hundred:
fewer when that leaves a worker idle); ``shared`` is scattered once to every worker, not
sent with every task; each worker loads the compiled numba kernels once (a worker plugin,
run again on a worker that joins or restarts). The rows of a task come back when the
task ends, in item order, tasks in the order they end. A worker that dies in the middle
of a task has that task run again elsewhere by the scheduler; its rows come back once. A
task that raises stops the run with that exception. Every worker must run the same mjsat
version as the client (checked on connecting).

>>> with Runner() as runner:
...     list(runner.run(pow, 2, [1, 2, 3]))
[2, 4, 8]
"""

from __future__ import annotations

import logging
import math
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

__all__ = ["ClusterError", "DEFAULT_CHUNK", "LOOPBACK", "Runner"]

DEFAULT_CHUNK = 200
"""Most items in one Dask task."""
LOOPBACK = "127.0.0.1"
"""The only address a local cluster listens on."""


class ClusterError(ValueError):
    """A cluster that cannot be used: bad ``workers``, both ``workers`` and a scheduler, an
    unreachable scheduler, a worker of another mjsat version, or a cluster without workers."""


def _run_chunk(fn: Callable[[Any, Any], Any], shared: Any, items: Sequence[Any]) -> list[Any]:
    """One Dask task: ``fn(shared, item)`` for each item, in order."""
    return [fn(shared, item) for item in items]


def _mjsat_version() -> str:
    from mjsat import __version__

    return __version__


def _warm_up() -> None:
    """Compile or load the numba kernels of the search (once per process)."""
    from mjsat.search.solver import warm_up

    warm_up()


class Runner:
    """Runs the items of a batch in this process or on a Dask cluster.

    Parameters
    ----------
    workers : int
        1 (the default): this process, no Dask. ``W > 1``: a ``LocalCluster`` of ``W``
        worker processes on 127.0.0.1.
    scheduler : str, optional
        Address of an existing Dask scheduler (``tcp://host:port``); then ``workers`` must
        be 1.
    chunk : int
        Most items per task.
    warm : bool
        Load the numba kernels on every worker before the first task (and in this process
        when running in-process).

    Raises
    ------
    ClusterError
        ``workers`` below 1, both ``workers > 1`` and ``scheduler``, or (on entering) a
        scheduler that cannot be reached, a worker of another mjsat version.

    Notes
    -----
    Use it as a context manager: the local cluster starts with the first :meth:`run`
    and stops on leaving (also on Ctrl-C); a client of an existing cluster disconnects
    and leaves the cluster running.
    """

    def __init__(
        self, workers: int = 1, scheduler: str | None = None, *, chunk: int = DEFAULT_CHUNK, warm: bool = True
    ) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ClusterError(f"workers must be a whole number of at least 1, got {workers!r}")
        if scheduler is not None and workers > 1:
            raise ClusterError("give --workers or --scheduler, not both (the scheduler's cluster has its own workers)")
        if chunk < 1:
            raise ClusterError(f"chunk must be at least 1, got {chunk}")
        self.workers = workers
        self.scheduler = scheduler
        self.chunk = int(chunk)
        self.warm = warm
        self.client: Any = None
        self._cluster: Any = None
        self._warmed = False
        self._alive = 1
        self._alive_at = 0.0
        self.on_start: Callable[[Runner], None] | None = None
        """Called once the cluster is up (a progress bar names the dashboard then)."""

    # -- life cycle
    @property
    def distributed(self) -> bool:
        """True when the items run as Dask tasks."""
        return self.workers > 1 or self.scheduler is not None

    def __enter__(self) -> Runner:
        return self

    def start(self) -> None:
        """Start the local cluster or connect to the scheduler (done by the first
        :meth:`run`, so that arguments are checked before a cluster starts)."""
        if self.distributed and self.client is None:
            self._connect()
            if self.on_start is not None:
                self.on_start(self)

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _connect(self) -> None:
        from distributed import Client, LocalCluster

        if self.scheduler is None:
            self._cluster = LocalCluster(
                n_workers=self.workers,
                threads_per_worker=1,
                processes=True,
                host=LOOPBACK,
                dashboard_address=f"{LOOPBACK}:0",  # any free port, loopback only
                silence_logs=logging.ERROR,
            )
            self.client = Client(self._cluster)
        else:
            try:
                self.client = Client(self.scheduler, timeout=10)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ClusterError(f"cannot reach the Dask scheduler at {self.scheduler}: {exc}") from None
        try:
            mine = _mjsat_version()
            theirs = self.client.run(_mjsat_version)
            other = {addr: v for addr, v in theirs.items() if v != mine}
            if other:
                addr, v = next(iter(other.items()))
                raise ClusterError(
                    f"worker {addr} runs mjsat {v}, this client {mine}: install the same version on every worker"
                )
            if self.warm:
                from distributed.diagnostics.plugin import WorkerPlugin

                class WarmUp(WorkerPlugin):
                    """Loads the numba kernels when a worker starts (or joins later)."""

                    name = "mjsat-warm-up"

                    def setup(self, worker: Any) -> None:
                        _warm_up()

                self.client.register_plugin(WarmUp(), name="mjsat-warm-up")
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Disconnect, and stop the local cluster if this runner started one."""
        client, cluster = self.client, self._cluster
        self.client = self._cluster = None
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()

    # -- what a progress bar shows
    @property
    def dashboard(self) -> str | None:
        """The Dask dashboard's address, when there is one."""
        if self.client is None:
            return None
        try:
            link = self.client.dashboard_link
        except (KeyError, AttributeError):
            return None
        return link if _has_dashboard() or self.scheduler is not None else None

    def workers_alive(self) -> int:
        """Workers the scheduler knows now (1 in-process); asked at most once a second."""
        if self.client is None:
            return self.workers if self.scheduler is None else 1
        now = time.monotonic()
        if now - self._alive_at >= 1.0:
            self._alive = len(self.client.scheduler_info(n_workers=-1).get("workers", {}))
            self._alive_at = now
        return self._alive

    # -- running
    def chunk_size(self, n: int) -> int:
        """Items per task for ``n`` items: at most :attr:`chunk`, and small enough that
        every worker gets about four tasks."""
        return max(1, min(self.chunk, math.ceil(n / (4 * max(1, self.workers_alive())))))

    def run(self, fn: Callable[[Any, Any], Any], shared: Any, items: Iterable[Any]) -> Iterator[Any]:
        """``fn(shared, item)`` for every item; yields each row as it is done.

        ``fn`` must be a module-level function (workers import it by name); ``shared``
        and the items must pickle.

        Notes
        -----
        In-process the rows come in item order. On a cluster a task's rows come when the
        task ends; at most about three tasks per worker are in flight, so memory stays
        bounded and Ctrl-C cancels little.
        """
        if not self.distributed:
            if self.warm and not self._warmed:
                _warm_up()
                self._warmed = True
            for item in items:
                yield fn(shared, item)
            return
        self.start()
        yield from self._run_dask(fn, shared, list(items))

    def _run_dask(self, fn: Callable[[Any, Any], Any], shared: Any, items: list[Any]) -> Iterator[Any]:
        from distributed import as_completed

        if not items:
            return
        client = self.client
        size = self.chunk_size(len(items))
        chunks = iter([items[i : i + size] for i in range(0, len(items), size)])
        [shared_future] = client.scatter([shared], broadcast=True, hash=False)
        token = uuid.uuid4().hex[:12]
        submitted = 0

        def submit() -> Any:
            nonlocal submitted
            part = next(chunks, None)
            if part is None:
                return None
            submitted += 1
            return client.submit(_run_chunk, fn, shared_future, part, key=f"mjsat-{token}-{submitted}", pure=False)

        window = max(4, 3 * self.workers_alive())
        first = [f for f in (submit() for _ in range(window)) if f is not None]
        pending = as_completed(first)
        try:
            for future in pending:
                rows = future.result()
                future.release()
                nxt = submit()
                if nxt is not None:
                    pending.add(nxt)
                yield from rows
        finally:
            left = list(pending.futures) if hasattr(pending, "futures") else []
            if left:
                client.cancel(left)
            client.cancel([shared_future])


def _has_dashboard() -> bool:
    """Whether this environment can serve the Dask dashboard (it needs bokeh)."""
    try:
        import bokeh  # noqa: F401
    except ImportError:
        return False
    return True
