"""A printable handout: one self-contained HTML page that walks through a reduction.

``mjsat reduce explain FILE.cnf --html -o handout.html`` writes it. The page follows the
order of the proof in the design note (de Bondt (2012), Theorem 3; then the target's own step,
Corollary 4 or the Shisen-Sho supertile):

1. the formula and its normalisation to three literals per clause;
2. the construction, steps 1-3, with the sizes it promises and the board's sizes;
3. the gadgets, each with its picture cut from the board's picture
   (:func:`mjsat.render.svg_board`, the side view for stacks) and its stacks;
4. the lemmas of the proof, each with the moves of the play below that use it;
5. the intended play for one satisfying assignment (found by a SAT solver), move by
   move with its lemma (:func:`~mjsat.reductions.witness.witness` plays it,
   :func:`~mjsat.reductions.explain.explain_moves` names the lemmas); for an
   unsatisfiable formula, where the play stops for each assignment (all of them for a few
   variables, else the first few), with :func:`~mjsat.reductions.explain.stuck_data`.

Pictures are inline SVG, the style sheet is inline, and nothing is loaded from
elsewhere: the page prints as it is. The move list is also in the page as JSON
(``<script type="application/json" id="mjsat-play">``), for checking by replay.

References
----------
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import Any

from mjsat.board import Board
from mjsat.encoders.solvers import is_satisfiable
from mjsat.reductions.cnf import satisfies
from mjsat.reductions.explain import (
    assignments,
    explain_data,
    explain_moves,
    legend_html,
    proof_steps,
    stuck_data,
    stuck_reasons,
)
from mjsat.reductions.witness import stack_reduction_of, witness
from mjsat.render import svg_board
from mjsat.replay import replay

__all__ = ["handout_html"]

_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 62rem; margin: 1.5rem auto; padding: 0 1rem;
       line-height: 1.45; color: #1e1e1e; }
h1, h2, h3, nav, th, .tag, figcaption { font-family: 'Helvetica Neue', Arial, sans-serif; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; }
h2 { font-size: 1.3rem; border-bottom: 2px solid #2f4f3f; padding-bottom: .15rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .3rem; }
code, .mono, td.tiles { font-family: 'DejaVu Sans Mono', Menlo, monospace; font-size: .88em; }
table { border-collapse: collapse; margin: .4rem 0 .8rem; font-size: .86rem; }
th, td { border: 1px solid #b8b8b8; padding: .12rem .4rem; text-align: left; vertical-align: top; }
th { background: #e9efe9; }
figure { margin: .6rem 0 1rem; }
figure svg { display: block; max-width: 100%; height: auto; }
figcaption { font-size: .82rem; color: #444; margin-top: .2rem; }
.lemma { border-left: 4px solid #2f4f3f; background: #f4f7f4; padding: .3rem .8rem; margin: .7rem 0; }
.lemma h3 { margin-top: .2rem; }
.tag { font-size: .75rem; color: #555; background: #e4ebe4; border-radius: 3px; padding: 0 .3rem; }
.uses { font-size: .85rem; color: #333; }
.note { font-size: .9rem; color: #444; }
tr.first-sat td { background: #fbe3dc; }
tr.choice td { background: #e5eefb; }
tr.clauses td { background: #eaf6e4; }
nav ol { columns: 2; font-size: .9rem; }
a { color: #1f4f8f; }
@page { margin: 14mm; }
@media print {
  body { max-width: none; margin: 0; font-size: 10pt; }
  a { color: inherit; text-decoration: none; }
  h2 { break-after: avoid; }
  h3, figure, .lemma, tr { break-inside: avoid; }
  section.gadget { break-inside: avoid-page; }
}
"""

_GADGET_ROLE = {
    "x-chain": (
        "Built by step 1 (its two start stacks and its end), step 2 (one x-part per variable) and step 3 "
        "(one x-part per clause). Its labels V1.., C1.. sit on top of [label,x,x] stacks; its end "
        "[x,x,SAT] holds the x-chain SAT.",
        ("x-chain", "first-sat", "choice", "clauses"),
    ),
    "y-chain": (
        "Built by step 1 (four start stacks, [SAT,y1,y1] first) and step 2 (one y-part per variable). "
        "Its Vi tiles lie at the bottom of [y,y,Vi].",
        ("first-sat", "lock", "y-chain-v", "after"),
    ),
}
_CHAIN_ROLE = (
    "Built by step 2 (its head [Vi,t,t] and two base stacks) and step 3 (one literal gadget of four "
    "stacks per occurrence of the literal, each ending in [t,t,Cj]).",
    ("choice", "unlock", "lock", "clauses"),
)
_MAX_INDICES = 14


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _inline(svg: str) -> str:
    """An SVG picture for inlining in HTML: no XML namespace declaration (HTML gives it)."""
    return re.sub(r'\s+xmlns="[^"]*"', "", svg, count=1).strip()


def _lit(lit: int) -> str:
    return f"{'¬' if lit < 0 else ''}V{abs(lit)}"


def _clause_text(clause: Sequence[int]) -> str:
    return "(" + " ∨ ".join(_lit(l) for l in clause) + ")" if clause else "(empty clause)"


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{_inline(svg)}<figcaption>{_e(caption)}</figcaption></figure>"


def _lemma_link(key: str, titles: dict[str, str]) -> str:
    return f'<a href="#lemma-{_e(key)}">{_e(titles.get(key, key))}</a>'


def _indices(ks: list[int]) -> str:
    shown = ", ".join(f'<a href="#move-{k}">{k}</a>' for k in ks[:_MAX_INDICES])
    more = f", … ({len(ks)} moves)" if len(ks) > _MAX_INDICES else f" ({len(ks)} move{'s' * (len(ks) != 1)})"
    return shown + more


def _formula_section(red: Any, d: dict[str, Any]) -> str:
    f = stack_reduction_of(red).formula
    n = f.original_vars
    fresh = f.n_vars - n
    rows = []
    for k, clause in enumerate(f.original):
        mine = [j for j, o in enumerate(f.origin) if o == k]
        what = "kept"
        if not clause:
            what = "empty: replaced by (z) and (¬z) with a fresh z, each padded"
        elif len(clause) < 3:
            what = "padded by repeating a literal"
        elif len(clause) > 3:
            what = f"split with {len(clause) - 3} fresh variable{'s' * (len(clause) != 4)}"
        normal = "<br>".join(f"C{j + 1} = {_e(_clause_text(f.clauses[j]))}" for j in mine)
        rows.append(
            f"<tr><td>{k + 1}</td><td class='mono'>{_e(' '.join(map(str, clause)) + ' 0')}</td>"
            f"<td>{_e(_clause_text(clause))}</td><td>{normal}</td><td>{_e(what)}</td></tr>"
        )
    variables = ", ".join(f"V{v}" for v in range(1, n + 1)) or "none"
    fresh_text = (
        f" The normalisation added {fresh} fresh variable{'s' * (fresh != 1)}: "
        + ", ".join(f"V{v}" for v in range(n + 1, f.n_vars + 1))
        + "."
        if fresh
        else ""
    )
    return (
        '<section id="formula"><h2>1. The formula</h2>'
        f"<p>{len(f.original)} clause{'s' * (len(f.original) != 1)} over the variables {_e(variables)}."
        f"{_e(fresh_text)} Theorem 3 needs exactly three literals per clause; the normalisation "
        f"({_e(d['normalization']['summary'])}) keeps the formula satisfiable exactly when it was, and "
        "the board is built from its clauses C1, C2, …</p>"
        "<table><tr><th>#</th><th>DIMACS</th><th>clause</th><th>normal clauses</th><th>what was done</th></tr>"
        + "".join(rows)
        + "</table></section>"
    )


def _lemma_box(key: str, title: str, text: str, uses: str = "") -> str:
    return (
        f'<div class="lemma" id="lemma-{_e(key)}"><h3>{_e(title)} <span class="tag">{_e(key)}</span></h3>'
        f"<p>{_e(text)}</p>{uses}</div>"
    )


def _construction_section(d: dict[str, Any], steps: list[tuple[str, str, str]]) -> str:
    sz, ex = d["sizes"], d["expected_sizes"]
    boxes = "".join(_lemma_box(k, t, x) for k, t, x in steps if k.startswith("step"))
    table = (
        "<table><tr><th></th><th>by the formulas (n variables, m clauses)</th><th>this board</th></tr>"
        f"<tr><td>stacks</td><td>8 + 12n + 12m = {ex['stacks']}</td><td>{sz['stacks']}</td></tr>"
        f"<tr><td>tiles</td><td>24 + 36n + 36m = {ex['tiles']}</td><td>{sz['tiles']}</td></tr>"
        f"<tr><td>groups of four</td><td>6 + 9n + 9m = {ex['groups']}</td><td>{sz['groups']}</td></tr></table>"
    )
    target = ""
    if d["target"] != "stacks":
        target = (
            f"<p>The target is <code>{_e(d['target'])}</code> ({d['board_tiles']} tiles): "
            f"{_e(d['target_note'])} Its step of the proof comes after Theorem 3's lemmas below; the "
            "pictures show the target board, tile numbers are its own.</p>"
        )
    return (
        '<section id="construction"><h2>2. The construction (de Bondt (2012), Theorem 3)</h2>'
        "<p>The board is made of isolated stacks of three tiles, each of the form [a,a,b] or [a,b,b] "
        "(top first); every group has four tiles. It is built in three steps:</p>"
        + boxes
        + table
        + target
        + "</section>"
    )


def _gadget_section(k: int, g: dict[str, Any], board: Board, titles: dict[str, str], max_rows: int) -> str:
    role, lemmas = _GADGET_ROLE.get(g["label"], _CHAIN_ROLE)
    meta = board.meta.get("gadgets") or []
    tiles = meta[k]["tiles"] if k < len(meta) else []
    if tiles:
        picture = _figure(
            svg_board(board, tiles=tiles, id_prefix=f"g{k}-", unit=16),
            f"{g['label']}: {len(g['stacks'])} stacks, cut from the picture of the board",
        )
    else:
        picture = "<p class='note'>(the board is too large for gadget pictures)</p>"
    rows = []
    for st in g["stacks"][:max_rows]:
        rows.append(
            f"<tr><td>{st['stack']}</td><td class='mono'>[{_e(', '.join(st['groups']))}]</td>"
            f"<td class='tiles'>{_e(' '.join(map(str, st['tiles'])))}</td><td>{_e(st['note'])}</td></tr>"
        )
    more = f"<p class='note'>… {len(g['stacks']) - max_rows} more stacks.</p>" if len(g["stacks"]) > max_rows else ""
    return (
        f'<section class="gadget" id="gadget-{k}" data-gadget="{k}"><h3>{_e(g["label"])}</h3>'
        f"<p>{_e(role)} Lemmas: {', '.join(_lemma_link(x, titles) for x in lemmas)}.</p>"
        + picture
        + "<table><tr><th>stack</th><th>groups, top first</th><th>tiles</th><th>what it is for</th></tr>"
        + "".join(rows)
        + "</table>"
        + more
        + "</section>"
    )


def _gadgets_section(d: dict[str, Any], board: Board, titles: dict[str, str], max_rows: int, whole: bool) -> str:
    overview = ""
    if whole:
        overview = _figure(
            svg_board(board, id_prefix="all-", unit=14), f"the whole {d['target']} board, gadgets outlined"
        )
    clauses = "".join(
        f"<li>{_e(c['clause'])} = ({_e(' ∨ '.join(l.replace('-', '¬') for l in c['literals']))}): x-chain tile "
        f"{c['x_chain_tile']}, literal tiles {_e(', '.join(map(str, c['literal_tiles'])))}</li>"
        for c in d["clauses"]
    )
    variables = "".join(
        f"<li>{_e(v)}: x-chain tile {t['x_chain']}, y-chain tile {t['y_chain']}, head of the true chain "
        f"{t['true_head']}, of the false chain {t['false_head']}</li>"
        for v, t in d["variable_tiles"].items()
    )
    return (
        '<section id="gadgets"><h2>3. The gadgets</h2>'
        "<p>The stacks fall into gadgets: the x-chain, the y-chain, and a true chain and a false chain per "
        "variable. Each picture is cut from the board's picture; each tile shows its group.</p>"
        + overview
        + "".join(_gadget_section(k, g, board, titles, max_rows) for k, g in enumerate(d["gadgets"]))
        + "<h3>Where each clause and each variable sits</h3><ul>"
        + clauses
        + "</ul><ul>"
        + variables
        + "</ul></section>"
    )


def _proof_section(steps: list[tuple[str, str, str]], play: list[dict[str, Any]] | None) -> str:
    by_lemma: dict[str, list[int]] = {}
    for m in play or []:
        by_lemma.setdefault(m["lemma"], []).append(m["index"])
    boxes = []
    for key, title, text in steps:
        if key.startswith("step"):
            continue
        uses = ""
        if play is not None:
            ks = by_lemma.get(key, [])
            used = "moves " + _indices(ks) if ks else "no move (the lemma says what the play avoids or waits for)"
            uses = f"<p class='uses'>In the play below: {used}.</p>"
        boxes.append(_lemma_box(key, title, text, uses))
    return (
        '<section id="proof"><h2>4. Why it works, lemma by lemma</h2>'
        "<p>In the order of the proof: the board can be cleared exactly when the formula is satisfiable.</p>"
        + "".join(boxes)
        + "<p class='note'>The playbook that clears the board from a satisfying assignment plays greedily in "
        "any order and obeys three rules: R1 never leave a group's last two tiles in one stack; R2 the "
        "x-chain Vi pairs only with the chosen head, never head with head; R3 while the x-chain Cj is on "
        "the board, two freed Cj tiles never pair.</p></section>"
    )


def _assignment_text(values: dict[int, bool], n: int) -> str:
    return (
        ", ".join(f"V{v} = {'true' if values.get(v, False) else 'false'}" for v in range(1, n + 1)) or "(no variables)"
    )


def _play_section(
    red: Any, target: str, values: dict[int, bool], titles: dict[str, str], max_moves: int, whole: bool
) -> tuple[str, list[dict[str, Any]]]:
    moves = witness(red, values)
    play = explain_moves(red, moves, target=target)
    st = stack_reduction_of(red)
    n = st.formula.original_vars
    rows = []
    for m in play[:max_moves]:
        rows.append(
            f'<tr id="move-{m["index"]}" class="{_e(m["lemma"])}" data-move="{m["tiles"][0]} {m["tiles"][1]}">'
            f"<td>{m['index']}</td><td class='tiles'>{m['tiles'][0]} {m['tiles'][1]}</td><td>{_e(m['group'])}</td>"
            f"<td>{_lemma_link(m['lemma'], titles)}</td><td>{_e(m['why'])}</td></tr>"
        )
    more = (
        f"<p class='note'>… {len(play) - max_moves} more moves (all of them are in the JSON below).</p>"
        if len(play) > max_moves
        else ""
    )
    sat_index = next((m["index"] for m in play if m["lemma"] == "first-sat"), None)
    picture = ""
    if whole and sat_index is not None:
        before = replay(red.board, moves[: sat_index - 1], require_clear=False)
        picture = _figure(
            svg_board(before, id_prefix="pre-sat-", unit=14),
            f"the board just before move {sat_index}, the first SAT pair: every label of the x-chain has gone, "
            "the y-chain is still locked",
        )
    chosen = [f'<a href="#move-{m["index"]}">{m["index"]}</a> ({_e(m["value"])})' for m in play if "value" in m]
    data = {
        "target": target,
        "assignment": [v if values.get(v, False) else -v for v in range(1, n + 1)],
        "moves": [list(m) for m in moves],
    }
    blob = json.dumps(data).replace("</", "<\\/")
    html_text = (
        '<section id="play"><h2>5. The intended play</h2>'
        f"<p>A SAT solver (python-sat) finds the satisfying assignment <strong>{_e(_assignment_text(values, n))}</strong>. "
        f"The playbook turns it into {len(moves)} moves that clear the board; they were replayed move by move "
        + (
            f"on the board. The x-chain's Vi tiles choose the values in the moves {', '.join(chosen)}.</p>"
            if chosen
            else "on the board.</p>"
        )
        + picture
        + "<table><tr><th>#</th><th>tiles</th><th>group</th><th>lemma</th><th>what happens</th></tr>"
        + "".join(rows)
        + "</table>"
        + more
        + f'<script type="application/json" id="mjsat-play">{blob}</script></section>'
    )
    return html_text, play


def _stuck_row(red: Any, s: dict[str, Any]) -> str:
    why = " ".join(r + "." for r in stuck_reasons(s))
    return (
        f"<tr><td>{_e(' '.join(map(str, s['assignment'])) or '(none)')}</td><td>{_e(', '.join(s['falsified']))}</td>"
        f"<td>{len(s['moves'])}</td><td>{s['tiles_left']}</td><td>{_e(why)}</td></tr>"
    )


def _stuck_picture(red: Any, s: dict[str, Any], k: int) -> str:
    st = stack_reduction_of(red)
    board = replay(red.board, s["moves"], require_clear=False)
    stacks = set(st.gadgets()[0][1])  # the x-chain
    for c in s["clauses"]:
        for lit in c["literals"]:
            stacks.add(red.source_stack(lit["tile"]))
            stacks.add(red.source_stack(lit["head"]))
    tiles = [t for t in board.present_tiles() if red.source_stack(t) in stacks]
    return _figure(
        svg_board(board, tiles=tiles, id_prefix=f"stuck{k}-", unit=14),
        f"where the play stops for {' '.join(map(str, s['assignment']))}: what is left of the x-chain, and the "
        f"literal stacks of {', '.join(s['falsified'])} with the heads of their chains",
    )


def _stuck_section(
    red: Any, limit: int, *, title: str, intro: str, pictures: int, only_falsifying: bool = False
) -> str:
    st = stack_reduction_of(red)
    f = st.formula
    runs = []
    for values in assignments(f, 256 if only_falsifying else limit):
        if only_falsifying and satisfies(values, f.original):
            continue
        runs.append(stuck_data(red, values))
        if len(runs) >= limit:
            break
    if not runs:
        return ""
    total = 1 << f.original_vars
    shown = "" if only_falsifying or len(runs) == total else f" The first {len(runs)} of the {total} assignments:"
    return (
        f'<section id="stuck"><h2>{_e(title)}</h2><p>{_e(intro)}{_e(shown)}</p>'
        "<table><tr><th>assignment</th><th>falsified</th><th>moves played</th><th>tiles left</th><th>why the play stops</th></tr>"
        + "".join(_stuck_row(red, s) for s in runs)
        + "</table>"
        + "".join(_stuck_picture(red, s, k) for k, s in enumerate(runs[:pictures]))
        + "</section>"
    )


def handout_html(
    red: Any,
    *,
    target: str | None = None,
    cnf_name: str = "formula",
    max_assignments: int = 8,
    max_moves: int = 3000,
    max_stacks: int = 400,
    picture_tiles: int = 1500,
) -> str:
    """The handout of a reduction as one self-contained HTML page (see the module docstring).

    Parameters
    ----------
    red : reduction object
        Of any target (:func:`~mjsat.reductions.targets.reduce_formula`).
    target : str, optional
        Its name (default: the board's ``meta["reduction"]``).
    cnf_name : str
        The formula's name for the title (the file name).
    max_assignments : int
        For an unsatisfiable formula, the assignments whose stuck play is shown (all of
        them when there are no more).
    max_moves : int
        Moves listed in the play's table (the JSON holds all of them).
    max_stacks : int
        Stacks listed per gadget.
    picture_tiles : int
        Boards with at most this many tiles get whole-board pictures as well.

    Notes
    -----
    :math:`O(T)` for ``T`` tiles, plus one SAT call on the formula and one playbook run
    per assignment shown.
    """
    target = target or red.board.meta.get("reduction", "stacks")
    d = explain_data(red, target=target)
    steps = proof_steps(target)
    titles = {k: t for k, t, _ in steps}
    st = stack_reduction_of(red)
    f = st.formula
    board = red.board
    whole = len(board) <= picture_tiles
    sat, model = is_satisfiable(f.original)
    answer = "satisfiable" if sat else "unsatisfiable"
    sections = [
        _formula_section(red, d),
        _construction_section(d, steps),
        _gadgets_section(d, board, titles, max_stacks, whole),
        legend_html(target),
    ]
    if sat:
        values = {abs(l): l > 0 for l in model or [] if abs(l) <= f.original_vars}
        play_html, play = _play_section(red, target, values, titles, max_moves, whole)
        sections.append(_proof_section(steps, play))
        sections.append(play_html)
        sections.append(
            _stuck_section(
                red,
                1,
                title="6. A wrong assignment gets stuck",
                intro="For contrast, the playbook with an assignment that falsifies a clause:",
                pictures=1 if whole else 0,
                only_falsifying=True,
            )
        )
    else:
        sections.append(_proof_section(steps, None))
        sections.append(
            _stuck_section(
                red,
                max_assignments,
                title="5. Every assignment gets stuck",
                intro="The formula is unsatisfiable, so the board cannot be cleared: every assignment falsifies "
                "a clause, and the play stops with that clause's x-chain tile waiting for a partner that stays "
                "locked under a chain whose head was never removed.",
                pictures=min(2, max_assignments) if whole else 0,
            )
        )
    nav_items = [
        ("formula", "The formula"),
        ("construction", "The construction"),
        ("gadgets", "The gadgets"),
        ("proof", "Why it works"),
    ]
    nav_items.append(("play", "The intended play") if sat else ("stuck", "Every assignment gets stuck"))
    if sat and sections[-1]:
        nav_items.append(("stuck", "A wrong assignment gets stuck"))
    nav = "<nav><ol>" + "".join(f'<li><a href="#{k}">{_e(t)}</a></li>' for k, t in nav_items) + "</ol></nav>"
    meta = board.meta
    title = f"{cnf_name}: from a formula to a {target} board"
    head = (
        f"<h1>{_e(title)}</h1>"
        f"<p>The formula is <strong>{answer}</strong>, so its board of {len(board)} tiles "
        f"{'can' if sat else 'cannot'} be cleared (M. de Bondt, <em>Mahjong Solitaire with peeking</em>, "
        "Theorem 3: deciding whether isolated stacks of the forms [a,a,b] and [a,b,b] can be cleared is "
        "NP-complete).</p>"
    )
    foot = (
        f"<footer class='note'><p>Made by mjsat {_e(meta.get('mjsat_version', ''))}; formula hash "
        f"<code>{_e(meta.get('formula_hash', ''))}</code>; target <code>{_e(target)}</code>.</p></footer>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>\n"
        + head
        + nav
        + "\n".join(s for s in sections if s)
        + foot
        + "\n</body></html>\n"
    )
