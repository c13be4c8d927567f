"""A benchmark family: a folder of hard boards and their CNF encodings, ready for a SAT
competition or a solver paper.

:func:`write_family` draws ``count`` formulas of a family (:mod:`mjsat.reductions.families`),
decides each with a SAT solver (python-sat), reduces it to a board per target
(:func:`mjsat.reductions.targets.reduce_formula`) and encodes every board with every
encoding that applies (:func:`mjsat.encoders.encodings.encode`). A board is solvable
exactly when its formula is satisfiable, and the encodings written are exhaustive, so
every file's expected answer is the formula's. The folder holds::

    manifest.csv                               one row per DIMACS file (columns: MANIFEST_COLUMNS)
    README.md                                  what the folder is, how it was made
    formulas/random-n10-s7.cnf                 the formula itself
    boards/random-n10-s7.stacks.json           the board (mjsat's board JSON)
    cnf/random-n10-s7.stacks.acyclic.cnf       the board's CNF, answer and provenance in its comments
    cnf/random-n10-s7.stacks.acyclic.map       its variable map (``mjsat decode`` reads it)

Hard by construction: a satisfiable formula over fewer than ``hard_from`` variables
(default 10) is kept only when the random playouts of the ``search`` method (``playouts``
of them, default 100, its own policy, with no search after them) clear none of its
boards: the boards of small satisfiable formulas are otherwise often cleared by chance
(those of 4-variable random 3-CNF at ratio 4.26 within 30-90 playouts).

The folder is written beside its final place and renamed into it at the end: a stopped
run leaves nothing behind, and an existing folder with files in it is never touched.

>>> spec = FamilySpec(kind="complete", k=2, targets=("stacks",), encodings=("acyclic",))
>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as tmp:
...     out = write_family(os.path.join(tmp, "fam"), spec)
...     sorted(r["file"] for r in out.rows)
['cnf/complete-k2.stacks.acyclic.cnf', 'formulas/complete-k2.cnf']
>>> {r["expected"] for r in out.rows}
{'unsat'}
"""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mjsat.encoders.dimacs import dimacs_text
from mjsat.fileio import OutputFileError

__all__ = [
    "FAMILY_KINDS",
    "ANSWERS",
    "DEFAULT_TARGETS",
    "DEFAULT_ENCODINGS",
    "MANIFEST_COLUMNS",
    "FamilySpec",
    "FamilyFormula",
    "FamilyResult",
    "draw_formulas",
    "write_family",
    "left_out_lines",
]

FAMILY_KINDS: tuple[str, ...] = ("random", "planted", "complete", "pigeonhole")
"""The formula families (:mod:`mjsat.reductions.families`)."""

ANSWERS: tuple[str, ...] = ("any", "sat", "unsat", "balanced")
"""Which answers the drawn formulas have: any, only satisfiable, only unsatisfiable, or
half and half (the odd one satisfiable)."""

DEFAULT_TARGETS: tuple[str, ...] = ("stacks", "rows")
"""The boards written when none are named (the Shisen-Sho images' encodings take seconds
to minutes to build even for small formulas; name them with ``targets``)."""

DEFAULT_ENCODINGS: tuple[str, ...] = ("acyclic", "stacks")
"""The encodings tried when none are named: exhaustive and compact (the stepped ones are
exhaustive at their proved bound but some 100 times larger)."""

MANIFEST_COLUMNS: tuple[str, ...] = (
    "file",
    "family",
    "n",
    "m",
    "seed",
    "target",
    "encoding",
    "board",
    "tiles",
    "variables",
    "clauses",
    "expected",
    "formula",
)
"""The columns of ``manifest.csv``: the DIMACS file; the formula's family, variables,
clauses and seed (empty for a deterministic family); the board's target, encoding, file
and tiles (empty on the formula's own row); the DIMACS file's variables and clauses; its
expected answer (``sat`` or ``unsat``); the formula file it comes from."""

SAT_SOLVER = "minisat22"
"""The python-sat solver that decides the formulas."""

Progress = Callable[[str, int, int], None]


@dataclasses.dataclass(frozen=True)
class FamilySpec:
    """What a benchmark family holds.

    Attributes
    ----------
    kind : str
        One of :data:`FAMILY_KINDS`.
    n, ratio, m : int, float, int or None
        Variables and clauses of ``random`` and ``planted`` (``m`` overrides ``ratio``).
    k : int
        Variables of ``complete`` (all ``2^k`` clauses).
    holes : int
        Holes of ``pigeonhole`` (``holes + 1`` pigeons).
    count : int
        Formulas (a deterministic family has one).
    seed : int
        The first seed: formula ``i`` of a random family is drawn from seed ``seed + j``
        for the ``j``-th candidate kept or rejected.
    targets, encodings : tuple of str
        Boards (:data:`mjsat.reductions.targets.TARGETS`) and encodings
        (:data:`mjsat.encoders.encodings.ENCODINGS`) to write; an encoding that does not
        apply to a board, or is above the memory bound, is left out and reported.
    answer : str
        One of :data:`ANSWERS`.
    playouts : int
        The search's random playouts a small satisfiable formula's boards must all survive.
    hard_from : int
        Satisfiable formulas of at least this many variables are kept without playouts.
    max_draws : int or None
        Candidates drawn at most (default ``100 * count + 100``).
    """

    kind: str = "random"
    n: int = 10
    ratio: float = 4.26
    m: int | None = None
    k: int = 3
    holes: int = 2
    count: int = 1
    seed: int = 0
    targets: tuple[str, ...] = DEFAULT_TARGETS
    encodings: tuple[str, ...] = DEFAULT_ENCODINGS
    answer: str = "any"
    playouts: int = 100
    hard_from: int = 10
    max_draws: int | None = None

    def __post_init__(self) -> None:
        from mjsat.encoders.encodings import get_encoding
        from mjsat.reductions.targets import TARGETS

        if self.kind not in FAMILY_KINDS:
            raise ValueError(f"unknown family {self.kind!r} (known: {', '.join(FAMILY_KINDS)})")
        if self.answer not in ANSWERS:
            raise ValueError(f"unknown answer {self.answer!r} (known: {', '.join(ANSWERS)})")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ValueError(f"count must be 1 or more, got {self.count!r}")
        if self.kind in ("complete", "pigeonhole") and self.count != 1:
            raise ValueError(f"the {self.kind} family has one formula of each size: count must be 1, got {self.count}")
        if self.playouts < 0:
            raise ValueError(f"playouts must be 0 or more, got {self.playouts}")
        if not self.targets or not self.encodings:
            raise ValueError("name at least one target and one encoding")
        for t in self.targets:
            if t not in TARGETS:
                raise ValueError(f"unknown target {t!r} (known: {', '.join(TARGETS)})")
        for e in self.encodings:
            get_encoding(e)

    @property
    def random(self) -> bool:
        """The family draws its formulas from seeds."""
        return self.kind in ("random", "planted")


@dataclasses.dataclass
class FamilyFormula:
    """One formula of the family: its name (file stem), clauses, variables, seed (``None``
    for a deterministic family), answer, and the comments of its DIMACS file."""

    name: str
    clauses: list[list[int]]
    n_vars: int
    seed: int | None
    satisfiable: bool
    comments: list[str]


@dataclasses.dataclass
class FamilyResult:
    """What :func:`write_family` wrote: the manifest's rows, the encodings left out
    (``[{"board", "target", "encoding", "why", "reason"}]``, ``why`` one of ``does not
    apply``, ``memory bound``, ``not exhaustive``), and the candidates drawn and rejected."""

    directory: str
    rows: list[dict[str, Any]]
    skipped: list[dict[str, str]]
    drawn: int
    rejected: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        formulas = [r for r in self.rows if not r["target"]]
        return {
            "directory": self.directory,
            "formulas": len(formulas),
            "satisfiable": sum(r["expected"] == "sat" for r in formulas),
            "cnf_files": len(self.rows) - len(formulas),
            "drawn": self.drawn,
            "rejected": self.rejected,
            "skipped": self.skipped,
            "manifest": os.path.join(self.directory, "manifest.csv"),
        }


def _family_text(spec: FamilySpec, m: int | None = None) -> str:
    if spec.kind == "random":
        return f"random 3-CNF, n = {spec.n}, m = {m}"
    if spec.kind == "planted":
        return f"planted 3-CNF (satisfiable), n = {spec.n}, m = {m}"
    if spec.kind == "complete":
        return f"all {2**spec.k} clauses over {spec.k} variables"
    return f"pigeonhole principle, {spec.holes + 1} pigeons, {spec.holes} holes (cnfgen)"


def _candidate(spec: FamilySpec, seed: int) -> tuple[str, list[list[int]], int, list[str]]:
    """(name, clauses, variables, comments) of the candidate of ``seed``."""
    from mjsat.reductions import families as F

    if spec.kind == "random":
        clauses = F.random_3cnf(spec.n, ratio=spec.ratio, m=spec.m, rng=seed)
        return f"random-n{spec.n}-s{seed}", clauses, spec.n, [f"seed {seed}"]
    if spec.kind == "planted":
        clauses, hidden = F.planted_3cnf(spec.n, ratio=spec.ratio, m=spec.m, rng=seed)
        planted = " ".join(str(v if b else -v) for v, b in sorted(hidden.items()))
        return f"planted-n{spec.n}-s{seed}", clauses, spec.n, [f"seed {seed}; planted: {planted}"]
    if spec.kind == "complete":
        return f"complete-k{spec.k}", F.complete_cnf(spec.k), spec.k, []
    clauses, nv = F.pigeonhole_cnf(spec.holes)
    return f"pigeonhole-{spec.holes + 1}-{spec.holes}", clauses, nv, []


def _boards(clauses: list[list[int]], n_vars: int, targets: tuple[str, ...], name: str) -> dict[str, Any]:
    """The reduction of the formula for each target, by target."""
    from mjsat.reductions.cnf import normalize_3cnf
    from mjsat.reductions.targets import reduce_formula

    formula = normalize_3cnf(clauses, n_vars=n_vars)
    return {t: reduce_formula(formula, t, meta={"cnf_file": f"{name}.cnf", "seed": None}) for t in targets}


def _cleared_by_chance(reductions: dict[str, Any], playouts: int, seed: int) -> str | None:
    """The first target whose board the search's random playouts clear (``playouts``
    of them, the search's own policy, no search after them), or ``None``."""
    from mjsat.methods import solve

    for target, red in reductions.items():
        res = solve(red.board, "search", seed=seed, attempts=playouts, guided=0, node_limit=0)
        if res.status == "solvable":
            return target
    return None


def draw_formulas(spec: FamilySpec, *, progress: Progress | None = None) -> tuple[list[FamilyFormula], int, dict]:
    """The family's formulas: ``(formulas, drawn, rejected)``.

    Candidates are drawn from the seeds ``spec.seed, spec.seed + 1, ...`` and decided by
    python-sat's MiniSat; a candidate is rejected when its answer is not wanted
    (``spec.answer``) or, satisfiable with fewer than ``spec.hard_from`` variables, when one
    of the search's ``spec.playouts`` random playouts clears one of its boards.
    ``rejected`` counts both reasons.

    Raises
    ------
    ValueError
        Fewer than ``spec.count`` formulas kept after ``spec.max_draws`` candidates.
    """
    from mjsat.encoders.solvers import is_satisfiable

    want = {"any": None, "sat": (spec.count, 0), "unsat": (0, spec.count)}.get(spec.answer)
    if spec.answer == "balanced":
        want = ((spec.count + 1) // 2, spec.count // 2)
    kept: list[FamilyFormula] = []
    have = {True: 0, False: 0}
    rejected = {"answer": 0, "cleared by a random playout": 0}
    limit = spec.max_draws if spec.max_draws is not None else 100 * spec.count + 100
    drawn = 0
    seeds = range(spec.seed, spec.seed + limit) if spec.random else [spec.seed]
    for seed in seeds:
        if len(kept) == spec.count:
            break
        drawn += 1
        name, clauses, nv, comments = _candidate(spec, seed)
        sat, _ = is_satisfiable(clauses, solver=SAT_SOLVER)
        if want is not None and have[sat] >= want[0 if sat else 1]:
            rejected["answer"] += 1
            continue
        if sat and nv < spec.hard_from and spec.playouts:
            target = _cleared_by_chance(_boards(clauses, nv, spec.targets, name), spec.playouts, seed)
            if target is not None:
                rejected["cleared by a random playout"] += 1
                continue
        m = len(clauses)
        text = _family_text(spec, m)
        answer = "satisfiable" if sat else "unsatisfiable"
        hard = (
            f"kept: none of its boards cleared in {spec.playouts} random playouts (mjsat's search)"
            if sat and nv < spec.hard_from and spec.playouts
            else ""
        )
        kept.append(
            FamilyFormula(
                name=name,
                clauses=clauses,
                n_vars=nv,
                seed=seed if spec.random else None,
                satisfiable=bool(sat),
                comments=[text, *comments, f"{answer} ({SAT_SOLVER} via python-sat)", *([hard] if hard else [])],
            )
        )
        have[sat] += 1
        if progress is not None:
            progress("drawing formulas", len(kept), spec.count)
    if len(kept) < spec.count:
        raise ValueError(
            f"only {len(kept)} of {spec.count} formulas of the {spec.kind} family found in {drawn} candidates "
            f"(answer {spec.answer}; rejected: {rejected['answer']} for their answer, "
            f"{rejected['cleared by a random playout']} cleared by a random playout)"
        )
    return kept, drawn, rejected


def _prepare_folder(directory: str | os.PathLike[str]) -> Path:
    """The folder to write, checked: absent, or an empty folder."""
    target = Path(directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        what = "a file" if not target.is_dir() else "a folder with files in it"
        raise OutputFileError(target, f"is {what}: choose a new folder (nothing was written)")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputFileError(target.parent, f"cannot make the folder: {exc.strerror or exc}") from None
    return target


def write_family(
    directory: str | os.PathLike[str],
    spec: FamilySpec,
    *,
    command_line: str | None = None,
    progress: Progress | None = None,
) -> FamilyResult:
    """Write the benchmark family ``spec`` into the new folder ``directory`` (see the
    module docstring for its files).

    Parameters
    ----------
    directory : path-like
        A folder that does not exist yet, or is empty.
    spec : FamilySpec
    command_line : str, optional
        Recorded in every file's provenance.
    progress : callable, optional
        ``progress(phase, done, total)``.

    Raises
    ------
    OutputFileError
        ``directory`` is a file or a folder with files in it, or cannot be written.
    ValueError
        Too few formulas found (:func:`draw_formulas`), or a board above a size limit.

    Notes
    -----
    Per formula :math:`O(n + m)` per board plus the encodings' sizes and one SAT call;
    the playout test adds ``playouts`` playouts per small satisfiable candidate.
    """
    from mjsat.boardio import write_board
    from mjsat.encoders.encodings import encode
    from mjsat.encoders.errors import BuildSizeLimit, EncodingError
    from mjsat.encoders.varmap import encoded_cnf_text, map_text
    from mjsat.result import MethodNotApplicableError

    target_dir = _prepare_folder(directory)
    formulas, drawn, rejected = draw_formulas(spec, progress=progress)
    made_by = [f"made by: {command_line}"] if command_line else []
    tmp = Path(tempfile.mkdtemp(prefix=f".{target_dir.name}.", dir=target_dir.parent))
    rows: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    steps = len(formulas) * len(spec.targets)
    try:
        for sub in ("formulas", "boards", "cnf"):
            (tmp / sub).mkdir()
        for i, f in enumerate(formulas):
            expected = "sat" if f.satisfiable else "unsat"
            answer_line = f"expected answer: {'SATISFIABLE' if f.satisfiable else 'UNSATISFIABLE'}"
            formula_file = f"formulas/{f.name}.cnf"
            (tmp / formula_file).write_text(
                dimacs_text(
                    f.clauses,
                    f.n_vars,
                    source=f"benchmark family, formula {f.name}",
                    comments=[answer_line, *f.comments, *made_by],
                )
            )
            base = {
                "family": spec.kind,
                "n": f.n_vars,
                "m": len(f.clauses),
                "seed": "" if f.seed is None else f.seed,
                "expected": expected,
                "formula": formula_file,
            }
            rows.append(
                {
                    **base,
                    "file": formula_file,
                    "target": "",
                    "encoding": "",
                    "board": "",
                    "tiles": "",
                    "variables": f.n_vars,
                    "clauses": len(f.clauses),
                }
            )
            for j, (target, red) in enumerate(_boards(f.clauses, f.n_vars, spec.targets, f.name).items()):
                if progress is not None:
                    progress("writing boards and CNF files", i * len(spec.targets) + j, steps)
                board = red.board
                board_file = f"boards/{f.name}.{target}.json"
                write_board(board, tmp / board_file)
                for enc in spec.encodings:
                    try:
                        cnf, decoder = encode(board, encoding=enc)
                    except (EncodingError, MethodNotApplicableError) as exc:
                        skipped.append(_left_out(board_file, target, enc, "does not apply", str(exc)))
                        continue
                    except BuildSizeLimit as exc:
                        skipped.append(_left_out(board_file, target, enc, "memory bound", str(exc)))
                        continue
                    if not decoder.params.get("exhaustive", False):
                        skipped.append(_left_out(board_file, target, enc, "not exhaustive", "its unsat is no answer"))
                        continue
                    stem = f"cnf/{f.name}.{target}.{enc}"
                    provenance = [
                        answer_line + " (the board's formula is; the reduction and the encoding keep satisfiability)",
                        f"formula: {formula_file}: {f.comments[0]}"
                        + (f", seed {f.seed}" if f.seed is not None else ""),
                        f"board: {board_file}: {target} reduction, {len(board)} tiles",
                        *made_by,
                    ]
                    (tmp / f"{stem}.cnf").write_text(encoded_cnf_text(cnf, board, decoder, comments=provenance))
                    (tmp / f"{stem}.map").write_text(map_text(cnf, board, decoder))
                    rows.append(
                        {
                            **base,
                            "file": f"{stem}.cnf",
                            "target": target,
                            "encoding": enc,
                            "board": board_file,
                            "tiles": len(board),
                            "variables": cnf.nv,
                            "clauses": len(cnf.clauses),
                        }
                    )
                    del cnf, decoder
        if progress is not None:
            progress("writing boards and CNF files", steps, steps)
        (tmp / "manifest.csv").write_text(_manifest_csv(rows))
        (tmp / "README.md").write_text(_readme(spec, rows, skipped, command_line))
        try:
            os.replace(tmp, target_dir)
        except OSError as exc:
            raise OutputFileError(target_dir, f"cannot write: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return FamilyResult(str(directory), rows, skipped, drawn, rejected)


def _manifest_csv(rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(MANIFEST_COLUMNS), lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: r[k] for k in MANIFEST_COLUMNS})
    return buf.getvalue()


def _readme(
    spec: FamilySpec, rows: list[dict[str, Any]], skipped: list[dict[str, str]], command_line: str | None
) -> str:
    formulas = [r for r in rows if not r["target"]]
    sat = sum(r["expected"] == "sat" for r in formulas)
    cnfs = [r for r in rows if r["target"]]
    lines = [
        f"# A benchmark family of mjsat: {_family_text(spec, formulas[0]['m'] if formulas else None)}",
        "",
        f"{len(formulas)} formulas ({sat} satisfiable, {len(formulas) - sat} unsatisfiable), their boards "
        f"({', '.join(spec.targets)}) and {len(cnfs)} CNF files of the boards ({', '.join(spec.encodings)}).",
        "A board is solvable exactly when its formula is satisfiable, and every encoding written is",
        "exhaustive: each CNF file's expected answer is its formula's (decided by MiniSat via python-sat).",
        "",
        "- `manifest.csv`: one row per DIMACS file (" + ", ".join(MANIFEST_COLUMNS) + ").",
        "- `formulas/`: the formulas; `boards/`: the boards (mjsat board JSON);",
        "  `cnf/`: the boards' CNF files, each with its variable map.",
        "- A solver's model becomes a verified move list with",
        "  `mjsat decode boards/NAME.TARGET.json cnf/NAME.TARGET.ENCODING.map OUTPUT`.",
    ]
    if command_line:
        lines += ["", f"Made by `{command_line}`."]
    if skipped:
        lines += ["", "Encodings left out:", ""]
        lines += [f"- {line}" for line in left_out_lines(skipped)]
    return "\n".join(lines) + "\n"


def _left_out(board: str, target: str, encoding: str, why: str, reason: str) -> dict[str, str]:
    return {"board": board, "target": target, "encoding": encoding, "why": why, "reason": reason}


def left_out_lines(skipped: list[dict[str, str]]) -> list[str]:
    """One line per encoding and target left out for a reason that holds for every board
    of the target (``does not apply``), one per board otherwise (the memory bound)."""
    out: list[str] = []
    groups: dict[tuple[str, str], int] = {}
    for s in skipped:
        if s["why"] == "does not apply":
            groups[s["encoding"], s["target"]] = groups.get((s["encoding"], s["target"]), 0) + 1
        else:
            out.append(f"the {s['encoding']} encoding of {s['board']}: {s['reason']}")
    return [f"the {e} encoding does not apply to the {n} {t} boards" for (e, t), n in groups.items()] + out
