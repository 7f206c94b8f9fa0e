"""Every kind of text the server can send has words in every language's catalogue, and no more.

The server sends player text as a kind (a stable code) and params; the page words it from the
catalogues (``web/i18n/<language>/<area>.js``: English generated from Python by
``rummykit.web_catalogues``, the others written by hand). Walked from the code: the refusal
reasons (the rules', the table's, the party's, the accounts', a name's, the edge's answers),
the codes they belong to, the events and notices, the hints, the quick reactions and the
seats' positions. The other way: a catalogue entry of these areas is for something the server
can send.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest

import rummykit
from rummykit import web_catalogues
from rummykit.bots.hint_words import ADVICE, REASONS
from rummykit.core.error_words import ACTION_ERRORS, RULES_ERRORS
from rummykit.core.errors import RulesError
from rummykit.core.refusals import REFUSALS, ParamValue, placeholders
from rummykit.protocol import EVENTS
from rummykit.protocol.account_words import ACCOUNT_REFUSALS
from rummykit.protocol.answer_words import ANSWER_REFUSALS
from rummykit.protocol.messages import Position, Reaction
from rummykit.protocol.names import NAME_REFUSALS
from rummykit.protocol.party_words import PARTY_REFUSALS, detail_params, party_text
from rummykit.protocol.table_refusals import TABLE_REFUSALS
from rummykit.server.tables.table_words import NAMING_WORDS

SOURCES = Path(rummykit.__file__).parent
I18N = SOURCES / "web" / "i18n"
LANGUAGES = sorted(path.name for path in I18N.iterdir() if path.is_dir())
_KEY = re.compile(r'^\s*"([a-z_]+\.[\w.]+)":', re.MULTILINE)


def _keys(language: str, area: str) -> set[str]:
    """The keys of one area of a language's catalogue (read from its JS module)."""
    return set(_KEY.findall((I18N / language / f"{area}.js").read_text(encoding="utf-8")))


def _sent() -> dict[str, set[str]]:
    """Every catalogue key the server's kinds and codes call for, by area."""
    reasons = {
        **REFUSALS,
        **ACTION_ERRORS,
        **RULES_ERRORS,
        **TABLE_REFUSALS,
        **PARTY_REFUSALS,
        **ACCOUNT_REFUSALS,
        **NAME_REFUSALS,
        **ANSWER_REFUSALS,
    }
    return {
        "refusals": {f"refusals.{reason}" for reason in reasons},
        "events": {f"events.{kind}" for kind in EVENTS}
        | {f"events.position.{code}" for code in get_args(Position)}
        | {f"events.reaction.{code}" for code in get_args(Reaction)},
        "hints": {f"hints.{kind}" for kind in {*REASONS, *ADVICE}},
    }


PARAM_WORDS: dict[str, set[str]] = {
    "refusals": {"refusals.nothing"},
    "events": {f"events.{key}" for key in NAMING_WORDS},
}
"""Words a kind's params are shown with (an empty meld, "you"), not kinds of their own."""


def test_no_reason_is_two_things() -> None:
    reasons = [
        *REFUSALS,
        *ACTION_ERRORS,
        *RULES_ERRORS,
        *TABLE_REFUSALS,
        *PARTY_REFUSALS,
        *ACCOUNT_REFUSALS,
        *NAME_REFUSALS,
        *ANSWER_REFUSALS,
    ]
    assert len(reasons) == len(set(reasons))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_the_server_sends_is_worded_in_every_language(language: str) -> None:
    for area, wanted in _sent().items():
        missing = sorted(wanted - _keys(language, area))
        assert missing == [], f"{language}/{area}.js has no words for {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalogue_words_a_kind_the_server_cannot_send(language: str) -> None:
    for area, wanted in _sent().items():
        extra = sorted(_keys(language, area) - wanted - PARAM_WORDS.get(area, set()))
        assert extra == [], f"{language}/{area}.js words {extra}, which the server never sends"


@pytest.mark.parametrize("area", ["refusals", "events", "hints"])
def test_the_generator_writes_exactly_these_keys(area: str) -> None:
    # the English catalogue is generated: this walk and the generator agree on the keys
    assert set(web_catalogues.english(area)) == _sent()[area] | PARAM_WORDS.get(area, set())


def test_every_party_code_is_also_a_reason_of_its_own_name() -> None:
    # a join's 409 from an older server carries a code alone: the page words it by the reason
    # of the same name
    # (``stale`` is a socket's refusal only, of a version from the future: never a join's)
    # (a challenge's or an invitation's codes are never a join's: they came with their reasons)
    # (quick pairing's refusals come on its socket, with their reasons)
    answers_to_programs = {"bot_unavailable", "declined", "not_signed_in"}
    party_codes = {code.value for code, _ in PARTY_REFUSALS.values()} - {
        "bad_message",
        "stale",
        "try_again",
        "player_unavailable",  # a challenge's refusals come on the inbox, with their reasons
        *answers_to_programs,
    }
    assert party_codes <= set(PARTY_REFUSALS)


# ----- the party's refusals, as the sources raise them ---------------------------------------


SPREAD_PARAMS: dict[str, set[str]] = {
    "names_params": {"names", "count"},
    "wait_params": {"seconds", "count"},
    "detail_params": {"detail"},  # the rules' reason and its params, worded into {detail}
}
"""What each function spread into a ``PartyError`` as ``**params`` fills."""


def _party_errors() -> Iterator[tuple[str, str, set[str]]]:
    """Every ``PartyError("reason", ...)`` in the sources: where, reason, and the params it
    names (those of a ``**`` mapping by the function that makes it: ``SPREAD_PARAMS``)."""
    for path in sorted((SOURCES / "server").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "PartyError"):
                continue
            if not node.args or not isinstance(node.args[0], ast.Constant):
                continue
            named = {keyword.arg for keyword in node.keywords if keyword.arg is not None}
            for keyword in node.keywords:
                if keyword.arg is None:
                    assert isinstance(keyword.value, ast.Call), ast.unparse(keyword)
                    named |= SPREAD_PARAMS[getattr(keyword.value.func, "id", "")]
            yield f"{path.name}:{node.lineno}", str(node.args[0].value), named


def test_every_party_reason_is_raised_and_no_other() -> None:
    raised = {reason for _, reason, _ in _party_errors()}
    assert raised == set(PARTY_REFUSALS)


def test_every_party_refusal_names_the_params_its_template_needs() -> None:
    for where, reason, named in _party_errors():
        template = PARTY_REFUSALS[reason][1]
        wanted = placeholders(template) | (set() if isinstance(template, str) else {"count"})
        assert wanted <= named, f"{where}: {reason} needs {sorted(wanted)}, given {sorted(named)}"


def test_party_params_fill_every_language_with_nothing_left_over() -> None:
    params: dict[str, ParamValue] = {
        "names": ["Ada", "Bob"],
        "count": 2,
        "min": 2,
        "max": 8,
        "detail": "x",
        "seconds": 600,
        "sent": 9,
        "party": 3,
        "name": "robo",
        "seats": 4,
    }
    for reason in PARTY_REFUSALS:
        assert not re.search(r"[{}]", party_text(reason, params)), reason


def test_a_party_refusal_words_the_rules_own_reason_into_its_detail() -> None:
    error = RulesError("seats_two_decks", seats=7, min=2, max=6)
    params = detail_params(error)
    assert params == {"detail_reason": "seats_two_decks", "seats": 7, "min": 2, "max": 6}
    assert party_text("seats_refused", params) == (
        f"These rules cannot deal to this many seats: {error.message}"
    )
    # every reason of the rules is worded in every language, so the page can word {detail}
    for language in LANGUAGES:
        assert {f"refusals.{reason}" for reason in RULES_ERRORS} <= _keys(language, "refusals")
