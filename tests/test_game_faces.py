"""Tile faces: every group a kind of the Mahjong set, the same for the same deal, distinct
faces beyond 36 groups; messages name tiles by face and place, never by tile number."""

from __future__ import annotations

import re

import numpy as np
import pytest
from game_positions import SMALL

from mjsat.deals import deal_random
from mjsat.game.engine import Game
from mjsat.game.faces import KINDS, assign_faces, face_colour, long_name, short_form
from mjsat.layouts import load_layout


def _kind(face):
    bits = face.split("-")
    return bits[0] if bits[0] in ("flower", "season") else "-".join(bits[:2])


def test_the_36_groups_of_a_full_set_take_the_36_kinds_and_flowers_match_each_other():
    groups = [g for g in range(36) for _ in range(4)]
    faces = assign_faces(groups, seed=5)
    kinds = {g: {_kind(f) for f, h in zip(faces, groups) if h == g} for g in range(36)}
    assert all(len(k) == 1 for k in kinds.values())
    assert sorted(k.pop() for k in kinds.values()) == sorted(KINDS)
    flowers = sorted(f for f in faces if f.startswith("flower"))
    assert flowers == ["flower-1", "flower-2", "flower-3", "flower-4"]
    assert sorted(f for f in faces if f.startswith("season")) == ["season-1", "season-2", "season-3", "season-4"]
    assert faces == assign_faces(groups, seed=5) and faces != assign_faces(groups, seed=6)


def test_more_groups_than_kinds_keep_distinct_faces():
    groups = [g for g in range(100) for _ in range(2)]
    faces = assign_faces(groups, seed=1)
    per_group = {}
    for f, g in zip(faces, groups):
        per_group.setdefault(g, set()).add(_kind(f) + ("" if f.count("-") < 2 else f.rsplit("-", 1)[1]))
    labels = [next(iter(v)) for v in per_group.values()]
    assert all(len(v) == 1 for v in per_group.values()) and len(set(labels)) == 100
    for f in set(faces):
        assert long_name(f) and short_form(f) and re.fullmatch(r"#[0-9a-f]{6}", face_colour(f))
    third = [f for f in faces if f.count("-") == 2 and f.endswith("-3")]
    assert third and all(short_form(f).endswith("³") for f in third)


@pytest.mark.parametrize("bad", ["dots", "dots-3-x", "tiles-3", ""])
def test_a_bad_face_id_is_refused(bad):
    with pytest.raises(ValueError):
        long_name(bad)


def test_messages_name_tiles_by_face_and_place_never_by_number():
    rng = np.random.default_rng(3)
    for spec, game_name in SMALL:
        board = deal_random(load_layout(spec), seed=int(rng.integers(1 << 30)), game=game_name)
        game = Game(board)
        for _ in range(30):
            a, b = (int(v) for v in rng.integers(len(board), size=2))
            out = game.pair(a, b)
            if out.reason and "does not exist" not in out.reason:
                assert not re.search(r"\btiles? \d", out.reason), out.reason
        hint = game.hint(time_limit=10)
        if hint.kind == "move":
            assert re.fullmatch(
                r"hint: .+ at row \d+, column \d+(, level \d+)? and .+ at row \d+, column \d+(, level \d+)?",
                hint.message,
            )
            assert not re.search(r"\btiles? \d", hint.message)
        game.face_style = "numbers"
        name = game.tile_name(0)
        assert name.startswith(f"{board.group_label(board.groups[0])} at row ")
