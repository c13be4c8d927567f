"""The shipped example set in ``instances/``: CNF files, their boards, and a manifest.

``python -m mjsat.reductions.instances [DIR]`` rewrites the set (default: the
repository's ``instances/`` folder). The tests read ``instances/manifest.json``, rebuild
every board from its CNF file and compare, and check every expected answer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from mjsat.boardio import write_board
from mjsat.encoders.dimacs import dimacs_text
from mjsat.encoders.solvers import is_satisfiable
from mjsat.fileio import write_text_atomic
from mjsat.reductions.families import complete_cnf, pigeonhole_cnf, planted_3cnf, random_3cnf
from mjsat.reductions.targets import reduce_file

__all__ = ["EXAMPLES", "build_instances", "DEFAULT_DIR"]

DEFAULT_DIR = Path(__file__).resolve().parents[1] / "instances"

EXAMPLES: list[tuple[str, str, list[list[int]], int, tuple[str, ...]]] = [
    # (name, description, clauses, variables, targets)
    (
        "empty",
        "no clauses at all (satisfiable): the eight start stacks",
        [],
        0,
        ("stacks", "rows", "shisen-sho", "shisen-rows"),
    ),
    ("unit", "(V1), padded to (V1 v V1 v V1)", [[1]], 1, ("stacks", "rows", "shisen-sho", "shisen-rows")),
    ("contradiction", "(V1) and (-V1): unsatisfiable", [[1], [-1]], 1, ("stacks", "rows", "shisen-sho", "shisen-rows")),
    (
        "three-vars",
        "the README's walk-through: (V1 v -V2 v V3) (-V1 v V2) (V2 v -V3)",
        [[1, -2, 3], [-1, 2], [2, -3]],
        3,
        ("stacks", "rows", "shisen-sho", "shisen-rows"),
    ),
    ("all4-2vars", "all four 2-literal clauses over V1, V2: unsatisfiable", complete_cnf(2), 2, ("stacks", "rows")),
    ("all8-3vars", "all eight 3-literal clauses over V1..V3: unsatisfiable", complete_cnf(3), 3, ("stacks", "rows")),
    (
        "all8-minus-last",
        "all eight clauses but (-V1 v -V2 v -V3): satisfiable",
        complete_cnf(3)[:7],
        3,
        ("stacks", "rows"),
    ),
    (
        "not-all-and-all",
        "(-V1 v -V2 v -V3) (V1) (V2) (V3): unsatisfiable",
        [[-1, -2, -3], [1], [2], [3]],
        3,
        ("stacks", "rows"),
    ),
    (
        "long-clause",
        "(V1 v V2 v V3 v V4 v V5) (-V1) (-V2): split with fresh variables, satisfiable",
        [[1, 2, 3, 4, 5], [-1], [-2]],
        5,
        ("stacks", "rows"),
    ),
    ("pigeonhole-3-2", "three pigeons, two holes (cnfgen): unsatisfiable", *pigeonhole_cnf(2), ("stacks", "rows")),
    ("random-5-seed1", "random 3-CNF, 5 variables, ratio 4.26, seed 1", random_3cnf(5, rng=1), 5, ("stacks", "rows")),
    ("random-5-seed5", "random 3-CNF, 5 variables, ratio 4.26, seed 5", random_3cnf(5, rng=5), 5, ("stacks", "rows")),
    (
        "planted-6-seed2",
        "planted 3-CNF, 6 variables, ratio 4.26, seed 2",
        planted_3cnf(6, rng=2)[0],
        6,
        ("stacks", "rows"),
    ),
]


def build_instances(directory: str | Path = DEFAULT_DIR) -> dict[str, Any]:
    """Write every example's CNF file and boards into ``directory`` with ``manifest.json``.

    Returns the manifest. Expected answers come from python-sat run on the formula
    (board solvable iff formula satisfiable).

    Notes
    -----
    :math:`O(\\sum (n + m))` over the examples.
    """
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    entries = []
    for name, description, clauses, n_vars, targets in EXAMPLES:
        cnf_name = f"{name}.cnf"
        text = dimacs_text(
            clauses, n_vars, source=f"example {name} (python -m mjsat.reductions.instances)", comments=[description]
        )
        write_text_atomic(root / cnf_name, text)
        sat, _ = is_satisfiable(clauses)
        boards = {}
        for target in targets:
            red = reduce_file(root / cnf_name, target, meta={"command_line": f"mjsat reduce {cnf_name} --to {target}"})
            board_name = f"{name}.{target}.json"
            write_board(red.board, root / board_name)
            boards[target] = {
                "file": board_name,
                "tiles": len(red.board),
                "groups": len(red.board.group_sizes()),
                "expected": "solvable" if sat else "unsolvable",
            }
        entries.append(
            {
                "name": name,
                "description": description,
                "cnf": cnf_name,
                "variables": n_vars,
                "clauses": len(clauses),
                "satisfiable": sat,
                "boards": boards,
            }
        )
    manifest = {"format": "mjsat-instances", "version": 1, "instances": entries}
    write_text_atomic(root / "manifest.json", json.dumps(manifest, indent=1) + "\n")
    return manifest


if __name__ == "__main__":  # pragma: no cover
    out = build_instances(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DIR)
    print(f"wrote {len(out['instances'])} instances")
