"""The lessons of the game page in a real browser (Debian's chromium through Playwright):
the guided play of a formula's board, a falsifying assignment, free play read back into
an assignment, every assignment of an unsatisfiable formula, and a height-two board's
blocked cycles."""

from __future__ import annotations

from pathlib import Path

from game_page import click_pair, open_page, tiles_shown

from mjsat.deal import deal_solvable
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
        })"""
        lemmas = lesson.describe()["lemmas"]
        for k, move in enumerate(play["moves"]):
            now = page.evaluate(look)
            assert now["step"] == k and now["shown"] == n - 2 * k
            # the move to come is highlighted and explained: gadget, what happens, why legal, lemma
            step = play["steps"][k]
            assert now["next"] == sorted(move)
            assert f"Move {k + 1}: tiles {move[0]} and {move[1]}" in now["text"] and step["gadgets"][0] in now["text"]
            assert lemmas[step["lemma"]]["title"] in now["text"] and "Legal now" in now["text"]
            # a clause is ticked once one of its C tiles is freed
            assert now["satisfied"] == sum(
                c["satisfied_at"] is not None and c["satisfied_at"] <= k for c in play["clauses"]
            )
            if k == 8:  # back and forth
                page.click("#step-back")
                assert _step(page) == k - 1
                page.click("#step-next")
            page.click("#step-next")
        assert play["first_sat"] and all(c["satisfied_at"] < play["first_sat"] for c in play["clauses"])
        assert tiles_shown(page) == 0 and page.locator("#step-next").is_disabled()
        assert "The board is clear: 120 moves" in page.text_content("#step-end-text")
        page.click("#step-first")
        assert _step(page) == 0 and tiles_shown(page) == 240 and page.locator("#clauses li.satisfied").count() == 0
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
        assert "V1 = false" in text and "V3 = true" in text and "It satisfies the formula" in text
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
        assert "8 of 8 assignments: 0 clear the board, 8 get stuck" in page.text_content("#try-all-box")
        rows.nth(5).click()  # counting order, V1 the lowest bit: V1 = true, V2 = false, V3 = true
        page.wait_for_selector("#step-count[data-play='1 -2 3']")
        assert [page.is_checked(f'#switches input[data-var="{v}"]') for v in (1, 2, 3)] == [True, False, True]
        page.click("#step-end")
        page.wait_for_selector("#clauses li.falsified")
        falsified = page.get_attribute("#clauses li.falsified", "data-clause")
        assert falsified == lesson.guided([True, False, True])["stuck"]["falsified"][0]
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
        # a board without a blocked cycle: Theorem 7's play clears it, move by move
        page.click("#h2-random")
        page.wait_for_selector("#h2-verdict.ok")
        page.select_option("#h2-strategy", "theorem7")
        page.click("#h2-play")
        page.wait_for_selector("#stepper:not([hidden]) #step-count[data-step='0']")
        total = _wait_play(page)
        assert total == len(session.lesson.board) // 2 and page.locator("#board .cycle-link").count() == 0
        page.click("#step-end")
        assert tiles_shown(page) == 0 and "The board is clear" in page.text_content("#step-end-text")
        page.close()
