"""Run the benchmarks: ``python -m benchmarks.run [NAME ...] [OPTION ...]``.

Each benchmark is a module ``benchmarks/bench_<name>.py`` with ``main(argv) -> int`` that
prints a table and writes JSON to ``benchmarks/results/<name>.json``. They are listed
here explicitly. The names come first (none: every benchmark); everything from the first
argument that starts with ``-`` on is passed to each benchmark as it is, values included::

    python -m benchmarks.run auto --quick
    python -m benchmarks.run search -n 100 --versus scan=false
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
    "tail": "benchmarks.bench_tail",
    "bondt": "benchmarks.bench_bondt",
    "shisen_peer": "benchmarks.bench_shisen_peer",
}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        print(f"\nbenchmarks: {', '.join(BENCHMARKS)}")
        return 0
    first = next((i for i, a in enumerate(args) if a.startswith("-")), len(args))
    names, flags = args[:first] or list(BENCHMARKS), args[first:]
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
