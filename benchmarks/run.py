"""Run the benchmarks: ``python -m benchmarks.run [NAME ...] [--quick]``.

Each benchmark is a module ``benchmarks/bench_<name>.py`` with ``main(argv) -> int`` that
prints a table and writes JSON to ``benchmarks/results/<name>.json``. They are listed
here explicitly.
"""

from __future__ import annotations

import importlib
import sys

BENCHMARKS: dict[str, str] = {
    # name -> module; each part adds its own line.
    "encoders": "benchmarks.bench_encoders",
    "reductions": "benchmarks.bench_reductions",
    "search": "benchmarks.bench_search",
    "play": "benchmarks.bench_play",
    "height2": "benchmarks.bench_height2",
    "auto": "benchmarks.bench_auto",
    "game": "benchmarks.bench_game",
    "runs": "benchmarks.bench_runs",
    "peer": "benchmarks.bench_peer",
    "batch": "benchmarks.bench_batch",
    "shisen": "benchmarks.bench_shisen",
    "pairs": "benchmarks.bench_pairs",
    "playout": "benchmarks.bench_playout",
}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    names = [a for a in args if not a.startswith("-")] or list(BENCHMARKS)
    flags = [a for a in args if a.startswith("-")]
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark {unknown[0]!r} (known: {', '.join(BENCHMARKS)})", file=sys.stderr)
        return 2
    status = 0
    for name in names:
        print(f"== benchmark {name}")
        status |= importlib.import_module(BENCHMARKS[name]).main(flags)
    return status


if __name__ == "__main__":
    sys.exit(main())
