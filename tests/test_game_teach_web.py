"""The lessons of the game page in a real browser (Debian's chromium through Playwright):
the guided play of a formula's board, a falsifying assignment, free play read back into
an assignment, every assignment of an unsatisfiable formula, and a height-two board's
blocked cycles."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from game_page import click_pair, open_page, tiles_shown

from mjsat.deals import deal_solvable
from mjsat.game.engine import Game
from mjsat.game.teach import FormulaLesson
from mjsat.game.teach_web import lesson_game
from mjsat.game.web import GameSettings, ServerThread, Session
from mjsat.layouts import load_layout
from mjsat.search.height2 import blocked_cycles

INSTANCES = Path(__file__).resolve().parents[1] / "instances"


def _lesson_session(worker, name, target="stacks"):
    lesson = FormulaLesson.from_file(str(INSTANCES / name), target)
    return Session(lesson_game(lesson), GameSettings(), worker=worker, lesson=lesson), lesson


def _step(page):
    return int(page.get_attribute("#step-count", "data-step"))


def _wait_play(page):
    page.wait_for_selector("#step-count[data-total]")
    return int(page.get_attribute("#step-count", "data-total"))


def test_step_the_witness_of_three_vars_to_the_cleared_board(browser, worker):
    session, lesson = _lesson_session(worker, "three-vars.cnf")
    with ServerThread(session) as url:
        page = open_page(browser, url)
        total = _wait_play(page)
        # the formula, its clauses and a switch per variable; the switches hold a model
        assert page.locator("#clauses li").count() == 3 and page.locator("#switches input.switch").count() == 3
        values = [page.is_checked(f'#switches input[data-var="{v}"]') for v in (1, 2, 3)]
        play = lesson.guided(values)
        assert total == len(play["moves"]) == 120 and tiles_shown(page) == 240
        n = len(lesson.board)
        look = """() => ({
            next: [...document.querySelectorAll('#board .tile.next')].map(g => +g.dataset.tile).sort((a, b) => a - b),
            text: document.getElementById('step-text').textContent,
            step: +document.getElementById('step-count').dataset.step,
            shown: document.querySelectorAll('#board .tile:not(.gone)').length,
            satisfied: document.querySelectorAll('#clauses li.satisfied').length,
            bar: {...document.getElementById('lesson-bar').dataset},
            barText: document.getElementById('lesson-bar').textContent,
        })"""
        assignment = " ".join(str(v if x else -v) for v, x in zip((1, 2, 3), values))
        lemmas = lesson.describe()["lemmas"]
        for k, move in enumerate(play["moves"]):
            now = page.evaluate(look)
            assert now["step"] == k and now["shown"] == n - 2 * k
            # the move to come is highlighted and explained: gadget, what happens, why legal, lemma
            step = play["steps"][k]
            assert now["next"] == sorted(move)
            assert f"Move {k + 1}: two {step['group']} tiles" in now["text"] and step["gadgets"][0] in now["text"]
            assert f"(tiles {move[0]} and {move[1]})" in now["text"]
            # the lesson's bar says where the guided play is
            assert now["bar"] == {
                "mode": "guided",
                "step": str(k),
                "total": "120",
                "assignment": assignment,
                "result": "playing",
            }
            assert f"step {k} of 120" in now["barText"] and "three-vars.cnf" in now["barText"]
            assert lemmas[step["lemma"]]["title"] in now["text"] and "Legal now" in now["text"]
            # a clause is ticked once one of its C tiles is freed
            assert now["satisfied"] == sum(
                c["satisfied_at"] is not None and c["satisfied_at"] <= k for c in play["clauses"]
            )
            if k == 8:  # back and forth, with the buttons and with the keys
                page.click("#step-back")
                assert _step(page) == k - 1
                page.click("#step-next")
                page.keyboard.press("ArrowLeft")
                assert _step(page) == k - 1 and page.get_attribute("#lesson-bar", "data-step") == str(k - 1)
                page.keyboard.press("ArrowRight")
                assert _step(page) == k
            page.click("#step-next")
        assert play["first_sat"] and all(c["satisfied_at"] < play["first_sat"] for c in play["clauses"])
        assert tiles_shown(page) == 0 and page.locator("#step-next").is_disabled()
        assert "The board is clear: 120 moves" in page.text_content("#step-end-text")
        assert page.get_attribute("#lesson-bar", "data-result") == "cleared" and "cleared" in page.text_content(
            "#lesson-bar"
        )
        # the game's own bar and deal controls are not shown in a lesson
        for sel in ("#status", "#new", "#difficulty", "#layout", "#shuffle"):
            assert not page.is_visible(sel), sel
        page.keyboard.press("Home")
        assert _step(page) == 0
        page.keyboard.press("End")
        assert _step(page) == 120
        page.click("#step-first")
        assert _step(page) == 0 and tiles_shown(page) == 240 and page.locator("#clauses li.satisfied").count() == 0
        # the legend, and the proof in brief: each line links to the moves that use its step
        assert page.text_content("#legend summary") == "Legend" and "a column" in page.text_content("#legend")
        uses = [i for i, m in enumerate(play["steps"]) if m["lemma"] == "clauses"]
        link = page.locator("#legend a.steps[data-lemma='clauses']")
        assert link.get_attribute("data-moves") == " ".join(str(i + 1) for i in uses)
        link.click()
        assert _step(page) == next(i for i in uses if i > 0) and "Clauses" in page.text_content("#step-text")
        page.click("#step-first")
        page.click("#step-end")
        assert _step(page) == 120 and tiles_shown(page) == 0
        page.close()


def test_a_falsifying_assignment_gets_stuck_and_the_page_names_the_clause(browser, worker):
    session, lesson = _lesson_session(worker, "three-vars.cnf")
    with ServerThread(session) as url:
        page = open_page(browser, url)
        _wait_play(page)
        for v, on in ((1, True), (2, False), (3, False)):  # falsifies (-V1 v V2): C2
            page.set_checked(f'#switches input[data-var="{v}"]', on)
        page.wait_for_selector("#step-count[data-play='1 -2 -3']")
        page.click("#step-end")
        stuck = lesson.guided([True, False, False])["stuck"]
        (c,) = stuck["clauses"]
        assert page.locator("#clauses li.falsified").count() == 1
        assert page.get_attribute("#clauses li.falsified", "data-clause") == "C2"
        end = page.text_content("#step-end-text")
        assert "Stuck after" in end and "falsifies C2 = (¬V1 ∨ V2 ∨ V2)" in end
        assert f"The x-chain C2 (tile {c['x_chain_tile']}) is free but has no partner" in end
        # the clause's x-chain tile waits, its literal tiles are locked
        assert page.get_attribute("#board .tile.waiting", "data-tile") == str(c["x_chain_tile"])
        locked = sorted(
            int(t) for t in page.eval_on_selector_all("#board .tile.locked", "gs => gs.map(g => g.dataset.tile)")
        )
        assert locked == sorted(l["tile"] for l in c["literals"])
        page.close()


def _random_play_to_first_sat(lesson, seed):
    """Random legal pairs on the lesson's board until its first SAT pair (or until stuck)."""
    rng = np.random.default_rng(seed)
    board, moves = lesson.board.copy(stack=False), []
    while lesson.free_play(moves) is None:
        free = [t for t in board.present_tiles() if board.is_free(t)]
        pairs = [(a, b) for i, a in enumerate(free) for b in free[i + 1 :] if board.groups[a] == board.groups[b]]
        if not pairs:
            return moves
        move = tuple(int(t) for t in pairs[rng.integers(len(pairs))])
        board.play(move)
        moves.append(move)
    return moves


def test_a_free_play_that_broke_a_chain_rule_is_lost_whatever_the_formula(browser, worker):
    session, lesson = _lesson_session(worker, "three-vars.cnf")
    moves = _random_play_to_first_sat(lesson, seed=0)
    free = lesson.free_play(moves)
    assert free["broken"] and free["lost"]  # both heads of some variable went before the first SAT pair
    with ServerThread(session) as url:
        page = open_page(browser, url)
        _wait_play(page)
        page.evaluate("moves => position(moves)", [list(m) for m in moves])
        page.wait_for_selector("#free-text[data-lost='1']")
        text = page.text_content("#free-verdict")
        v = free["broken"][0]
        assert f"both heads of {v}'s" in text and "the board is lost, whatever the formula" in text
        assert "satisfies" not in text
        bar = page.text_content("#lesson-bar")
        assert "the board is lost, whatever the formula" in bar and f"{len(moves)} moves" in bar
        # leaving the lesson gives the page back to the game
        assert not page.is_visible("#status") and not page.is_visible("#new")
        page.click("#teach-close")
        page.wait_for_selector("#status", state="visible")
        assert page.is_visible("#new") and page.is_visible("#difficulty") and not page.is_visible("#lesson-bar")
        assert page.is_hidden("#teach") and session.lesson is None
        page.close()


@pytest.mark.slow
def test_the_shisen_sho_image_fits_and_the_stuck_view_shows_its_tiles_together(browser, worker):
    session, lesson = _lesson_session(worker, "three-vars.cnf", "shisen-sho")
    inside = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1; }"""
    with ServerThread(session) as url:
        page = open_page(browser, url)
        _wait_play(page)
        assert page.is_visible("#legend") and page.text_content("#legend summary") == "Legend"
        assert "3x3 block" in page.text_content("#legend") and "supertile" in page.text_content("#legend")
        assert page.get_attribute("#board", "data-fit") == "width"  # fit to width by default
        page.click("#zoom-in")
        page.click("#zoom-in")
        assert page.get_attribute("#board", "data-fit") == "" and not page.evaluate(inside, "#board svg")
        page.click("#zoom-fit")
        assert page.get_attribute("#board", "data-fit") == "whole" and page.evaluate(inside, "#board svg")
        page.mouse.move(300, 400)
        for v, on in ((1, True), (2, False), (3, False)):  # falsifies (¬V1 ∨ V2): C2
            page.set_checked(f'#switches input[data-var="{v}"]', on)
        page.wait_for_selector("#step-count[data-play='1 -2 -3']")
        page.click("#zoom-in")  # zoomed in: the stuck view zooms out as far as it must
        page.click("#zoom-in")
        page.keyboard.press("End")
        page.wait_for_selector("#board .tile.waiting")
        assert page.get_attribute("#lesson-bar", "data-result") == "stuck" and "C2 falsified" in page.text_content(
            "#lesson-bar"
        )
        box = page.evaluate(
            "() => { const r = document.getElementById('board').getBoundingClientRect(); return [r.left, r.top, r.right, Math.min(r.bottom, innerHeight)]; }"
        )
        for sel in ("#board .tile.waiting rect.face", "#board .tile.locked rect.face"):
            for r in page.eval_on_selector_all(
                sel,
                "fs => fs.map(f => { const r = f.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })",
            ):
                assert box[0] - 1 <= r[0] and r[2] <= box[2] + 1 and box[1] - 1 <= r[1] and r[3] <= box[3] + 1, (
                    sel,
                    r,
                    box,
                )
        assert int(page.get_attribute("#overview", "data-marked")) >= 4  # the waiting tile and its locked ones
        page.close()


def test_free_play_a_typed_formula_by_clicking_and_see_the_lifted_assignment(browser, worker):
    board, _ = deal_solvable(load_layout("tiny"), seed=1)
    session = Session(Game(board), GameSettings(layout="tiny"), worker=worker)
    with ServerThread(session) as url:
        page = open_page(browser, url)
        page.click("#teach-open")
        page.fill("#formula-text", "(x1 | -x2) & (x2 | x3 | ")
        page.click("#formula-build")
        page.wait_for_function("document.getElementById('formula-error').textContent.includes('position')")
        assert "position 24: expected a literal" in page.text_content("#formula-error")
        page.fill("#formula-text", "(x1 | -x2) & (x2 | x3)")
        page.click("#formula-build")
        _wait_play(page)
        lesson = session.lesson
        assert len(lesson.board) == 24 + 36 * (3 + 2) and tiles_shown(page) == len(lesson.board)
        page.click("#mode-free")
        values = [False, False, True]
        play = lesson.guided(values)
        for a, b in play["moves"][: play["first_sat"]]:
            click_pair(page, a, b)
        page.wait_for_selector("#free-text[data-assignment='-1 -2 3']")
        text = page.text_content("#free-text")
        assert "V1 = false" in text and "V3 = true" in text and "This assignment satisfies the formula" in text
        assert session.game.moves == [tuple(m) for m in play["moves"][: play["first_sat"]]]
        page.close()


def test_try_every_assignment_of_an_unsatisfiable_formula(browser, worker):
    session, lesson = _lesson_session(worker, "all8-3vars.cnf")
    with ServerThread(session) as url:
        page = open_page(browser, url)
        _wait_play(page)
        assert "unsatisfiable" in page.text_content("#formula-info")
        page.click("#try-all")
        page.wait_for_selector("#try-all-box tr.assignment")
        rows = page.locator("#try-all-box tr.assignment")
        assert rows.count() == 8 and page.locator("#try-all-box tr.cleared").count() == 0
        page.wait_for_selector("#try-count[data-done='1']")
        assert "8 of 8 assignments tried: 0 clear the board, 8 get stuck." in page.text_content("#try-all-box")
        rows.nth(5).click()  # counting order, V1 the lowest bit: V1 = true, V2 = false, V3 = true
        page.wait_for_selector("#step-count[data-play='1 -2 3']")
        assert [page.is_checked(f'#switches input[data-var="{v}"]') for v in (1, 2, 3)] == [True, False, True]
        page.click("#step-end")
        page.wait_for_selector("#clauses li.falsified")
        falsified = page.get_attribute("#clauses li.falsified", "data-clause")
        assert falsified == lesson.guided([True, False, True])["stuck"]["falsified"][0]
        page.close()


TWENTY = " & ".join(f"(x{i} | -x{i + 1} | x{(i * 7) % 20 + 1})" for i in range(1, 20))


def test_try_assignments_of_twenty_variables_samples_with_progress(browser, worker):
    lesson = FormulaLesson.from_text(TWENTY)
    session = Session(lesson_game(lesson), GameSettings(), worker=worker, lesson=lesson)
    with ServerThread(session) as url:
        page = open_page(browser, url)
        _wait_play(page)
        assert page.text_content("#try-all") == "Try 1024 assignments"
        page.click("#try-all")
        page.wait_for_function("+document.getElementById('try-count')?.dataset.tried >= 32")  # while it runs
        assert page.text_content("#try-all") == "Cancel"
        assert int(page.get_attribute("#try-progress", "value")) >= 32
        page.click("#try-all")  # Cancel
        page.wait_for_selector("#try-count[data-done='1']")
        tried = int(page.get_attribute("#try-count", "data-tried"))
        assert 32 <= tried < 1024 and "(cancelled)" in page.text_content("#try-count")
        assert page.locator("#try-all-box tr.assignment").count() == tried
        # the model comes first, then its neighbours: some of them clear the board, each row one short line
        first = page.locator("#try-all-box tr.assignment").first
        assert "cleared" in first.get_attribute("class") and first.text_content().count("clears") == 1
        cleared = int(page.get_attribute("#try-count", "data-cleared"))
        assert cleared == page.locator("#try-all-box tr.cleared").count() >= 1
        rows = lesson.try_all(count=tried)["rows"]
        assert cleared == sum(r["cleared"] for r in rows)
        page.close()


def test_the_blocked_cycle_of_a_planted_height_two_board(browser, worker):
    board, _ = deal_solvable(load_layout("tiny"), seed=1)
    session = Session(Game(board), GameSettings(layout="tiny"), worker=worker)
    with ServerThread(session) as url:
        page = open_page(browser, url)
        page.click("#teach-open")
        page.click("#tab-height2")
        page.click("#h2-current")  # the tiny turtle is not made of stacks of height two
        page.wait_for_function("document.getElementById('h2-error').textContent.length > 0")
        assert "no height-two lesson" in page.text_content("#h2-error")
        page.fill("#h2-seed", "3")
        page.fill("#h2-tiles", "14")
        page.click("#h2-planted")
        page.wait_for_selector("#h2-cycles li")
        planted = session.lesson.board
        cycles = list(blocked_cycles(planted))
        assert page.locator("#h2-cycles li").count() == len(cycles) >= 1
        tiles = sorted(t for c in cycles for t in planted.present_tiles() if planted.groups[t] in c)
        shown = sorted(
            int(t) for t in page.eval_on_selector_all("#board .tile.cycle", "gs => gs.map(g => g.dataset.tile)")
        )
        assert shown == tiles and page.locator("#board .cycle-link").count() == len(tiles) // 2
        assert "cannot be cleared" in page.text_content("#h2-verdict")
        # drawn to fill the pane's width, with its own legend and the board's seed in the Seed box
        assert float(page.get_attribute("#board", "data-zoom")) > 1.5
        assert "blocked cycle" in page.text_content("#legend") and "Theorem 5" in page.text_content("#legend")
        assert page.input_value("#h2-seed") == "3"
        page.wait_for_selector("#lesson-bar[data-result='lost']")  # the game's check agrees
        # a board without a blocked cycle: Theorem 7's play clears it, move by move
        page.click("#h2-random")
        page.wait_for_selector("#h2-verdict.ok")
        assert page.input_value("#h2-seed") == str(session.lesson.board.meta["seed"])
        page.select_option("#h2-strategy", "theorem7")
        page.click("#h2-play")
        page.wait_for_selector("#stepper:not([hidden]) #step-count[data-step='0']")
        total = _wait_play(page)
        assert total == len(session.lesson.board) // 2 and page.locator("#board .cycle-link").count() == 0
        page.click("#step-end")
        assert tiles_shown(page) == 0 and "The board is clear" in page.text_content("#step-end-text")
        page.close()
