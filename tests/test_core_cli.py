"""The core CLI, in-process with click's CliRunner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mjsat.boardio import board_to_json, load_board
from mjsat.cli import cli
from mjsat.replay import replay


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, list(args), catch_exceptions=False)

    return invoke


def test_help_teaches(run):
    out = run("--help").output
    for cmd in ("deal", "solve", "verify", "convert", "render", "layouts"):
        assert cmd in out
    assert "mjsat deal --layout turtle" in out
    for cmd in ("deal", "solve", "verify", "convert", "render"):
        assert run(cmd, "--help").exit_code == 0


def test_layouts_list_and_show(run):
    res = run("layouts", "--json")
    names = {d["name"]: d for d in json.loads(res.output)}
    assert names["turtle"]["tiles"] == 144
    data = json.loads(run("layouts", "show", "turtle", "--json").output)
    assert len(data["tiles"]) == 144 and data["levels"] == [87, 36, 16, 4, 1]
    assert all(len(t) == 3 for t in data["tiles"])
    assert "144 tiles" in run("layouts", "show", "turtle").output


def test_deal_solve_verify_render_convert(run, tmp_path):
    board = tmp_path / "b.json"
    res = run("deal", "--layout", "pyramid", "--seed", "3", "--solvable", "-o", str(board))
    assert res.exit_code == 0 and board.exists()
    res = run("solve", str(board), "--json", "--method", "ref")
    data = json.loads(res.output)
    assert data["status"] == "solvable" and data["method"] == "ref" and data["verified"]
    assert set(data) >= {"status", "moves", "method", "seconds"}
    replay(load_board(board), data["moves"])
    sol = tmp_path / "sol.json"
    sol.write_text(res.output)
    res = run("verify", str(board), str(sol))
    assert res.exit_code == 0 and res.output.startswith("ok:")
    # a wrong solution: the moves reversed
    moves = data["moves"][::-1]
    (tmp_path / "bad.json").write_text(json.dumps({"moves": moves}))
    res = CliRunner().invoke(cli, ["verify", str(board), str(tmp_path / "bad.json"), "--json"])
    assert res.exit_code == 1 and json.loads(res.output)["ok"] is False
    svg = tmp_path / "b.svg"
    assert run("render", str(board), "-o", str(svg), "--solution", str(sol)).exit_code == 0
    text = svg.read_text()
    assert text.startswith("<svg") and text.count("<rect") >= len(load_board(board))
    assert "top view" in run("render", str(board)).output
    txt = tmp_path / "b.txt"
    assert run("convert", str(board), "-o", str(txt)).exit_code == 0
    assert load_board(txt).groups == load_board(board).groups


def test_solve_from_layout_and_limits(run):
    res = run("solve", "--layout", "turtle", "--seed", "1", "--json", "--method", "ref")
    data = json.loads(res.output)
    assert data["status"] == "solvable" and data["tiles"] == 144 and data["deal_seed"] == 1
    res = run("solve", "--layout", "turtle", "--seed", "2", "--node-limit", "10", "--json", "--method", "ref")
    data = json.loads(res.output)
    assert data["status"] == "unknown" and data["reason"] == "node limit" and data["moves"] == []
    res = run("solve", "--layout", "tiny", "--seed", "2", "-O", "node_limit=100000", "--method", "ref")
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout
    from mjsat.methods import solve as solve_board

    expected = solve_board(deal_random(load_layout("tiny"), seed=2), "search").status
    assert res.exit_code == 0 and res.output.split(":")[0] == expected


@pytest.mark.parametrize(
    "args,words",
    [
        (["solve", "{missing}"], "no such file"),
        (["solve", "{bad}"], "bad.txt:2: expected 4 integers"),
        (["solve", "--layout", "no-such-layout"], "no-such-layout"),
        (["solve", "--layout", "tiny", "--method", "nope"], "unknown method"),
        (["solve", "--layout", "tiny", "--encoding", "x", "--method", "ref"], "takes no option 'encoding'"),
        (["solve", "--layout", "tiny", "--time-limit", "-1"], "time limit must be positive"),
        (["verify", "{good}", "{badsol}"], "sol.txt:1: not a tile index"),
        (["render", "{good}", "-o", "{out}.png"], "SVG"),
        (["deal", "--layout", "tiny", "--group-sizes", "3,5"], "even"),
        (["solve"], "name a BOARD"),
        (["solve", "-O", "justakey", "--layout", "tiny"], "KEY=VALUE"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, args, words):
    (tmp_path / "bad.txt").write_text("0 0 0 1\n0 2 0\n")
    (tmp_path / "good.txt").write_text("0 0 0 1\n0 2 0 1\n")
    (tmp_path / "sol.txt").write_text("0 x\n")
    paths = {
        "missing": str(tmp_path / "missing.json"),
        "bad": str(tmp_path / "bad.txt"),
        "good": str(tmp_path / "good.txt"),
        "badsol": str(tmp_path / "sol.txt"),
        "out": str(tmp_path / "out"),
    }
    res = CliRunner().invoke(cli, [a.format(**paths) for a in args])
    assert res.exit_code == 2, res.output
    assert words in res.output
    assert "Traceback" not in res.output
    assert not (tmp_path / "out.png").exists()


def test_failed_write_overwrites_nothing(tmp_path, run):
    board = tmp_path / "b.json"
    board.write_text("keep me")
    res = CliRunner().invoke(cli, ["deal", "--layout", "tiny", "--group-sizes", "3,5", "-o", str(board)])
    assert res.exit_code == 2 and board.read_text() == "keep me"


def test_default_method_is_auto_and_verified(run):
    data = json.loads(run("solve", "--layout", "pyramid", "--seed", "4", "--solvable", "--json").output)
    assert data["method"] == "auto" and data["status"] == "solvable" and data["verified"]
    assert data["stats"]["decided_by"]


def test_solve_and_verify_a_saved_game(run, tmp_path):
    from game_positions import saved_game

    path, deal, order = saved_game(tmp_path)
    res = run("solve", str(path), "--method", "ref", "--json")
    data = json.loads(res.output)
    assert data["status"] == "solvable" and data["tiles"] == len(deal) - 6
    (tmp_path / "sol.json").write_text(res.output)
    assert run("verify", str(path), str(tmp_path / "sol.json")).exit_code == 0
    res = run("verify", str(path))
    assert res.exit_code == 0 and "the 3 moves of the saved game replay" in res.output
    bad, _, _ = saved_game(tmp_path, tamper=True)
    res = run("verify", str(bad), "--json")
    assert res.exit_code == 1 and json.loads(res.output)["move_index"] == 3
    plain = tmp_path / "plain.json"
    plain.write_text(board_to_json(deal))
    res = CliRunner().invoke(cli, ["verify", str(plain)])
    assert res.exit_code == 2 and "not a saved game" in res.output


def test_methods_lists_every_registered_method_with_its_games():
    import json as _json

    from mjsat.methods import METHODS

    r = CliRunner().invoke(cli, ["methods", "--json"])
    assert r.exit_code == 0, r.output
    rows = {row["name"]: row for row in _json.loads(r.output)}
    assert set(rows) == set(METHODS)
    assert "shisen-sho-3d" not in rows["height2"]["games"] and "shisen-sho-3d" in rows["sat"]["games"]
    # height two first, SAT straight away on isolated stacks, then the search's budget and SAT
    steps = [s["step"] for s in rows["auto"]["steps"]]
    assert steps[:5] == ["height2", "sat-stacks", "sat-stacks-ranks", "search-budget", "sat"]
    assert "encoding" in rows["sat"]["options"]
    text = CliRunner().invoke(cli, ["methods"]).output
    assert all(name in text for name in METHODS)


def test_deal_height2_makes_the_boards_of_mjsat_generate(run, tmp_path):
    """`mjsat deal --height2` is mjsat.generate's board of its seed; height2 and ref agree on it."""
    import numpy as np

    from mjsat.generate import planted_cycle_board, random_height2_board
    from mjsat.methods import solve

    out = tmp_path / "h.json"
    r = run("deal", "--height2", "--tiles", "12", "--seed", "7", "-o", str(out))
    assert r.exit_code == 0, r.output
    board = load_board(out)
    same = random_height2_board(np.random.default_rng(7), n_tiles=12, group_sizes=(2, 4))
    assert board.layout.positions == same.layout.positions and board.groups == same.groups
    assert max(p[2] for p in board.layout.positions) <= 1 and len(board) == 12
    assert solve(board, "height2").status == solve(board, "ref").status
    r = run("deal", "--height2", "--tiles", "12", "--seed", "3", "--planted-cycle", "3", "--group-sizes", "2")
    assert r.exit_code == 0, r.output
    cycle = load_board(_json_file(tmp_path, r.output))
    same = planted_cycle_board(np.random.default_rng(3), n_tiles=12, cycle_length=3, group_sizes=(2,))
    assert cycle.groups == same.groups and len(cycle.meta["planted_cycle"]) == 3
    assert solve(cycle, "height2").status == solve(cycle, "ref").status == "unsolvable"
    r = run("deal", "--height2", "--tiles", "10", "--solvable", "--seed", "5")
    assert solve(load_board(_json_file(tmp_path, r.output)), "ref").status == "solvable"
    for args, words in (
        (("--tiles", "7"), "n_tiles must be positive and even"),
        (("--tiles", "4", "--planted-cycle", "3"), "blocked cycle of length 3"),
        (("--game", "shisen-sho"), "height-two boards are Mahjong boards"),
        (("--layout", "turtle"), "not both"),
    ):
        r = CliRunner().invoke(cli, ["deal", "--height2", *args])
        assert r.exit_code == 2 and words in r.output and len(r.output.strip().splitlines()) == 1, r.output
    r = CliRunner().invoke(cli, ["deal", "--planted-cycle", "2", "--layout", "turtle"])
    assert r.exit_code == 2 and "go with --height2" in r.output


def _json_file(folder, text):
    path = folder / "stdout.json"
    path.write_text(text)
    return path
