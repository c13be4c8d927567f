"""Stam's four strategies on hand-made positions, and the names of every strategy."""

from __future__ import annotations

import numpy as np
import pytest

from mjsat.board import Layout, MahjongBoard
from mjsat.play.game import Game, play_game
from mjsat.play.heuristics import MaxBlockHeuristic
from mjsat.play.strategies import (
    STAM_STRATEGIES,
    STRATEGIES,
    GreedyStrategy,
    MultipleFirstStrategy,
    ObstructionTreeStrategy,
    RandomStrategy,
    UnknownStrategyError,
    make_strategy,
)
from mjsat.play.view import PlayerView
from mjsat.replay import replay


def isolated(n, row=0):
    """``n`` free tiles apart from each other in one row."""
    return [(row, 4 * i, 0) for i in range(n)]


def test_multiple_first_takes_quadruples_then_triples_then_pairs():
    # face 0: four free tiles; face 1: three free + one under a face-2 tile; face 2: a pair
    lay = Layout(isolated(4) + isolated(3, row=4) + [(8, 0, 0), (8, 0, 1), (8, 4, 0)])
    board = MahjongBoard(lay, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2])
    game = Game(board, MultipleFirstStrategy("random"), seed=1)
    first_two = [game.step(), game.step()]
    assert sorted(first_two) == [(0, 1), (2, 3)]  # the quadruple, as two pairs
    third = game.step()
    assert board.groups[third[0]] == board.groups[third[1]] == 1  # then a pair of the triple
    rest = game.run()
    assert rest.cleared and replay(board, rest.moves)


def test_multiple_first_keeps_the_lowest_blocking_stone_of_a_triple():
    # a row of six and two lone tiles; face 0 has three free stones: the two row ends
    # (hor = floor(5/2) = 2 each) and a lone tile (0); its fourth stone is inside the row
    lay = Layout([(0, 2 * i, 0) for i in range(6)] + [(4, 0, 0), (4, 4, 0)])
    board = MahjongBoard(lay, [0, 1, 0, 2, 1, 0, 0, 2])
    view = PlayerView(board)
    assert view.free_by_face() == {0: [0, 5, 6], 2: [7]}
    move = MultipleFirstStrategy(MaxBlockHeuristic()).choose(view, np.random.default_rng(0))
    assert move == (0, 5)


def test_greedy_frees_the_most_stones():
    # two rows of three and four lone tiles; removing a row end frees the middle tile
    lay = Layout(
        [(0, 0, 0), (0, 2, 0), (0, 4, 0), (4, 0, 0), (4, 2, 0), (4, 4, 0), (8, 0, 0), (8, 4, 0), (12, 0, 0), (12, 4, 0)]
    )
    board = MahjongBoard(lay, [0, 1, 2, 0, 1, 3, 3, 2, 4, 4])
    view = PlayerView(board)
    assert view.freed_by(0) == 1 and view.freed_by(6) == 0
    # (0, 3) frees two stones, (2, 7) and (5, 6) one each, (8, 9) none
    assert all(GreedyStrategy("random").choose(view, np.random.default_rng(s)) == (0, 3) for s in range(5))


def test_obstruction_tree_frees_a_blocked_match():
    # row O M P: M (face 1) is blocked on both sides; R (face 1), Q (face 0), PP (face 2) are free
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (4, 0, 0), (4, 4, 0), (8, 0, 0)])
    o, m, p, r, q, pp = range(6)
    board = MahjongBoard(lay, [0, 1, 2, 1, 0, 2])
    view = PlayerView(board)
    assert (m, r) not in view.free_pairs()
    path = ObstructionTreeStrategy("random").pick_path(view, r)
    assert path == [(o, q), (m, r)]  # the blocker with its match first, the root pair last
    replay(board, path, require_clear=False)


def test_obstruction_tree_never_looks_under_tiles():
    # M (face 0, partly visible) lies under C (face 1) bridging M and N; C's partner D
    # lies exactly under E, so C has no visible match: no pickPath for R (face 0)
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 1, 1), (4, 0, 0), (4, 0, 1), (8, 0, 0), (8, 4, 0), (12, 0, 0)])
    m, n, c, d, e, r, f, g = range(8)
    board = MahjongBoard(lay, [0, 4, 1, 1, 2, 0, 2, 4])
    view = PlayerView(board)
    assert view.is_visible(m) and not view.is_visible(d)
    assert ObstructionTreeStrategy("random").pick_path(view, r) is None
    rec = play_game(board, "obstruction-tree", "maxblock", seed=0)
    assert rec.cleared  # E-F uncovers D, C-D frees M and N, then R-M and N-G
    replay(board, rec.moves)


def _chain_board():
    """M (face 0) in a row L M c1 c2, the root R (face 0) apart; c1's and c2's matches free.

    L lies exactly under CL, so its face is hidden and it has no visible match: M cannot
    be freed from the left. On the right the chain is c1 (touching M) and c2 (the row's
    end): c2 goes with m2, then c1 with m1, then M with R.
    """
    lay = Layout(
        [
            (0, 0, 0),
            (0, 2, 0),
            (0, 4, 0),
            (0, 6, 0),
            (4, 0, 0),
            (8, 0, 0),
            (12, 0, 0),
            (0, 0, 1),
            (16, 0, 0),
            (20, 0, 0),
        ]
    )
    # L  M  c1 c2 R  m1 m2 CL X  Y
    return MahjongBoard(lay, [5, 0, 1, 2, 0, 1, 2, 4, 4, 5])


def test_obstruction_tree_readings_of_an_obstructor_below_the_root():
    board = _chain_board()
    L, M, C1, C2, R, M1, M2 = range(7)
    view = PlayerView(board)
    assert not view.is_visible(L) and not view.is_free(C1) and not view.is_free(M)
    want = [(C2, M2), (C1, M1), (M, R)]  # outer chain stone first, the root pair last
    # "match" (Algorithms 6-7): an obstructor goes as soon as its match is free, so one
    # level finds the path; "pair": c1 must be free itself, its own obstructor c2 sits
    # one level deeper
    assert ObstructionTreeStrategy("random", stones="match", max_level=1).pick_path(view, R) == want
    assert ObstructionTreeStrategy("random", stones="pair", max_level=1).pick_path(view, R) is None
    assert ObstructionTreeStrategy("random", stones="pair", max_level=2).pick_path(view, R) == want
    replay(board, want, require_clear=False)
    for stones in ("pair", "match", "match-above"):
        rec = play_game(board, ObstructionTreeStrategy("random", stones=stones), seed=0)
        assert rec.cleared and replay(board, rec.moves).remaining() == 0


def test_obstruction_tree_match_orders():
    # the root R (tile 2) has two free visible matches: A on the ground (tile 0) and B on
    # level 1 (tile 3, exactly on tile 1, whose face is hidden)
    lay = Layout([(0, 0, 0), (4, 0, 0), (8, 0, 0), (4, 0, 1)])
    view = PlayerView(MahjongBoard(lay, [0, 0, 0, 0]))
    A, R, B = 0, 2, 3
    assert view.visible_matches(R) == [A, B] and view.is_free(A) and view.is_free(B)
    # tile order: the first free match is A; reversed: B; MaxBlock: B scores
    # hor(B) + hor(1) + 1 = 1 against A's 0
    assert ObstructionTreeStrategy("maxblock", matches="tile").pick_path(view, R) == [(A, R)]
    assert ObstructionTreeStrategy("maxblock", matches="reverse").pick_path(view, R) == [(R, B)]
    assert ObstructionTreeStrategy("maxblock", matches="heuristic").pick_path(view, R) == [(R, B)]
    # with the heuristic's own (random) ties, the Random heuristic orders them at random:
    # both are found over a few seeds
    found = {
        tuple(
            ObstructionTreeStrategy("random", matches="heuristic", tie_break="heuristic").pick_path(
                view, R, rng=np.random.default_rng(s)
            )
        )
        for s in range(20)
    }
    assert found == {((A, R),), ((R, B),)}
    # the default rule: equal values go to the higher stone, so the Random heuristic's
    # matches go top first at every seed (as matches="reverse")
    for s in range(20):
        assert ObstructionTreeStrategy("random").pick_path(view, R, rng=np.random.default_rng(s)) == [(R, B)]


def _naive_rule_order(view, stones, score):
    """The default rule as the issue states it, written from the text: by blocking value,
    highest first; equal values to the higher stone (the top of the pile: higher level
    first, then the later tile)."""
    return sorted(stones, key=lambda t: (-score(t), -view.level(t), -t))


@pytest.mark.parametrize("seed", range(6))
def test_obstruction_tree_default_rule_against_naive(seed):
    from mjsat.deals import deal_solvable
    from mjsat.layouts import load_layout
    from mjsat.play.heuristics import make_heuristic

    board = deal_solvable(load_layout("turtle"), seed=seed)[0]
    view = PlayerView(board)
    strategy = ObstructionTreeStrategy("maxblock")
    heuristic = make_heuristic("maxblock")
    rng = np.random.default_rng(seed)
    # tile order lists the lower levels first, so "last in tile order" is the top stone
    levels = [p[2] for p in board.layout.positions]
    assert levels == sorted(levels)
    # play a few moves of the strategy, checking its orders at every position
    for _ in range(8):
        free = view.free_tiles()
        if not free:
            break
        want_roots = _naive_rule_order(view, free, lambda t: heuristic.stone_score(view, t))
        assert strategy.root_order(view, rng) == want_roots
        order = strategy.match_order(view, rng)
        for t in free:
            matches = view.visible_matches(t)
            assert order(list(matches)) == (
                _naive_rule_order(view, matches, lambda m: heuristic.stone_score(view, m))
                if len(matches) > 1
                else matches
            )
        # the move played is the first root whose pickPath exists, its path's first pair
        move = strategy.choose(view, rng)
        if move is None:
            break
        view._apply(move)


def test_obstruction_tree_random_heuristic_keeps_random_roots():
    from mjsat.deals import deal_solvable
    from mjsat.layouts import load_layout

    view = PlayerView(deal_solvable(load_layout("turtle"), seed=3)[0])
    strategy = ObstructionTreeStrategy("random")
    orders = {tuple(strategy.root_order(view, np.random.default_rng(s))) for s in range(5)}
    assert len(orders) == 5  # a random draw, not a ranking


def test_obstruction_tree_one_pass_drops_a_pair_not_free_at_its_turn():
    # two stacks: the path's second pair is not free when its turn comes, so one pass drops it
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)])
    view = PlayerView(MahjongBoard(lay, [0, 1, 1, 0]))
    assert view.free_tiles() == [0, 3]
    for path, want in (("queue", [(1, 2)]), ("one-pass", [])):
        strategy = ObstructionTreeStrategy("random", path=path)
        strategy._queue = [(1, 2), (0, 3)]  # (1, 2) is blocked on both sides
        first = strategy._next_of_path(view)
        assert first == (0, 3)
        assert strategy._queue == want


def test_obstruction_tree_readings_are_checked():
    from mjsat.play.strategies import OTReading, UnknownReadingError

    with pytest.raises(UnknownReadingError):
        ObstructionTreeStrategy("random", stones="both")
    with pytest.raises(UnknownReadingError):
        OTReading(cycles="sometimes")
    assert ObstructionTreeStrategy("maxblock", matches="heuristic").reading == OTReading(matches="heuristic")


def test_obstruction_tree_respects_its_node_budget():
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (4, 0, 0), (4, 4, 0), (8, 0, 0)])
    board = MahjongBoard(lay, [0, 1, 2, 1, 0, 2])
    tiny = ObstructionTreeStrategy("random", max_nodes=1)
    assert tiny.pick_path(PlayerView(board), 3) is None  # the root alone: undecided, skipped
    assert ObstructionTreeStrategy("random", max_level=0).pick_path(PlayerView(board), 3) is None


def test_random_strategy_plays_every_free_pair_sometimes():
    lay = Layout([(0, 4 * i, 0) for i in range(4)])
    board = MahjongBoard(lay, [0, 0, 0, 0])
    firsts = {Game(board, RandomStrategy("random"), seed=s).step() for s in range(60)}
    assert firsts == {(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)}


def test_names():
    assert list(STAM_STRATEGIES) == ["random", "multiple-first", "greedy", "obstruction-tree"]
    assert list(STRATEGIES) == [*STAM_STRATEGIES, "theorem5", "random-match"]
    assert isinstance(make_strategy("MultipleFirst"), MultipleFirstStrategy)
    assert isinstance(make_strategy("ot", "maxblock", max_nodes=10), ObstructionTreeStrategy)
    assert make_strategy("greedy", "max-block").heuristic.name == "maxblock"
    with pytest.raises(UnknownStrategyError):
        make_strategy("peeker")
