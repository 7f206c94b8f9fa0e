"""``rummy account new`` and ``rummy account show`` against a live server (uvicorn, a thread).

The account is made on the server and signed in; its credentials (server, name, session
cookie: never the password) are kept in the data folder, readable by the owner only, and the
kept cookie signs the account in.
"""

from __future__ import annotations

import io
import json
import stat
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from ports import free_port
from rummykit.cli import main
from rummykit.client import account
from rummykit.protocol.account import SESSION_COOKIE
from table_client import LiveServer

pytestmark = pytest.mark.timeout(60)

PASSWORD = "a long enough password"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "server.sqlite3", free_port())
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture
def password_file(tmp_path: Path) -> Path:
    path = tmp_path / "password.txt"
    path.write_text(PASSWORD + "\n", encoding="utf-8")
    return path


def me(server: LiveServer, session: str) -> dict[str, object]:
    request = urllib.request.Request(
        server.url + "/api/me", headers={"Cookie": f"{SESSION_COOKIE}={session}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        said: dict[str, object] = json.loads(answer.read())
        return said


def test_a_program_account_is_made_and_its_credentials_kept_privately(
    server: LiveServer, data: Path, password_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["account", "new", "--server", server.url + "/", "--name", "robo-1"]
    assert main([*command, "--bot-account", "--password-file", str(password_file)]) == 0
    assert "robo-1 [BOT]" in capsys.readouterr().out
    kept_file = data / "accounts.json"
    assert stat.S_IMODE(kept_file.stat().st_mode) == 0o600
    assert PASSWORD not in kept_file.read_text(encoding="utf-8")
    kept = json.loads(kept_file.read_text(encoding="utf-8"))
    assert [(each["name"], each["server"], each["bot"]) for each in kept] == [
        ("robo-1", server.url, True)
    ]
    assert me(server, kept[0]["session"]) == {"signed_in": True, "name": "robo-1", "bot": True}
    assert PASSWORD.encode() not in server.store_path.read_bytes()
    assert main(["account", "show", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed == [{"name": "robo-1", "server": server.url, "bot": True}]
    assert main(["account", "show"]) == 0
    assert capsys.readouterr().out == f"robo-1 [BOT]  {server.url}\n"


def test_the_password_is_asked_twice_when_no_file_names_it(
    server: LiveServer, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    typed = iter([PASSWORD, PASSWORD])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(typed))
    assert main(["account", "new", "--server", server.url, "--name", "Ada"]) == 0
    kept = account.load_accounts(data / "accounts.json")
    assert [(each.name, each.bot) for each in kept] == [("Ada", False)]
    assert me(server, kept[0].session) == {"signed_in": True, "name": "Ada", "bot": False}


def test_two_passwords_that_differ_make_nothing(
    server: LiveServer,
    data: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    typed = iter([PASSWORD, PASSWORD + "?"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(typed))
    assert main(["account", "new", "--server", server.url, "--name", "Ada"]) == 2
    assert "differ" in capsys.readouterr().err
    assert not (data / "accounts.json").exists()


def test_the_password_may_come_on_standard_input(
    server: LiveServer, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    command = ["account", "new", "--server", server.url, "--name", "Bea", "--password-file", "-"]
    assert main(command) == 0
    assert [each.name for each in account.load_accounts(data / "accounts.json")] == ["Bea"]


def test_a_taken_name_is_refused_with_the_servers_sentence(
    server: LiveServer, data: Path, password_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["account", "new", "--server", server.url, "--password-file", str(password_file)]
    assert main([*command, "--name", "Ada"]) == 0
    assert main([*command, "--name", "ADA"]) == 1
    assert "name is taken" in capsys.readouterr().err
    assert [each.name for each in account.load_accounts(data / "accounts.json")] == ["Ada"]


def test_accounts_on_two_servers_are_both_kept(
    server: LiveServer, data: Path, password_file: Path, tmp_path: Path
) -> None:
    other = LiveServer(tmp_path / "other.sqlite3", free_port())
    other.start()
    try:
        for url in (server.url, other.url):
            command = ["account", "new", "--server", url, "--name", "Ada"]
            assert main([*command, "--password-file", str(password_file)]) == 0
    finally:
        other.stop()
    kept = account.load_accounts(data / "accounts.json")
    assert sorted(each.server for each in kept) == sorted([server.url, other.url])


def test_a_short_password_is_refused_before_asking_the_server(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    short = tmp_path / "short.txt"
    short.write_text("short\n", encoding="utf-8")
    command = ["account", "new", "--server", "http://127.0.0.1:9", "--name", "Ada"]
    assert main([*command, "--password-file", str(short)]) == 2
    assert "8 to 128 characters" in capsys.readouterr().err


def test_a_server_that_is_not_there_is_said_so(
    data: Path, password_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    command = ["account", "new", "--server", url, "--name", "Ada"]
    assert main([*command, "--password-file", str(password_file)]) == 1
    assert "Cannot reach the server" in capsys.readouterr().err


def test_no_account_kept_yet(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["account", "show"]) == 0
    assert "No account" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["ab", "Ada Lovelace", "x" * 21])
def test_a_name_out_of_bounds_is_a_usage_error(name: str, data: Path) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["account", "new", "--server", "http://127.0.0.1:9", "--name", name])
    assert stopped.value.code == 2
