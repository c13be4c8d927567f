"""The game engine: a game of any board with undo, redo, hints and verdicts.

A :class:`Game` holds a deal (a :class:`~mjsat.board.Board` whose pushed moves are the
moves played), an undo window, a redo stack and the hints used. Every rule comes from
the board: :meth:`Game.pair` asks :meth:`Board.illegal_reason` why a pair is refused
and plays it with :meth:`Board.play`. Both interfaces (the web page and the terminal)
call this engine and know no rule.

*Faces.* Each tile shows a face of the Mahjong set (:mod:`mjsat.game.faces`), the same
for the same deal; messages (hints, refusals) name tiles by face and place, or with
``face_style="numbers"`` by group number and place, never by internal tile number.

*Verdicts.* :meth:`Game.check` decides the current position with mjsat's exact methods
(:func:`mjsat.methods.solve` on :meth:`Board.position_board`) within a time limit and
keeps the answer per position. A ``solvable`` answer comes with a replay-verified
clearing sequence; its first move is the hint, and every position along it is
recorded as solvable with its next move, so a player who follows hints is answered at
once. A position reached from an unsolvable one is unsolvable (a clearing of it would
clear its parent), and a position without a legal move is unsolvable, both without a
solver.

>>> from mjsat.board import Layout, MahjongBoard
>>> game = Game(MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0]))
>>> game.faces()
['bamboo-5', 'bamboo-7', 'bamboo-7', 'bamboo-5']
>>> game.pair(1, 2).reason
'7 of bamboo at row 1, column 2 is blocked: 5 of bamboo at row 1, column 1 on its left, 7 of bamboo at row 1, column 3 on its right'
>>> hint = game.hint(time_limit=5)
>>> hint.move, hint.message
((0, 3), 'hint: 5 of bamboo at row 1, column 1 and 5 of bamboo at row 1, column 4')
>>> game.pair(0, 3).played, game.pair(1, 2).played, game.status().won
(True, True, True)
>>> game.undo(), game.status().tiles_left
((1, 2), 2)
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mjsat.board import Board, Move

__all__ = [
    "SOLVABLE",
    "UNSOLVABLE",
    "UNKNOWN",
    "UNCHECKED",
    "Decider",
    "Verdict",
    "PairOutcome",
    "Hint",
    "GameStatus",
    "UndoError",
    "ShuffleOutcome",
    "Game",
    "solve_decider",
]

SOLVABLE = "solvable"
UNSOLVABLE = "unsolvable"
UNKNOWN = "unknown"
UNCHECKED = "unchecked"

Decider = Callable[[Board, float], Any]
"""``decide(board, time_limit) -> SolveResult``: decides a deal (its full position)."""


def solve_decider(method: str = "auto", *, seed: int = 0) -> Decider:
    """A decider that runs :func:`mjsat.methods.solve` in this process."""

    def decide(board: Board, time_limit: float) -> Any:
        from mjsat.methods import solve

        return solve(board, method, time_limit=time_limit, seed=seed)

    return decide


class UndoError(ValueError):
    """Nothing to undo (or redo), or the undo window is used up."""


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What is known of a position: ``status`` (``solvable``, ``unsolvable``, ``unknown``
    or ``unchecked``), and for ``solvable`` the next move of a verified clearing."""

    status: str
    next_move: Move | None = None
    seconds: float = 0.0
    reason: str = ""


@dataclasses.dataclass(frozen=True)
class PairOutcome:
    """The answer to :meth:`Game.pair`: played or refused (``reason``), and the path of a
    Shisen-Sho pair (points of :meth:`Board.pair_path`)."""

    played: bool
    move: Move
    reason: str | None = None
    path: list[tuple[float, float, int]] | None = None


@dataclasses.dataclass(frozen=True)
class Hint:
    """The answer to :meth:`Game.hint`.

    ``kind`` is ``move`` (``move`` is a pair after which the position is still
    solvable), ``unsolvable`` (``undos`` undos lead back to the last position known
    solvable, ``None`` when none is known), ``timeout`` (nothing was proved in time: no
    move is shown), ``no-hints`` (the hints are used up) or ``won``.
    """

    kind: str
    move: Move | None = None
    undos: int | None = None
    message: str = ""


@dataclasses.dataclass(frozen=True)
class ShuffleOutcome:
    """The answer to :meth:`Game.shuffle`: ``ok`` (the groups of the tiles left were dealt
    again and the position is proved solvable by the clearing ``order``, replayed) or not
    (``message`` says why: the board is clear, or no arrangement of these places clears)."""

    ok: bool
    message: str
    order: list[Move] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class GameStatus:
    """A summary for the interfaces."""

    won: bool
    tiles_left: int
    legal_moves: int
    verdict: str
    undos_to_solvable: int | None
    undo_left: int
    redo_left: int
    hints_left: int
    moves_played: int
    message: str

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Game:
    """A game being played on ``board`` (its pushed moves are taken as played).

    Parameters
    ----------
    board : Board
        The deal; the game plays on it (``board.move_stack`` are the moves played).
    undo_limit : int
        How many moves back :meth:`undo` may go (the last ``undo_limit`` moves).
    hint_limit : int
        Hints per game.
    decider : callable, optional
        ``decide(board, time_limit) -> SolveResult`` (default: :func:`solve_decider`).
    meta : dict, optional
        Kept in saves (difficulty, seed, playout share, ...).
    """

    def __init__(
        self,
        board: Board,
        *,
        undo_limit: int = 10,
        hint_limit: int = 10,
        decider: Decider | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        if undo_limit < 0 or hint_limit < 0:
            raise ValueError("the undo and hint limits must be 0 or more")
        self.board = board
        self.undo_limit = int(undo_limit)
        self.hint_limit = int(hint_limit)
        self.undo_depth = 0
        self.redo_stack: list[Move] = []
        self.hints_used = 0
        self.undos_used = 0
        self.shuffles_used = 0
        self.deal = board.copy(stack=False)
        self.face_style = "faces"
        self._faces: tuple[tuple[int, ...], list[str]] | None = None
        self.decider = decider or solve_decider()
        self.meta: dict[str, Any] = dict(meta or {})
        self.verdicts: dict[bytes, Verdict] = {}
        self._lock = threading.RLock()

    # -- state
    @property
    def moves(self) -> list[Move]:
        """The moves played, in order."""
        return self.board.move_stack

    def key(self) -> bytes:
        """The key of the current position (which tiles are present)."""
        return bytes(self.board.presence)

    def state(self) -> tuple[Any, ...]:
        """Everything that makes two games equal: deal, moves, undo window, redo, hints."""
        b = self.board
        return (
            b.game,
            b.layout.positions,
            b.layout.block_any_higher,
            b.groups,
            tuple(self.moves),
            self.undo_limit,
            self.undo_depth,
            tuple(self.redo_stack),
            self.hint_limit,
            self.hints_used,
        )

    # -- faces
    def faces(self) -> list[str]:
        """The face id of every tile (:func:`mjsat.game.faces.assign_faces`), seeded by the
        deal (``meta["deal_seed"]``, else its groups): a shuffle keeps each group's kind."""
        from mjsat.game.faces import assign_faces, deal_faces_seed

        with self._lock:
            groups = tuple(int(g) for g in self.board.groups)
            if self._faces is None or self._faces[0] != groups:
                seed = deal_faces_seed(self.deal.groups, self.meta.get("deal_seed"))
                self._faces = (groups, assign_faces(groups, seed=seed))
            return list(self._faces[1])

    def tile_name(self, t: int) -> str:
        """Tile ``t`` in words, by face (or group number) and place: ``3 of dots at row 2, column 5``."""
        from mjsat.game.faces import long_name, place_name

        lay = self.board.layout
        where = place_name(lay.positions, lay.bounds(), t, lay.levels)
        if self.face_style == "numbers":
            return f"{self.board.group_label(self.board.groups[t])} at {where}"
        return f"{long_name(self.faces()[t])} at {where}"

    def explain(self, reason: str) -> str:
        """A rule's reason with every tile number replaced by the tile's name."""
        n = len(self.board)

        def name(m: re.Match[str]) -> str:
            t = int(m.group(1))
            return self.tile_name(t) if 0 <= t < n else m.group(0)

        m = re.match(r"groups differ: tile (\d+) is .*, tile (\d+) is .*$", reason)
        if m and all(0 <= int(v) < n for v in m.groups()):
            a, b = (int(v) for v in m.groups())
            return f"they do not match: {self.tile_name(a)}, {self.tile_name(b)}"
        reason = re.sub(
            r"\btiles (\d+) and (\d+)", lambda m: f"{name(m)} and {self.tile_name(int(m.group(2)))}", reason
        )
        return re.sub(r"\btile (\d+)", name, reason)

    # -- play
    def pair(self, a: int, b: int) -> PairOutcome:
        """Play the pair ``(a, b)`` when the rules allow it, or say why not (in words)."""
        with self._lock:
            a, b = int(a), int(b)
            move = (a, b) if a <= b else (b, a)
            reason = self.board.illegal_reason((a, b))  # the tiles in the order given
            if reason is not None:
                if 0 <= a < len(self.board) and 0 <= b < len(self.board):
                    reason = self.explain(reason)
                return PairOutcome(False, move, reason)
            path = self.board.pair_path(move)
            self.board.play(move)
            self.undo_depth = min(self.undo_depth + 1, self.undo_limit)
            self.redo_stack.clear()
            return PairOutcome(True, move, None, path)

    def undo(self) -> Move:
        """Take back the last move (within the undo window) and return it."""
        with self._lock:
            if not self.moves:
                raise UndoError("nothing to undo")
            if self.undo_depth == 0:
                raise UndoError(f"no undo left (the last {self.undo_limit} moves can be taken back)")
            move = self.board.pop()
            self.undo_depth -= 1
            self.undos_used += 1
            self.redo_stack.append(move)
            return move

    def redo(self) -> Move:
        """Play again the move last taken back."""
        with self._lock:
            if not self.redo_stack:
                raise UndoError("nothing to redo")
            move = self.redo_stack[-1]
            self.board.play(move)
            self.redo_stack.pop()
            self.undo_depth += 1
            return move

    def restart(self) -> None:
        """The deal from the start, as dealt (before any shuffle), every count at zero."""
        with self._lock:
            if list(self.board.groups) != list(self.deal.groups):
                self.verdicts = {}
            self.board = self.deal.copy(stack=False)
            self.undo_depth = 0
            self.redo_stack.clear()
            self.hints_used = self.undos_used = self.shuffles_used = 0

    def shuffle(self, seed: int, *, tries: int = 20) -> ShuffleOutcome:
        """Deal the groups of the tiles left again so that the position can be cleared.

        The places of the tiles left stay, and so does each group's number of tiles
        among them. A clearing order of the places is drawn at random (tiles free at
        each step, as :func:`mjsat.deals.deal_solvable` does) and the groups are handed
        to its pairs in a random order; the order is replayed on the new position
        (:func:`mjsat.replay.replay`) before the board changes, and every position along
        it is recorded as solvable, so the next hint is at once. A different arrangement
        is sought when one exists within ``tries``. The moves before the shuffle cannot
        be undone; a shuffle is counted (``shuffles_used``).
        """
        from mjsat.deals import DealError, deal_solvable
        from mjsat.replay import replay

        with self._lock:
            if self.board.is_solved():
                return ShuffleOutcome(False, "the board is clear")
            snapshot = self.board.copy()
        sub, back = snapshot.position_board()
        labels = sorted({snapshot.groups[t] for t in back})
        sizes = [sum(1 for t in back if snapshot.groups[t] == g) for g in labels]
        rng = np.random.default_rng(seed)
        best: tuple[list[int], list[Move]] | None = None
        for _ in range(max(1, tries)):
            try:
                dealt, order = deal_solvable(
                    sub.layout, seed=int(rng.integers(2**63)), game=sub.game, group_sizes=sizes
                )
            except DealError:
                return ShuffleOutcome(False, "no arrangement of the tiles left can be cleared (their places forbid it)")
            groups = list(snapshot.groups)
            for i, t in enumerate(back):
                groups[t] = labels[dealt.groups[i]]
            best = (groups, [(back[a], back[b]) if back[a] < back[b] else (back[b], back[a]) for a, b in order])
            if groups != list(snapshot.groups):
                break
        assert best is not None
        groups, moves = best
        board = type(snapshot)(snapshot.layout, groups, names=snapshot.names, meta=snapshot.meta)
        for m in snapshot.move_stack:
            board.push(m)
        position, pos_back = board.position_board()
        index = {t: i for i, t in enumerate(pos_back)}
        replay(position, [(index[a], index[b]) for a, b in moves])  # raises unless it clears
        with self._lock:
            if self.key() != bytes(snapshot.presence):
                return ShuffleOutcome(False, "the board changed while shuffling; try again")
            self.board = board
            self.undo_depth = 0
            self.redo_stack.clear()
            self.verdicts = {}
            self.shuffles_used += 1
            walk = board.copy()
            for m in moves:
                self.verdicts[bytes(walk.presence)] = Verdict(SOLVABLE, m, reason="shuffled to a clearable position")
                walk.play(m)
        return ShuffleOutcome(True, f"shuffled: the {len(back)} tiles left can be cleared", moves)

    def counts(self) -> dict[str, int]:
        """Moves on the board, hints, undos and shuffles used."""
        with self._lock:
            return {
                "moves": len(self.moves),
                "hints": self.hints_used,
                "undos": self.undos_used,
                "shuffles": self.shuffles_used,
            }

    # -- verdicts
    def known(self) -> Verdict:
        """What is known of the current position without running a solver."""
        with self._lock:
            key = self.key()
            v = self.verdicts.get(key)
            if v is not None and v.status != UNKNOWN:
                return v
            if self.board.is_solved():
                return Verdict(SOLVABLE)
            if self.moves:
                last = self.board.pop()
                parent = self.verdicts.get(self.key())
                self.board.push(last)
                if parent is not None and parent.status == UNSOLVABLE:
                    return self._store(key, Verdict(UNSOLVABLE, reason="reached from an unsolvable position"))
            if not self.board.legal_moves:
                return self._store(key, Verdict(UNSOLVABLE, reason="no legal move"))
            return v or Verdict(UNCHECKED)

    def check(self, time_limit: float = 2.0) -> Verdict:
        """Decide the current position (at most ``time_limit`` seconds of solving).

        The solver runs without the game's lock, so another thread may play meanwhile;
        the answer is stored for the position it was asked about. When the position is
        unsolvable, earlier positions are decided back to the last solvable one, so that
        :meth:`undos_to_solvable` can name it.
        """
        with self._lock:
            v = self.known()
            if v.status == SOLVABLE:
                return v
            key = self.key()
            snapshot = self.board.copy()
        if v.status != UNSOLVABLE:
            v = self._decide(snapshot, key, time_limit)
        if v.status == UNSOLVABLE:  # find the last solvable position too
            self._decide_back(snapshot, time_limit)
        return v

    def _decide_back(self, snapshot: Board, time_limit: float, max_back: int = 100) -> None:
        """Decide earlier positions until one is solvable (the last solvable position)."""
        walk = snapshot.copy()
        for _ in range(min(max_back, len(walk.move_stack))):
            walk.pop()
            key = bytes(walk.presence)
            with self._lock:
                v = self.verdicts.get(key)
            if v is not None and v.status == SOLVABLE:
                return
            if v is None or v.status != UNSOLVABLE:
                v = self._decide(walk.copy(), key, time_limit)
                if v.status == SOLVABLE:
                    return

    def _decide(self, snapshot: Board, key: bytes, time_limit: float) -> Verdict:
        """Run the decider on the position of ``snapshot`` and store what it found."""
        sub, back = snapshot.position_board()
        result = self.decider(sub, time_limit)
        with self._lock:
            if result.status == SOLVABLE:
                walk = snapshot
                moves = [(back[a], back[b]) if back[a] < back[b] else (back[b], back[a]) for a, b in result.moves]
                found: list[tuple[bytes, Verdict]] = []
                for m in moves:  # every position on the way is solvable, with its next move
                    found.append((bytes(walk.presence), Verdict(SOLVABLE, m, result.seconds)))
                    walk.play(m)  # checked: raises on a move the rules forbid
                if not walk.is_solved():
                    raise RuntimeError(f"the solver's moves leave {walk.remaining()} tiles of the position")
                for k, v in found:
                    self.verdicts.setdefault(k, v)
                self.verdicts[key] = Verdict(SOLVABLE, moves[0] if moves else None, result.seconds)
            elif result.status == UNSOLVABLE:
                self.verdicts[key] = Verdict(UNSOLVABLE, None, result.seconds, "proved by " + str(result.method))
            else:
                self.verdicts[key] = Verdict(UNKNOWN, None, result.seconds, result.reason or "time limit reached")
            return self.verdicts[key]

    def _store(self, key: bytes, verdict: Verdict) -> Verdict:
        self.verdicts[key] = verdict
        return verdict

    def undos_to_solvable(self) -> int | None:
        """How many undos lead back to the last position known solvable (``None``: none known)."""
        with self._lock:
            walk = self.board.copy()
            for k in range(1, len(self.moves) + 1):
                walk.pop()
                v = self.verdicts.get(bytes(walk.presence))
                if v is not None and v.status == SOLVABLE:
                    return k
            return None

    def hint(self, time_limit: float = 2.0) -> Hint:
        """A pair after which the position is still solvable, found by an exact method.

        A hint is counted only when a move is given.
        """
        if self.board.is_solved():
            return Hint("won", message="the board is clear")
        if self.hints_used >= self.hint_limit:
            return Hint("no-hints", message=f"no hints left ({self.hint_limit} per game)")
        v = self.check(time_limit)
        with self._lock:
            if v.status == SOLVABLE and v.next_move is not None and self.board.is_legal(v.next_move):
                self.hints_used += 1
                a, b = v.next_move
                return Hint("move", v.next_move, message=f"hint: {self.tile_name(a)} and {self.tile_name(b)}")
            if v.status == UNSOLVABLE:
                undos = self.undos_to_solvable()
                return Hint("unsolvable", undos=undos, message=self.unsolvable_message(undos))
            return Hint("timeout", message=f"no hint: nothing proved within {time_limit:g} s ({v.reason})")

    def unsolvable_message(self, undos: int | None) -> str:
        """The sentence that says the position is lost and how far back a good one is."""
        if undos is None:
            return "this position can no longer be cleared (no earlier position is known to be solvable)"
        reach = "" if undos <= self.undo_depth else f"; only {self.undo_depth} undo(s) left"
        return f"this position can no longer be cleared: {undos} undo(s) lead back to the last solvable position{reach}"

    def status(self) -> GameStatus:
        """Won, tiles left, legal moves, the verdict known now, undo/redo/hints left."""
        with self._lock:
            v = self.known()
            legal = self.board.legal_moves.count()
            won = self.board.is_solved()
            undos = self.undos_to_solvable() if v.status == UNSOLVABLE else None
            if won:
                message = "cleared: you won"
            elif v.status == UNSOLVABLE:
                message = self.unsolvable_message(undos)
            elif v.status == SOLVABLE:
                message = f"{legal} legal move(s); still solvable"
            elif v.status == UNKNOWN:
                message = f"{legal} legal move(s); solvability unknown ({v.reason})"
            else:
                message = f"{legal} legal move(s); checking"
            return GameStatus(
                won=won,
                tiles_left=self.board.remaining(),
                legal_moves=legal,
                verdict=v.status,
                undos_to_solvable=undos,
                undo_left=min(self.undo_depth, len(self.moves)),
                redo_left=len(self.redo_stack),
                hints_left=self.hint_limit - self.hints_used,
                moves_played=len(self.moves),
                message=message,
            )

    def legal_pairs(self) -> list[Move]:
        """The legal moves now (for interfaces that highlight them)."""
        with self._lock:
            return sorted(self.board.generate_legal_moves())

    def free_tiles(self) -> list[int]:
        """The present tiles that the rules allow in a move now."""
        with self._lock:
            return [t for t in range(len(self.board)) if self.board.presence[t] and self.board.is_free(t)]

    # -- saves
    def to_save(self) -> dict[str, Any]:
        """The save object (see :mod:`mjsat.game.save`)."""
        from mjsat.game.save import game_to_save

        with self._lock:
            return game_to_save(self)

    @classmethod
    def from_save_text(cls, text: str, path: str = "<save>", *, decider: Decider | None = None) -> Game:
        """A game from the text of a save file; every part is validated."""
        from mjsat.game.save import game_from_save_text

        return game_from_save_text(text, path, decider=decider)

    def replace_with(self, other: Game) -> None:
        """Take over the state of ``other`` (a loaded game), keeping this decider."""
        with self._lock:
            self.board = other.board
            self.undo_limit = other.undo_limit
            self.hint_limit = other.hint_limit
            self.undo_depth = other.undo_depth
            self.redo_stack = list(other.redo_stack)
            self.hints_used = other.hints_used
            self.undos_used = other.undos_used
            self.shuffles_used = other.shuffles_used
            self.deal = other.deal
            self._faces = None
            self.meta = dict(other.meta)
            self.verdicts = {}


def moves_as_lists(moves: Sequence[Move]) -> list[list[int]]:
    """Moves as JSON lists."""
    return [[int(a), int(b)] for a, b in moves]
