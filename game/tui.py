"""The game in the terminal (Textual): the same engine, the same options as the page.

The board is drawn from above: each half-tile cell is three characters wide and one line
high, so a tile is a block of six characters by two lines showing the short form of its
face in the face's colour (:func:`mjsat.game.faces.short_form`: ``3●`` dots, ``5|``
bamboo, ``7m`` characters, ``E`` winds, ``Rd`` dragons, ``Pl`` flowers, ``Sp`` seasons),
or its group number (``t``); higher levels are darker, blocked tiles greyed (``f``
toggles it). Keys: arrows move the cursor from tile to tile, space (or a mouse click)
selects, a second selection pairs; ``h`` hint, ``u`` undo, ``r`` redo, ``R`` restart,
``s`` shuffle, ``n`` new game (a fresh seed; Escape cancels the deal), ``p`` pause, ``m``
tiles matching the selected one, ``ctrl+s`` save and ``l`` load (a file name is asked),
``?`` help, ``q`` quit. A clock (m:ss, stopped while paused) and the counts of moves,
hints, undos and shuffles stand under the board; a cleared board shows an end card with
the time, the counts, the difficulty and the seed, and keeps best times per layout, game
and difficulty (:mod:`mjsat.game.besttimes`). Solvability checks, hints, shuffles and
deals run in worker threads that wait on :class:`~mjsat.game.worker.SolverProcess`, so
the interface never waits for a solver.
"""

from __future__ import annotations

import colorsys
import dataclasses
import threading
import time
from typing import Any, ClassVar

import numpy as np
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
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


_BLOCKED_FILLS = ("#b8b2a0", "#aea083", "#a08c62", "#8f7846", "#7d6331", "#6b5123", "#59401a")


def _halves(label: str) -> tuple[str, str]:
    """``label`` laid over the two half-cells of a tile (``CELL_WIDTH`` terminal cells
    each), cut so that no wide character straddles the two; longer labels are cut."""
    from rich.cells import cell_len

    left, right = "", ""
    for ch in label:
        w = cell_len(ch)
        if not right and cell_len(left) + w <= CELL_WIDTH:
            left += ch
        elif cell_len(right) + w <= CELL_WIDTH - 1:  # the last cell is the tile's edge
            right += ch
        else:
            break
    left += " " * (CELL_WIDTH - cell_len(left))
    right += " " * (CELL_WIDTH - cell_len(right))
    return left, right


def _pad(label: str) -> str:
    """A space before ``label`` unless that would push a wide character past the first half."""
    from rich.cells import cell_len

    return label if cell_len(label[:2]) == CELL_WIDTH else " " + label


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
        self.numbers = game.face_style == "numbers"
        self.show_free = True
        self.show_matches = False

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

    def label(self, t: int) -> tuple[str, str]:
        """The text on tile ``t`` and its colour: the face's short form, or the group number."""
        from mjsat.game.faces import face_colour, short_form

        board = self.game.board
        g = board.groups[t]
        if self.numbers:
            return board.names.get(g, str(g))[:4], _hue(g)
        face = self.game.faces()[t]
        return short_form(face), face_colour(face)

    def render(self) -> Text:
        board = self.game.board
        r0, c0, r1, c1 = board.layout.bounds()
        tops = self.top_tiles()
        free = set(self.game.free_tiles()) if self.show_free else None
        selected_group = board.groups[self.selected] if self.selected is not None and self.show_matches else None
        text = Text()
        for row in range(r0, r1 + 1):
            for col in range(c0, c1 + 1):
                t = tops.get((row, col))
                if t is None:
                    text.append(" " * CELL_WIDTH)
                    continue
                r, c, l = board.layout.positions[t]
                label, colour = self.label(t)
                halves = _halves(_pad(label)) if row == r else (" " * CELL_WIDTH, " " * CELL_WIDTH)
                chunk = halves[col - c]
                if col == c + 1:
                    chunk = chunk[:-1] + "\u258f"
                bg = _FILLS[min(l, len(_FILLS) - 1)]
                dim = free is not None and t not in free
                if dim:
                    bg = _BLOCKED_FILLS[min(l, len(_BLOCKED_FILLS) - 1)]
                if selected_group is not None and board.groups[t] == selected_group:
                    bg = "#b9f6ca"
                if t in self.hinted:
                    bg = "#ff8f00"
                if t == self.selected:
                    bg = "#64b5f6"
                style = Style(color=colour, bgcolor=bg, bold=not dim, dim=dim, underline=(t == self.cursor))
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
    #counts { color: #cfd9c9; padding: 0 1; }
    #message { color: #ffd23f; padding: 0 1; }
    #ask { display: none; }
    #ask.shown { display: block; }
    #endcard, #help { display: none; border: round #ffd23f; padding: 0 2; margin: 0 1; width: auto; }
    #endcard.shown, #help.shown { display: block; }
    BoardView.paused { display: none; }
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
        Binding("p", "pause", "pause"),
        Binding("f", "flip('show_free')", "free", show=False),
        Binding("m", "flip('show_matches')", "matches", show=False),
        Binding("t", "flip('numbers')", "faces/numbers", show=False),
        Binding("ctrl+s", "ask('save')", "save"),
        Binding("l", "ask('load')", "load"),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit", "quit"),
    ]

    HELP = (
        "arrows  move the cursor          space/enter  select (a second tile pairs)\n"
        "h  hint (the first move of a proved clearing; the cursor goes to its partner)\n"
        "u  undo    r  redo    R  restart (the same deal from the start)\n"
        "s  shuffle the tiles left into a position proved solvable (counted)\n"
        "n  new game (a fresh seed; Escape cancels the deal)    p  pause\n"
        "f  free tiles marked or not    m  tiles matching the selected one    t  faces or numbers\n"
        "ctrl+s  save    l  load    ?  this help    q  quit"
    )

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
        self.elapsed = 0.0
        self.running_since: float | None = None
        self.paused = False
        self.finished = False
        self.best_times: Any = None

    def _bind_decider(self) -> None:
        seed = self.settings.seed
        self.game.decider = lambda board, t: self.worker.decide(board, t, seed=seed)

    def compose(self) -> ComposeResult:
        yield Static(id="info")
        yield BoardView(self.game, id="board")
        yield Static(id="status")
        yield Static(id="counts")
        yield Static(id="message")
        yield Static(id="endcard")
        yield Static(self.HELP, id="help")
        yield Input(id="ask")
        yield Footer()

    def on_mount(self) -> None:
        board = self.query_one(BoardView)
        board.move_cursor(0, 1)
        board.focus()
        self.start_clock()
        self.show_status()
        self.start_check()
        self.set_interval(0.5, self.show_counts)

    def on_unmount(self) -> None:
        if self.own_worker:
            self.worker.close()

    # -- display
    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

    def clock(self) -> float:
        """Seconds of play so far (pauses and deals not counted)."""
        run = 0.0 if self.running_since is None else time.monotonic() - self.running_since
        return self.elapsed + run

    def start_clock(self) -> None:
        """A new game's clock, from zero."""
        self.elapsed, self.running_since, self.finished = 0.0, time.monotonic(), False
        self.query_one("#endcard", Static).remove_class("shown")

    def stop_clock(self) -> None:
        self.elapsed = self.clock()
        self.running_since = None

    def show_counts(self) -> None:
        s = self.game.status()
        c = self.game.counts()
        t = int(self.clock())
        paused = " (paused: p goes on)" if self.paused else ""
        try:
            counts = self.query_one("#counts", Static)
        except NoMatches:  # a tick of the clock while the app closes
            return
        counts.update(
            f"time {t // 60}:{t % 60:02d}{paused} | moves {c['moves']}, hints {c['hints']}, undos {c['undos']}, "
            f"shuffles {c['shuffles']} | left: undo {s.undo_left}, redo {s.redo_left}, hints {s.hints_left}"
        )

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
        checking = " (checking...)" if self.busy and not s.message.endswith("checking") else ""
        status = self.query_one("#status", Static)
        status.update(f"{s.tiles_left} tiles left, {s.moves_played} moves. {s.message}{checking}")
        status.set_class(s.won, "won")
        status.set_class(s.verdict == UNSOLVABLE and not s.won, "lost")
        if s.won and not self.finished:
            self.finish()
        self.show_counts()
        self.query_one(BoardView).refresh(layout=True)

    def finish(self) -> None:
        """The board is clear: stop the clock, keep a best time, show the end card."""
        from mjsat.game.besttimes import BestTimes

        self.finished = True
        self.stop_clock()
        seconds = self.clock()
        c = self.game.counts()
        m = self.game.meta
        layout, game, difficulty = self.game.board.layout.name or "board", self.game.board.game, m.get("difficulty")
        lines = [
            f"Cleared in {int(seconds) // 60}:{int(seconds) % 60:02d}",
            f"moves {c['moves']}, hints {c['hints']}, undos {c['undos']}, shuffles {c['shuffles']}",
            f"{game} on {layout}, {difficulty or 'a board of your own'}"
            + (f", seed {m['deal_seed']}" if m.get("deal_seed") is not None else ""),
        ]
        if difficulty:
            if self.best_times is None:
                self.best_times = BestTimes()
                if self.best_times.warning:
                    self.say(self.best_times.warning)
            before = self.best_times.get(layout, game, difficulty)
            try:
                best = self.best_times.record(layout, game, difficulty, seconds, seed=m.get("deal_seed"), **c)
            except OSError as exc:
                best = False
                self.say(f"best time not kept: {exc}")
            if best:
                lines.append("a best time for this layout, game and difficulty!")
            elif before is not None:
                b = int(before["seconds"])
                lines.append(f"best time {b // 60}:{b % 60:02d}")
        lines.append("n  new game    R  replay this deal    q  quit")
        card = self.query_one("#endcard", Static)
        card.update("\n".join(lines))
        card.add_class("shown")

    def action_pause(self) -> None:
        """Pause the clock (the board is hidden meanwhile) or go on."""
        if self.finished:
            return
        self.paused = not self.paused
        if self.paused:
            self.stop_clock()
        else:
            self.running_since = time.monotonic()
        self.query_one(BoardView).set_class(self.paused, "paused")
        self.show_counts()

    def action_flip(self, what: str) -> None:
        """Turn a display option of the board on or off (free tiles, matches, numbers)."""
        view = self.query_one(BoardView)
        setattr(view, what, not getattr(view, what))
        view.refresh()

    def action_help(self) -> None:
        self.query_one("#help", Static).toggle_class("shown")

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
        if self.paused:
            return
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
        if self.paused:
            return
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
            self.start_clock()
            self.say(f"dealt: seed {settings.seed}")
            self.start_check()

        self._in_thread(lambda: new_game(settings, self.worker, progress, self.cancel_deal), done)

    def action_restart(self) -> None:
        """The same deal from the start."""
        self.game.restart()
        self._reset_view()
        self.start_clock()
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
        self.start_clock()
        self.say(f"loaded {path}")
        self.start_check()
        self.show_status()
