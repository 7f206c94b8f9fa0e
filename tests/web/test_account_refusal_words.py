"""Every refusal the account routes send is worded by the page in the player's language.

The page (``web/account_model.js``) words each code of ``ACCOUNT_REFUSALS`` from its own
catalogue (``web/i18n/<language>/account.js``), and a Node test checks that a Japanese page
says each in Japanese. Here: the codes the server's account routes can answer with are those.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import rummykit
from rummykit.core.errors import ErrorCode
from rummykit.server.accounts import account_routes

MODEL = Path(rummykit.__file__).parent / "web" / "account_model.js"


def _codes_the_routes_send() -> set[str]:
    tree = ast.parse(Path(account_routes.__file__).read_text(encoding="utf-8"))
    return {
        ErrorCode[node.attr].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "ErrorCode"
    }


def _codes_the_page_words() -> set[str]:
    found = re.search(
        r"export const ACCOUNT_REFUSALS = Object\.freeze\((\[.*?\])\);",
        MODEL.read_text(encoding="utf-8"),
        re.DOTALL,
    )
    assert found is not None, f"no ACCOUNT_REFUSALS in {MODEL}"
    words: list[str] = json.loads(re.sub(r",\s*\]", "]", found.group(1)))
    return set(words)


def test_the_page_words_every_refusal_of_the_account_routes() -> None:
    sent = _codes_the_routes_send()
    assert {"weak_password", "name_not_allowed", "name_looks_taken", "too_many_accounts"} <= sent
    assert sent == _codes_the_page_words()
