"""The lesson path: from the lobby through the lessons in order, each ending in its puzzles;
done marks kept in the browser; the same path in Japanese on a phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from rummykit.protocol.lessons import LESSONS
from table_client import LiveServer

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

PHONE = {"width": 390, "height": 844}


def test_the_lessons_go_in_order_each_to_its_puzzles_and_remember_what_is_done(
    page: Any, live_server: LiveServer
) -> None:
    page.goto(live_server.url + "/")
    page.get_by_test_id("lessons-link").click()
    items = page.get_by_test_id("lesson-item")
    expect(items).to_have_count(len(LESSONS))  # rendered: the order can be read
    assert items.evaluate_all("els => els.map(e => e.dataset.lesson)") == [
        lesson.id for lesson in LESSONS
    ]
    items.first.get_by_role("link").click()
    for number, lesson in enumerate(LESSONS, 1):
        shown = page.get_by_test_id("lesson")
        expect(shown).to_have_attribute("data-lesson", lesson.id)
        expect(shown).to_contain_text(f"Lesson {number}")
        expect(page.get_by_test_id("lesson-example")).to_have_count(len(lesson.examples))
        practise = page.get_by_test_id("lesson-practise")
        expect(practise).to_have_attribute("href", f"#/puzzles?theme={lesson.theme}")
        if number == 1:
            page.get_by_test_id("lesson-mark-done").click()
            expect(page.get_by_test_id("lesson-mark-done")).to_be_disabled()
        if number < len(LESSONS):
            page.get_by_test_id("lesson-next").focus()
            page.keyboard.press("Enter")  # the path can be walked by keyboard
        else:
            expect(page.get_by_test_id("lesson-last")).to_be_visible()
    page.get_by_test_id("lesson-all").click()
    expect(page.get_by_test_id("lesson-done")).to_have_count(1)
    done = page.locator("[data-testid=lesson-item]:has([data-testid=lesson-done])")
    assert done.evaluate_all("els => els.map(e => e.dataset.lesson)") == [LESSONS[0].id]
    page.reload()  # kept in this browser
    expect(page.get_by_test_id("lesson-done")).to_have_count(1)


def test_an_unknown_lesson_says_so(page: Any, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/#/lessons/no-such-lesson")
    expect(page.get_by_test_id("lesson-missing")).to_be_visible()


def test_the_lessons_read_in_japanese_on_a_phone(browser: Any, live_server: LiveServer) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        page.locator("#lang").select_option("ja")
        page.goto(live_server.url + f"/#/lessons/{LESSONS[0].id}")
        expect(page.get_by_role("heading", level=1)).to_have_text("セットとラン")
        expect(page.get_by_test_id("lesson-practise")).to_have_text("練習：このテーマの問題")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"a lesson scrolls sideways: {width} px"
    finally:
        context.close()


def test_a_lesson_ends_in_puzzles_of_its_theme(page: Any, live_server: LiveServer) -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.theme == "draw")
    page.goto(live_server.url + f"/#/lessons/{lesson.id}")
    page.get_by_test_id("lesson-practise").click()
    expect(page.get_by_test_id("puzzle-theme")).to_have_value(str(lesson.theme))
    expect(page.locator("body")).to_have_attribute("data-page", "puzzles")
