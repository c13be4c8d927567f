"""Witness maps both ways between satisfying assignments and clearing move lists.

* :func:`playbook_moves` turns a satisfying assignment into a clearing sequence of the
  Theorem 3 stack board, constructively, by the three-rule playbook of the design note
  (greedy play in any order, obeying):

  - **R1** never play a pair that leaves the group's last two tiles in one stack;
  - **R2** the x-chain ``Vi`` pairs only with the head the assignment chose (the true
    chain's head when ``Vi`` is true); the two heads never pair with each other;
  - **R3** while the x-chain ``Cj`` is on the board, two literal ``Cj`` tiles never pair.

* :func:`lift_assignment` reads a clearing sequence back into an assignment: ``Vi`` is
  true iff the head of its true chain went before the first ``SAT`` pair (the proof shows
  exactly one head of each variable goes before it).

:func:`witness` and :func:`lift` do this for every target (stacks, rows, Shisen-Sho):
each target's reduction object lowers stack-board moves to its own moves and lifts its
moves back to stack-board moves. Every sequence is replayed; every lifted assignment is
checked on the formula.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from pysat.solvers import Solver

from mjsat.board import Move
from mjsat.reductions.cnf import Formula3, satisfies
from mjsat.reductions.stacks import StackReduction
from mjsat.replay import replay

__all__ = [
    "WitnessError",
    "LiftError",
    "extend_assignment",
    "playbook_moves",
    "lift_assignment",
    "witness",
    "lift",
    "assignment_at_first_sat",
    "stack_reduction_of",
]


Progress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``: called now and then during long work (a 10,000-clause
board has 222,258 moves); ``mjsat reduce`` draws it as a bar."""

_EVERY = 4096


def _tracked(moves: Sequence[Any], progress: Progress | None, phase: str) -> Iterable[Any]:
    """``moves``, reporting every few thousand to ``progress`` (as the replay consumes them)."""
    if progress is None:
        return moves

    def gen() -> Iterator[Any]:
        total = len(moves)
        for k, m in enumerate(moves):
            if k % _EVERY == 0:
                progress(phase, k, total)
            yield m
        progress(phase, total, total)

    return gen()


class WitnessError(ValueError):
    """The assignment does not satisfy the formula (so no clearing sequence follows).

    Attributes
    ----------
    moves : list of moves
        When the playbook got stuck: the stack-board moves it played before it stopped
        (empty when the assignment was refused before any play).
    """

    def __init__(self, message: str, moves: Sequence[Move] = ()) -> None:
        super().__init__(message)
        self.moves = list(moves)


class LiftError(ValueError):
    """A move list that does not clear the board, or whose assignment fails the formula."""


def extend_assignment(formula: Formula3, assignment: dict[int, bool]) -> dict[int, bool]:
    """Extend an assignment of the original variables to the fresh ones of the
    normalisation (a SAT call under assumptions); raises :class:`WitnessError` when it
    does not satisfy the original formula.

    Notes
    -----
    Linear time for the split chains in practice (unit propagation settles them).
    """
    base = {v: bool(assignment.get(v, False)) for v in range(1, formula.original_vars + 1)}
    for j, c in enumerate(formula.original, 1):
        if not any(base[abs(l)] == (l > 0) for l in c):
            raise WitnessError(f"the assignment falsifies clause {j}: {' '.join(map(str, c)) or '(empty)'}")
    if formula.n_vars == formula.original_vars:
        return base
    with Solver(name="cadical153", bootstrap_with=formula.clauses) as s:
        if not s.solve(assumptions=[v if b else -v for v, b in base.items()]):  # pragma: no cover - split keeps sat
            raise WitnessError("the assignment does not extend to the fresh variables")
        model = s.get_model()
    out = {abs(l): l > 0 for l in model if abs(l) <= formula.n_vars}
    out.update(base)
    for v in range(1, formula.n_vars + 1):
        out.setdefault(v, False)
    return out


def playbook_moves(
    red: StackReduction,
    assignment: dict[int, bool],
    *,
    rng: np.random.Generator | int | None = None,
    progress: Progress | None = None,
) -> list[Move]:
    """A clearing sequence of the stack board from a satisfying assignment (R1-R3).

    Parameters
    ----------
    red : StackReduction
    assignment : dict of int to bool
        Over the normalised formula's variables (see :func:`extend_assignment`).
    rng : Generator, int or None
        With a generator or seed, the greedy play picks moves in random order (to test
        that the rules alone suffice); ``None`` plays in a fixed order.
    progress : callable, optional
        ``progress("playbook", moves so far, moves in all)`` every few thousand moves.

    Raises
    ------
    WitnessError
        The play got stuck (the assignment does not satisfy the formula); its ``moves``
        are the moves played until then.

    Notes
    -----
    :math:`O(T)` for ``T`` tiles with a worklist of groups whose free tiles changed: each
    move re-examines only the groups of the tiles it uncovers.
    """
    gen = None if rng is None else np.random.default_rng(rng)
    groups = red.board.groups
    n_stacks = len(red.stacks)
    top = [0] * n_stacks  # level (from the top) of each stack's current top tile
    present = bytearray(b"\x01") * len(groups)
    members = red.board.group_members()
    left = {g: len(ts) for g, ts in members.items()}
    free: dict[int, set[int]] = {}
    for s in range(n_stacks):
        free.setdefault(groups[3 * s], set()).add(3 * s)
    roles = red.roles
    xlabel = {roles[("xlabel", i)]: i for i in range(1, red.formula.n_vars + 1)}
    chosen = {
        i: roles[("thead", i)] if assignment.get(i, False) else roles[("fhead", i)]
        for i in range(1, red.formula.n_vars + 1)
    }
    head_pair = {frozenset((roles[("thead", i)], roles[("fhead", i)])) for i in range(1, red.formula.n_vars + 1)}
    xclause = {
        red.board.groups[roles[("xclause", j)]]: roles[("xclause", j)] for j in range(1, red.formula.n_clauses + 1)
    }
    literal = {roles[key] for key in roles if key[0] == "lit"}

    def allowed(a: int, b: int) -> bool:
        g = groups[a]
        if left[g] == 4:  # R1: the other two must not share a stack
            rest = [t for t in members[g] if present[t] and t not in (a, b)]
            if rest[0] // 3 == rest[1] // 3:
                return False
        if (a in xlabel and chosen[xlabel[a]] != b) or (b in xlabel and chosen[xlabel[b]] != a):
            return False  # R2
        if frozenset((a, b)) in head_pair:
            return False  # R2
        if g in xclause and present[xclause[g]] and a in literal and b in literal:
            return False  # R3
        return True

    moves: list[Move] = []
    work = sorted(g for g, ts in free.items() if len(ts) >= 2)
    queued = set(work)
    while work:
        if gen is not None:
            k = int(gen.integers(len(work)))
            work[k], work[-1] = work[-1], work[k]
        g = work.pop()
        queued.discard(g)
        ts = sorted(free.get(g, ()))
        cands = [(a, b) for i, a in enumerate(ts) for b in ts[i + 1 :] if allowed(a, b)]
        if not cands:
            continue
        a, b = cands[int(gen.integers(len(cands)))] if gen is not None else cands[0]
        moves.append((a, b))
        if progress is not None and len(moves) % _EVERY == 0:
            progress("playbook", len(moves), len(groups) // 2)
        touched = {g}
        for t in (a, b):
            present[t] = 0
            free[g].discard(t)
            s = t // 3
            top[s] += 1
            if top[s] < 3:
                u = 3 * s + top[s]
                free.setdefault(groups[u], set()).add(u)
                touched.add(groups[u])
        left[g] -= 2
        if g in red.board.names and red.board.names[g].startswith("C"):
            touched.add(g)
        for gg in touched:  # R3 lifts when the x-chain Cj goes: its group is re-queued above
            if len(free.get(gg, ())) >= 2 and gg not in queued:
                work.append(gg)
                queued.add(gg)
    if len(moves) * 2 != len(groups):
        raise WitnessError(
            f"the playbook got stuck after {len(moves)} moves with {len(groups) - 2 * len(moves)} tiles left: "
            "the assignment does not satisfy the formula",
            moves,
        )
    return moves


def lift_assignment(red: StackReduction, moves: Sequence[Move], *, progress: Progress | None = None) -> dict[int, bool]:
    """The assignment a clearing sequence of the stack board encodes.

    ``Vi`` is true iff the head of its true chain is removed before the first move of
    the ``SAT`` group. The moves are replayed first; the assignment is checked on the
    normalised formula and returned for the original variables.

    Raises
    ------
    LiftError
        The moves do not clear the board, or the assignment fails the formula (which
        would contradict Theorem 3).

    Notes
    -----
    :math:`O(T)` for the replay of ``T`` tiles.
    """
    from mjsat.replay import InvalidSolutionError

    try:
        replay(red.board, _tracked(moves, progress, "replay (stacks)"))
    except InvalidSolutionError as exc:
        raise LiftError(f"not a clearing sequence of the board: {exc}") from None
    first_sat, heads = _heads_before_first_sat(red, moves)
    full = {i: "true" in heads[i] for i in heads}
    if not satisfies(full, red.formula.clauses):
        bad = next(c for c in red.formula.clauses if not satisfies(full, [c]))
        raise LiftError(f"the lifted assignment falsifies clause {bad}")
    return {v: full[v] for v in range(1, red.formula.original_vars + 1)}


def _heads_before_first_sat(red: StackReduction, moves: Sequence[Move]) -> tuple[int | None, dict[int, set[str]]]:
    """The index (from 0) of the first ``SAT`` pair of stack-board ``moves`` (``None``
    when there is none) and, per variable, which of its heads (``"true"``, ``"false"``)
    went before it."""
    sat_group = red.board.groups[red.roles[("sat", 0)]]
    groups = red.board.groups
    first_sat = next((k for k, (a, b) in enumerate(moves) if groups[a] == sat_group), None)
    gone = {t for a, b in moves[:first_sat] for t in (a, b)} if first_sat is not None else set()
    heads: dict[int, set[str]] = {}
    for i in range(1, red.formula.n_vars + 1):
        heads[i] = {side for side, role in (("true", "thead"), ("false", "fhead")) if red.roles[(role, i)] in gone}
    return first_sat, heads


def assignment_at_first_sat(red: Any, moves: Sequence[Move]) -> dict[str, Any] | None:
    """The assignment a play on ``red.board`` (any target) has chosen by its first ``SAT``
    pair, read as :func:`lift` reads a clearing sequence: ``Vi`` is true iff the head of
    its true chain went before that pair. ``None`` while no ``SAT`` pair has gone.

    ``moves`` may stop anywhere after the first ``SAT`` pair (they are replayed, not
    required to clear the board). In a play that can still clear the board exactly one
    head of each variable went before the pair (the x-chain ``Vi`` took it); a play that
    stranded the y-chain open may have taken both or neither, which is reported.

    Returns
    -------
    dict or None
        ``move`` (index of the first ``SAT`` pair in ``moves``, from 1), ``values``
        (original variable -> bool), ``assignment`` (signed original variables),
        ``heads`` (per variable ``"true"``, ``"false"``, ``"both"`` or ``"neither"``:
        the heads gone before the pair), ``clauses`` (per original clause, whether the
        assignment satisfies it) and ``satisfied`` (all of them).

    Raises
    ------
    mjsat.replay.InvalidSolutionError
        A move is not legal where it is played.

    Notes
    -----
    :math:`O(M)` for ``M`` moves (one replay).
    """
    replay(red.board, moves, require_clear=False)
    st = stack_reduction_of(red)
    stack_moves = list(moves) if red is st else red.lift_moves(moves)
    first, heads = _heads_before_first_sat(st, stack_moves)
    if first is None:
        return None
    if red is st:
        index = first + 1
    else:  # the target's move that plays the first SAT pair of the stack board
        pair = set(stack_moves[first])
        index = next(k for k, (x, y) in enumerate(moves, 1) if {red.to_stack_tile(x), red.to_stack_tile(y)} == pair)
    f = st.formula
    values = {v: "true" in heads[v] for v in range(1, f.original_vars + 1)}
    word = {frozenset(): "neither", frozenset({"true"}): "true", frozenset({"false"}): "false"}
    return {
        "move": index,
        "values": values,
        "assignment": [v if values[v] else -v for v in values],
        "heads": {v: word.get(frozenset(heads[v]), "both") for v in values},
        "clauses": [satisfies(values, [c]) for c in f.original],
        "satisfied": satisfies(values, f.original),
    }


def stack_reduction_of(red: Any) -> StackReduction:
    """The Theorem 3 reduction under any target's reduction object."""
    return red if isinstance(red, StackReduction) else red.stack


def witness(
    red: Any,
    assignment: dict[int, bool],
    *,
    rng: np.random.Generator | int | None = None,
    progress: Progress | None = None,
) -> list[Move]:
    """A replay-verified clearing sequence of ``red.board`` from a satisfying assignment of
    the original formula (any target: stacks, rows, Shisen-Sho).

    ``progress(phase, done, total)``, if given, hears about the playbook and the replay.

    Raises
    ------
    WitnessError
        The assignment does not satisfy the formula.

    Notes
    -----
    :math:`O(T)` plus the target's lowering and the replay.
    """
    st = stack_reduction_of(red)
    full = extend_assignment(st.formula, assignment)
    moves = playbook_moves(st, full, rng=rng, progress=progress)
    if red is not st:
        moves = red.lower_moves(moves)
    replay(red.board, _tracked(moves, progress, "replay"))
    return moves


def lift(red: Any, moves: Sequence[Move], *, progress: Progress | None = None) -> dict[int, bool]:
    """The satisfying assignment (original variables) a clearing sequence of
    ``red.board`` encodes, for any target; raises :class:`LiftError` when the moves do not
    clear the board. ``progress(phase, done, total)`` hears about the replays.

    Notes
    -----
    :math:`O(T)` plus the replays.
    """
    from mjsat.replay import InvalidSolutionError

    st = stack_reduction_of(red)
    if red is not st:
        try:
            replay(red.board, _tracked(moves, progress, "replay"))
        except InvalidSolutionError as exc:
            raise LiftError(f"not a clearing sequence of the board: {exc}") from None
        moves = red.lift_moves(moves)
    return lift_assignment(st, moves, progress=progress)
