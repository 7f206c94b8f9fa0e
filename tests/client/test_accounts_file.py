"""The credentials this device keeps (``rummykit.client.account``): the file, which account a
``--account`` names, the headers that sign it in, and the session read from a cookie."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from rummykit.client.account import (
    AccountFileError,
    AccountNotKept,
    Credentials,
    _session_of,
    account_headers,
    keep_account,
    kept_account,
    load_accounts,
)
from rummykit.protocol.account import SESSION_COOKIE


def credentials(name: str, server: str = "http://a:8000", session: str = "s1") -> Credentials:
    return Credentials(server=server, name=name, bot=False, session=session)


def test_no_file_yet_keeps_nobody(tmp_path: Path) -> None:
    assert load_accounts(tmp_path / "accounts.json") == []


def test_an_account_is_kept_privately_and_replaced_by_a_new_session(tmp_path: Path) -> None:
    path = tmp_path / "data" / "accounts.json"
    keep_account(path, credentials("Ann"))
    keep_account(path, credentials("Bob"))
    keep_account(path, credentials("ann", session="s2"))  # the same name, in other letters
    keep_account(path, credentials("Ann", server="http://b:8000"))
    assert [(each.name, each.server, each.session) for each in load_accounts(path)] == [
        ("Bob", "http://a:8000", "s1"),
        ("ann", "http://a:8000", "s2"),
        ("Ann", "http://b:8000", "s1"),
    ]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_file_that_holds_no_accounts_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "accounts.json"
    path.write_text('{"name": "Ann"}')
    with pytest.raises(AccountFileError, match="does not hold accounts"):
        load_accounts(path)
    with pytest.raises(AccountFileError, match="Cannot read"):
        load_accounts(tmp_path)  # a folder


def test_the_account_named_is_found_for_its_server_whatever_the_letters(tmp_path: Path) -> None:
    path = tmp_path / "accounts.json"
    keep_account(path, credentials("Ann"))
    keep_account(path, credentials("Ann", server="http://b:8000", session="s9"))
    assert kept_account(path, "ANN", "http://b:8000/").session == "s9"


def test_an_account_kept_for_another_server_is_said_so(tmp_path: Path) -> None:
    path = tmp_path / "accounts.json"
    keep_account(path, credentials("Ann"))
    with pytest.raises(AccountNotKept) as missing:
        kept_account(path, "Ann", "http://c:8000")
    assert missing.value.message.startswith(
        "The account Ann is kept for http://a:8000, not for http://c:8000"
    )
    assert "rummy account new --server http://c:8000 --name Ann" in missing.value.message


def test_an_account_not_kept_lists_those_that_are(tmp_path: Path) -> None:
    path = tmp_path / "accounts.json"
    with pytest.raises(AccountNotKept, match="No account is kept on this device"):
        kept_account(path, "Ann", "http://a:8000")
    keep_account(path, credentials("Bob"))
    with pytest.raises(AccountNotKept, match="kept: Bob on http://a:8000"):
        kept_account(path, "Ann", "http://a:8000")


def test_the_headers_carry_the_session_and_the_servers_own_origin() -> None:
    kept = credentials("Ann", server="https://rummy.example:8443/base", session="xyz")
    assert account_headers(kept) == {
        "Cookie": f"{SESSION_COOKIE}=xyz",
        "Origin": "https://rummy.example:8443",
    }


def test_the_session_is_read_from_its_cookie_among_others() -> None:
    assert _session_of([]) is None
    assert _session_of(["theme=dark; Path=/"]) is None
    assert _session_of([f"{SESSION_COOKIE}=; Max-Age=0"]) is None  # a cookie being cleared
    assert _session_of(["theme=dark", f"{SESSION_COOKIE}=abc; HttpOnly; Path=/"]) == "abc"
