"""One reader of saves: every command refuses what the game refuses, with one line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mjsat.cli import cli
from mjsat.deals import deal_solvable
from mjsat.fileio import InputFileError
from mjsat.game.engine import Game
from mjsat.game.save import game_from_save_text, read_save, save_text
from mjsat.layouts import load_layout


def _good() -> dict:
    board, order = deal_solvable(load_layout("rect-4x3"), seed=5, game="shisen-sho")
    game = Game(board, undo_limit=4, hint_limit=3)
    for m in order[:3]:
        game.pair(*m)
    game.undo()
    return json.loads(save_text(game))


GOOD = _good()


def _edit(fn) -> str:
    d = json.loads(json.dumps(GOOD))
    fn(d)
    return json.dumps(d)


def _set(section, key, value):
    return lambda d: d[section].update({key: value}) if isinstance(d.get(section), dict) else None


BAD = {
    "undo not an object": lambda d: d.update(undo=[1]),
    "undo missing": lambda d: d.pop("undo"),
    "undo limit string": _set("undo", "limit", "4"),
    "undo limit negative": _set("undo", "limit", -1),
    "undo limit huge": _set("undo", "limit", 10**9),
    "undo left above window": _set("undo", "left", 5),
    "undo left above moves": lambda d: d["undo"].update(limit=9, left=3),
    "undo left bool": _set("undo", "left", True),
    "undo left float": _set("undo", "left", 1.0),
    "hints not an object": lambda d: d.update(hints="x"),
    "hints missing": lambda d: d.pop("hints"),
    "hints used above limit": _set("hints", "used", 4),
    "hints used negative": _set("hints", "used", -1),
    "hints limit null": _set("hints", "limit", None),
    "redo same tile": lambda d: d.update(redo=[[1, 1]]),
    "redo gone tile": lambda d: d.update(redo=[list(d["moves"][0])]),
    "redo not pairs": lambda d: d.update(redo=[[1, 2, 3]]),
    "redo not a list": lambda d: d.update(redo={"a": 1}),
    "redo out of range": lambda d: d.update(redo=[[0, 99]]),
    "redo beyond window": lambda d: d.update(redo=d["redo"] * 5),
    "meta a list": lambda d: d.update(meta=[1]),
    "meta a string": lambda d: d.update(meta="x"),
    "meta nested 100 deep": lambda d: d.update(meta={"x": json.loads("[" * 100 + "]" * 100)}),
    "moves nested deep": lambda d: d["moves"].append(json.loads("[" * 70 + "]" * 70)),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_every_command_refuses_what_the_game_refuses(name, tmp_path):
    text = _edit(BAD[name])
    path = tmp_path / "bad.save"
    path.write_text(text)
    with pytest.raises(InputFileError) as info:
        game_from_save_text(text, str(path))
    assert str(info.value).startswith(str(path)) and "\n" not in str(info.value)
    runner = CliRunner()
    for args in (["solve", path, "--method", "ref"], ["verify", path], ["render", path]):
        res = runner.invoke(cli, [str(a) for a in args])
        assert res.exit_code == 2, (args, res.output)
        err = res.stderr.strip()
        assert "\n" not in err and err.startswith(f"mjsat: error: {path}"), err


def test_verify_of_a_redo_that_does_not_replay_is_not_ok(tmp_path):
    path = tmp_path / "g.save"
    path.write_text(_edit(lambda d: d.update(redo=[[1, 1]])))
    res = CliRunner().invoke(cli, ["verify", str(path)])
    assert res.exit_code == 2 and "redo move 1" in res.stderr and "ok" not in res.output


def test_a_good_save_reads_alike_everywhere(tmp_path):
    path = tmp_path / "g.save"
    path.write_text(json.dumps(GOOD))
    save = read_save(json.dumps(GOOD), str(path))
    assert save.moves == [tuple(m) for m in GOOD["moves"]] and save.redo == [tuple(m) for m in GOOD["redo"]]
    runner = CliRunner()
    res = runner.invoke(cli, ["verify", str(path)])
    assert res.exit_code == 0 and res.output.startswith("ok: the 2 moves"), res.output
    assert runner.invoke(cli, ["solve", str(path), "--method", "ref"]).exit_code == 0


def test_a_save_whose_moves_do_not_replay_is_a_failed_verify(tmp_path):
    path = tmp_path / "g.save"
    path.write_text(_edit(lambda d: d["moves"].append(d["moves"][0])))
    res = CliRunner().invoke(cli, ["verify", str(path)])
    assert res.exit_code == 1 and "invalid" in res.output and "move 3" in res.output


@pytest.mark.parametrize("where", ["moves", "meta", "undo", "board"])
def test_a_huge_integer_names_the_file_and_its_line(where, tmp_path):
    text = json.dumps(GOOD, indent=1)
    big = "9" * 5000
    if where == "moves":
        text = text.replace('"moves": [', f'"moves": [\n  [0, {big}],', 1)
    elif where == "meta":
        text = text.replace('"meta": {', f'"meta": {{"x": {big},', 1)
    elif where == "undo":
        text = text.replace('"limit": 4', f'"limit": {big}', 1)
    else:
        text = text.replace('"version": 1,', f'"version": 1, "x": {big},', 2)
    line = text[: text.index(big)].count("\n") + 1
    path = tmp_path / "big.save"
    path.write_text(text)
    for args in (["solve", path], ["verify", path], ["render", path]):
        res = CliRunner().invoke(cli, [str(a) for a in args])
        assert res.exit_code == 2, res.output
        assert res.stderr.startswith(f"mjsat: error: {path}:{line}: ") and "5000 digits" in res.stderr, res.stderr
    with pytest.raises(InputFileError, match=rf"^{path}:{line}: .*5000 digits"):
        game_from_save_text(text, str(path))


def test_duplicate_keys_are_refused(tmp_path):
    text = json.dumps(GOOD).replace('"meta": {', '"meta": {}, "meta": {', 1)
    with pytest.raises(InputFileError, match="'meta' twice"):
        game_from_save_text(text, "dup.save")
