"""``mjsat game --tui`` in a real pseudo-terminal (tmux): the solver child starts, hints
come, the check after a move resolves, new game deals, save and load round-trip."""

from __future__ import annotations

import json
import sys

from terminal import Terminal

MJSAT = [sys.executable, "-c", "from mjsat.cli import main; main()"]


def _status(term: Terminal) -> str:
    return next(line for line in term.screen().splitlines() if "tiles left" in line)


def test_the_terminal_game_as_a_user_plays_it(tmp_path):
    save = tmp_path / "game.json"
    argv = [*MJSAT, "game", "--layout", "rect-6x4", "--game", "shisen-sho", "--seed", "2", "--tui"]
    with Terminal(tmp_path, argv) as term:
        term.wait_for(r"24 tiles left, 0 moves\..*still solvable")
        seed = term.wait_for(r"seed (\d+)").group(1)
        # a hint: a pair named, the cursor on its first tile; space, space plays it
        term.press("h")
        term.wait_for(r"hint: ")
        assert "no hint" not in term.screen()
        term.wait_for(r"hints 9")
        term.press("Space")
        term.press("Space")
        term.wait_for(r"22 tiles left, 1 moves")
        term.wait_for(r"22 tiles left, 1 moves\. .*still solvable")  # the check resolved
        assert "checking" not in _status(term)
        # save, play on, load: the saved position comes back
        term.press("C-s")
        term.wait_for(r"file to save")
        term.press("End")
        term.press("C-u")
        term.type(str(save))
        term.press("Enter")
        term.wait_for(r"saved to")
        assert json.loads(save.read_text())["moves"] and len(json.loads(save.read_text())["moves"]) == 1
        term.press("h")
        term.wait_for(r"hints 8")
        term.press("Space")
        term.press("Space")
        term.wait_for(r"20 tiles left, 2 moves")
        term.press("l")
        term.wait_for(r"file to load")
        term.type(str(save))
        term.press("Enter")
        term.wait_for(r"loaded ")
        term.wait_for(r"22 tiles left, 1 moves")
        # shuffle: the tiles left dealt again, solvable; restart: the deal from the start
        term.press("s")
        term.wait_for(r"shuffled: the 22 tiles left can be cleared")
        term.wait_for(r"22 tiles left, 1 moves\. .*still solvable")
        term.press("R")
        term.wait_for(r"the same deal from the start")
        term.wait_for(r"24 tiles left, 0 moves")
        # new game: another deal, checked
        term.press("n")
        new_seed = term.wait_for(r"dealt: seed (\d+)").group(1)
        term.wait_for(r"24 tiles left, 0 moves\..*still solvable")
        assert f"seed {new_seed}" in term.screen()
        assert new_seed != seed
        term.press("q")
        term.wait_for(r"\[exit 0\]")


def test_tui_without_a_terminal_says_so(tmp_path):
    import subprocess

    out = subprocess.run(
        [*MJSAT, "game", "--tui"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "mjsat: error: --tui needs a terminal: standard input and output are not one (see 'mjsat game --help')"
    ]
