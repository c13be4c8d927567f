"""The game in the terminal (Textual): the same engine, the same options as the page.

The board is drawn from above: each half-tile cell is three characters wide and one line
high, so a tile is a block of six characters by two lines showing its group; higher
levels are darker, as in :func:`mjsat.render.svg_board`. Keys: arrows move the cursor
from tile to tile, space (or a mouse click) selects, a second selection pairs, ``u``
undo, ``r`` redo, ``h`` hint, ``s`` save and ``l`` load (a file name is asked), ``n``
new game, ``q`` quit. Solvability checks and hints run in a worker thread that waits on
:class:`~mjsat.game.worker.SolverProcess`, so the interface never waits for a solver.
"""

from __future__ import annotations

import colorsys
import dataclasses
import threading
from typing import Any, ClassVar

import numpy as np
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.events import Click
from textual.widget import Widget
from textual.widgets import Footer, Input, Static

from mjsat.game.engine import SOLVABLE, UNSOLVABLE, Game
from mjsat.game.web import GameSettings, new_game
from mjsat.game.worker import SolverProcess

__all__ = ["GameApp", "BoardView", "CELL_WIDTH"]

CELL_WIDTH = 3
"""Characters per half-tile column."""
_FILLS = ("#fdf6e3", "#f3e2b3", "#e6c98a", "#d4ad63", "#c08f45", "#a87432", "#8c5c25")


def _hue(group: int) -> str:
    r, g, b = colorsys.hls_to_rgb(((group * 137.508) % 360) / 360, 0.30, 0.65)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


class BoardView(Widget, can_focus=True):
    """The top view of the board; knows which tile each character shows."""

    DEFAULT_CSS = "BoardView { height: auto; width: auto; padding: 0 1; }"

    def __init__(self, game: Game, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.cursor: int | None = None
        self.selected: int | None = None
        self.hinted: tuple[int, ...] = ()

    # -- geometry
    def top_tiles(self) -> dict[tuple[int, int], int]:
        """Half-tile cell ``(row, col)`` -> the highest present tile covering it."""
        board = self.game.board
        best: dict[tuple[int, int], tuple[int, int]] = {}
        for t, (r, c, l) in enumerate(board.layout.positions):
            if not board.presence[t]:
                continue
            for cell in ((r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)):
                if cell not in best or best[cell][0] < l:
                    best[cell] = (l, t)
        return {cell: t for cell, (_, t) in best.items()}

    def tile_at(self, x: int, y: int) -> int | None:
        """The tile drawn at character ``x`` of line ``y`` of the view (without padding)."""
        r0, c0, _, _ = self.game.board.layout.bounds()
        return self.top_tiles().get((y + r0, x // CELL_WIDTH + c0))

    def offset_of(self, t: int) -> tuple[int, int]:
        """``(x, y)`` of the middle of tile ``t`` in the view (without padding)."""
        r0, c0, _, _ = self.game.board.layout.bounds()
        r, c, _ = self.game.board.layout.positions[t]
        return ((c - c0) * CELL_WIDTH + CELL_WIDTH, r - r0)

    def get_content_width(self, container: Any, viewport: Any) -> int:
        _, c0, _, c1 = self.game.board.layout.bounds()
        return (c1 - c0 + 1) * CELL_WIDTH

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        r0, _, r1, _ = self.game.board.layout.bounds()
        return r1 - r0 + 1

    def render(self) -> Text:
        board = self.game.board
        r0, c0, r1, c1 = board.layout.bounds()
        tops = self.top_tiles()
        text = Text()
        for row in range(r0, r1 + 1):
            for col in range(c0, c1 + 1):
                t = tops.get((row, col))
                if t is None:
                    text.append(" " * CELL_WIDTH)
                    continue
                r, c, l = board.layout.positions[t]
                g = board.groups[t]
                label = board.names.get(g, str(g))[:4]
                chunk = (
                    f"{label:^6}"[(col - c) * CELL_WIDTH : (col - c + 1) * CELL_WIDTH] if row == r else " " * CELL_WIDTH
                )
                if col == c + 1:
                    chunk = chunk[:-1] + "\u258f"
                bg = _FILLS[min(l, len(_FILLS) - 1)]
                if t in self.hinted:
                    bg = "#ff8f00"
                if t == self.selected:
                    bg = "#64b5f6"
                style = Style(color=_hue(g), bgcolor=bg, bold=True, underline=(t == self.cursor))
                text.append(chunk, style)
            text.append("\n")
        return text

    # -- moving the cursor
    def visible_tiles(self) -> list[int]:
        """The tiles seen from above, sorted."""
        return sorted(set(self.top_tiles().values()))

    def move_cursor(self, drow: int, dcol: int) -> None:
        tiles = self.visible_tiles()
        if not tiles:
            self.cursor = None
            return
        pos = self.game.board.layout.positions
        if self.cursor not in tiles:
            self.cursor = min(tiles, key=lambda t: (pos[t][0], pos[t][1]))
            self.refresh()
            return
        r, c, _ = pos[self.cursor]
        best = None
        for t in tiles:
            dr, dc = pos[t][0] - r, pos[t][1] - c
            along = dr * drow + dc * dcol
            if along <= 0:
                continue
            across = abs(dc) if drow else abs(dr)
            score = (along + 2 * across, across)
            if best is None or score < best[0]:
                best = (score, t)
        if best is not None:
            self.cursor = best[1]
        self.refresh()


class GameApp(App[None]):
    """The game in the terminal."""

    CSS = """
    Screen { background: #1f3a2e; }
    #info { color: #cfd9c9; padding: 0 1; }
    #status { padding: 0 1; }
    #status.lost { background: #7a1f1f; }
    #status.won { background: #2d6a3e; }
    #message { color: #ffd23f; padding: 0 1; }
    #ask { display: none; }
    #ask.shown { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(0, -1)", "left", show=False),
        Binding("right", "cursor(0, 1)", "right", show=False),
        Binding("up", "cursor(-1, 0)", "up", show=False),
        Binding("down", "cursor(1, 0)", "down", show=False),
        Binding("space", "select", "select"),
        Binding("enter", "select", "select", show=False),
        Binding("h", "hint", "hint"),
        Binding("u", "undo", "undo"),
        Binding("r", "redo", "redo"),
        Binding("R", "restart", "restart"),
        Binding("s", "shuffle", "shuffle"),
        Binding("n", "new_game", "new"),
        Binding("ctrl+s", "ask('save')", "save"),
        Binding("l", "ask('load')", "load"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(
        self,
        game: Game,
        settings: GameSettings,
        *,
        worker: SolverProcess | None = None,
        seeds: np.random.Generator | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.settings = settings
        self.seeds = seeds if seeds is not None else np.random.default_rng()
        self.cancel_deal = threading.Event()
        self.dealing = False
        self.own_worker = worker is None
        self.worker = worker or SolverProcess()
        self._bind_decider()
        self.asking: str | None = None
        self.busy = 0

    def _bind_decider(self) -> None:
        seed = self.settings.seed
        self.game.decider = lambda board, t: self.worker.decide(board, t, seed=seed)

    def compose(self) -> ComposeResult:
        yield Static(id="info")
        yield BoardView(self.game, id="board")
        yield Static(id="status")
        yield Static(id="message")
        yield Input(id="ask")
        yield Footer()

    def on_mount(self) -> None:
        board = self.query_one(BoardView)
        board.move_cursor(0, 1)
        board.focus()
        self.show_status()
        self.start_check()

    def on_unmount(self) -> None:
        if self.own_worker:
            self.worker.close()

    # -- display
    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

    def show_status(self) -> None:
        s = self.game.status()
        m = self.game.meta
        share = m.get("playout_share")
        info = f"{self.game.board.game} on {self.game.board.layout.name or 'a board'}"
        if m.get("difficulty"):
            info += f", {m['difficulty']}"
        if m.get("deal_seed") is not None:
            info += f", seed {m['deal_seed']}"
        if share is not None:
            info += f", random playouts clear it {100 * share:.0f} % of the time"
        self.query_one("#info", Static).update(info)
        checking = " (checking...)" if self.busy else ""
        status = self.query_one("#status", Static)
        status.update(
            f"{s.tiles_left} tiles left, {s.moves_played} moves. {s.message}{checking} | "
            f"undo {s.undo_left}, redo {s.redo_left}, hints {s.hints_left}"
        )
        status.set_class(s.won, "won")
        status.set_class(s.verdict == UNSOLVABLE and not s.won, "lost")
        self.query_one(BoardView).refresh(layout=True)

    # -- background work
    def _in_thread(self, fn: Any, done: Any) -> None:
        self.busy += 1
        self.show_status()

        def work() -> None:
            try:
                result = fn()
            except Exception as exc:  # shown, never raised into the interface
                result = exc
            self.call_from_thread(finish, result)

        def finish(result: Any) -> None:
            self.busy -= 1
            done(result)
            self.show_status()

        self.run_worker(work, thread=True, exclusive=False)

    def start_check(self) -> None:
        if self.game.known().status in (SOLVABLE, UNSOLVABLE):
            return
        self._in_thread(lambda: self.game.check(self.settings.check_seconds), lambda result: None)

    # -- actions
    def action_cursor(self, drow: int, dcol: int) -> None:
        self.query_one(BoardView).move_cursor(drow, dcol)

    def action_select(self) -> None:
        view = self.query_one(BoardView)
        if view.cursor is not None:
            self.choose(view.cursor)

    def choose(self, t: int) -> None:
        """Select tile ``t``; with a tile already selected, pair the two."""
        view = self.query_one(BoardView)
        hinted, view.hinted = view.hinted, ()
        if view.selected is None:
            view.selected = t
            if t in hinted:  # the cursor goes on to the hinted partner: space pairs them
                view.hinted = hinted
                view.cursor = next(u for u in hinted if u != t)
        elif view.selected == t:
            view.selected = None
        else:
            a, view.selected = view.selected, None
            out = self.game.pair(a, t)
            if out.played:
                self.say("")
                if view.cursor not in view.visible_tiles():
                    view.move_cursor(0, 1)
                self.start_check()
            else:
                self.say(f"refused: {out.reason}")
        view.refresh()
        self.show_status()

    def on_click(self, event: Click) -> None:
        view = self.query_one(BoardView)
        if event.widget is not view:
            return
        offset = event.get_content_offset(view)
        if offset is None:
            return
        t = view.tile_at(offset.x, offset.y)
        if t is not None:
            view.cursor = t
            self.choose(t)

    def action_undo(self) -> None:
        self._undo_redo("undo")

    def action_redo(self) -> None:
        self._undo_redo("redo")

    def _undo_redo(self, which: str) -> None:
        view = self.query_one(BoardView)
        view.selected, view.hinted = None, ()
        try:
            getattr(self.game, which)()
            self.say("")
        except ValueError as exc:
            self.say(str(exc))
        self.start_check()
        self.show_status()

    def action_hint(self) -> None:
        self.say("looking for a hint...")

        def done(hint: Any) -> None:
            if isinstance(hint, Exception):
                self.say(f"no hint: {hint}")
                return
            self.say(hint.message)
            if hint.kind == "move":
                view = self.query_one(BoardView)
                view.hinted = hint.move
                view.cursor = hint.move[0]
                view.refresh()

        self._in_thread(lambda: self.game.hint(self.settings.check_seconds), done)

    def action_new_game(self) -> None:
        """A new deal with a fresh seed (Escape cancels it while it is sought)."""
        if self.dealing:
            return
        settings = dataclasses.replace(self.settings, seed=int(self.seeds.integers(2**31)))
        what = f"dealing a {settings.difficulty} board (seed {settings.seed})"
        self.say(what + "... (Escape cancels)")
        self.dealing = True
        self.cancel_deal.clear()

        def progress(info: dict[str, Any]) -> None:
            tried = info.get("candidates", 0)
            self.call_from_thread(
                self.say, f"{what}: {tried} candidate(s) tried, {info.get('seconds', 0):.0f} s (Escape cancels)"
            )

        def done(game: Any) -> None:
            self.dealing = False
            if isinstance(game, Exception):
                self.say(f"no new game: {game}")
                return
            self.settings = settings
            self.game.replace_with(game)
            self._reset_view()
            self.say(f"dealt: seed {settings.seed}")
            self.start_check()

        self._in_thread(lambda: new_game(settings, self.worker, progress, self.cancel_deal), done)

    def action_restart(self) -> None:
        """The same deal from the start."""
        self.game.restart()
        self._reset_view()
        self.say("the same deal from the start")
        self.start_check()
        self.show_status()

    def action_shuffle(self) -> None:
        """Deal the tiles left again into a position proved solvable."""
        self.say("shuffling: looking for a position that can be cleared...")
        seed = int(self.seeds.integers(2**31))

        def done(out: Any) -> None:
            if isinstance(out, Exception):
                self.say(f"no shuffle: {out}")
                return
            self.say(out.message if out.ok else f"no shuffle: {out.message}")
            self._reset_view()

        self._in_thread(lambda: self.game.shuffle(seed), done)

    def _reset_view(self) -> None:
        view = self.query_one(BoardView)
        view.selected, view.hinted, view.cursor = None, (), None
        view.move_cursor(0, 1)

    def action_ask(self, what: str) -> None:
        box = self.query_one("#ask", Input)
        self.asking = what
        box.placeholder = f"file to {what} (Enter; Escape cancels)"
        self.say(box.placeholder)
        box.value = "mjsat-game.json" if what == "save" else ""
        box.cursor_position = len(box.value)
        box.add_class("shown")
        box.focus()

    def on_key(self, event: Any) -> None:
        if event.key == "escape" and self.asking:
            self._close_ask()
        elif event.key == "escape" and self.dealing:
            self.cancel_deal.set()

    def _close_ask(self) -> None:
        self.asking = None
        self.query_one("#ask", Input).remove_class("shown")
        self.query_one(BoardView).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        what, path = self.asking, event.value.strip()
        self._close_ask()
        if not path:
            return
        if what == "save":
            self.save(path)
        elif what == "load":
            self.load(path)

    def save(self, path: str) -> None:
        """Write the game to ``path`` (nothing overwritten on failure)."""
        from mjsat.fileio import write_text_atomic
        from mjsat.game.save import save_text

        try:
            write_text_atomic(path, save_text(self.game))
        except OSError as exc:
            self.say(f"not saved: {path}: {exc.strerror or exc}")
            return
        self.say(f"saved to {path}")

    def load(self, path: str) -> None:
        """Load a saved game; a bad file leaves the game on screen as it was."""
        from mjsat.fileio import read_text

        try:
            loaded = Game.from_save_text(read_text(path), path)
        except ValueError as exc:
            self.say(f"not loaded: {exc}")
            return
        self.game.replace_with(loaded)
        self._bind_decider()
        self._reset_view()
        self.say(f"loaded {path}")
        self.start_check()
        self.show_status()
