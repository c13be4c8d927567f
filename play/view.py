"""What a player without peeking sees: the one view every strategy of :mod:`mjsat.play` reads.

A person playing Mahjong Solitaire sees the shape of the pile, which tiles are free, and
the faces of the tiles that are not *completely* covered by tiles above; a partly covered
tile shows its face [St07]_. The tile set of the deal is public, so the number of tiles of
each face still on the board is known too. There is no undo. :class:`PlayerView` is that
window on a board: strategies get nothing else, so they cannot read a hidden face or take
a move back. On isolated stacks of height two [dB12]_ the hidden tiles are the bottoms of
stacks of two, and a free tile lies *off the ground* when a tile is under it.

>>> from mjsat.board import Layout, MahjongBoard
>>> lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0), (0, 2, 1), (0, 4, 1)])
>>> view = PlayerView(MahjongBoard(lay, [0, 1, 2, 2, 1, 0]))
>>> view.is_visible(1), view.is_visible(0)
(False, True)
>>> view.face(1)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
mjsat.play.view.HiddenFaceError: tile 1 is completely covered: its face is hidden
>>> sorted(view.seen().off_ground), view.tiles_left(0)
([4, 5], 2)

References
----------
.. [St07] T. Stam, "Solving Mahjong Solitaire Positions", Leiden University, 2007.
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from mjsat.board import Board, GroupId, Layout, Move, TileId, normalize_move

__all__ = ["HiddenFaceError", "UnsupportedGameError", "PlayerView", "Seen"]


@dataclasses.dataclass(frozen=True)
class Seen:
    """Everything a player sees of one position, as a value two positions can be compared by.

    ``free`` maps each free tile to its face; ``off_ground`` holds the free tiles lying on
    a present tile; ``hidden`` the present tiles whose face cannot be seen; ``visible``
    maps every other present tile to its face.
    """

    free: dict[TileId, GroupId]
    off_ground: frozenset[TileId]
    hidden: frozenset[TileId]
    visible: dict[TileId, GroupId]


class HiddenFaceError(ValueError):
    """A strategy asked for the face of a tile that is completely covered."""


class UnsupportedGameError(ValueError):
    """The player model is defined for Mahjong Solitaire (and its transposed variant) only."""


# --------------------------------------------------------------------------- geometry


@dataclasses.dataclass(frozen=True)
class _Geometry:
    """The static relations the view needs, built once per (layout, sides)."""

    above: tuple[tuple[TileId, ...], ...]
    side1: tuple[tuple[TileId, ...], ...]
    side2: tuple[tuple[TileId, ...], ...]
    below: tuple[tuple[TileId, ...], ...]
    cell_covers: tuple[tuple[tuple[TileId, ...], ...], ...]
    """For each tile, for each of its four cells, the tiles on higher levels over that cell."""
    reveals: tuple[tuple[TileId, ...], ...]
    """For each tile ``t``, the tiles whose visibility may change when ``t`` goes."""
    frees: tuple[tuple[TileId, ...], ...]
    """For each tile ``t``, the tiles whose freeness may change when ``t`` goes."""


def _geometry(board: Board) -> _Geometry:
    """The view's tables of ``board``'s layout and sides (built once per layout)."""
    layout = board.layout
    tables = board.rule_tables()

    def build() -> _Geometry:
        covers = layout.cell_covers
        reveals: list[set[TileId]] = [set() for _ in range(len(layout))]
        for t, cells in enumerate(covers):
            for over in cells:
                for o in over:
                    reveals[o].add(t)
        return _Geometry(
            above=tables.above,
            side1=tables.one,
            side2=tables.two,
            below=layout.below,
            cell_covers=covers,
            reveals=tuple(tuple(sorted(s)) for s in reveals),
            frees=tables.dependents,
        )

    return layout.memo(("player-view", tables.sides), build)


# --------------------------------------------------------------------------- the view


class PlayerView:
    """What a player sees of a board: the pile, the free tiles, the faces not fully covered.

    Parameters
    ----------
    board : MahjongBoard or TransposedMahjongBoard
        The deal; the view plays on a copy and never changes ``board``.

    Raises
    ------
    UnsupportedGameError
        For a Shisen-Sho board (every face is visible there: nothing to hide).

    Notes
    -----
    Faces are reachable only through :meth:`face` (and what is built on it), which raises
    :class:`HiddenFaceError` for a tile all four of whose cells lie under present tiles.
    A tile's face, once seen, stays known (tiles only go away). The count of tiles of each
    face still present (:meth:`tiles_left`) is public: the deal's tile set is known and
    every move shows its two faces. The view keeps the free
    tiles and the visible faces up to date incrementally: a move costs :math:`O(d)` for
    ``d`` the number of tiles next to, over or under the two tiles removed.
    """

    def __init__(self, board: Board) -> None:
        if board.kind != "sides":
            raise UnsupportedGameError(f"play needs a Mahjong Solitaire board, got game {board.game!r}")
        self._board = board.copy(stack=True)
        self._faces = self._board.groups
        self.layout: Layout = board.layout
        self.sides: tuple[str, str] = board.rule_tables().sides
        """The two sides of the rules (``("left", "right")``, or front and rear when transposed)."""
        self._geo = _geometry(board)
        n = len(board.layout)
        present = self._board.presence  # shared with the private board: one truth
        self._present = present
        self._free: set[TileId] = {t for t in range(n) if present[t] and self._board.is_free(t)}
        self._visible = bytearray(n)
        self._by_face: dict[int, set[TileId]] = {}
        for t in range(n):
            if present[t]:
                self._update_visibility(t)
        self._left: dict[int, int] = {}
        for t in range(n):
            if present[t]:
                self._left[self._faces[t]] = self._left.get(self._faces[t], 0) + 1
        self.moves: list[Move] = list(self._board.move_stack)

    # -- what the player sees
    @property
    def n(self) -> int:
        """Number of tiles of the layout (present or not)."""
        return len(self._faces)

    def is_present(self, t: TileId) -> bool:
        return bool(self._present[t])

    def present_tiles(self) -> list[TileId]:
        return [t for t in range(self.n) if self._present[t]]

    def remaining(self) -> int:
        """Tiles still on the board."""
        return self._board.remaining()

    def is_cleared(self) -> bool:
        return self._board.is_solved()

    def is_free(self, t: TileId) -> bool:
        return t in self._free

    def free_tiles(self) -> list[TileId]:
        """The free tiles, in tile order (every free tile is visible)."""
        return sorted(self._free)

    def is_visible(self, t: TileId) -> bool:
        """True when at least one cell of tile ``t`` is not under a present tile."""
        return bool(self._visible[t])

    def face(self, t: TileId) -> int:
        """The face (group) of tile ``t``; raises :class:`HiddenFaceError` when it is hidden."""
        if not self._visible[t]:
            raise HiddenFaceError(f"tile {t} is completely covered: its face is hidden")
        return self._faces[t]

    def visible_matches(self, t: TileId) -> list[TileId]:
        """The present, visible tiles other than ``t`` with the face of ``t``, in tile order."""
        return sorted(self._by_face.get(self.face(t), set()) - {t})

    def free_pairs(self) -> list[Move]:
        """Every pair of free tiles with equal faces (the legal moves), sorted."""
        by_face: dict[int, list[TileId]] = {}
        for t in sorted(self._free):
            by_face.setdefault(self._faces[t], []).append(t)
        return sorted((a, b) for ts in by_face.values() for i, a in enumerate(ts) for b in ts[i + 1 :])

    def free_by_face(self) -> dict[int, list[TileId]]:
        """The free tiles grouped by face, each list in tile order."""
        out: dict[int, list[TileId]] = {}
        for t in sorted(self._free):
            out.setdefault(self._faces[t], []).append(t)
        return out

    def tiles_left(self, face: int) -> int:
        """Tiles of ``face`` still on the board (public: the tile set and the moves are known)."""
        return self._left.get(face, 0)

    def is_off_ground(self, t: TileId) -> bool:
        """True when tile ``t`` lies on a present tile."""
        return any(self._present[o] for o in self._geo.below[t])

    def hidden_tiles(self) -> list[TileId]:
        """The present tiles whose face cannot be seen, in tile order."""
        return [t for t in range(self.n) if self._present[t] and not self._visible[t]]

    def seen(self) -> Seen:
        """What the player sees of this position, as one comparable value.

        Notes
        -----
        :math:`O(n)`.
        """
        free = {t: self._faces[t] for t in sorted(self._free)}
        off = frozenset(t for t in free if self.is_off_ground(t))
        hidden = frozenset(self.hidden_tiles())
        visible = {t: self._faces[t] for t in range(self.n) if self._present[t] and self._visible[t] and t not in free}
        return Seen(free, off, hidden, visible)

    def level(self, t: TileId) -> int:
        return self.layout.positions[t][2]

    def covering(self, t: TileId) -> list[TileId]:
        """The present tiles that block ``t`` from above."""
        return [o for o in self._geo.above[t] if self._present[o]]

    def below(self, t: TileId) -> list[TileId]:
        """The tiles ``t`` lies on (one level down); all are present while ``t`` is."""
        return [o for o in self._geo.below[t] if self._present[o]]

    def side_chains(self, t: TileId, *, static: bool = False) -> tuple[list[TileId], list[TileId]]:
        """The present tiles touching ``t`` on its left (right) side, and those touching
        them on that side, and so on: Stam's ``obstructorsLeft/Right``.

        With ``static`` the chains run through every tile of the layout, present or not
        (the shape of the pile as dealt). Each chain lists the nearest tiles first.
        """
        return self._chain(t, self._geo.side1, static), self._chain(t, self._geo.side2, static)

    def _chain(self, t: TileId, side: tuple[tuple[TileId, ...], ...], static: bool = False) -> list[TileId]:
        seen: list[TileId] = []
        frontier = [t]
        marked = {t}
        while frontier:
            nxt = []
            for u in frontier:
                for o in side[u]:
                    if (static or self._present[o]) and o not in marked:
                        marked.add(o)
                        seen.append(o)
                        nxt.append(o)
            frontier = nxt
        return seen

    def freed_by(self, t: TileId) -> int:
        """Number of tiles that are not free now and would be free if ``t`` were gone."""
        return sum(
            1 for u in self._geo.frees[t] if self._present[u] and u not in self._free and self._free_without(u, t)
        )

    def _free_without(self, u: TileId, gone: TileId) -> bool:
        p = self._present
        g = self._geo
        if any(p[o] and o != gone for o in g.above[u]):
            return False
        return not any(p[o] and o != gone for o in g.side1[u]) or not any(p[o] and o != gone for o in g.side2[u])

    # -- changes (the game's, never a strategy's)
    def _update_visibility(self, t: TileId) -> None:
        if self._visible[t]:
            return
        p = self._present
        if any(not any(p[o] for o in cell) for cell in self._geo.cell_covers[t]):
            self._visible[t] = 1
            self._by_face.setdefault(self._faces[t], set()).add(t)

    def _apply(self, move: Sequence[int]) -> Move:
        """Play ``move`` on the hidden board (checked) and update what is seen."""
        a, b = normalize_move(move[0], move[1])
        self._board.play((a, b))
        for t in (a, b):
            self._free.discard(t)
            self._by_face[self._faces[t]].discard(t)
            self._left[self._faces[t]] -= 1
        for t in (a, b):
            for u in self._geo.frees[t]:
                if self._present[u] and u not in self._free and self._board.is_free(u):
                    self._free.add(u)
            for u in self._geo.reveals[t]:
                if self._present[u]:
                    self._update_visibility(u)
        self.moves.append((a, b))
        return (a, b)

    def shuffle_hidden_faces(self, rng: np.random.Generator) -> list[TileId]:
        """The adversary of the information tests: permute the faces of the hidden tiles.

        The faces of the present tiles that are completely covered are shuffled among
        themselves (the group sizes are kept); everything a player sees stays the same.
        Returns the hidden tiles.
        """
        hidden = [t for t in range(self.n) if self._present[t] and not self._visible[t]]
        faces = list(self._faces)
        for t, f in zip(hidden, rng.permutation([faces[t] for t in hidden]).tolist()):
            faces[t] = int(f)
        moves = self._board.move_stack
        board = type(self._board)(self.layout, faces, names=self._board.names, meta=self._board.meta)
        for m in moves:
            board.push(m)
        self._board = board
        self._present = board._present
        self._faces = board.groups
        return hidden
