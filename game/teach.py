"""Lessons on the game page: a formula's reduction board, and a height-two board.

A lesson is a board with the teaching material the page shows beside it. Everything is
computed by the parts of mjsat that own it; this module only gathers it as plain data
for the page (JSON):

* :class:`FormulaLesson` -- a CNF formula (DIMACS or infix, :func:`~mjsat.reductions.cnf.parse_formula`)
  reduced to a board of any target (:func:`~mjsat.reductions.targets.reduce_formula`).
  :meth:`~FormulaLesson.guided` gives the intended play of an assignment move by move:
  the witness play of a satisfying one (:func:`~mjsat.reductions.witness.witness`), or the
  playbook until it gets stuck for a falsifying one
  (:func:`~mjsat.reductions.explain.stuck_data`), each move with its gadget and lemma
  (:func:`~mjsat.reductions.explain.explain_moves`) and the clauses as their ``C`` tiles
  are freed (:func:`~mjsat.reductions.explain.clause_progress`).
  :meth:`~FormulaLesson.free_play` reads the assignment off a student's play at its first
  ``SAT`` pair (:func:`~mjsat.reductions.witness.assignment_at_first_sat`);
  :meth:`~FormulaLesson.try_all` runs every assignment (up to a bound).
* :class:`Height2Lesson` -- a board of isolated stacks of height at most two: its blocked
  cycles (:func:`~mjsat.search.height2.blocked_cycle_graph`, de Bondt's Definition 6 and
  Theorem 7), or, when there are none, a play of Theorem 5's strategy without peeking
  (:class:`mjsat.play.strategies.Theorem5Strategy`) or of Theorem 7's with peeking
  (:func:`~mjsat.search.height2.clearing_sequence`), move by move.

>>> lesson = FormulaLesson.from_text("(x1 | -x2) & x2", "stacks")
>>> lesson.describe()["satisfiable"], len(lesson.board)
(True, 168)
>>> play = lesson.guided([True, True])
>>> play["cleared"], len(play["steps"]), play["steps"][0]["lemma"]
(True, 84, 'choice')
>>> lesson.guided([False, True])["stuck"]["falsified"]
['C1']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from mjsat.board import Board, Move
from mjsat.render import choose_view, svg_board

__all__ = [
    "PAGE_MAX_TILES",
    "TRY_ALL_LIMIT",
    "LessonError",
    "FormulaLesson",
    "Height2Lesson",
    "HEIGHT2_STRATEGIES",
]

PAGE_MAX_TILES = 25_000
"""Largest board a lesson shows (the page draws every tile of it)."""

TRY_ALL_LIMIT = 1 << 10
"""Assignments :meth:`FormulaLesson.try_all` runs at most: every one when there are no more,
else a sample (:meth:`FormulaLesson.samples`)."""


class LessonError(ValueError):
    """A lesson that cannot be made: a board too large for the page, an assignment of the
    wrong length, a board the height-two lesson does not cover (the message says why)."""


def _lit(lit: int) -> str:
    return f"{'¬' if lit < 0 else ''}V{abs(lit)}"


def _clause_text(clause: Sequence[int]) -> str:
    return "(" + " ∨ ".join(_lit(l) for l in clause) + ")" if clause else "(empty clause)"


def _picture(board: Board) -> str:
    """Every tile of the board's full deal (removed ones are hidden by the page)."""
    return svg_board(board, tiles=range(len(board)))


class FormulaLesson:
    """A formula, its reduction board of one target, and the teaching data of both.

    Parameters
    ----------
    red : reduction object
        Of any target (:func:`~mjsat.reductions.targets.reduce_formula`).
    text : str
        The formula as the student wrote it (shown on the page).
    source : str
        Where it came from (a file name, or ``formula`` for typed text).
    """

    kind = "formula"

    def __init__(self, red: Any, *, text: str, source: str = "formula") -> None:
        from mjsat.reductions.witness import stack_reduction_of

        self.red = red
        self.text = text
        self.source = source
        self.target = red.board.meta.get("reduction", "stacks")
        self.formula = stack_reduction_of(red).formula
        self._described: dict[str, Any] | None = None

    @property
    def board(self) -> Board:
        """The reduction board (its full deal)."""
        return self.red.board

    @classmethod
    def from_text(cls, text: str, target: str = "stacks", *, source: str = "formula") -> FormulaLesson:
        """The lesson of a formula written as DIMACS or in infix form.

        Raises
        ------
        mjsat.fileio.InputFileError
            The text does not parse (one line naming ``source``, the line and position).
        LessonError
            The board of ``target`` would have more than :data:`PAGE_MAX_TILES` tiles.
        ValueError
            An unknown target.
        """
        from mjsat.reductions.cnf import normalize_3cnf, parse_formula
        from mjsat.reductions.stacks import stack_sizes
        from mjsat.reductions.targets import TARGETS, reduce_formula

        if target not in TARGETS:
            raise LessonError(f"unknown target {target!r} (known: {', '.join(TARGETS)})")
        formula = normalize_3cnf(parse_formula(text, source))
        tiles: float = stack_sizes(formula.n_vars, formula.n_clauses)["tiles"]
        tiles *= {"rows": 7 / 3, "shisen-sho": 9, "shisen-rows": 9}.get(target, 1)
        if tiles > PAGE_MAX_TILES:
            raise LessonError(
                f"{source}: the {target} board of this formula has {int(tiles):,} tiles, more than the "
                f"{PAGE_MAX_TILES:,} the page shows ({formula.n_vars} variables and {formula.n_clauses} "
                "clauses after normalisation); take a smaller formula or another target"
            )
        return cls(reduce_formula(formula, target, meta={"cnf_file": source}), text=text, source=source)

    @classmethod
    def from_file(cls, path: str, target: str = "stacks") -> FormulaLesson:
        """The lesson of a formula file (DIMACS or infix); errors as :meth:`from_text`."""
        from mjsat.fileio import read_text

        return cls.from_text(read_text(path), target, source=str(path))

    # -- what the page shows first
    def describe(self) -> dict[str, Any]:
        """The formula, its clauses, the board's picture and the lemmas (for the panel).

        Notes
        -----
        :math:`O(T)` for ``T`` tiles (the picture), plus one SAT call; kept after the first call.
        """
        if self._described is not None:
            return self._described
        from mjsat.encoders.solvers import is_satisfiable
        from mjsat.reductions.explain import explain_data, legend, proof_plan, proof_steps
        from mjsat.reductions.targets import TARGETS

        f = self.formula
        d = explain_data(self.red, target=self.target)
        sat, model = is_satisfiable(f.original)
        signs = {abs(l): l > 0 for l in model or []}
        model_values = [signs.get(v, False) for v in range(1, f.original_vars + 1)] if sat else None
        clauses = []
        for j, (clause, info) in enumerate(zip(f.clauses, d["clauses"]), 1):
            k = f.origin[j - 1]
            clauses.append(
                {
                    "clause": f"C{j}",
                    "text": _clause_text(clause),
                    "original": k + 1,
                    "original_text": _clause_text(f.original[k]),
                    "literals": [_lit(l) for l in clause],
                    "x_chain_tile": info["x_chain_tile"],
                    "literal_tiles": info["literal_tiles"],
                }
            )
        self._described = {
            "kind": self.kind,
            "source": self.source,
            "text": self.text,
            "target": self.target,
            "targets": list(TARGETS),
            "variables": f.original_vars,
            "fresh_variables": f.n_vars - f.original_vars,
            "original_clauses": [_clause_text(c) for c in f.original],
            "normalization": d["normalization"]["summary"],
            "clauses": clauses,
            "variable_tiles": d["variable_tiles"],
            "satisfiable": sat,
            "model": model_values,
            "tiles": len(self.board),
            "game": self.board.game,
            "view": choose_view(self.board),
            "svg": _picture(self.board),
            "lemmas": {k: {"title": t, "text": x} for k, t, x in proof_steps(self.target)},
            "legend": [{"term": k, "text": x} for k, x in legend(self.target)],
            "plan": [{"lemma": k, "text": x} for k, x in proof_plan(self.target)],
            "assignments": 1 << f.original_vars if f.original_vars < 64 else None,
            "try_all_limit": TRY_ALL_LIMIT,
        }
        return self._described

    def _values(self, values: Sequence[bool]) -> dict[int, bool]:
        n = self.formula.original_vars
        if len(values) != n or not all(isinstance(v, bool) for v in values):
            raise LessonError(f"an assignment gives {n} true/false values, one per variable, got {list(values)[:20]!r}")
        return {v: values[v - 1] for v in range(1, n + 1)}

    # -- guided
    def guided(self, values: Sequence[bool]) -> dict[str, Any]:
        """The intended play of an assignment (``values[i]`` for variable ``i + 1``).

        A satisfying assignment gives the witness play, which clears the board; a
        falsifying one gives the playbook's moves until it is stuck, and ``stuck`` says
        where: the falsified clauses, their x-chain ``Cj`` tiles and the locked literal
        tiles (with the tiles above them and the heads never removed), and the reasons
        in words.

        Returns
        -------
        dict
            ``assignment`` (signed variables), ``satisfies``, ``cleared``, ``moves``,
            ``steps`` (per move: ``tiles``, ``group``, ``gadgets``, ``lemma``, ``why``,
            ``legal``, ``free_since`` and ``value`` for a value choice), ``first_sat``
            (index of the first ``SAT`` pair, or ``None``), ``clauses``
            (:func:`~mjsat.reductions.explain.clause_progress`) and ``stuck`` (``None``
            when the play clears the board).

        Raises
        ------
        LessonError
            ``values`` is not one boolean per variable.

        Notes
        -----
        :math:`O(T)` for ``T`` tiles (one playbook run and one replay).
        """
        from mjsat.reductions.cnf import satisfies
        from mjsat.reductions.explain import clause_progress, explain_moves, stuck_data, stuck_reasons
        from mjsat.reductions.witness import witness

        vals = self._values(values)
        ok = satisfies(vals, self.formula.original)
        stuck = None
        if ok:
            moves = witness(self.red, vals)
        else:
            s = stuck_data(self.red, vals)
            moves = [tuple(m) for m in s["moves"]]
            stuck = {
                "falsified": s["falsified"],
                "tiles_left": s["tiles_left"],
                "clauses": s["clauses"],
                "x_chain_sat": s["x_chain_sat"],
                "reasons": stuck_reasons(s),
            }
        steps = explain_moves(self.red, moves, target=self.target)
        keep = ("tiles", "group", "gadgets", "lemma", "why", "legal", "free_since", "value")
        return {
            "assignment": [v if vals[v] else -v for v in vals],
            "satisfies": ok,
            "cleared": stuck is None,
            "moves": [list(m) for m in moves],
            "steps": [{k: m[k] for k in keep if k in m} for m in steps],
            "first_sat": next((m["index"] for m in steps if m["lemma"] == "first-sat"), None),
            "clauses": clause_progress(self.red, moves),
            "stuck": stuck,
        }

    # -- free play
    def free_play(self, moves: Sequence[Move]) -> dict[str, Any] | None:
        """What a student's play has chosen: the assignment read at its first ``SAT`` pair
        (``None`` before it), each original clause checked on it, ``broken`` (the variables
        both of whose heads went before it: the play broke the chain rule and the board is
        lost whatever the formula), ``lost`` (broken, or the assignment falsifies the
        formula) and, once the board is clear, the assignment :func:`~mjsat.reductions.witness.lift` reads off the whole play.

        Notes
        -----
        :math:`O(M)` for ``M`` moves.
        """
        from mjsat.reductions.witness import LiftError, assignment_at_first_sat, lift

        got = assignment_at_first_sat(self.red, moves)
        if got is None:
            return None
        out = {k: v for k, v in got.items() if k != "values"}
        out["heads"] = {f"V{v}": h for v, h in got["heads"].items()}
        # the chain rule: exactly one head of each variable goes before the first SAT pair
        out["broken"] = [f"V{v}" for v, h in got["heads"].items() if h == "both"]
        out["lost"] = bool(out["broken"]) or not out["satisfied"]
        out["clause_texts"] = [_clause_text(c) for c in self.formula.original]
        out["lift"] = None
        if 2 * len(moves) == len(self.board):
            try:
                values = lift(self.red, moves)
                out["lift"] = [v if values[v] else -v for v in values]
            except LiftError as exc:  # pragma: no cover - a clearing play always lifts (Theorem 3)
                out["lift_error"] = str(exc)
        return out

    # -- every assignment
    def samples(self, seed: int = 0) -> Iterator[list[bool]]:
        """The assignments :meth:`try_all` runs, in its order.

        Every assignment in counting order (``V1`` the lowest bit) when there are at most
        :data:`TRY_ALL_LIMIT`; else a sample: the SAT solver's model (for a satisfiable
        formula), its neighbours at Hamming distance 1 and then 2, then assignments drawn
        at random (``numpy.random.default_rng(seed)``), each once.
        """
        from mjsat.reductions.explain import assignments

        n = self.formula.original_vars
        if n < 64 and 1 << n <= TRY_ALL_LIMIT:
            for vals in assignments(self.formula, 1 << n):
                yield [vals[v] for v in range(1, n + 1)]
            return
        seen: set[tuple[bool, ...]] = set()

        def new(values: Sequence[bool]) -> bool:
            key = tuple(values)
            if key in seen:
                return False
            seen.add(key)
            return True

        model = self.describe()["model"]
        if model is not None:
            yield from (list(m) for m in [model] if new(m))
            for i in range(n):
                m = list(model)
                m[i] = not m[i]
                if new(m):
                    yield m
            for i, j in itertools.combinations(range(n), 2):
                m = list(model)
                m[i], m[j] = not m[i], not m[j]
                if new(m):
                    yield m
        rng = np.random.default_rng(seed)
        while len(seen) < (1 << n if n < 64 else 1 << 63):
            m = [bool(b) for b in rng.integers(0, 2, size=n)]
            if new(m):
                yield m

    def try_all(
        self, limit: int = TRY_ALL_LIMIT, *, offset: int = 0, count: int | None = None, seed: int = 0
    ) -> dict[str, Any]:
        """Run the intended play of the assignments of :meth:`samples` (the first ``limit``
        of them, or those from ``offset`` to ``offset + count`` when the page asks for a
        batch) and say where each one stops.

        Returns
        -------
        dict
            ``total`` (assignments of the original variables), ``sampled`` (whether
            :meth:`samples` draws a sample rather than running them all), ``offset``,
            ``tried`` (rows given), ``next`` (the offset of the next batch, ``None`` at
            ``limit``), ``more`` (assignments left out after this batch) and ``rows``: per
            assignment ``assignment``, ``values``, ``cleared``, ``falsified`` (normal
            clauses), ``moves``, ``tiles_left`` and ``reason`` (the first sentence of
            :func:`~mjsat.reductions.explain.stuck_reasons`, empty when it cleared).

        Notes
        -----
        :math:`O(A \\cdot T)` for ``A`` assignments and ``T`` tiles.
        """
        from mjsat.reductions.explain import stuck_data, stuck_reasons

        n = self.formula.original_vars
        total = 1 << n
        stop = min(limit, total) if count is None else min(limit, total, offset + count)
        rows = []
        for values in itertools.islice(self.samples(seed), offset, stop):
            vals = {v: values[v - 1] for v in range(1, n + 1)}
            s = stuck_data(self.red, vals)
            reasons = stuck_reasons(s)
            rows.append(
                {
                    "assignment": s["assignment"],
                    "values": values,
                    "cleared": not s["stuck"],
                    "falsified": s["falsified"],
                    "moves": len(s["moves"]),
                    "tiles_left": s["tiles_left"],
                    "reason": reasons[0] if reasons else "",
                }
            )
        end = offset + len(rows)
        return {
            "total": total,
            "sampled": total > TRY_ALL_LIMIT,
            "offset": offset,
            "tried": len(rows),
            "next": end if end < min(limit, total) else None,
            "more": max(0, total - end),
            "rows": rows,
        }


# --------------------------------------------------------------------------- height two

HEIGHT2_STRATEGIES = ("theorem5", "theorem7")
"""The plays :meth:`Height2Lesson.play` shows: Theorem 5's strategy without peeking, and
the proof of Theorem 7 with peeking."""

_THEOREMS = {
    "definition6": (
        "Definition 6: a blocked cycle",
        "Distinct groups A1, ..., Ak of two tiles each, stacked A1 over A2, A2 over A3, ..., Ak over A1 "
        "(k = 1: one stack holding both tiles of A1). No tile of it can ever go: the top A1 waits for its "
        "only partner, the bottom A1 under Ak, which waits for the top Ak, whose partner waits ... round "
        "the cycle.",
    ),
    "theorem7": (
        "Theorem 7",
        "Isolated stacks of heights one and two, groups of two or four tiles: all tiles can be removed "
        "(with peeking) if and only if no blocked cycle is present; and for every group with a match, some "
        "match of it creates no new blocked cycle.",
    ),
    "theorem5": (
        "Theorem 5: the optimal strategy without peeking",
        "Repeat: choose any group that has a match (two free tiles), and remove a match of it with the "
        "most tiles not on the ground. It can go wrong only when a group of four has exactly three tiles "
        "off the ground: it must leave one of three stacks that look alike, and one of them may close a "
        "blocked cycle with the hidden tile under it.",
    ),
}


_HEIGHT2_LEGEND = (
    (
        "a column",
        "one stack of one or two tiles, its top tile uppermost: the bottom tile is free once the top one has gone",
    ),
    ("a group", "tiles with one label; any two free tiles of a group pair (groups of two or four tiles)"),
    ("red outline", "the tiles of a blocked cycle (Definition 6): none of them can ever go"),
    ("red arrows", "join the two tiles of a group of a blocked cycle, which can never meet"),
    ("orange outline", "the pair the next step removes"),
    ("blue outline", "the pair the last step removed"),
    ("faded", "tiles removed so far"),
)


_HEIGHT2_PLAN = (
    ("definition6", "Definition 6: groups of two stacked round a cycle (A1 over A2, ..., Ak over A1) can never go."),
    (
        "theorem7",
        "Theorem 7: with peeking, the board clears exactly when it has no blocked cycle, and every "
        "group with a match has a match that makes no new one.",
    ),
    (
        "theorem5",
        "Theorem 5: without peeking, take a match with the most tiles off the ground; the only guess "
        "is a group of four with three tiles off the ground.",
    ),
)


class Height2Lesson:
    """A board of isolated stacks of height at most two, with its blocked cycles and the
    plays of Theorems 5 and 7.

    Raises
    ------
    LessonError
        The board is not one the height-two method covers (the reason of
        :class:`~mjsat.search.height2.NotHeightTwoError`), or is too large for the page.
    """

    kind = "height2"

    def __init__(self, board: Board, *, source: str = "board") -> None:
        from mjsat.search.height2 import NotHeightTwoError, check_height2

        full = board.copy(stack=False)
        if len(full) > PAGE_MAX_TILES:
            raise LessonError(f"{source}: {len(full):,} tiles, more than the {PAGE_MAX_TILES:,} the page shows")
        try:
            check_height2(full)
        except NotHeightTwoError as exc:
            raise LessonError(f"{source}: no height-two lesson: {exc}") from None
        self._board = full
        self.source = source

    @property
    def board(self) -> Board:
        """The board (its full deal)."""
        return self._board

    @classmethod
    def planted(cls, seed: int, n_tiles: int = 16, *, cycle_length: int | None = None) -> Height2Lesson:
        """A board with a planted blocked cycle (:func:`~mjsat.generate.planted_cycle_board`)."""
        from mjsat.generate import planted_cycle_board

        board = planted_cycle_board(np.random.default_rng(seed), n_tiles=n_tiles, cycle_length=cycle_length)
        board.meta["seed"] = seed
        return cls(board, source=f"planted height-two board (seed {seed})")

    @classmethod
    def random(cls, seed: int, n_tiles: int = 16, *, group_sizes: Sequence[int] = (2, 4)) -> Height2Lesson:
        """A random height-two board (:func:`~mjsat.generate.random_height2_board`),
        drawn again with the next seeds until it has no blocked cycle (so Theorem 5's
        strategy has something to clear)."""
        from mjsat.generate import random_height2_board
        from mjsat.search.height2 import has_blocked_cycle

        for s in range(seed, seed + 1000):
            board = random_height2_board(np.random.default_rng(s), n_tiles=n_tiles, p_two=0.8, group_sizes=group_sizes)
            if not has_blocked_cycle(board):
                board.meta["seed"] = s
                return cls(board, source=f"random height-two board (seed {s})")
        raise LessonError(
            f"no height-two board of {n_tiles} tiles without a blocked cycle in seeds {seed}..{seed + 999}"
        )  # pragma: no cover

    def _cycles(self, board: Board) -> list[dict[str, Any]]:
        """The blocked cycles of ``board``'s position, each with its stacks and its tiles."""
        from mjsat.search.height2 import blocked_cycle_graph, blocked_cycles

        G = blocked_cycle_graph(board)
        out = []
        for cyc in blocked_cycles(board):
            k = len(cyc)
            stacks = []
            for i, g in enumerate(cyc):
                bottom, top = G.edges[g, cyc[(i + 1) % k]]["stack"]
                stacks.append(
                    {
                        "top": top,
                        "bottom": bottom,
                        "over": board.group_label(g),
                        "under": board.group_label(cyc[(i + 1) % k]),
                    }
                )
            labels = [board.group_label(g) for g in cyc]
            pairs = [[t for t in board.present_tiles() if board.groups[t] == g] for g in cyc]
            if k == 1:
                text = f"one stack holds both tiles of {labels[0]} (tiles {stacks[0]['top']} over {stacks[0]['bottom']}): the top one waits for the one under it, for ever"
            else:
                chain = " over ".join(labels + [labels[0]])
                text = (
                    f"{chain}: each top tile's only partner lies at the bottom of the stack under the previous "
                    "group's top tile, so no tile of these stacks can ever go"
                )
            out.append(
                {
                    "groups": labels,
                    "stacks": stacks,
                    "pairs": pairs,
                    "tiles": sorted(t for p in pairs for t in p),
                    "text": text,
                }
            )
        return out

    def describe(self) -> dict[str, Any]:
        """The picture, the blocked cycles (Definition 6) and the verdict (Theorem 7)."""
        cycles = self._cycles(self._board)
        b = self._board
        sizes: dict[int, int] = {}
        for g in b.groups:
            sizes[g] = sizes.get(g, 0) + 1
        stacks = b.layout.stacks()
        return {
            "kind": self.kind,
            "source": self.source,
            "tiles": len(b),
            "stacks": len(stacks),
            "height_two": sum(len(s) == 2 for s in stacks),
            "groups_of_two": sum(k == 2 for k in sizes.values()),
            "groups_of_four": sum(k == 4 for k in sizes.values()),
            "game": b.game,
            "view": choose_view(b),
            "svg": _picture(b),
            "cycles": cycles,
            "solvable": not cycles,
            "verdict": (
                f"{len(cycles)} blocked cycle{'s' * (len(cycles) != 1)}: the board cannot be cleared (Theorem 7)"
                if cycles
                else "no blocked cycle: the board can be cleared with peeking (Theorem 7)"
            ),
            "theorems": {k: {"title": t, "text": x} for k, (t, x) in _THEOREMS.items()},
            "legend": [{"term": k, "text": x} for k, x in _HEIGHT2_LEGEND],
            "seed": b.meta.get("seed"),
            "plan": [{"lemma": k, "text": x} for k, x in _HEIGHT2_PLAN],
            "strategies": list(HEIGHT2_STRATEGIES),
        }

    def play(self, strategy: str = "theorem5", seed: int = 0) -> dict[str, Any]:
        """A play of the board move by move, each move with the rule that chose it.

        ``theorem5`` plays Theorem 5's strategy without peeking
        (:class:`~mjsat.play.strategies.Theorem5Strategy`, its arbitrary choices seeded by
        ``seed``), and marks each guess (three tiles of a group of four off the ground)
        and the move after which a blocked cycle is present (found with peeking);
        ``theorem7`` plays the clearing of Theorem 7's proof with peeking
        (:func:`~mjsat.search.height2.clearing_sequence`), which clears every board
        without a blocked cycle.

        Returns
        -------
        dict
            ``strategy``, ``moves``, ``steps`` (per move: ``tiles``, ``group``, ``text``,
            ``guess``, ``cycle`` -- the blocked cycles present after it, when new),
            ``cleared`` and ``tiles_left``.

        Raises
        ------
        LessonError
            An unknown strategy, or ``theorem7`` on a board with a blocked cycle.

        Notes
        -----
        :math:`O(n^2)` for ``n`` tiles (a blocked-cycle test after each move).
        """
        from mjsat.play.game import play_game
        from mjsat.play.strategies import Theorem5Strategy
        from mjsat.search.height2 import BlockedCycleError, clearing_sequence

        b = self._board.copy(stack=False)
        if strategy == "theorem5":
            game = play_game(b, Theorem5Strategy(), rng=np.random.default_rng(seed))
            moves = game.moves
            guesses = dict(enumerate(game.decisions))
        elif strategy == "theorem7":
            try:
                moves = clearing_sequence(b)
            except BlockedCycleError as exc:
                raise LessonError(f"Theorem 7's play needs a board without a blocked cycle: {exc}") from None
            guesses = {}
        else:
            raise LessonError(f"unknown strategy {strategy!r} (known: {', '.join(HEIGHT2_STRATEGIES)})")
        steps = []
        had = {frozenset(c["tiles"]) for c in self._cycles(b)}
        for k, move in enumerate(moves):
            text, guess = self._why(b, move, guesses.get(k), strategy)
            b.play(move)
            now = self._cycles(b)
            new = [c for c in now if frozenset(c["tiles"]) not in had]
            had = {frozenset(c["tiles"]) for c in now}
            if new:
                text += (
                    " With peeking one sees that this closes a blocked cycle ("
                    + "; ".join(c["text"] for c in new)
                    + "): the board can no longer be cleared."
                )
            steps.append(
                {
                    "tiles": list(move),
                    "group": b.group_label(b.groups[move[0]]),
                    "text": text,
                    "guess": guess,
                    "cycle": new,
                }
            )
        return {
            "strategy": strategy,
            "seed": seed,
            "moves": [list(m) for m in moves],
            "steps": steps,
            "cleared": b.is_solved(),
            "tiles_left": b.remaining(),
        }

    def _why(self, b: Board, move: Move, decision: Any, strategy: str) -> tuple[str, bool]:
        """The sentence for ``move`` in position ``b`` (before it is played)."""
        g = b.groups[move[0]]
        label = b.group_label(g)
        free = [t for t in b.present_tiles() if b.groups[t] == g and b.is_free(t)]
        left = sum(1 for t in b.present_tiles() if b.groups[t] == g)
        stacks = {t: s for s in b.layout.stacks() for t in s}
        off = [
            t
            for t in free
            if any(b.is_present(u) for u in stacks[t] if u != t and b.layout.positions[u][2] < b.layout.positions[t][2])
        ]
        a, c = move
        where = ", ".join(f"{t}{' (off the ground)' if t in off else ''}" for t in free)
        text = f"Group {label} ({left} tiles left) has a match: free tiles {where}."
        guess = False
        if strategy == "theorem5":
            picked_off = sum(t in off for t in move)
            text += f" Theorem 5 plays a match with the most tiles off the ground: {a} and {c} ({picked_off} off the ground)."
            if decision is not None and decision.guess:
                guess = True
                text += (
                    f" A guess: three of {label}'s four tiles are off the ground and look alike without peeking; "
                    f"it leaves tile {decision.left_behind}."
                )
        elif left == 2:
            text += f" Its last two tiles go together: {a} and {c}."
        elif len(free) == 3:
            behind = next(t for t in free if t not in move)
            why = (
                "it is on the ground, so leaving it closes no cycle"
                if behind not in off
                else ("with peeking one sees that leaving it closes no blocked cycle (Theorem 7's second claim)")
            )
            text += f" Three of its four tiles are free: it leaves tile {behind} ({why}) and plays {a} and {c}."
        else:
            text += f" Any match of it creates no blocked cycle (Theorem 7's proof): it plays {a} and {c}."
        return text, guess
