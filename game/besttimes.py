"""Best times of the terminal game, per layout, game and difficulty, in one JSON file.

The file is ``$XDG_DATA_HOME/mjsat/best-times.json`` (``~/.local/share/mjsat/...`` when
the variable is unset or empty)::

    {"format": "mjsat-best-times", "version": 1,
     "best": {"mahjong|turtle|normal": {"seconds": 312.4, "moves": 72, "hints": 1,
                                        "undos": 0, "shuffles": 0, "seed": 17,
                                        "date": "2026-11-28"}, ...}}

A missing file is an empty table. A file that cannot be read or is not such an object
is ignored with a one-line warning (the game goes on, and the next record replaces it);
it is written whole to a temporary file that is then renamed, so a crash never leaves
half a file.
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path
from typing import Any

__all__ = ["BEST_TIMES_FORMAT", "best_times_path", "BestTimes"]

BEST_TIMES_FORMAT = "mjsat-best-times"


def best_times_path() -> Path:
    """Where the best times are kept (XDG base directories)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mjsat" / "best-times.json"


class BestTimes:
    """The table of best times in ``path`` (default :func:`best_times_path`).

    ``warning`` is the one-line warning of a file that could not be read (else ``None``).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else best_times_path()
        self.warning: str | None = None
        self.best: dict[str, dict[str, Any]] = self._read()

    @staticmethod
    def key(layout: str, game: str, difficulty: str) -> str:
        return f"{game}|{layout}|{difficulty}"

    def _read(self) -> dict[str, dict[str, Any]]:
        from mjsat.fileio import parse_json, read_text

        if not self.path.exists():
            return {}
        try:
            text = read_text(str(self.path))
        except (OSError, ValueError) as exc:
            self.warning = f"best times not read ({exc}); a new table is kept"
            return {}
        try:
            data = parse_json(text, str(self.path))
            best = data["best"] if isinstance(data, dict) and data.get("format") == BEST_TIMES_FORMAT else None
            if not isinstance(best, dict) or not all(
                isinstance(v, dict) and isinstance(v.get("seconds"), (int, float)) for v in best.values()
            ):
                raise ValueError("not a table of best times")
        except (ValueError, KeyError) as exc:
            self.warning = f"best times ignored ({self.path}: {' '.join(str(exc).split())}); a new table is kept"
            return {}
        return best

    def get(self, layout: str, game: str, difficulty: str) -> dict[str, Any] | None:
        """The best record of this layout, game and difficulty, or ``None``."""
        return self.best.get(self.key(layout, game, difficulty))

    def record(self, layout: str, game: str, difficulty: str, seconds: float, **counts: Any) -> bool:
        """Keep ``seconds`` when it beats the best time (written at once); ``True`` when it did.

        Raises
        ------
        OSError
            The file could not be written (the old one is left as it was).
        """
        from mjsat.fileio import write_text_atomic

        key = self.key(layout, game, difficulty)
        old = self.best.get(key)
        if old is not None and old["seconds"] <= seconds:
            return False
        self.best[key] = {"seconds": round(float(seconds), 1), **counts, "date": datetime.date.today().isoformat()}
        text = json.dumps({"format": BEST_TIMES_FORMAT, "version": 1, "best": self.best}, indent=1, sort_keys=True)
        write_text_atomic(str(self.path), text + "\n")
        return True
