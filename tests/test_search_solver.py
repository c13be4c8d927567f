"""``solve_search`` (both engines, every improvement on and off) against the reference solver."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from mjsat.board import Layout, MahjongBoard, ShisenShoBoard
from mjsat.deals import deal_random
from mjsat.generate import random_grid_board, random_small_board
from mjsat.methods import solve
from mjsat.replay import check_solution
from mjsat.search.pairing import geometry
from mjsat.search.solver import SearchRun, UnknownEngineError, default_attempts, prior_conflict, solve_search

VARIANTS = [
    {},
    {"freeze": False},
    {"loose": False},
    {"prior": False},
    {"scan": False},
    {"critical": False},
    {"attempts": 0, "guided": 0},
    {"attempts": 0, "guided": 0, "freeze": False, "loose": False, "prior": False, "scan": False, "critical": False},
    {"bondt": True, "attempts": 0, "guided": 0},
    {"bondt": True, "attempts": 0, "guided": 0, "freeze": False, "loose": False, "prior": False},
    {"bondt": True, "attempts": 0, "guided": 0, "scan": False},
    {"attempts": 0, "guided": 6},
    {"presearch": 1, "attempts": 16},
]
IDS = [
    "all",
    "no-freeze",
    "no-loose",
    "no-prior",
    "no-scan",
    "no-critical",
    "no-attempts",
    "bare",
    "bondt",
    "bondt-no-cleaning",
    "bondt-no-scan",
    "guided-only",
    "presearch",
]
SEED000_VARIANTS = [
    {"freeze_pair": True},
    {"loose_pair": True},
    {"attempts": 0, "guided": 0, "freeze": False, "loose": False, "freeze_pair": True, "loose_pair": True},
    {"attempts": 0, "guided": 0, "critical": False, "joint": True},
    {
        "attempts": 0,
        "guided": 0,
        "critical": False,
        "scan": False,
        "joint": True,
        "freeze_pair": True,
        "loose_pair": True,
    },
    {"attempts": 0, "guided": 0, "bondt": True, "freeze_pair": True, "loose_pair": True},
]
"""The options of seed 000's extra cleaning rules and its joint enumeration."""
SEED000_IDS = ["freeze-pair", "loose-pair", "pair-rules-alone", "joint", "joint-no-scan-pair-rules", "bondt-pair-rules"]


@functools.cache
def boards(seed: int, count: int):
    """Mahjong (up to 20 tiles), transposed Mahjong, Shisen-Sho grids up to 6 x 5; groups 2, 4, 6."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        k = i % 4
        if k == 3:
            out.append(random_grid_board(rng, group_sizes=(2, 4, 6)))
        else:
            game = "mahjong-transposed" if k == 1 else "mahjong"
            out.append(random_small_board(rng, game=game, max_tiles=20, group_sizes=(2, 4, 6)))
    return tuple(out)


@functools.cache
def ref_statuses(seed: int, count: int) -> tuple[str, ...]:
    return tuple(solve(b, "ref").status for b in boards(seed, count))


def _check(seed, count, engine, opts):
    statuses = set()
    for board, ref_status in zip(boards(seed, count), ref_statuses(seed, count)):
        got = solve(board, "search", engine=engine, **opts)  # solve() replays every solution
        assert got.status == ref_status, f"{opts} {board!r}"
        if got.status == "solvable":
            assert got.verified
        statuses.add(got.status)
    assert statuses == {"solvable", "unsolvable"}


@pytest.mark.parametrize("opts", VARIANTS, ids=IDS)
@pytest.mark.parametrize("engine", ["numba", "python"])
def test_agrees_with_ref(engine, opts):
    _check(31, 60, engine, opts)


@pytest.mark.slow
@pytest.mark.parametrize("opts", VARIANTS + SEED000_VARIANTS, ids=IDS + SEED000_IDS)
@pytest.mark.parametrize("engine", ["numba", "python"])
def test_agrees_with_ref_1200_boards(engine, opts):
    _check(32, 1200, engine, opts)


@pytest.mark.parametrize("opts", SEED000_VARIANTS, ids=SEED000_IDS)
def test_seed_000_options_agree_with_twin_and_ref(opts):
    """Each of seed 000's options: the numba engine and the Python twin, both with it, give
    the reference solver's answer on 500 random boards (solutions replayed); and the
    option changes the search (its node count differs from the one without it)."""
    statuses = set()
    without = {**opts, **{key: False for key in ("freeze_pair", "loose_pair", "joint") if key in opts}}
    nodes = {"with": 0, "without": 0}
    for board, ref_status in zip(boards(35, 500), ref_statuses(35, 500)):
        for engine in ("numba", "python"):
            got = solve(board, "search", engine=engine, **opts)
            assert got.status == ref_status, f"{engine} {opts} {board!r}"
            if got.status == "solvable":
                assert got.verified
        nodes["with"] += got.stats["nodes"]
        nodes["without"] += solve(board, "search", engine="python", **without).stats["nodes"]
        statuses.add(ref_status)
    assert statuses == {"solvable", "unsolvable"}
    assert nodes["with"] != nodes["without"], nodes


def test_stats_and_phases():
    board = boards(33, 1)[0]
    r = solve_search(board, attempts=0, guided=0)
    for key in (
        "nodes",
        "scans",
        "attempts",
        "guided",
        "seconds_prior",
        "seconds_attempts",
        "seconds_search",
        "seconds_total",
    ):
        assert key in r.stats
    assert r.stats["nodes"] >= 1 and r.stats["attempts"] == 0


def test_unknown_at_node_limit_and_time_limit():
    rng = np.random.default_rng(5)
    hard = None
    for _ in range(200):
        b = random_small_board(rng, max_tiles=20, group_sizes=(2, 4, 6))
        r = solve_search(b, attempts=0, critical=False, scan=False, prior=False, freeze=False, loose=False)
        if r.stats["nodes"] >= 3:
            hard = b
            break
    assert hard is not None
    for engine in ("numba", "python"):
        r = solve_search(
            hard,
            attempts=0,
            critical=False,
            scan=False,
            prior=False,
            freeze=False,
            loose=False,
            node_limit=1,
            engine=engine,
        )
        assert r.status == "unknown" and r.reason == "node limit"
        assert r.stats["nodes"] <= 2


def test_time_limit_answers_unknown_on_a_big_board():
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    board = deal_random(load_layout("turtle"), seed=0)
    r = solve_search(board, engine="python", time_limit=0.01, attempts=0)
    assert r.status == "unknown" and r.reason == "time limit"


def test_prior_analysis():
    lay = Layout([(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 4, 0)])
    board = MahjongBoard(lay, [0, 0, 0, 0])
    assert prior_conflict(board) == 0
    r = solve_search(board)
    assert r.status == "unsolvable" and "prior" in r.reason
    # a tile on two tiles of its group side by side is fine when the fourth can pair with it
    lay2 = Layout([(0, 0, 0), (0, 2, 0), (0, 1, 1), (4, 0, 0)])
    assert prior_conflict(MahjongBoard(lay2, [0, 0, 0, 0])) is None
    assert solve(MahjongBoard(lay2, [0, 0, 0, 0]), "search").status == "solvable"
    grid = ShisenShoBoard(Layout([(0, 0, 0), (0, 2, 0)]), [0, 0])
    assert prior_conflict(grid) is None


def test_default_attempts_counts_groups_of_four_or_more():
    lay = Layout([(0, 2 * i, 0) for i in range(10)])
    board = MahjongBoard(lay, [0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
    assert default_attempts(geometry(board)) == 2


def test_bad_engine_and_attempts():
    board = boards(34, 1)[0]
    with pytest.raises(UnknownEngineError):
        solve_search(board, engine="fortran")
    with pytest.raises(ValueError):
        solve_search(board, attempts=-1)


def test_playout_option():
    """Both policies decide turtle deals by playouts whose moves replay; the default is
    :data:`DEFAULT_PLAYOUT`; a name outside :data:`PLAYOUTS` is refused before any board."""
    from mjsat.layouts import load_layout
    from mjsat.search.config import PLAYOUTS
    from mjsat.search.solver import DEFAULT_PLAYOUT, UnknownPlayoutError, check_search_options

    with pytest.raises(UnknownPlayoutError, match="unknown playout 'greedy'"):
        check_search_options(playout="greedy")
    board = deal_random(load_layout("turtle"), seed=2)
    with pytest.raises(UnknownPlayoutError):
        solve_search(board, playout="greedy")
    assert DEFAULT_PLAYOUT in PLAYOUTS
    for seed in range(4):
        board = deal_random(load_layout("turtle"), seed=seed)
        runs = {p: solve(board, "search", seed=5, node_limit=0, playout=p) for p in PLAYOUTS}
        for r in runs.values():
            assert r.status in ("solvable", "unknown", "unsolvable")
            if r.status == "solvable":
                assert r.verified and r.reason.startswith(("random", "guided"))
        default = solve(board, "search", seed=5, node_limit=0)
        assert (default.status, default.moves) == (runs[DEFAULT_PLAYOUT].status, runs[DEFAULT_PLAYOUT].moves)


def test_registered_method_and_options():
    from mjsat.methods import method_options

    assert {"engine", "critical", "scan", "freeze", "loose", "prior", "attempts", "node_limit"} <= method_options(
        "search"
    )


def test_turtle_deal_is_decided():
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    board = deal_random(load_layout("turtle"), seed=1)
    r = solve(board, "search", time_limit=30)
    assert r.status == solve(board, "sat", time_limit=30).status == "solvable"
    assert r.verified and len(r.moves) == 72


def test_guided_attempts_solve_and_replay():
    """Scan-guided playouts alone (no plain attempts, no search) clear solvable boards, in
    both engines, and their moves replay; an unsolvable board gets no guided answer."""
    hits = {"numba": 0, "python": 0}
    for board, ref_status in zip(boards(34, 40), ref_statuses(34, 40)):
        for engine in hits:
            r = solve(board, "search", engine=engine, attempts=0, guided=20, node_limit=0)
            if ref_status == "unsolvable":
                assert r.status in ("unsolvable", "unknown")
            elif r.reason.startswith("guided"):
                assert r.verified
                hits[engine] += 1
    assert hits["numba"] > 0 and hits["python"] > 0


def test_loading_the_kernels_is_not_counted_in_the_time_limit(monkeypatch):
    """solve() runs the method's prepare (the kernels' warm-up) before its clock starts."""
    import time as _time

    import mjsat.search.solver as solver_mod

    solver_mod.warm_up()  # the kernels loaded for real first: the stand-in below only sleeps
    board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
    for method in ("search", "auto"):  # the steps' modules imported (networkx for height2)
        solve(board, method)
    calls = []

    def slow_warm_up(*args, **kwargs):
        calls.append(1)
        _time.sleep(0.6)
        end = _time.process_time() + 0.3  # and CPU time, which the result's CPU seconds leave out too
        while _time.process_time() < end:
            pass

    monkeypatch.setattr(solver_mod, "warm_up", slow_warm_up)
    monkeypatch.setattr(solver_mod, "_PREPARED", set())
    for method in ("search", "auto"):
        result = solve(board, method, time_limit=0.3)
        assert result.status == "solvable", (method, result.status)
        assert result.seconds < 0.3
    # once per process and path: the method's (the phase kernels), which the plan's budgeted
    # step takes too under this limit (too short for the one-call path)
    assert calls == [1]
    assert solve(board, "auto", time_limit=0.3).stats["seconds_prepare"] < 0.1
    result = solve(board, "auto", time_limit=2.0)  # the one-call path: prepared off the clock
    assert calls == [1, 1] and result.stats["seconds_prepare"] >= 0.6 and result.seconds < 0.3
    assert result.stats["cpu_seconds_prepare"] >= 0.3 and result.cpu_seconds < 0.3


def test_a_call_loads_only_the_kernels_of_its_game_and_path():
    """`mjsat solve` of a turtle deal with a warm cache loads the one-call kernel and no other
    (a fresh process: no kernel of another game, no phase kernel, nothing of de Bondt's)."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from mjsat.cli import main\n"
        "try:\n"
        "    main(['solve', '--layout', 'turtle', '--seed', '7'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "from numba.core.registry import CPUDispatcher\n"
        "print(sorted(f'{m}.{k}' for m, mod in list(sys.modules.items()) if m.startswith('mjsat.search')"
        " for k, v in vars(mod).items() if isinstance(v, CPUDispatcher) and v.signatures))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.startswith("solvable")
    assert out.splitlines()[-1] == "['mjsat.search.kernels_batch._solve_chunk']"


@pytest.mark.slow
def test_a_cold_kernel_cache_does_not_eat_the_time_limit(tmp_path):
    """With an empty numba cache, `mjsat solve --time-limit 1` compiles first (and says so),
    then decides a turtle deal within the limit."""
    import os
    import subprocess
    import sys

    board = tmp_path / "t5.json"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    mjsat = [sys.executable, "-m", "mjsat.cli"]
    subprocess.run([*mjsat, "deal", "--layout", "turtle", "--seed", "5", "-o", str(board)], check=True, env=env)
    out = subprocess.run(
        [*mjsat, "solve", str(board), "--method", "search", "--time-limit", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("solvable"), out.stdout
    assert "compiling the numba kernels" in out.stderr


def _prior_by_masks(board):
    """The prior analysis group by group with bit masks (the reference of prior_conflict)."""
    from mjsat.search.pairing import pairings
    from mjsat.search.prior import _pairing_ok

    geo = geometry(board)
    desc = board.layout.descendants
    for g, tiles in enumerate(geo.members):
        mask = sum(1 << t for t in tiles)
        if len(tiles) <= 8 and any(desc[t] & mask for t in tiles):
            if not any(_pairing_ok(tiles, p, desc) for p in pairings(len(tiles))):
                return g
    return None


def test_prior_conflict_agrees_with_the_group_by_group_masks():
    from mjsat.deals import deal_random
    from mjsat.generate import random_small_board
    from mjsat.layouts import load_layout

    rng = np.random.default_rng(8)
    found = 0
    cases = [random_small_board(rng, max_tiles=14, max_levels=4, group_sizes=(2, 4, 6)) for _ in range(400)]
    turtle = load_layout("turtle")
    cases += [deal_random(turtle, seed=s) for s in range(300)]
    for board in cases:
        got = prior_conflict(board)
        assert got == _prior_by_masks(board), board
        found += got is not None
    assert found >= 5


@pytest.mark.parametrize("engine", ["numba", "python"])
def test_a_search_run_continues_where_its_time_limit_stopped_it(engine):
    """``SearchRun.advance`` after an ``unknown`` at the time limit goes on from the same
    playout or node: cut into slices shorter than a chunk, the run ends with the answer
    and the node count of one uninterrupted run (numba); the Python engine restarts its
    recursive search but keeps its playouts."""
    from mjsat.layouts import load_layout

    board = deal_random(load_layout("turtle"), seed=139)
    options = {"attempts": 0, "guided": 0} if engine == "numba" else {"attempts": 3, "guided": 0}
    if engine == "python":
        board = boards(34, 1)[0]
    whole = solve_search(board, engine=engine, **options)
    run = SearchRun(board, engine=engine, **options)
    results = [run.advance(1e-9)]
    while results[-1].status == "unknown" and len(results) < 10_000:
        assert results[-1].reason == "time limit"
        results.append(run.advance(1e-9 if engine == "numba" else None))
    final = results[-1]
    assert final.status == whole.status
    if final.status == "solvable":
        check_solution(board, final.moves)
    if engine == "numba":
        assert len(results) > whole.stats["nodes"] // 200
        assert final.stats["nodes"] == whole.stats["nodes"]
    assert run.advance(5.0) is final  # decided: the same answer again


def _one_layout_deals(game: str, count: int) -> tuple[Layout, list[list[int]]]:
    """A layout of ``game`` and ``count`` shuffles of one multiset of groups on it."""
    if game == "shisen-sho":
        positions = [(2 * r, 2 * c, 0) for r in range(4) for c in range(5)]
    else:  # a 4 x 4 level with a 2 x 2 level on it, offset by half a tile
        positions = [(2 * r, 2 * c, 0) for r in range(4) for c in range(4)]
        positions += [(2 * r + 1, 2 * c + 1, 1) for r in range(2) for c in range(2)]
    rng = np.random.default_rng(7)
    base = [g for g in range(3) for _ in range(4)] + [g for g in range(3, 7) for _ in range(2)]
    return Layout(positions), [list(rng.permutation(base)) for _ in range(count)]


def _summary(res):
    return res.status, res.moves, {k: res.stats.get(k) for k in ("nodes", "scans", "attempts", "guided")}


@pytest.mark.parametrize("game", ["mahjong", "shisen-sho", "shisen-sho-3d"])
def test_runs_take_wiped_scratch_arrays_from_earlier_runs(game, monkeypatch):
    """Runs of one size take the scratch arrays earlier runs gave back (restarted first,
    every slot but the carried ones filled with garbage here): every deal gets the answer,
    moves and counts of a run on new arrays, also when several runs are alive at once and
    advance in turns."""
    from mjsat.board import find_variant
    from mjsat.search import drivers, kernels as K
    from mjsat.search.scratch import ScratchPool

    variant = find_variant(game)
    layout, deals = _one_layout_deals(game, 40)
    runs = (
        {},
        {"attempts": 0, "guided": 0},
        {"attempts": 0, "guided": 0, "bondt": True},
        {"freeze_pair": True, "loose_pair": True},
        {"attempts": 0, "guided": 0, "joint": True, "critical": False},
    )
    monkeypatch.setattr(drivers, "SCRATCH", ScratchPool(depth=0))  # new arrays every run
    alone = [[solve_search(variant(layout, groups), **options) for groups in deals] for options in runs]
    assert not len(drivers.SCRATCH)
    pool = ScratchPool()
    monkeypatch.setattr(drivers, "SCRATCH", pool)
    restart = K.restart

    def garbage_then_restart(ws):  # the kernels write every other slot before they read it
        for array in ws:
            array.view(np.uint8).fill(0xA5)
        restart(ws)

    monkeypatch.setattr(K, "restart", garbage_then_restart)
    for options, expected in zip(runs, alone):
        for groups, want in zip(deals, expected):
            got = solve_search(variant(layout, groups), **options)
            assert _summary(got) == _summary(want), (options, groups)
    assert {r.status for rs in alone for r in rs} == {"solvable", "unsolvable"}
    assert len(pool) == 1  # one size: each run took back the scratch the one before gave back

    turns = [SearchRun(variant(layout, groups), attempts=0, guided=0) for groups in deals[:6]]
    results = [run.advance(1e-9) for run in turns]
    for _ in range(10_000):
        if all(r.status != "unknown" for r in results):
            break
        results = [run.advance(1e-9) for run in turns]
    for res, want in zip(results, alone[1][:6]):
        assert _summary(res) == _summary(want)


def test_the_scratch_pool_keeps_few_of_a_size_and_few_bytes():
    from mjsat.search import kernels as K
    from mjsat.search.scratch import ScratchPool

    sizes = [(8, 2, 1, words) for words in (0, 1, 2)]  # three sizes (the bitsets grow)
    nbytes = [ScratchPool().take(K, key).nbytes for key in sizes]
    pool = ScratchPool(depth=2, max_bytes=2 * nbytes[0] + nbytes[1])
    taken = [pool.take(K, key) for key in (sizes[0], sizes[0], sizes[0], sizes[1], sizes[2])]
    for scratch in taken[:4]:
        pool.give_back(scratch)
    assert len(pool) == 3 and pool.nbytes == 2 * nbytes[0] + nbytes[1]  # two of the first size: depth 2
    pool.give_back(taken[4])  # over the bound: the size used longest ago goes
    assert len(pool) == 2 and pool.nbytes == nbytes[1] + nbytes[2]
    assert pool.take(K, sizes[2]) is taken[4]
    assert pool.take(K, sizes[0]) not in taken
    big = pool.take(K, (200, 2, 1, 0))  # 200 * 200 / 2 ints of legal moves: more than the bound
    pool.give_back(big)
    assert pool.take(K, (200, 2, 1, 0)) is not big


@pytest.mark.parametrize("game", ["mahjong", "mahjong-transposed"])
def test_one_call_path_answers_as_the_run(game):
    """Under a node limit of at most CHUNK_NODES ``solve_search`` decides a Mahjong deal in
    one compiled call: the same status, moves, reason and counts as the phase-by-phase run
    (``SearchRun``), on random small boards and on turtle deals, for several budgets,
    seeds and playout policies; every phase decides some deal."""
    from mjsat.layouts import load_layout
    from mjsat.search.solver import CHUNK_NODES

    rng = np.random.default_rng(61)
    boards = [random_small_board(rng, game=game, max_tiles=20, group_sizes=(2, 4, 6)) for _ in range(40)]
    boards += [deal_random(load_layout("turtle"), seed=s, game=game) for s in range(6)]
    reasons, statuses = set(), set()
    for i, board in enumerate(boards):
        for node_limit, playout in ((0, None), (3, "rows"), (CHUNK_NODES, None)):
            kw = {"seed": i, "node_limit": node_limit, "playout": playout}
            got = solve_search(board, **kw)
            want = SearchRun(board, **kw).advance(None)
            assert got.stats.get("seconds_prior") is None  # the one-call path ran
            assert (got.status, got.moves, got.reason) == (want.status, want.moves, want.reason), repr(board)
            for key in ("nodes", "scans", "attempts", "guided"):
                assert got.stats[key] == want.stats[key], (key, repr(board))
            reasons.add(got.reason.split(" ")[0] if got.reason else got.status)
            statuses.add(got.status)
    assert {"random", "guided", "solvable", "node"} <= reasons
    assert statuses == {"solvable", "unsolvable", "unknown"}


def test_one_call_path_leaves_big_groups_boards_and_short_limits_to_the_run():
    """A group of ten tiles (more than the kernels branch on), a board of more than
    ONE_CALL_MAX_TILES tiles and a time limit below ONE_CALL_MIN_SECONDS go through the run:
    the first raises as the run does, the others keep the run's times."""
    from mjsat.search.kernels import GroupTooLargeError
    from mjsat.search.solver import ONE_CALL_MAX_TILES, ONE_CALL_MIN_SECONDS

    half = list(range(ONE_CALL_MAX_TILES // 2 + 1))
    long = MahjongBoard(Layout([(0, 2 * c, 0) for c in range(2 * len(half))]), half + half[::-1])  # nested pairs
    r = solve_search(long, node_limit=5)
    assert r.status == "solvable" and "seconds_prior" in r.stats

    board = MahjongBoard(Layout([(0, 2 * c, 0) for c in range(10)]), [0] * 10)
    with pytest.raises(GroupTooLargeError):
        solve_search(board, node_limit=5)
    small = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
    r = solve_search(small, node_limit=5, time_limit=ONE_CALL_MIN_SECONDS / 2)
    assert r.status == "solvable" and "seconds_prior" in r.stats


def _phases_answer(board, seed, **options):
    """The ``phases`` driver's answer on ``board`` (its generator run to the end, no clock)."""
    from mjsat.search.drivers import BY_NAME, Clock
    from mjsat.search.options import SearchOptions

    opts = SearchOptions.of(**options)
    geo = geometry(board)
    plan = opts.resolve(geo)
    stats = {"engine": "numba", "driver": "phases", "nodes": 0, "scans": 0, "attempts": 0, "guided": 0}
    run = BY_NAME["phases"].run(geo, opts, plan.rules, (plan.attempts, plan.guided), seed, Clock(), stats)
    while True:
        try:
            next(run)
        except StopIteration as stop:
            return stop.value


def test_small_driver_answers_as_the_phases():
    """A Shisen-Sho board of at most SMALL_MAX_TILES tiles is decided in one compiled call
    (``stats["driver"] == "small"``), by ``solve_search`` and by a run's first slice: the same
    status, moves, reason and counts as the phases driver, for several options and seeds;
    every phase decides some board."""
    from mjsat.search.drivers import SMALL_MAX_TILES

    rng = np.random.default_rng(43)
    boards = [random_grid_board(rng, max_width=8, max_height=8, max_tiles=SMALL_MAX_TILES) for _ in range(120)]
    reasons = set()
    for i, board in enumerate(boards):
        for kw in ({}, {"attempts": 0}, {"attempts": 0, "guided": 2}, {"scan": False}, {"node_limit": 3}):
            want = _phases_answer(board, i, **kw)
            for got in (solve_search(board, seed=i, **kw), SearchRun(board, seed=i, **kw).advance(1.0)):
                if got.stats["driver"] != "small":  # left undecided at the node budget: the phases ran
                    assert got.status == "unknown" or got.stats["nodes"] > 0, repr(board)
                assert (got.status, got.moves, got.reason) == (want.status, want.moves, want.reason), repr(board)
                for key in ("nodes", "scans", "attempts", "guided"):
                    assert got.stats[key] == want.stats[key], (key, kw, repr(board))
            reasons.add(got.reason.split(" ")[0] if got.reason else got.status)
    assert {"random", "guided", "pruning", "solvable", "unsolvable", "node"} <= reasons, reasons


def test_small_driver_leaves_big_boards_short_limits_and_other_options_to_the_phases():
    """More than SMALL_MAX_TILES tiles, a time limit below ONE_CALL_MIN_SECONDS, presearch,
    bondt, the bits pair test, the Python engine and other games take another driver."""
    from mjsat.search.drivers import ONE_CALL_MIN_SECONDS, SMALL_MAX_TILES, choose_driver
    from mjsat.search.options import SearchOptions
    from mjsat.search.pairing import MAHJONG, SH3D, SHISEN

    o = SearchOptions()
    assert choose_driver(o, SHISEN, SMALL_MAX_TILES) == "small"
    assert choose_driver(o, SHISEN, SMALL_MAX_TILES + 2) == "phases"
    assert choose_driver(o, SHISEN, 8, ONE_CALL_MIN_SECONDS / 2) == "phases"
    for other in (SearchOptions(presearch=4), SearchOptions(pair_test="bits")):
        assert choose_driver(other, SHISEN, 8) == "phases"
    assert choose_driver(SearchOptions(bondt=True), SHISEN, 8) == "bondt"
    assert choose_driver(SearchOptions(engine="python"), SHISEN, 8) == "python"
    assert choose_driver(o, SH3D, 8) == "phases" and choose_driver(o, MAHJONG, 8) == "phases"
    board = random_grid_board(np.random.default_rng(5), max_width=12, max_height=12, max_tiles=100)
    assert len(board) > SMALL_MAX_TILES and solve_search(board).stats["driver"] == "phases"
