"""The progress bar of a run on a terminal: boards done, rate, time left, workers alive.

The bar goes to standard error; on a Dask cluster it also names the dashboard's address
once it is known (a local cluster has a dashboard when bokeh is installed). When standard
error is not a terminal the bar is printed once, at the end, and not at all when the run
fails (its error is then the one line on standard error).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

from mjsat.runs.cluster import Runner

__all__ = ["RunProgress"]


class _Rate(ProgressColumn):
    """Boards per second over the last seconds."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("-/s" if speed is None else f"{speed:,.1f}/s")


class RunProgress:
    """A progress bar for ``total`` boards run by ``runner``.

    Parameters
    ----------
    description : str
    total : int or None
    runner : Runner
    enabled : bool
        False: nothing is drawn (the calls still count).
    transient : bool
        Remove the bar when done.
    """

    def __init__(
        self, description: str, total: int | None, runner: Runner, *, enabled: bool = True, transient: bool = False
    ) -> None:
        self.runner = runner
        self.console = Console(stderr=True)
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            _Rate(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[workers]}"),
            TextColumn("{task.fields[tally]}"),
            console=self.console,
            transient=transient,
            disable=not enabled,
            speed_estimate_period=60.0,
        )
        self._task = self._progress.add_task(description, total=total, tally="", workers=self._workers())
        self.enabled = enabled
        runner.on_start = self._started

    def _workers(self) -> str:
        n = self.runner.workers_alive()
        return f"{n} worker{'s' if n != 1 else ''}" if self.runner.distributed else ""

    def __enter__(self) -> RunProgress:
        self._progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if exc[0] is not None and not self.console.is_terminal:
            self.console.quiet = True  # a run that fails leaves its one error line alone, no bar before it
        self._progress.__exit__(*exc)

    def advance(self, n: int = 1, *, tally: str | None = None) -> None:
        """``n`` more boards done; ``tally`` replaces the text after the bar."""
        fields: dict[str, Any] = {"workers": self._workers()}
        if tally is not None:
            fields["tally"] = tally
        self._progress.update(self._task, advance=n, **fields)

    def _started(self, runner: Runner) -> None:
        self._progress.update(self._task, workers=self._workers())
        link = runner.dashboard
        if link and self.enabled:
            self._progress.console.print(f"Dask dashboard: {link}")

    def finish(self, total: int) -> None:
        """Mark the bar complete at ``total``."""
        self._progress.update(self._task, completed=total)
