"""Best times of the terminal game: kept per layout, game and difficulty under the XDG
data folder; a corrupt or unreadable file is one warning, never a crash."""

from __future__ import annotations

import json

import pytest

from mjsat.game.besttimes import BestTimes, best_times_path


def test_the_file_is_under_the_xdg_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert best_times_path() == tmp_path / "mjsat" / "best-times.json"
    monkeypatch.setenv("XDG_DATA_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert best_times_path() == tmp_path / ".local" / "share" / "mjsat" / "best-times.json"


def test_only_better_times_are_kept_and_they_survive_a_reload(tmp_path):
    path = tmp_path / "deep" / "best.json"
    table = BestTimes(path)
    assert table.warning is None and table.get("turtle", "mahjong", "hard") is None
    assert table.record("turtle", "mahjong", "hard", 300.0, moves=72)
    assert not table.record("turtle", "mahjong", "hard", 301.0, moves=70)
    assert table.record("turtle", "mahjong", "hard", 250.04, moves=74)
    assert table.record("turtle", "mahjong", "normal", 400.0)
    again = BestTimes(path)
    assert again.get("turtle", "mahjong", "hard")["seconds"] == 250.0
    assert again.get("turtle", "mahjong", "hard")["moves"] == 74
    assert json.loads(path.read_text())["format"] == "mjsat-best-times"
    assert list(path.parent.iterdir()) == [path]  # no temporary file left


@pytest.mark.parametrize(
    "text", ["{broken", "[]", '{"format": "mjsat-best-times", "best": {"x": {"seconds": "fast"}}}', "\udcff"]
)
def test_a_corrupt_file_is_one_warning_and_a_new_table(tmp_path, text):
    path = tmp_path / "best.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    table = BestTimes(path)
    assert table.warning and "\n" not in table.warning and str(path) in table.warning
    assert table.best == {}
    assert table.record("rect-4x3", "shisen-sho", "normal", 12.0)
    assert BestTimes(path).warning is None
