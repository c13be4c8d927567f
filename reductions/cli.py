"""``mjsat reduce``: hard boards from CNF files, witness maps, explanations, formula families.

A thin shell over :mod:`mjsat.reductions`: each command parses, calls the library, writes.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

import click

from mjsat.encoders.encodings import ENCODINGS
from mjsat.fileio import write_text_atomic

__all__ = ["reduce"]

_SUBCOMMANDS = ("build", "witness", "lift", "explain", "family")
_target_option = click.option(
    "--to",
    "target",
    type=click.Choice(["stacks", "rows", "shisen-sho", "shisen-rows"]),
    default="stacks",
    show_default=True,
    help="The board: isolated stacks (Theorem 3), one-level rows (Corollary 4), Shisen-Sho "
    "supertile columns (Theorem 2.1) or the 9-row Shisen-Sho rectangle (Theorem 2.2).",
)


class _ReduceGroup(click.Group):
    """``reduce FILE.cnf ...`` means ``reduce build FILE.cnf ...``: a first word that is not
    a subcommand is taken as the CNF file of the default ``build`` subcommand."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["mjsat_reduce_args"] = list(args)
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["build", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_ReduceGroup)
def reduce() -> None:
    """Turn a CNF formula into a hard board, and move between assignments and solutions.

    `mjsat reduce FILE.cnf` is short for `mjsat reduce build FILE.cnf`. The board is
    solvable exactly when the formula is satisfiable (de Bondt: Theorem 3 for stacks,
    Corollary 4 for rows; our supertiles for Shisen-Sho). Any CNF is accepted: clauses
    are padded or split to exactly three literals, and the output says what was done.

    \b
    mjsat reduce f.cnf --to stacks -o board.json      # build (the default subcommand)
    mjsat reduce f.cnf --to rows -o rows.json
    mjsat reduce witness f.cnf "1 -2 3" --to rows -o moves.json
    mjsat verify rows.json moves.json                 # replayed independently
    mjsat reduce lift f.cnf moves.json --to rows      # back to a satisfying assignment
    mjsat reduce explain f.cnf                        # the gadgets and the intended play
    mjsat reduce explain f.cnf --html -o handout.html # the same as a printable page, with pictures
    mjsat render board.json -o board.svg              # every stack from the side, gadgets outlined
    mjsat reduce family random --n 20 --ratio 4.26 --seed 1 -o r.cnf
    mjsat reduce family random --n 10 --count 6 -o fam/  # a benchmark folder: CNF files, boards, manifest
    """


def _command_line() -> str:
    ctx = click.get_current_context()
    args = ctx.meta.get("mjsat_reduce_args", [])
    return " ".join(["mjsat", "reduce", *map(shlex.quote, args)])


class _Bars:
    """Progress on stderr for long work (big boards): one bar per phase, drawn only on a
    terminal and wiped when done, so pipes and ``--json`` output stay clean.

    Used as the ``progress(phase, done, total)`` callback of the witness maps, and with
    :meth:`step` for phases that report nothing themselves."""

    def __init__(self) -> None:
        import sys

        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
            disable=not sys.stderr.isatty(),
        )
        self._tasks: dict[str, Any] = {}
        self._open: str | None = None

    def __enter__(self) -> _Bars:
        self._progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._progress.__exit__(*exc)

    def __call__(self, phase: str, done: int, total: int) -> None:
        if phase not in self._tasks:
            self._close()
            self._tasks[phase] = self._progress.add_task(phase, total=total)
            self._open = phase
        self._progress.update(self._tasks[phase], completed=done, total=total)

    def step(self, phase: str) -> None:
        """Start a phase of unknown length (a pulsing bar), closing the previous one."""
        self(phase, 0, None)  # type: ignore[arg-type]

    def _close(self) -> None:
        if self._open is not None:
            task = self._tasks[self._open]
            total = self._progress.tasks[task].total
            self._progress.update(task, total=total or 1, completed=total or 1)
            self._open = None


def _build(cnf_file: str, target: str, bars: _Bars | None = None) -> Any:
    import os

    from mjsat.encoders.dimacs import read_dimacs
    from mjsat.fileio import InputFileError
    from mjsat.limits import SizeLimitError
    from mjsat.reductions.cnf import normalize_3cnf
    from mjsat.reductions.targets import reduce_formula

    step = bars.step if bars is not None else (lambda phase: None)
    step("reading the CNF")
    formula = normalize_3cnf(read_dimacs(cnf_file))
    step(f"building the {target} board")
    meta = {"cnf_file": os.path.basename(cnf_file), "command_line": _command_line(), "seed": None}
    try:
        red = reduce_formula(formula, target, meta=meta)
        _ = red.board  # the stack board is built on first use
    except SizeLimitError as exc:
        raise InputFileError(cnf_file, None, str(exc)) from None
    return red


def _summary(red: Any, target: str) -> dict[str, Any]:
    meta = red.board.meta
    return {
        "target": target,
        "tiles": len(red.board),
        "groups": len(red.board.group_sizes()),
        "variables": meta["variables"],
        "clauses": meta["clauses"],
        "normalization": meta["normalization"]["summary"],
        "formula_hash": meta["formula_hash"],
    }


@reduce.command("build")
@click.argument("cnf_file", metavar="FILE.cnf", type=click.Path(dir_okay=False))
@_target_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Board file (.json keeps names and gadgets; .txt is de Bondt's format). Without it the JSON goes to stdout.",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary (sizes, normalisation) instead of text.")
def build(cnf_file: str, target: str, output: str | None, as_json: bool) -> None:
    """Build the board of a DIMACS CNF file.

    \b
    mjsat reduce f.cnf -o board.json                  # isolated stacks
    mjsat reduce build f.cnf --to shisen-rows -o s.json
    """
    from mjsat.boardio import board_to_json, write_board

    with _Bars() as bars:
        red = _build(cnf_file, target, bars)
        info = _summary(red, target)
        if output:
            bars.step(f"writing {output}")
            write_board(red.board, output)
            info["output"] = output
    if as_json:
        click.echo(json.dumps(info))
    elif output:
        click.echo(
            f"wrote {output}: {info['tiles']} tiles, {info['groups']} groups ({target}) from "
            f"{info['variables']} variables, {info['clauses']} clauses; {info['normalization']}",
            err=True,
        )
    else:
        click.echo(board_to_json(red.board), nl=False)


@reduce.command("witness", context_settings={"ignore_unknown_options": True})
@click.argument("cnf_file", metavar="FILE.cnf", type=click.Path(dir_okay=False))
@click.argument("assignment", metavar="[ASSIGNMENT]", required=False)
@_target_option
@click.option(
    "--seed", type=int, default=None, help="Play the playbook's greedy choices in a random order from this seed."
)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help="Write the moves as JSON (what `mjsat verify` reads)."
)
@click.option("--json", "as_json", is_flag=True, help="Print {assignment, moves, tiles} as JSON.")
def witness_cmd(
    cnf_file: str, assignment: str | None, target: str, seed: int | None, output: str | None, as_json: bool
) -> None:
    """Turn a satisfying assignment into a clearing move list of the board (replayed).

    ASSIGNMENT is a file or the text itself: signed variables (`1 -2 3`, a SAT solver's
    `v` line) or a 0/1 string (`101`); unnamed variables are false. Without it a SAT
    solver finds one. The moves follow the three-rule playbook of the design note.

    \b
    mjsat reduce witness f.cnf "1 -2 3" -o moves.json
    mjsat reduce witness f.cnf -1 --to rows           # one literal: V1 false, the rest false
    mjsat reduce witness f.cnf --to shisen-sho --json
    """
    import os

    from mjsat.encoders.solvers import is_satisfiable
    from mjsat.fileio import InputFileError
    from mjsat.reductions.cnf import read_assignment
    from mjsat.reductions.witness import WitnessError, witness

    with _Bars() as bars:
        red = _build(cnf_file, target, bars)
        f = red.board.meta
        n = int(f["variables"])
        formula = red.formula if hasattr(red, "formula") else red.stack.formula
        if assignment is None:
            bars.step("solving the CNF")
            sat, model = is_satisfiable(formula.original)
            if not sat:
                raise ValueError(f"{cnf_file}: the formula is unsatisfiable, so its board has no clearing sequence")
            values = {abs(l): l > 0 for l in model or [] if abs(l) <= n}
            source = "found by a SAT solver"
        else:
            values = read_assignment(assignment, n_vars=n)
            source = "given"
        try:
            moves = witness(red, values, rng=seed, progress=bars)
        except WitnessError as exc:  # name the file the assignment came from (or the CNF's)
            where = assignment if assignment is not None and os.path.exists(assignment) else cnf_file
            raise InputFileError(where, None, str(exc)) from None
    data: dict[str, Any] = {
        "assignment": [v if values.get(v, False) else -v for v in range(1, n + 1)],
        "assignment_source": source,
        "target": target,
        "tiles": len(red.board),
        "moves": [list(m) for m in moves],
        "verified": True,
    }
    if output:
        write_text_atomic(output, json.dumps(data) + "\n")
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(f"assignment ({source}): {' '.join(map(str, data['assignment'])) or '(no variables)'}")
    click.echo(f"{len(moves)} moves clear the {target} board ({len(red.board)} tiles), verified by replay")
    if output:
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo("moves: " + " ".join(f"{a}-{b}" for a, b in moves))


@reduce.command("lift")
@click.argument("cnf_file", metavar="FILE.cnf", type=click.Path(dir_okay=False))
@click.argument("solution", metavar="SOLUTION", type=click.Path(dir_okay=False))
@_target_option
@click.option("--json", "as_json", is_flag=True, help="Print {assignment, satisfies} as JSON.")
def lift_cmd(cnf_file: str, solution: str, target: str, as_json: bool) -> None:
    """Read a clearing move list of the board back into a satisfying assignment.

    SOLUTION is what `mjsat solve --json` or `mjsat reduce witness -o` wrote (or any
    move list `mjsat verify` reads). The moves are replayed and the assignment is
    checked on the formula; a move list that does not clear the board is an error.

    \b
    mjsat solve board.json --method sat --json > sol.json
    mjsat reduce lift f.cnf sol.json
    """
    from mjsat.boardio import load_solution
    from mjsat.fileio import InputFileError
    from mjsat.reductions.cnf import satisfies
    from mjsat.reductions.witness import LiftError, lift

    with _Bars() as bars:
        red = _build(cnf_file, target, bars)
        bars.step(f"reading {solution}")
        moves = load_solution(solution, red.board)
        try:
            values = lift(red, moves, progress=bars)
        except LiftError as exc:
            raise InputFileError(solution, None, str(exc)) from None
    formula = red.formula if hasattr(red, "formula") else red.stack.formula
    lits = [v if values[v] else -v for v in sorted(values)]
    ok = satisfies(values, formula.original)
    if as_json:
        click.echo(json.dumps({"assignment": lits, "satisfies": ok, "moves": len(moves)}))
        return
    click.echo("v " + " ".join(map(str, lits + [0])))
    click.echo(f"c satisfies all {len(formula.original)} clauses of {cnf_file}")


@reduce.command("explain")
@click.argument("cnf_file", metavar="FILE.cnf", type=click.Path(dir_okay=False))
@_target_option
@click.option("--json", "as_json", is_flag=True, help="Print the gadget list as JSON.")
@click.option(
    "--html",
    "as_html",
    is_flag=True,
    help="Write a printable handout: one self-contained HTML page (pictures and style inline) that walks "
    "through the construction, the gadgets, the lemmas of the proof in order and the intended play "
    "for one satisfying assignment (or, unsatisfiable, where every assignment gets stuck).",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
@click.option(
    "--max-stacks",
    type=int,
    default=400,
    show_default=True,
    help="Stacks listed before summarising (per gadget in the handout).",
)
def explain_cmd(cnf_file: str, target: str, as_json: bool, as_html: bool, output: str | None, max_stacks: int) -> None:
    """Print the gadgets of the board (which stacks make the x-chain, the y-chain, each
    variable's true and false chains, each clause) and the intended play in words, or
    write a printable handout with --html.

    \b
    mjsat reduce explain f.cnf
    mjsat reduce explain f.cnf --to rows --json
    mjsat reduce explain f.cnf --html -o handout.html          # open in a browser, print
    mjsat reduce explain all8.cnf --html -o all8.html          # unsatisfiable: where each assignment stops
    """
    import os

    from mjsat.reductions.explain import explain_data, explain_text

    if as_json and as_html:
        raise click.UsageError("choose one of --json and --html")
    red = _build(cnf_file, target)
    if as_html:
        from mjsat.reductions.handout import handout_html

        text = handout_html(red, target=target, cnf_name=os.path.basename(cnf_file), max_stacks=max_stacks)
    elif as_json:
        text = json.dumps(explain_data(red, target=target)) + "\n"
    else:
        text = explain_text(red, target=target, max_stacks=max_stacks) + "\n"
    if output:
        write_text_atomic(output, text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)


@reduce.command("family")
@click.argument("kind", type=click.Choice(["random", "planted", "complete", "pigeonhole"]))
@click.option("--n", "n", type=int, default=10, show_default=True, help="Variables (random, planted).")
@click.option("--ratio", type=float, default=4.26, show_default=True, help="Clauses per variable (random, planted).")
@click.option("--m", "m", type=int, default=None, help="Clauses (overrides --ratio).")
@click.option(
    "--k", "k", type=int, default=3, show_default=True, help="Variables of the complete formula (all 2^k clauses)."
)
@click.option(
    "--holes", type=int, default=2, show_default=True, help="Holes of the pigeonhole formula (holes+1 pigeons)."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random choices (the first seed).")
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=None,
    help="Write a benchmark folder of this many formulas (-o names the folder): each formula, its boards, "
    "the boards' CNF files with their expected answers, and manifest.csv.",
)
@click.option(
    "--to",
    "targets",
    type=click.Choice(["stacks", "rows", "shisen-sho", "shisen-rows"]),
    multiple=True,
    help="With --count: the boards, repeatable (default: stacks and rows).",
)
@click.option(
    "--encoding",
    "encodings",
    type=click.Choice(list(ENCODINGS)),
    multiple=True,
    help="With --count: the encodings tried on each board, repeatable (default: acyclic and stacks); "
    "one that does not apply or is above the memory bound is left out and reported.",
)
@click.option(
    "--answer",
    type=click.Choice(["any", "sat", "unsat", "balanced"]),
    default="any",
    show_default=True,
    help="With --count: keep formulas of this answer (balanced: half and half).",
)
@click.option(
    "--playouts",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="With --count: a satisfiable formula of fewer than 10 variables is kept only when this many random "
    "playouts clear none of its boards (0: keep it).",
)
@click.option(
    "-o", "--output", type=click.Path(), help="DIMACS file to write (else stdout); with --count, a new folder."
)
@click.option("--json", "as_json", is_flag=True, help="With --count: print a JSON summary.")
def family(
    kind: str,
    n: int,
    ratio: float,
    m: int | None,
    k: int,
    holes: int,
    seed: int,
    count: int | None,
    targets: tuple[str, ...],
    encodings: tuple[str, ...],
    answer: str,
    playouts: int,
    output: str | None,
    as_json: bool,
) -> None:
    """Write a formula of a family as DIMACS: random 3-CNF, planted 3-CNF (satisfiable),
    all 2^k clauses over k variables, or the pigeonhole principle (unsatisfiable).

    With --count K, write a benchmark folder instead: K formulas (seeds from --seed on),
    each reduced to its boards and encoded, every CNF file headed by its expected answer
    (the formula's, decided by MiniSat) and its provenance, with manifest.csv listing
    file, family, n, m, seed, target, encoding, board, tiles, variables, clauses and the
    expected answer. Small satisfiable formulas that random play clears are left out.

    \b
    mjsat reduce family random --n 20 --ratio 4.26 --seed 3 -o r.cnf
    mjsat reduce family complete --k 3 -o all8.cnf
    mjsat reduce family random --n 10 --count 6 --answer balanced -o fam10/
    mjsat reduce family random --n 5 --count 4 --to stacks --to shisen-sho --json -o fam5/
    mjsat reduce family pigeonhole --holes 3 --count 1 --encoding acyclic -o php/
    """
    from mjsat.encoders.dimacs import dimacs_text
    from mjsat.reductions import families as F

    if count is None:
        given = [opt for opt, value in (("--to", targets), ("--encoding", encodings), ("--json", as_json)) if value]
        if given:
            raise click.UsageError(f"{given[0]} needs --count (a benchmark folder)")
        if answer != "any" or playouts != 100:
            raise click.UsageError(
                f"{'--answer' if answer != 'any' else '--playouts'} needs --count (a benchmark folder)"
            )
    else:
        _family_folder(kind, n, ratio, m, k, holes, seed, count, targets, encodings, answer, playouts, output, as_json)
        return
    comments = [f"command line: {_command_line()}"]
    if kind == "random":
        clauses, nv = F.random_3cnf(n, ratio=ratio, m=m, rng=seed), n
        comments.append(f"seed {seed}")
    elif kind == "planted":
        clauses, hidden = F.planted_3cnf(n, ratio=ratio, m=m, rng=seed)
        nv = n
        comments.append(f"seed {seed}; planted: {' '.join(str(v if b else -v) for v, b in sorted(hidden.items()))}")
    elif kind == "complete":
        clauses, nv = F.complete_cnf(k), k
    else:
        clauses, nv = F.pigeonhole_cnf(holes)
    text = dimacs_text(clauses, nv, source=f"reduce family {kind}", comments=comments)
    if output:
        write_text_atomic(output, text)
        click.echo(f"wrote {output}: {nv} variables, {len(clauses)} clauses", err=True)
    else:
        click.echo(text, nl=False)


def _family_folder(
    kind: str,
    n: int,
    ratio: float,
    m: int | None,
    k: int,
    holes: int,
    seed: int,
    count: int,
    targets: tuple[str, ...],
    encodings: tuple[str, ...],
    answer: str,
    playouts: int,
    output: str | None,
    as_json: bool,
) -> None:
    from mjsat.reductions.benchmark_family import (
        DEFAULT_ENCODINGS,
        DEFAULT_TARGETS,
        FamilySpec,
        left_out_lines,
        write_family,
    )

    if not output:
        raise click.UsageError("--count writes a folder: name it with -o")
    spec = FamilySpec(
        kind=kind,
        n=n,
        ratio=ratio,
        m=m,
        k=k,
        holes=holes,
        count=count,
        seed=seed,
        targets=tuple(dict.fromkeys(targets)) or DEFAULT_TARGETS,
        encodings=tuple(dict.fromkeys(encodings)) or DEFAULT_ENCODINGS,
        answer=answer,
        playouts=playouts,
    )
    with _Bars() as bars:
        result = write_family(output, spec, command_line=_command_line(), progress=bars)
    info = result.to_json()
    if as_json:
        click.echo(json.dumps(info))
        return
    click.echo(
        f"wrote {output}: {info['formulas']} formulas ({info['satisfiable']} satisfiable), {info['cnf_files']} CNF "
        f"files, manifest.csv ({info['drawn']} candidates drawn)",
        err=True,
    )
    for line in left_out_lines(result.skipped):
        click.echo(f"left out: {line}", err=True)
