"""Teaching: the gadgets of a reduction board and the intended play, in words.

>>> from mjsat.reductions.cnf import normalize_3cnf
>>> from mjsat.reductions.stacks import reduce_to_stacks
>>> info = explain_data(reduce_to_stacks(normalize_3cnf([[1, -2]])))
>>> [g["label"] for g in info["gadgets"]][:3]
['x-chain', 'y-chain', 'V1 true chain']
>>> info["clauses"][0]["literals"]
['V1', '-V2', '-V2']
"""

from __future__ import annotations

from typing import Any

from mjsat.reductions.stacks import StackReduction, stack_sizes

__all__ = ["explain_data", "explain_text", "INTENDED_PLAY"]

INTENDED_PLAY = """\
Intended play (seed 001, Theorem 3; the design note's summary):
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
    "shisen-rows": "Each tile is a 3x3 supertile; the columns stand edge to edge: a full "
    "rectangle of 9 rows.",
}


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
                    {"stack": s, "tiles": [tm(3 * s + k) for k in range(3)], "groups": red.stacks[s], "note": red.stack_note[s]}
                    for s in stacks
                ],
            }
        )
    clauses = []
    for j, clause in enumerate(f.clauses, 1):
        lits = [("" if l > 0 else "-") + f"V{abs(l)}" for l in clause]
        clauses.append(
            {
                "clause": f"C{j}",
                "literals": lits,
                "x_chain_tile": tm(red.roles[("xclause", j)]),
                "literal_tiles": [tm(red.roles[("lit", j, k)]) for k in range(3)],
                "literal_stacks": [s for s, note in enumerate(red.stack_note) if note.endswith(f" of C{j}")],
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
