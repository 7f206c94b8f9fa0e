"""The lessons' one description: in order, each with a puzzle theme, real melds, and its
words in every language the page speaks (both directions: no lesson without words, no words
without a lesson)."""

from __future__ import annotations

import re
from pathlib import Path

from rummykit.core.cards import parse_cards
from rummykit.core.melds import arrange_meld
from rummykit.core.presets import find_preset
from rummykit.protocol.lessons import LESSONS
from rummykit.protocol.vocabularies import Theme
from rummykit.protocol.web_facts import facts

I18N = Path(__file__).resolve().parents[2] / "src" / "rummykit" / "web" / "i18n"
LANGUAGES = ("en", "ja")


def _keys(language: str) -> set[str]:
    text = (I18N / language / "lessons.js").read_text(encoding="utf-8")
    return set(re.findall(r'^\s*"(lessons\.[^"]+)":', text, flags=re.MULTILINE))


def test_the_lessons_have_unique_ids_and_puzzle_themes() -> None:
    ids = [lesson.id for lesson in LESSONS]
    assert len(ids) == len(set(ids))
    assert all(isinstance(lesson.theme, Theme) for lesson in LESSONS)
    # every theme is practised somewhere on the path
    assert {lesson.theme for lesson in LESSONS} == set(Theme)


def test_every_example_is_a_meld_under_the_standard_rules() -> None:
    rules = find_preset("standard").rules
    for lesson in LESSONS:
        for meld in lesson.examples:
            cards = list(parse_cards(meld))
            laid = arrange_meld(cards, [], rules.aces)  # refuses anything that is not a meld
            assert sorted(laid.cards) == sorted(cards), (lesson.id, meld)


def test_each_lesson_has_its_words_in_every_language_and_no_words_lack_a_lesson() -> None:
    wanted = {
        f"lessons.{lesson.id}.{part}"
        for lesson in LESSONS
        for part in ["title", *(f"p{n}" for n in range(1, lesson.paragraphs + 1))]
    }
    for language in LANGUAGES:
        keys = _keys(language)
        per_lesson = {key for key in keys if key.count(".") == 2}
        assert per_lesson == wanted, language


def test_the_page_reads_the_lessons_from_the_generated_facts() -> None:
    assert facts()["LESSONS"] == [lesson.to_json() for lesson in LESSONS]
