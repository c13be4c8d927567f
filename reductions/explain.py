"""Teaching: the gadgets of a reduction board and the intended play, in words.

:func:`explain_data` and :func:`explain_text` list the gadgets; :data:`PROOF_STEPS` holds
the steps of Theorem 3's construction and proof in the design note's order (with
:data:`TARGET_STEPS` for rows and Shisen-Sho); :func:`explain_moves` names the gadget and
the lemma of each move of a play; :func:`stuck_data` says where the intended play stops
for an assignment that falsifies the formula. :mod:`mjsat.reductions.handout` builds the
printable page from them.

>>> from mjsat.reductions.cnf import normalize_3cnf
>>> from mjsat.reductions.stacks import reduce_to_stacks
>>> info = explain_data(reduce_to_stacks(normalize_3cnf([[1, -2]])))
>>> [g["label"] for g in info["gadgets"]][:3]
['x-chain', 'y-chain', 'V1 true chain']
>>> info["clauses"][0]["literals"]
['V1', '¬V2', '¬V2']

References
----------
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from typing import Any

from pysat.solvers import Solver

from mjsat.board import Move
from mjsat.reductions.cnf import Formula3, satisfies
from mjsat.reductions.stacks import StackReduction, stack_sizes
from mjsat.reductions.witness import WitnessError, playbook_moves, stack_reduction_of
from mjsat.replay import replay

__all__ = [
    "explain_data",
    "explain_text",
    "explain_moves",
    "clause_progress",
    "stuck_data",
    "stuck_reasons",
    "assignments",
    "proof_steps",
    "literal_name",
    "notation",
    "legend",
    "legend_html",
    "proof_plan",
    "INTENDED_PLAY",
    "PROOF_STEPS",
    "TARGET_STEPS",
]

INTENDED_PLAY = """\
Intended play (de Bondt (2012), Theorem 3; the design note's summary):
 1. The x-chain ends in [x..,x..,SAT]: its SAT shows only when the whole x-chain is dug
    out, which needs every label on top of an [label,x,x] stack gone: one Vi per
    variable, one Cj per clause.
 2. The first SAT pair must be that x-chain SAT with the SAT on top of [SAT,y1,y1]; the
    y-chain (and with it the y-chain's Vi tiles, at the bottom of [y,y,Vi]) stays locked
    until then.
 3. So, before the first SAT pair, each x-chain Vi pairs with the head of Vi's true
    chain (Vi = true) or of its false chain (Vi = false). Pairing the two heads with each
    other is fatal.
 4. Removing a head unlocks that chain: each literal gadget on it frees a Cj (the bottom
    of [t,t,Cj]). Each x-chain Cj needs a freed Cj partner before the SAT pair, so every
    clause needs a true literal: board solvable <=> formula satisfiable.
 5. After the first SAT pair the y-chain digs out, its Vi tiles pair with the remaining
    heads, the other chains unlock, the leftover Cj pair up, and the last two SATs go.
Playbook (any greedy order): R1 never leave a group's last two tiles in one stack;
R2 the x-chain Vi pairs only with the chosen head, never head with head; R3 while the
x-chain Cj is on the board, never pair two literal Cj tiles."""

_TARGET_NOTES = {
    "stacks": "Each stack is a pile of three tiles; only its top tile is free.",
    "rows": "Each stack [p,q,r] is a row 'p q r c c c c' on one level (c: a fresh group per row); "
    "rows 7k..7k+6 stand for stack k.",
    "shisen-sho": "Each tile is a 3x3 supertile 'B a C / D B E / C E D'; a stack is a column of "
    "supertiles, columns one empty column apart.",
    "shisen-rows": "Each tile is a 3x3 supertile; the columns stand edge to edge: a full rectangle of 9 rows.",
}


PROOF_STEPS: tuple[tuple[str, str, str], ...] = (
    (
        "step1",
        "Step 1: the eight start stacks",
        "[x1,x1,x2] [x2,x1,x1] [x2,x2,SAT] [SAT,y1,y1] [y1,y2,y2] [y1,y3,y3] [y2,y2,SAT] [y3,y3,SAT] "
        "(top first). With no variables and no clauses they clear: the empty formula is satisfiable.",
    ),
    (
        "step2",
        "Step 2: one x-part, one y-part and two chains per variable",
        "For each variable Vi the stacks [xM,xM,SAT] and [yN,yN,SAT] are replaced by the x-part "
        "[xM,xM,xM+2] [Vi,xM+1,xM+1] [xM+1,xM+1,xM+2] [xM+2,xM+2,SAT], the y-part "
        "[yN,yN+1,yN+1] [yN+1,yN+1,Vi] [yN,yN+2,yN+2] [yN+2,yN+2,SAT], the true chain "
        "[Vi,ti,2,ti,2] [ti,1,ti,1,ti,2] [ti,2,ti,1,ti,1] and the false chain (f for t). "
        "So Vi has four tiles: the x-chain label, the y-chain bottom, and the heads of its two chains.",
    ),
    (
        "step3",
        "Step 3: one x-part and three literal gadgets per clause",
        "For each clause Cj (padded to three literals) the x-chain gets an x-part with the label Cj, "
        "and each literal replaces the head [Vi,tK,tK] of its chain (the false chain for a negative "
        "literal) by [Vi,tK+2,tK+2] [tK+2,tK,tK] [tK+2,tK+1,tK+1] [tK+1,tK+1,Cj]. So Cj has four "
        "tiles: the x-chain label and three at the bottom of literal gadgets.",
    ),
    (
        "x-chain",
        "The x-chain",
        "The x-chain ends in [x,x,SAT]: its SAT shows only when the whole x-chain is dug out, which "
        "needs every label on top of an [label,x,x] stack gone: one Vi per variable, one Cj per clause.",
    ),
    (
        "first-sat",
        "The first SAT pair",
        "The first SAT pair can only be the x-chain SAT with the SAT on top of [SAT,y1,y1]: the other "
        "two SATs lie at the bottom of [y2,y2,SAT] and of the y-chain's end, under y tiles that stay "
        "locked until the SAT on [SAT,y1,y1] is gone.",
    ),
    (
        "lock",
        "The locking trick",
        "Every x, y, t and f group has one stack with two of its tiles under another tile. Pairing the "
        "two free copies of such a group with each other first strands that stack's pair in one stack "
        "for ever; so a group's last two tiles must never be left in one stack (playbook rule R1).",
    ),
    (
        "y-chain-v",
        "Where the y-chain's Vi tiles sit",
        "The y-chain's Vi tiles lie at the bottom of [y,y,Vi]: they can be reached only after the first SAT pair.",
    ),
    (
        "choice",
        "The four Vi tiles: choosing a value",
        "Before the first SAT pair the x-chain Vi must pair with the head of the true chain "
        "(Vi = true) or of the false chain (Vi = false): its other partner, the y-chain Vi, comes "
        "only after that pair. Pairing the two heads with each other is fatal (rule R2).",
    ),
    (
        "unlock",
        "Unlocking a literal chain",
        "Removing a head unlocks its chain: each literal gadget on it digs out and frees its Cj, the "
        "bottom tile of [t,t,Cj]. Without the head gone, the chain's tiles could pair only by "
        "stranding the two tiles under the head in one stack.",
    ),
    (
        "clauses",
        "Clauses",
        "Each x-chain Cj needs a freed Cj partner before the first SAT pair, so every clause needs a "
        "literal whose chain was unlocked: a true literal. While the x-chain Cj is on the board, two "
        "freed Cj tiles never pair with each other (rule R3). Hence the board can be cleared exactly "
        "when the formula is satisfiable.",
    ),
    (
        "after",
        "After the first SAT pair",
        "The y-chain digs out and frees every y-chain Vi; those pair with the remaining heads, the "
        "other chains unlock, the leftover Cj tiles pair up, and the last two SATs go.",
    ),
)
"""``(key, title, text)`` of each step of de Bondt (2012)'s Theorem 3 in the order of the design
note's proof: the construction (steps 1-3), then the lemmas of "why it works"."""

TARGET_STEPS: dict[str, tuple[str, str, str]] = {
    "rows": (
        "rows",
        "Corollary 4: rows instead of stacks",
        "Each stack [p,q,r] becomes an isolated row p q r c c c c on one level, with a fresh group c per "
        "row. A tile of a row is free when it is the leftmost or the rightmost one left; the c block "
        "keeps the right end busy, so p, q and r leave from the left in stack order, and then "
        "c c c c clears itself as two end pairs. The rows board clears exactly when the stack board does.",
    ),
    "shisen-sho": (
        "supertile",
        "Theorem 2.1: a 3x3 supertile per Mahjong tile",
        "Each Mahjong tile a becomes the block 'B a C / D B E / C E D' (B, C, D, E: pairs private to "
        "the block); a stack becomes a column of blocks. Lock: while a is present no private pair "
        "can go. Unlock: once a is gone the block clears inside its own box (B, E, D, C). Only tops "
        "play: the cell above a belongs to the block above, so a is sealed until the Mahjong tile "
        "above it is gone; then two such a tiles join through the margin above the board.",
    ),
}
TARGET_STEPS["shisen-rows"] = (
    "supertile",
    "Theorem 2.2: supertile columns edge to edge, a rectangle of 9 rows",
    TARGET_STEPS["shisen-sho"][2] + " The columns stand edge to edge: for the height-3 stacks a full "
    "rectangle of 9 rows.",
)


def literal_name(lit: int) -> str:
    """A literal as the lessons and the handout write it: ``V3`` or ``¬V3``.

    >>> literal_name(-3), literal_name(2)
    ('¬V3', 'V2')
    """
    return f"{'¬' if lit < 0 else ''}V{abs(lit)}"


_MINUS_VAR = re.compile(r"(?<![\w-])-V(?=\d)")


def notation(text: str) -> str:
    """``text`` with every negated variable written ``¬Vi`` (the stack notes say ``-Vi``).

    >>> notation("literal -V2 of C1")
    'literal ¬V2 of C1'
    """
    return _MINUS_VAR.sub("¬V", text)


_LEGEND_COMMON = (
    ("a column", "one stack, its top tile uppermost: only the top tile of a stack is free"),
    (
        "x-chain",
        "the stacks that hold one x-chain Vi per variable and one x-chain Cj per clause, and "
        "the x-chain SAT at the very bottom: that SAT shows only when every label of the x-chain has gone",
    ),
    (
        "y-chain",
        "the stacks below [SAT,y1,y1]: locked until the first SAT pair, then they free one y-chain Vi per variable",
    ),
    (
        "Vi",
        "the group of variable i: its x-chain tile pairs with the head of the true chain (Vi = true) "
        "or of the false chain (Vi = false); the two heads never pair with each other",
    ),
    (
        "ti,k and fi,k (t1,2, f1,2 ...)",
        "the true and false chains of Vi: removing a chain's head (the Vi "
        "tile on top of its first stack) unlocks it; every literal of Vi (true chain) or ¬Vi (false chain) "
        "frees a Cj tile at the bottom of [t,t,Cj] or [f,f,Cj]",
    ),
    ("Cj", "the group of clause j: the x-chain Cj needs a Cj tile freed by one of the clause's literals"),
    ("SAT", "the first SAT pair (the x-chain SAT with the SAT on [SAT,y1,y1]) ends the choice"),
)
_LEGEND_COLOURS = (
    ("orange outline", "the pair the next step removes"),
    ("blue outline", "the pair the last step removed"),
    ("red outline", "stuck view: the x-chain Cj of a falsified clause, waiting for a partner"),
    ("violet outline", "stuck view: the clause's literal Cj tiles, locked"),
    ("yellow dashes", "stuck view: the tiles above them and the heads never removed, which lock them"),
    ("faded", "tiles removed so far"),
)
_LEGEND_TARGET = {
    "rows": (("a row", "one stack laid flat: p q r c c c c, leaving from the left in stack order"),),
    "shisen-sho": (
        ("a 3x3 block", "one Mahjong tile a as the supertile 'B a C / D B E / C E D' (B, C, D, E: private pairs)"),
        ("its lock", "while a is present no private pair can go; a is sealed until the block above it has gone"),
        ("a column of blocks", "one stack, top block uppermost"),
    ),
}
_LEGEND_TARGET["shisen-rows"] = _LEGEND_TARGET["shisen-sho"]


def legend(target: str = "stacks") -> list[tuple[str, str]]:
    """The key to a reduction board's picture: ``(term, meaning)`` for each gadget and each
    colour of the lessons' stuck view, with the target's own shapes first.

    >>> legend("stacks")[0][0], legend("shisen-sho")[0][0]
    ('a column', 'a 3x3 block')
    """
    return list(_LEGEND_TARGET.get(target, ())) + list(_LEGEND_COMMON) + list(_LEGEND_COLOURS)


def proof_plan(target: str = "stacks") -> list[tuple[str, str]]:
    """Theorem 3's proof in a few lines: ``(key, line)``, ``key`` the :data:`PROOF_STEPS` (or
    :data:`TARGET_STEPS`) key of the steps that use it.

    >>> [k for k, _ in proof_plan()][:2]
    ['choice', 'x-chain']
    """
    lines = [
        (
            "choice",
            "Before the first SAT pair each x-chain Vi pairs with one head: Vi's true chain's (Vi = true) "
            "or its false chain's (Vi = false). This is the assignment.",
        ),
        (
            "x-chain",
            "The x-chain SAT shows only when every x-chain label has gone: one Vi per variable and one Cj per clause.",
        ),
        ("unlock", "Removing a head unlocks its chain; each literal gadget on it frees a Cj tile."),
        (
            "clauses",
            "An x-chain Cj needs a freed Cj: some literal of clause j must be true. So a clearing "
            "play's assignment satisfies every clause.",
        ),
        ("first-sat", "The first SAT pair is the x-chain SAT with the SAT on [SAT,y1,y1]; it needs all of the above."),
        (
            "after",
            "After it the y-chain digs out, the remaining heads and chains go, and the board clears: "
            "a satisfying assignment gives a clearing play.",
        ),
    ]
    extra = TARGET_STEPS.get(target)
    if extra:
        lines.append((extra[0], extra[1] + ": the target board clears exactly when the stack board does."))
    return lines


def legend_html(target: str = "stacks") -> str:
    """:func:`legend` and :func:`proof_plan` as an HTML ``<section>`` (the handout's and the
    page's key)."""
    from html import escape

    rows = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in legend(target))
    plan = "".join(f'<li data-lemma="{escape(k)}">{escape(v)}</li>' for k, v in proof_plan(target))
    return (
        '<section class="legend"><h2>Legend</h2><dl>'
        + rows
        + "</dl><h3>The proof in brief</h3><ol>"
        + plan
        + "</ol></section>"
    )


def proof_steps(target: str = "stacks") -> list[tuple[str, str, str]]:
    """:data:`PROOF_STEPS`, followed by the step of ``target`` (rows, Shisen-Sho) when it
    has one: the order a handout follows.

    >>> [k for k, _, _ in proof_steps("rows")][-2:]
    ['after', 'rows']
    """
    extra = TARGET_STEPS.get(target)
    return list(PROOF_STEPS) + ([extra] if extra else [])


def _tile_map(red: Any) -> Any:
    """Stack-board tile -> tile of the target board of ``red``."""
    if isinstance(red, StackReduction):
        return lambda t: t
    if hasattr(red, "main"):  # Shisen-Sho: the supertile's a
        return lambda t: red.main[divmod(t, 3)]
    return lambda t: 7 * (t // 3) + t % 3  # rows


def explain_data(red: Any, *, target: str | None = None) -> dict[str, Any]:
    """The gadget list of a reduction board as plain data (for ``--json``).

    ``red`` is the reduction object of any target; tile numbers are those of its board.

    Returns a dict with the formula, the normalisation, the sizes (actual and by the
    design note's formulas), the gadgets (label, stacks and each stack's contents and
    purpose), each clause's literal gadgets, and the intended play.

    Notes
    -----
    :math:`O(S)` for ``S`` stacks.
    """
    tm = _tile_map(red)
    orig = red
    target = target or red.board.meta.get("reduction", "stacks")
    red = red if isinstance(red, StackReduction) else red.stack
    f = red.formula
    gadgets = []
    for label, stacks in red.gadgets():
        gadgets.append(
            {
                "label": label,
                "stacks": [
                    {
                        "stack": s,
                        "tiles": [tm(3 * s + k) for k in range(3)],
                        "groups": red.stacks[s],
                        "note": notation(red.stack_note[s]),
                    }
                    for s in stacks
                ],
            }
        )
    literal_stacks: dict[str, list[int]] = {}
    for s, note in enumerate(red.stack_note):
        if note.startswith("literal "):
            literal_stacks.setdefault(note.rsplit(" of ", 1)[1], []).append(s)
    clauses = []
    for j, clause in enumerate(f.clauses, 1):
        lits = [literal_name(l) for l in clause]
        clauses.append(
            {
                "clause": f"C{j}",
                "literals": lits,
                "x_chain_tile": tm(red.roles[("xclause", j)]),
                "literal_tiles": [tm(red.roles[("lit", j, k)]) for k in range(3)],
                "literal_stacks": literal_stacks.get(f"C{j}", []),
            }
        )
    n, m = f.n_vars, f.n_clauses
    board_tiles = len(orig.board)
    return {
        "target": target,
        "target_note": _TARGET_NOTES.get(target, ""),
        "variables": f.original_vars,
        "clauses_in_file": len(f.original),
        "normalization": f.report.to_dict(),
        "formula": [list(c) for c in f.clauses],
        "sizes": {"stacks": len(red.stacks), "tiles": len(red.board), "groups": len(red.board.group_sizes())},
        "board_tiles": board_tiles,
        "expected_sizes": stack_sizes(n, m),
        "gadgets": gadgets,
        "clauses": clauses,
        "variable_tiles": {
            f"V{i}": {
                "x_chain": tm(red.roles[("xlabel", i)]),
                "y_chain": tm(red.roles[("ylabel", i)]),
                "true_head": tm(red.roles[("thead", i)]),
                "false_head": tm(red.roles[("fhead", i)]),
            }
            for i in range(1, n + 1)
        },
        "intended_play": INTENDED_PLAY,
    }


def explain_text(red: Any, *, target: str | None = None, max_stacks: int = 400) -> str:
    """The gadget list and the intended play for humans (``mjsat reduce explain``).

    Gadgets longer than ``max_stacks`` stacks in all are summarised.

    Notes
    -----
    :math:`O(S)` for ``S`` stacks.
    """
    d = explain_data(red, target=target)
    out = [
        f"formula: {d['variables']} variables, {d['clauses_in_file']} clauses; normalisation: "
        f"{d['normalization']['summary']}",
        f"board: {d['sizes']['stacks']} stacks, {d['sizes']['tiles']} tiles, {d['sizes']['groups']} groups "
        f"(8+12n+12m = {d['expected_sizes']['stacks']}, 24+36n+36m = {d['expected_sizes']['tiles']}, "
        f"6+9n+9m = {d['expected_sizes']['groups']})",
    ]
    if d["target_note"]:
        out.append(f"target {d['target']} ({d['board_tiles']} tiles): {d['target_note']}")
    out.append("")
    out.append(f"gadgets (stacks top first, with the {d['target']} board's tile of each stack tile):")
    shown = 0
    for g in d["gadgets"]:
        out.append(f"  {g['label']} ({len(g['stacks'])} stacks)")
        for st in g["stacks"]:
            if shown >= max_stacks:
                break
            tiles = " ".join(str(t) for t in st["tiles"])
            out.append(f"    stack {st['stack']:>4}  [{', '.join(st['groups'])}]  tiles {tiles}  {st['note']}")
            shown += 1
    if shown >= max_stacks:
        out.append(f"    ... (first {max_stacks} stacks shown; --json gives all)")
    out.append("")
    out.append("clauses:")
    for c in d["clauses"][:max_stacks]:
        out.append(
            f"  {c['clause']} = ({' v '.join(c['literals'])}): x-chain tile {c['x_chain_tile']}, "
            f"freed by the literal tiles {c['literal_tiles']} (stacks {c['literal_stacks']})"
        )
    out.append("variables:")
    for v, t in list(d["variable_tiles"].items())[:max_stacks]:
        out.append(
            f"  {v}: x-chain tile {t['x_chain']}, y-chain tile {t['y_chain']}, heads: true {t['true_head']}, "
            f"false {t['false_head']}"
        )
    out.append("")
    out.append(INTENDED_PLAY)
    return "\n".join(out)


_LEMMA_BEFORE_SAT = {
    "V": "choice",
    "C": "clauses",
    "SAT": "first-sat",
    "x": "x-chain",
    "t": "unlock",
    "f": "unlock",
    "y": "lock",
}
"""The lemma a move of a group kind uses before the first SAT pair."""
_TARGET_MOVE = {
    "rows": "the row's c block clears itself: p, q and r have gone",
    "shisen-sho": "a private pair of the supertile: its a has gone, so the block clears inside its box",
}
_TARGET_MOVE["shisen-rows"] = _TARGET_MOVE["shisen-sho"]
_TARGET_LEGAL = {
    "rows": "; on the rows board they are the leftmost tiles left of their rows",
    "shisen-sho": "; in the image they are their supertiles' a tiles, open to the margin above the board, "
    "where a path of at most three segments joins them",
}
_TARGET_LEGAL["shisen-rows"] = _TARGET_LEGAL["shisen-sho"]


def _kind(name: str) -> str:
    return "SAT" if name == "SAT" else name[:1]


def _role_words(st: StackReduction) -> dict[int, str]:
    """Stack-board tiles with a role in the proof, in words."""
    f = st.formula
    words: dict[int, str] = {}
    for i in range(1, f.n_vars + 1):
        words[st.roles[("xlabel", i)]] = f"the x-chain V{i}"
        words[st.roles[("ylabel", i)]] = f"the y-chain V{i}"
        words[st.roles[("thead", i)]] = f"the head of V{i}'s true chain"
        words[st.roles[("fhead", i)]] = f"the head of V{i}'s false chain"
    for j, clause in enumerate(f.clauses, 1):
        words[st.roles[("xclause", j)]] = f"the x-chain C{j}"
        for k, lit in enumerate(clause):
            words.setdefault(st.roles[("lit", j, k)], f"C{j} freed by its literal {literal_name(lit)}")
    words[st.roles[("sat", 0)]] = "the x-chain SAT"
    words[st.roles[("sat", 1)]] = "the SAT on [SAT,y1,y1]"
    return words


def explain_moves(red: Any, moves: Sequence[Move], *, target: str | None = None) -> list[dict[str, Any]]:
    """Each move of a play on ``red.board`` with the gadget and the lemma it uses.

    ``red`` is the reduction object of any target and ``moves`` are its board's moves
    (e.g. from :func:`~mjsat.reductions.witness.witness`). A move of two stack tiles uses
    the lemma of its group's kind (:data:`PROOF_STEPS` keys: ``choice`` for ``Vi``,
    ``clauses`` for ``Cj``, ``x-chain``, ``unlock`` for ``t``/``f`` groups, ``first-sat``)
    before the first ``SAT`` pair, and ``after`` from then on; a move of a target's own
    tiles (a row's ``c`` block, a supertile's private pair) uses the target's step
    (:data:`TARGET_STEPS`).

    Returns
    -------
    list of dict
        Per move: ``index`` (from 1), ``tiles``, ``group`` (its label), ``lemma``,
        ``gadgets`` (of its two tiles), ``stacks`` (of the stack board), ``why`` (a line
        for humans), ``free_since`` (for each tile, the index of the move that removed
        the last tile above it in its stack, 0 when it was on top from the start; ``None``
        for a target's own tiles), ``legal`` (why the move is legal now, in words) and,
        for a value choice, ``value`` (``"V2 = true"``).

    Notes
    -----
    :math:`O(M)` for ``M`` moves.
    """
    st = stack_reduction_of(red)
    target = target or red.board.meta.get("reduction", "stacks")
    board = red.board
    names = st.names
    flat = st.stack_groups.reshape(-1)
    words = _role_words(st)
    heads = {
        st.roles[(side, i)]: f"V{i} = {'true' if side == 'thead' else 'false'}"
        for i in range(1, st.formula.n_vars + 1)
        for side in ("thead", "fhead")
    }
    target_lemma = TARGET_STEPS.get(target, ("", "", ""))[0]
    removed = _stack_removals(red, moves)
    seen_sat = False
    out: list[dict[str, Any]] = []
    for k, (a, b) in enumerate(moves, 1):
        sa, sb = red.to_stack_tile(a), red.to_stack_tile(b)
        stacks = [red.source_stack(a), red.source_stack(b)]
        entry: dict[str, Any] = {
            "index": k,
            "tiles": [a, b],
            "group": board.group_label(board.groups[a]),
            "stacks": stacks,
            "gadgets": [st.stack_gadget[s] for s in stacks],
        }
        if sa is None or sb is None:
            entry["lemma"] = target_lemma
            entry["why"] = f"{_TARGET_MOVE.get(target, 'a tile of the target')} (stack {stacks[0]})"
            entry["free_since"] = [None, None]
            entry["legal"] = _TARGET_MOVE.get(target, "")
            out.append(entry)
            continue
        since = [_free_since(t, removed, k) for t in (sa, sb)]
        entry["free_since"] = since
        entry["legal"] = _legal_text((a, b), since) + _TARGET_LEGAL.get(target, "")
        name = names[int(flat[sa])]
        kind = _kind(name)
        if kind == "SAT" and not seen_sat:
            entry["lemma"] = "first-sat"
            seen_sat = True
        else:
            entry["lemma"] = "after" if seen_sat else _LEMMA_BEFORE_SAT.get(kind, "lock")
        desc = [words.get(t, f"{name} of stack {t // 3} ({notation(st.stack_note[t // 3])})") for t in (sa, sb)]
        entry["why"] = f"{desc[0]} with {desc[1]}"
        for t, other in ((sa, sb), (sb, sa)):
            if t in heads and other in words and words[other].startswith("the x-chain V"):
                entry["value"] = heads[t]
                entry["why"] += f": {heads[t]}"
        out.append(entry)
    return out


def _stack_removals(red: Any, moves: Sequence[Move]) -> dict[int, int]:
    """Stack-board tile -> index (from 1) of the move of ``moves`` (on ``red.board``)
    that removed it."""
    out: dict[int, int] = {}
    for k, (a, b) in enumerate(moves, 1):
        for t in (a, b):
            s = red.to_stack_tile(t)
            if s is not None:
                out[s] = k
    return out


def _free_since(t: int, removed: dict[int, int], before: int | None = None) -> int | None:
    """The index of the move after which stack-board tile ``t`` is on top of its stack
    (0: from the start), counting only moves before ``before``; ``None`` while a tile
    above it is still there."""
    since = 0
    for u in range(3 * (t // 3), t):
        k = removed.get(u)
        if k is None or (before is not None and k >= before):
            return None
        since = max(since, k)
    return since


def _legal_text(tiles: tuple[int, int], since: list[int | None]) -> str:
    parts = []
    for t, k in zip(tiles, since):
        parts.append(f"tile {t} from the start" if k == 0 else f"tile {t} since move {k} took the last tile above it")
    if since == [0, 0]:
        return f"both tiles ({tiles[0]} and {tiles[1]}) are on top of their stacks from the start"
    return "both tiles are on top of their stacks: " + ", ".join(parts)


def clause_progress(red: Any, moves: Sequence[Move]) -> list[dict[str, Any]]:
    """When each clause's ``Cj`` tiles are freed and removed along a play on ``red.board``.

    A literal's ``Cj`` tile (the bottom of ``[t,t,Cj]``) is *freed* by the move that takes
    the last tile above it in its stack: its chain was unlocked, so the literal is true
    (before the first ``SAT`` pair; after it every chain unlocks). A clause is satisfied
    from the first move that frees one of its literal tiles.

    Returns
    -------
    list of dict
        Per normal clause: ``clause`` (``Cj``), ``literals``, ``x_chain_tile`` and
        ``x_chain_removed`` (index of the move that removed it, from 1, or ``None``),
        ``literal_tiles`` (per literal: ``literal``, ``tile``, ``freed`` and ``removed``,
        move indices or ``None``), ``satisfied_at`` (the first ``freed``, or ``None``)
        and ``satisfied_by`` (that literal).

    Notes
    -----
    :math:`O(M + m)` for ``M`` moves and ``m`` clauses.
    """
    st = stack_reduction_of(red)
    tm = _tile_map(red)
    removed = _stack_removals(red, moves)
    out = []
    for j, clause in enumerate(st.formula.clauses, 1):
        lits = []
        for k, lit in enumerate(clause):
            t = st.roles[("lit", j, k)]
            lits.append(
                {
                    "literal": literal_name(lit),
                    "tile": tm(t),
                    "freed": _free_since(t, removed),
                    "removed": removed.get(t),
                }
            )
        freed = [(l["freed"], l["literal"]) for l in lits if l["freed"] is not None]
        first = min(freed) if freed else (None, None)
        x = st.roles[("xclause", j)]
        out.append(
            {
                "clause": f"C{j}",
                "literals": [l["literal"] for l in lits],
                "x_chain_tile": tm(x),
                "x_chain_removed": removed.get(x),
                "literal_tiles": lits,
                "satisfied_at": first[0],
                "satisfied_by": first[1],
            }
        )
    return out


def assignments(formula: Formula3, limit: int) -> Iterator[dict[int, bool]]:
    """Up to ``limit`` assignments of the original variables, all false first, in binary
    counting order (``V1`` the lowest bit)."""
    n = formula.original_vars
    for bits in itertools.islice(itertools.product((False, True), repeat=n), limit):
        yield {v: bits[n - v] for v in range(1, n + 1)}


def _extend_fresh(formula: Formula3, values: dict[int, bool]) -> dict[int, bool]:
    """``values`` on every variable of the normal form: the fresh variables of split
    clauses set by a SAT call on the clauses that hold them when it can, else false."""
    full = {v: bool(values.get(v, False)) for v in range(1, formula.n_vars + 1)}
    if formula.n_vars == formula.original_vars:
        return full
    fresh = [c for c in formula.clauses if any(abs(l) > formula.original_vars for l in c)]
    with Solver(name="cadical153", bootstrap_with=fresh) as s:
        if s.solve(assumptions=[v if full[v] else -v for v in range(1, formula.original_vars + 1)]):
            full.update({abs(l): l > 0 for l in s.get_model() if abs(l) <= formula.n_vars})
    return full


def stuck_data(red: Any, values: dict[int, bool]) -> dict[str, Any]:
    """Where the intended play stops for an assignment that falsifies the formula.

    The playbook (:func:`~mjsat.reductions.witness.playbook_moves`) is run on the stack
    board with ``values`` (fresh variables of split clauses set as well as they can be)
    until it gets stuck; the moves it played are lowered to ``red``'s board and replayed.

    Returns
    -------
    dict
        ``assignment`` (signed original variables), ``falsified`` (the normal clauses
        ``Cj`` it falsifies), ``moves`` (the target board's moves played), ``tiles_left``,
        ``stuck`` (False only if the play cleared the board, which Theorem 3 rules out for
        a falsifying assignment), and per falsified clause its x-chain tile (``free``
        or not) and its three literal tiles, each with the tiles above it and the head
        that was not removed.

    Notes
    -----
    :math:`O(T)` for ``T`` tiles (one playbook run and one replay).
    """
    st = stack_reduction_of(red)
    f = st.formula
    full = _extend_fresh(f, values)
    try:
        stack_moves = playbook_moves(st, full)
        stuck = False
    except WitnessError as exc:
        stack_moves = exc.moves
        stuck = True
    moves = stack_moves if red is st else red.lower_moves(stack_moves)
    board = replay(red.board, moves, require_clear=False)
    tm = _tile_map(red)
    on = lambda t: board.is_present(tm(t))  # noqa: E731
    clauses = []
    for j, clause in enumerate(f.clauses, 1):
        if satisfies(full, [clause]):
            continue
        x = st.roles[("xclause", j)]
        lits = []
        for k, lit in enumerate(clause):
            t = st.roles[("lit", j, k)]
            head = st.roles[("thead" if lit > 0 else "fhead", abs(lit))]
            lits.append(
                {
                    "literal": literal_name(lit),
                    "tile": tm(t),
                    "present": on(t),
                    "under": [tm(u) for u in range(3 * (t // 3), t) if on(u)],
                    "head": tm(head),
                    "head_present": on(head),
                }
            )
        clauses.append(
            {
                "clause": f"C{j}",
                "x_chain_tile": tm(x),
                "x_chain_present": on(x),
                "x_chain_free": on(x) and board.is_free(tm(x)),
                "literals": lits,
            }
        )
    sat_tile = st.roles[("sat", 0)]
    return {
        "assignment": [v if values.get(v, False) else -v for v in range(1, f.original_vars + 1)],
        "falsified": [c["clause"] for c in clauses],
        "stuck": stuck,
        "moves": [list(m) for m in moves],
        "tiles_left": board.remaining(),
        "x_chain_sat": {"tile": tm(sat_tile), "present": on(sat_tile)},
        "clauses": clauses,
    }


def stuck_reasons(stuck: dict[str, Any]) -> list[str]:
    """Why the play of :func:`stuck_data` stopped: one sentence (without its full stop) per
    falsified clause, naming the x-chain ``Cj`` that waits and why each literal's ``Cj``
    cannot be freed, and a last one for the x-chain ``SAT`` when it never showed.

    >>> from mjsat.reductions.cnf import normalize_3cnf
    >>> from mjsat.reductions.stacks import reduce_to_stacks
    >>> red = reduce_to_stacks(normalize_3cnf([[1], [-1]]))
    >>> stuck_reasons(stuck_data(red, {1: True}))[0].startswith("The x-chain C2 (tile")
    True
    """
    out = []
    for c in stuck["clauses"]:
        parts = []
        for lit in c["literals"]:
            if not lit["present"]:
                parts.append(f"{lit['literal']} (tile {lit['tile']}) has gone")
                continue
            under = f"lies under tiles {', '.join(map(str, lit['under']))}" if lit["under"] else "is free"
            chain = f"{lit['literal'].lstrip('¬')}'s {'false' if lit['literal'].startswith('¬') else 'true'} chain"
            head = (
                f", and the head of {chain} (tile {lit['head']}) is still on the board" if lit["head_present"] else ""
            )
            parts.append(f"the {c['clause']} of the literal {lit['literal']} (tile {lit['tile']}) {under}{head}")
        state = "is free" if c["x_chain_free"] else ("is still covered" if c["x_chain_present"] else "has gone")
        out.append(
            f"The x-chain {c['clause']} (tile {c['x_chain_tile']}) {state} but has no partner: " + "; ".join(parts)
        )
    sat = stuck["x_chain_sat"]
    if sat["present"]:
        out.append(f"So the x-chain SAT (tile {sat['tile']}) never shows and the first SAT pair cannot be played")
    return out
