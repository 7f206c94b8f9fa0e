"""Every refusal the account routes send is worded by the page in the player's language.

The routes refuse with a reason of ``rummykit.protocol.account_words.ACCOUNT_REFUSALS`` (its
English template generated into ``web/i18n/en/refusals.js``, the Japanese one by hand); the
page (``web/account_model.js``) words each from its reason, and a Node test checks that a
Japanese page says each in Japanese. Here: the reasons the routes can send are exactly those,
and their codes are the page's ``ACCOUNT_REFUSALS``.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import rummykit
from rummykit.protocol.account_words import ACCOUNT_REFUSALS
from rummykit.server.accounts import account_routes, password_strength

MODEL = Path(rummykit.__file__).parent / "web" / "account_model.js"


def _reasons_the_routes_send() -> set[str]:
    """Every reason named in the routes' sources (a string constant that is one)."""
    found = set()
    for module in (account_routes, password_strength):
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        found |= {
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value in ACCOUNT_REFUSALS
        }
    return found


def _codes_the_page_words() -> set[str]:
    found = re.search(
        r"export const ACCOUNT_REFUSALS = Object\.freeze\((\[.*?\])\);",
        MODEL.read_text(encoding="utf-8"),
        re.DOTALL,
    )
    assert found is not None, f"no ACCOUNT_REFUSALS in {MODEL}"
    words: list[str] = json.loads(re.sub(r",\s*\]", "]", found.group(1)))
    return set(words)


def test_the_routes_send_every_account_reason_and_no_other() -> None:
    assert _reasons_the_routes_send() == set(ACCOUNT_REFUSALS)


def test_the_page_knows_every_code_of_the_account_routes() -> None:
    sent = {code.value for code, _ in ACCOUNT_REFUSALS.values()}
    assert {"weak_password", "name_not_allowed", "name_looks_taken", "too_many_accounts"} <= sent
    assert sent == _codes_the_page_words()
