"""The strategies of a player without peeking: policies over one :class:`~mjsat.play.view.PlayerView`.

Each strategy sees the board only through the view and answers one move at a time
through :meth:`Strategy.choose` (``None``: no move left). A strategy that plans several
moves at once keeps them in a queue and plays them one by one; a planned pair whose
tiles are gone is dropped, one not yet free waits.

Stam's four [St07]_ (section 3.4), each with a heuristic of :mod:`mjsat.play.heuristics`:

* :class:`RandomStrategy` (Algorithm 2): the heuristic's best pair among all free pairs.
* :class:`MultipleFirstStrategy` (Algorithm 3): all free quadruples first, else one pair
  from every free triple (the heuristic picks which), else every free pair.
* :class:`GreedyStrategy` (Algorithm 4): the pair whose two stones free the most stones;
  the heuristic breaks ties.
* :class:`ObstructionTreeStrategy` (Algorithms 5-9): iterative deepening over a tree that
  alternates matches and obstructors, from a root stone chosen by the heuristic.

De Bondt's player for isolated stacks of height two [dB12]_ (Theorem 5), and its baseline:

* :class:`Theorem5Strategy`: an arbitrary face with a free match, then a match of it
  with the most tiles off the ground. No player without peeking does better on such
  boards; it can go wrong only when a face has exactly three free tiles, all off the
  ground, and four tiles left: it must then leave one of three stacks that look alike.
* :class:`RandomMatchStrategy`: a uniformly random free pair.

These two explain every move with a :class:`Decision` (kept in ``decisions``).

>>> from mjsat.board import Layout, MahjongBoard
>>> from mjsat.play.game import play_game
>>> lay = Layout([(0, 2 * i, 0) for i in range(6)])
>>> board = MahjongBoard(lay, [0, 1, 2, 2, 1, 0])
>>> [play_game(board, s, "maxblock", seed=3).cleared for s in STRATEGIES]
[True, True, True, True, True, True]

References
----------
.. [St07] T. Stam, "Solving Mahjong Solitaire Positions", Leiden University, 2007.
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from mjsat.board import GroupId, Move, TileId, normalize_move
from mjsat.play.heuristics import Heuristic, make_heuristic
from mjsat.play.view import PlayerView

__all__ = [
    "Strategy",
    "Decision",
    "RandomStrategy",
    "MultipleFirstStrategy",
    "GreedyStrategy",
    "ObstructionTreeStrategy",
    "Theorem5Strategy",
    "RandomMatchStrategy",
    "STRATEGIES",
    "STAM_STRATEGIES",
    "make_strategy",
    "UnknownStrategyError",
]


class UnknownStrategyError(ValueError):
    """No strategy of that name."""


class Strategy:
    """A player: ``choose(view, rng)`` returns the next move or ``None`` (nothing to play)."""

    name = ""

    def __init__(self, heuristic: str | Heuristic = "random") -> None:
        self.heuristic = make_heuristic(heuristic)
        self._queue: list[Move] = []
        self.decisions: list[Decision] = []
        """The choices behind the moves, for a strategy that explains them."""

    def choose(self, view: PlayerView, rng: np.random.Generator) -> Move | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _next_planned(self, view: PlayerView) -> Move | None:
        """The first queued pair that is playable now; pairs with a tile gone are dropped."""
        q = self._queue
        i = 0
        while i < len(q):
            a, b = q[i]
            if not (view.is_present(a) and view.is_present(b)):
                q.pop(i)
            elif view.is_free(a) and view.is_free(b):
                q.pop(i)
                return (a, b)
            else:
                i += 1
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.heuristic.name!r})"


@dataclasses.dataclass(frozen=True)
class Decision:
    """One move of a game and the choice behind it.

    ``candidates`` are the free tiles of the chosen face; ``guess`` is True when there
    were exactly three of them, all off the ground, and four tiles of the face left, so
    the player had to leave one of three look-alike stacks (Theorem 5's only way to go
    wrong); ``left_behind`` is then the free tile it left.
    """

    move: Move
    group: GroupId
    candidates: tuple[TileId, ...]
    guess: bool
    left_behind: TileId | None = None


class RandomStrategy(Strategy):
    """Algorithm 2: among all free pairs, the one the heuristic likes best.

    Notes
    -----
    :math:`O(f^2)` per move for ``f`` free tiles (the pairs), plus the heuristic.
    """

    name = "random"

    def choose(self, view: PlayerView, rng: np.random.Generator) -> Move | None:
        pairs = view.free_pairs()
        return self.heuristic.best_pair(view, pairs, rng) if pairs else None


class MultipleFirstStrategy(Strategy):
    """Algorithm 3: remove free quadruples first, then free triples, then free pairs.

    Counting the free stones of every face: when some face has four (or more) free
    stones, all of those go, face after face; else, when some face has three, one pair
    of each such face goes (the heuristic picks the pair); else every free pair goes.
    Only then are the free stones counted again.

    Notes
    -----
    :math:`O(f)` per round for ``f`` free tiles, plus the heuristic on triples.
    """

    name = "multiple-first"

    def choose(self, view: PlayerView, rng: np.random.Generator) -> Move | None:
        move = self._next_planned(view)
        if move is None:
            self._queue = self._plan(view, rng)
            move = self._next_planned(view)
        return move

    def _plan(self, view: PlayerView, rng: np.random.Generator) -> list[Move]:
        by_face = view.free_by_face()
        top = max((len(ts) for ts in by_face.values()), default=0)
        if top < 2:
            return []
        plan: list[Move] = []
        for face in sorted(by_face):
            ts = list(by_face[face])
            if not (len(ts) >= 4 if top >= 4 else len(ts) == top):
                continue
            if len(ts) % 2 == 0:  # "pick first pair; pick remaining pair"
                plan.extend((ts[i], ts[i + 1]) for i in range(0, len(ts), 2))
                continue
            while len(ts) >= 2:  # a triple: the heuristic picks the pair, one stone stays
                a, b = self.heuristic.best_pair(view, list(itertools.combinations(ts, 2)), rng)
                plan.append((a, b))
                ts.remove(a)
                ts.remove(b)
        return plan


class GreedyStrategy(Strategy):
    """Algorithm 4: the free pair ``(i, j)`` maximising ``freed(i) + freed(j)``.

    ``freed(s)`` counts the stones that would become free by removing ``s`` alone (the
    paper's per-stone count). Ties go to the heuristic.

    Notes
    -----
    :math:`O(f d + f^2)` per move for ``f`` free tiles with ``d`` neighbours each.
    """

    name = "greedy"

    def choose(self, view: PlayerView, rng: np.random.Generator) -> Move | None:
        pairs = view.free_pairs()
        if not pairs:
            return None
        gain: dict[TileId, int] = {}
        for a, b in pairs:
            for t in (a, b):
                if t not in gain:
                    gain[t] = view.freed_by(t)
        values = [gain[a] + gain[b] for a, b in pairs]
        top = max(values)
        tied = [p for p, v in zip(pairs, values) if v == top]
        return tied[0] if len(tied) == 1 else self.heuristic.best_pair(view, tied, rng)


# --------------------------------------------------------------------------- Obstruction-Tree


class _Search:
    """State of one root search: the view, the reading, the node budget, whether a frontier remains."""

    __slots__ = ("view", "reading", "order", "nodes", "max_nodes", "frontier", "exhausted", "cache")

    def __init__(self, view, reading: OTReading, max_nodes: int, order, cache: dict | None = None) -> None:
        self.view = view
        self.reading = reading
        self.order = order  # matches -> matches in the order they are tried
        self.nodes = 0
        self.max_nodes = max_nodes
        self.frontier = False
        self.exhausted = False
        self.cache = {} if cache is None else cache  # per position: matches, obstructors

    def matches(self, t: TileId) -> list[TileId]:
        """The visible matches of ``t`` (empty for a hidden face), cached for this position."""
        key = ("m", t)
        if key not in self.cache:
            view = self.view
            self.cache[key] = view.visible_matches(t) if view.is_visible(t) else []
        return self.cache[key]

    def obstructors(self, t: TileId) -> tuple[list[TileId], list[TileId], list[TileId]]:
        """``(above, left chain, right chain)`` of ``t``, chains outermost first, cached."""
        key = ("o", t)
        if key not in self.cache:
            left, right = self.view.side_chains(t)
            self.cache[key] = (self.view.covering(t), left[::-1], right[::-1])
        return self.cache[key]


class _TwoStageNode:
    """A stone and its visible matches (Stam's TwoStageNode).

    Status ``1``: a pickPath (``path``) ends by picking the stone with a match; ``-1``: no
    path exists below; ``0``: undecided, search deeper. Decided statuses are kept.
    """

    __slots__ = ("stone", "depth", "ancestors", "status", "path", "sets", "built", "matches", "own")

    def __init__(self, stone: TileId, depth: int, ancestors: frozenset[TileId]) -> None:
        self.stone = stone
        self.depth = depth
        self.ancestors = ancestors | {stone}
        self.status = 0
        self.path: list[Move] = []
        self.sets: list[_MatchObstructorSet] | None = None  # made when the node is expanded
        self.built = False
        self.matches: list[TileId] = []
        self.own: tuple = ()

    def evaluate(self, s: _Search, level: int) -> None:
        """findMatches (Algorithm 6) and expandObstructors (Algorithm 8) to ``level``."""
        if self.status:
            return
        if not self.built:
            if s.nodes >= s.max_nodes:
                s.exhausted = True
                return
            s.nodes += 1
            self.built = True
            self._find_matches(s)
            if self.status:
                return
        if self.depth >= level:
            s.frontier = True
            return
        if self.sets is None:
            stone, depth, ancestors, own = self.stone, self.depth, self.ancestors, self.own
            self.sets = [_MatchObstructorSet(stone, m, depth, ancestors | {m}, own) for m in self.matches]
        for mos in self.sets:
            mos.evaluate(s, level)
            if mos.status == 1:  # the first pickPath found
                self.status, self.path = 1, mos.path
                return
        if all(mos.status == -1 for mos in self.sets):
            self.status = -1

    def _find_matches(self, s: _Search) -> None:
        stone = self.stone
        view = s.view
        reading = s.reading
        found = s.matches(stone)  # a hidden face has no visible match
        if reading.cycles == "negative" and any(m in self.ancestors for m in found):
            self.status = -1  # a match already used higher in the tree
            return
        matches = s.order([m for m in found if m not in self.ancestors])
        if not matches:
            self.status = -1
            return
        if self.depth == 0 or reading.pickable(view, stone):
            for m in matches:
                if view.is_free(m):
                    self.status, self.path = 1, [(stone, m) if stone < m else (m, stone)]
                    return
        self.own = () if self.depth == 0 else reading.own_obstructors(s, stone)
        self.matches = matches


class _MatchObstructorSet:
    """The obstructors (left, above, right) of a match (Stam's MatchObstructorSet).

    ``own`` are the obstructors of the stone itself that the reading adds below the root
    (see :class:`OTReading`); the match's are added when it is not free.
    """

    __slots__ = ("stone", "match", "depth", "ancestors", "status", "path", "needs", "children", "own")

    def __init__(self, stone: TileId, match: TileId, depth: int, ancestors: frozenset[TileId], own) -> None:
        self.stone = stone
        self.match = match
        self.depth = depth
        self.ancestors = ancestors
        self.own = own
        self.status = 0
        self.path: list[Move] = []
        self.needs: list[tuple[list[TileId], list[TileId], list[TileId]]] | None = None
        self.children: dict[TileId, _TwoStageNode] = {}

    def _build(self, s: _Search) -> None:
        self.needs = [*self.own, *([s.obstructors(self.match)] if not s.view.is_free(self.match) else [])]
        for group in self.needs:
            for tiles in group:
                for o in tiles:
                    if o not in self.ancestors and o not in self.children:
                        self.children[o] = _TwoStageNode(o, self.depth + 1, self.ancestors)

    def _direction(self, s: _Search, level: int, tiles: list[TileId]) -> int:
        """The status of one direction: its obstructors searched to ``level``, stopping at
        the first negative one (one is enough to close the direction)."""
        status = 1
        for o in tiles:
            if o in self.ancestors:  # cyclic: a stone higher up in the tree
                return -1
            child = self.children[o]
            child.evaluate(s, level)
            if child.status == -1:
                return -1
            status = min(status, child.status)
        return status

    def _paths(self, tiles: list[TileId]) -> list[Move]:
        return [m for o in tiles for m in self.children[o].path]

    def evaluate(self, s: _Search, level: int) -> None:
        """findMatches (Algorithm 7) and expandObstructors (Algorithm 9) to ``level``."""
        if self.status:
            return
        if self.needs is None:
            self._build(s)
        assert self.needs is not None
        statuses = []
        for above, left, right in self.needs:  # above first: one negative there is fatal
            a = self._direction(s, level, above)
            if a == -1:
                self.status = -1
                return
            l, r = self._direction(s, level, left), self._direction(s, level, right)
            if l == -1 and r == -1:
                self.status = -1
                return
            statuses.append((a, l, r))
        path: list[Move] = []
        decided = True
        for (above, left, right), (a, l, r) in zip(self.needs, statuses):
            if a == 1 and (l == 1 or r == 1):
                path += self._paths(above) + self._paths(s.reading.choose_side(left, l, right, r, self._paths))
            else:
                decided = False
        if decided:
            pair = (self.stone, self.match) if self.stone < self.match else (self.match, self.stone)
            self.path = list(dict.fromkeys([*path, pair]))  # each move once, first place kept
            self.status = 1


def _free_pickable(view, t: TileId) -> bool:
    return view.is_free(t)


def _always_pickable(view, t: TileId) -> bool:
    return True


def _uncovered_pickable(view, t: TileId) -> bool:
    return not view.covering(t)


def _own_all(s: _Search, t: TileId):
    return () if s.view.is_free(t) else (s.obstructors(t),)


def _own_none(s: _Search, t: TileId):
    return ()


def _own_above(s: _Search, t: TileId):
    above = s.obstructors(t)[0]
    return ((above, [], []),) if above else ()


def _side_shorter(left, l, right, r, paths) -> list[TileId]:
    return left if l == 1 and (r != 1 or len(paths(left)) <= len(paths(right))) else right


def _side_left(left, l, right, r, paths) -> list[TileId]:
    return left if l == 1 else right


@dataclasses.dataclass(frozen=True)
class OTReading:
    """One reading of the choices section 3.4 of [St07]_ leaves open in Obstruction-Tree.

    Parameters
    ----------
    stones : {"pair", "match", "match-above"}
        What an obstructor below the root needs before it goes with a free match.
        ``pair``: the obstructor must be free too, so its own obstructors (left, above,
        right) join its match's. ``match``: only its match's obstructors count, as in
        Algorithms 6 and 7 (the obstructor's side neighbours are its chain's outer
        stones, picked before it). ``match-above``: the match's obstructors and the
        stones covering the obstructor.
    matches : {"heuristic", "tile", "reverse"}
        The order a stone's visible matches are tried in. Algorithm 6 returns the "first
        pickpath with free status" without saying which match is first. ``heuristic``
        (the default): the heuristic's ranking, the same order section 3.4 uses for the
        root stones ("the rootPick is chosen according to a heuristic"), with ties broken
        by ``tie_break``; ``tile``: tile order (the lowest level first); ``reverse``: tile
        order reversed (the highest level first).
    cycles : {"skip", "negative"}
        A match that is already higher in the tree: skipped, or the node is negative
        (the paper's "the current node will return a negative status").
    side : {"shorter", "left"}
        When both sides of a match are cleared by pickPaths: the shorter one (left on a
        tie), or always the left one.
    tie_break : {"top", "heuristic"}
        Equal heuristic values, among root stones and among a stone's matches. ``top``
        (the default): the higher stone first (the later one in tile order, which lists
        the lowest level first: the top of the pile), a choice the text leaves open; a
        heuristic that is a random draw (the Random heuristic) keeps its draw for the
        root stones, and its matches, all of equal value, go top first.
        ``heuristic``: the heuristic's own tie rule (at random by default).
    path : {"queue", "one-pass"}
        How a found pickPath is played. Algorithm 5 says "pick all stones in pickPath",
        "depth-first", the root pair last, and section 3.4 that a stone used twice may
        leave stones that "can not be picked during this iteration". ``queue`` (the
        default): the path's pairs in order, a pair not yet free waiting until a later
        move frees it; ``one-pass``: the path's pairs in order once, a pair not free at
        its turn dropped (the next search starts when the pass ends).

    Notes
    -----
    The default, ``OTReading()``, is one rule: rank by the heuristic, the higher stone on
    equal values, for the root stones and for each stone's matches alike; take the first
    free match (Algorithm 6); above the frontier, the first positive obstructor set
    (Algorithm 6, "pickPath with highest status"). With the Random heuristic every stone
    has the same value, so the matches go top first (tile order reversed).
    """

    stones: str = "pair"
    matches: str = "heuristic"
    cycles: str = "skip"
    side: str = "shorter"
    tie_break: str = "top"
    path: str = "queue"

    def __post_init__(self) -> None:
        for field, known in _READING_CHOICES.items():
            if getattr(self, field) not in known:
                raise UnknownReadingError(
                    f"unknown Obstruction-Tree {field} reading {getattr(self, field)!r} (known: {', '.join(known)})"
                )

    def pickable(self, view, t: TileId) -> bool:
        """Whether obstructor ``t`` may go with a free match now."""
        return _PICKABLE[self.stones](view, t)

    def own_obstructors(self, s: _Search, t: TileId):
        """The obstructor groups of stone ``t`` (below the root) that must go before it."""
        return _OWN[self.stones](s, t)

    def choose_side(self, left, l, right, r, paths) -> list[TileId]:
        """The side whose pickPaths clear a match, given both statuses."""
        return _SIDE[self.side](left, l, right, r, paths)


_PICKABLE = {"pair": _free_pickable, "match": _always_pickable, "match-above": _uncovered_pickable}
_OWN = {"pair": _own_all, "match": _own_none, "match-above": _own_above}
_SIDE = {"shorter": _side_shorter, "left": _side_left}
_READING_CHOICES = {
    "stones": tuple(_PICKABLE),
    "matches": ("heuristic", "tile", "reverse"),
    "cycles": ("skip", "negative"),
    "side": tuple(_SIDE),
    "tie_break": ("top", "heuristic"),
    "path": ("queue", "one-pass"),
}


class UnknownReadingError(ValueError):
    """No Obstruction-Tree reading of that name."""


class ObstructionTreeStrategy(Strategy):
    """Algorithms 5-9: search a pickPath that frees a root stone's match, then pick it.

    The root stone is the heuristic's best free stone; when no pickPath is found for
    it, the next best is tried, and so on (``skipFirst``). For a root, iterative
    deepening alternates finding visible matches of a stone and the obstructors (left
    chain, above, right chain) of a match, each obstructor a new node, until the root
    is decided. The pruning of the paper: decided statuses are kept; a stone already
    higher in the tree is negative; one negative obstructor above, or one on the left
    and one on the right, makes a match negative; all above and all of one side
    positive make it positive. The pickPath is picked blockers first, root pair last.

    Parameters
    ----------
    heuristic : str or Heuristic
    max_nodes : int, optional (default=4000)
        Nodes per root search; past it the root counts as undecided and is skipped.
    max_level : int, optional (default=12)
        Deepest iteration per root search.

    Notes
    -----
    Exponential in ``max_level`` in the worst case (up to three matches times the
    obstructors per level), bounded by ``max_nodes`` per root and so by
    :math:`O(f \\cdot \\text{max\\_nodes} \\cdot c)` per move for ``f`` free tiles.
    """

    name = "obstruction-tree"

    def __init__(
        self,
        heuristic: str | Heuristic = "random",
        *,
        max_nodes: int = 4000,
        max_level: int = 12,
        reading: OTReading | None = None,
        **choices: str,
    ) -> None:
        super().__init__(heuristic)
        self.max_nodes = int(max_nodes)
        self.max_level = int(max_level)
        self.reading = dataclasses.replace(reading or OTReading(), **choices)

    def choose(self, view: PlayerView, rng: np.random.Generator) -> Move | None:
        move = self._next_of_path(view)
        if move is not None:
            return move
        self._queue = []
        cache: dict = {}
        for root in self.root_order(view, rng):
            path = self.pick_path(view, root, cache=cache, rng=rng)
            if path:
                self._queue = list(path)
                move = self._next_of_path(view)
                if move is not None:
                    return move
        return None

    def _next_of_path(self, view: PlayerView) -> Move | None:
        """The next pair of the pickPath being played, by the reading's ``path``."""
        if self.reading.path == "queue":
            return self._next_planned(view)
        q = self._queue
        while q:  # one pass: a pair not playable at its turn is dropped
            a, b = q.pop(0)
            if view.is_present(a) and view.is_present(b) and view.is_free(a) and view.is_free(b):
                return (a, b)
        return None

    def _ties(self) -> str | None:
        """The tie rule of this reading's rankings (``None``: the heuristic's own)."""
        return "last" if self.reading.tie_break == "top" else None

    def root_order(self, view: PlayerView, rng: np.random.Generator) -> list[TileId]:
        """The free stones in the order they are tried as root (``getBest(freeStones, skipFirst)``)."""
        heuristic = self.heuristic
        ties = None if heuristic.random_choice else self._ties()
        return heuristic.rank(view, view.free_tiles(), rng, ties=ties)

    def match_order(self, view: PlayerView, rng: np.random.Generator):
        """The function that puts a stone's visible matches in the order they are tried."""
        return _ORDERS[self.reading.matches](self.heuristic, view, rng, self._ties())

    def pick_path(
        self, view, root: TileId, *, cache: dict | None = None, rng: np.random.Generator | None = None
    ) -> list[Move] | None:
        """The pickPath found for ``root`` by iterative deepening, or ``None``.

        ``cache`` may be shared by the searches of one position (matches, obstructors);
        ``rng`` breaks the heuristic's ties when it orders matches (default: seed 0).
        """
        gen = np.random.default_rng(0) if rng is None else rng
        order = self.match_order(view, gen)
        s = _Search(view, self.reading, self.max_nodes, order, cache)
        node = _TwoStageNode(root, 0, frozenset())
        for level in range(self.max_level + 1):
            s.frontier = False
            node.evaluate(s, level)
            if node.status or not s.frontier or s.exhausted:
                break
        return node.path if node.status == 1 else None


def _tile_order(heuristic, view, rng, ties):
    return lambda matches: matches


def _reverse_order(heuristic, view, rng, ties):
    return lambda matches: matches[::-1]


def _heuristic_order(heuristic, view, rng, ties):
    return lambda matches: heuristic.rank(view, matches, rng, ties=ties) if len(matches) > 1 else matches


_ORDERS = {"tile": _tile_order, "reverse": _reverse_order, "heuristic": _heuristic_order}


def _matches(view: PlayerView) -> dict[GroupId, list[TileId]]:
    """Faces with at least two free tiles, and those tiles (in tile order)."""
    return {g: ts for g, ts in view.free_by_face().items() if len(ts) >= 2}


def _is_guess(view: PlayerView, off: list[TileId], g: GroupId) -> bool:
    return len(off) == 3 and view.tiles_left(g) == 4


class Theorem5Strategy(Strategy):
    """Theorem 5's player [dB12]_: an arbitrary (here uniformly random) face with a free
    match, then a match of it with the most tiles off the ground (ties uniformly at random).

    Notes
    -----
    :math:`O(f \\log f)` per move for ``f`` free tiles. The heuristic is not used.
    """

    name = "theorem5"

    def choose(self, view: PlayerView, rng: np.random.Generator) -> Move | None:
        matches = _matches(view)
        if not matches:
            return None
        groups = sorted(matches)
        g = groups[int(rng.integers(len(groups)))]
        tiles = matches[g]
        off = [t for t in tiles if view.is_off_ground(t)]
        ground = [t for t in tiles if not view.is_off_ground(t)]
        if len(off) >= 2:
            pick = [off[i] for i in rng.choice(len(off), size=2, replace=False)]
        elif off:
            pick = [off[0], ground[int(rng.integers(len(ground)))]]
        else:
            pick = [ground[i] for i in rng.choice(len(ground), size=2, replace=False)]
        guess = _is_guess(view, off, g)
        behind = next((t for t in off if t not in pick), None) if guess else None
        move = normalize_move(*pick)
        self.decisions.append(Decision(move, g, tuple(tiles), guess, behind))
        return move


class RandomMatchStrategy(Strategy):
    """A uniformly random free pair (the baseline of :class:`Theorem5Strategy`).

    Notes
    -----
    :math:`O(f^2)` per move for ``f`` free tiles.
    """

    name = "random-match"

    def choose(self, view: PlayerView, rng: np.random.Generator) -> Move | None:
        matches = _matches(view)
        pairs = [(g, pair) for g, ts in sorted(matches.items()) for pair in itertools.combinations(ts, 2)]
        if not pairs:
            return None
        g, pair = pairs[int(rng.integers(len(pairs)))]
        off = [t for t in matches[g] if view.is_off_ground(t)]
        move = normalize_move(*pair)
        self.decisions.append(Decision(move, g, tuple(matches[g]), _is_guess(view, off, g)))
        return move


STRATEGIES: dict[str, type[Strategy]] = {
    "random": RandomStrategy,
    "multiple-first": MultipleFirstStrategy,
    "greedy": GreedyStrategy,
    "obstruction-tree": ObstructionTreeStrategy,
    "theorem5": Theorem5Strategy,
    "random-match": RandomMatchStrategy,
}
"""The strategies by name: Stam's four in the order of his Table 1, then de Bondt's
Theorem 5 player and its random baseline."""

STAM_STRATEGIES: tuple[str, ...] = ("random", "multiple-first", "greedy", "obstruction-tree")
"""Stam's strategies, in the order of his Table 1 (``mjsat play -s all``)."""


def make_strategy(name: str | Strategy, heuristic: str | Heuristic = "random", **options) -> Strategy:
    """A fresh strategy by name (a key of :data:`STRATEGIES`).

    Spellings without dashes and the initials ``mf`` and ``ot`` also work.
    """
    if isinstance(name, Strategy):
        return name
    key = str(name).strip().lower().replace("_", "-")
    aliases = {
        "multiplefirst": "multiple-first",
        "mf": "multiple-first",
        "obstructiontree": "obstruction-tree",
        "ot": "obstruction-tree",
        "randommatch": "random-match",
    }
    key = aliases.get(key.replace("-", ""), key)
    if key not in STRATEGIES:
        raise UnknownStrategyError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    return STRATEGIES[key](heuristic, **options)
