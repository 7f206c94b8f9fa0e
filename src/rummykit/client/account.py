"""``rummy account new|signin|show``: accounts on servers, kept on this device.

``rummy account new`` creates an account (``POST /api/accounts``), asking for its password
(``getpass``, or ``--password-file``), and keeps its credentials (the server, the name, and
the session cookie the server set: never the password) in ``accounts.json`` in the user's
data folder (``RUMMY_DATA_DIR`` if set), readable by its owner only. ``rummy account signin``
signs a kept (or another device's) account in again (``POST /api/session``) when its session
has ended. ``rummy account show`` lists them. ``rummy party new`` and ``rummy join`` play as
one with ``--account NAME`` (``kept_account``, ``signed_in``, ``account_headers``).
Exit codes: 0 done; 1 the server refused (a sentence says why); 2 a usage error.
"""

from __future__ import annotations

import argparse
import getpass
import http.cookies
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Final, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from rummykit.client.report import with_bot_mark
from rummykit.client.seat_file import write_private
from rummykit.client.web import HTTP_TIMEOUT_S, ServerError, _sentence, base_url
from rummykit.data_folder import data_folder
from rummykit.protocol.account import (
    ACCOUNT_NAME,
    MAX_PASSWORD,
    MIN_PASSWORD,
    SESSION_COOKIE,
    AccountRefusal,
    Me,
    MeAnswer,
    NewAccount,
    NobodySignedIn,
    SignIn,
)
from rummykit.protocol.codes import ServerCode

_EPILOG = """\
examples:
  rummy account new --server http://127.0.0.1:8000 --name Ada
      asks for a password twice, creates the account and signs it in
  rummy account new --server URL --name robo-1 --bot-account --password-file pw.txt
      a program's account (shown with a BOT mark), its password read from a file
  rummy party new --server URL --account robo-1 --ranked --bot expert
      play a ranked party as robo-1 (rummy join CODE --server URL --account NAME to join)
  rummy account signin --server URL --name robo-1 --password-file pw.txt
      a new session for robo-1, when the kept one has ended (after 30 days)
  rummy account show
      the accounts kept on this device

The credentials (server, name, session cookie; never the password) are kept in
accounts.json in your data folder, readable by you only.
exit codes: 0 done; 1 the server refused (the name is taken...); 2 a usage error.
"""


class Credentials(BaseModel):
    """An account as this device keeps it: where, who, and its session."""

    model_config = ConfigDict(extra="ignore")

    server: str
    name: str
    bot: bool
    session: str
    """The session cookie's value: it signs the account in (keep it private)."""


_KEPT: Final[TypeAdapter[list[Credentials]]] = TypeAdapter(list[Credentials])
_ME_ANSWER: Final[TypeAdapter[Me | NobodySignedIn]] = TypeAdapter(MeAnswer)


class AccountFileError(ValueError):
    """A credentials file that cannot be read."""


def default_accounts_path() -> Path:
    """The credentials file, in the user's data folder."""
    return data_folder() / "accounts.json"


def load_accounts(path: Path) -> list[Credentials]:
    """The credentials kept in ``path`` (none if there is no file yet)."""
    try:
        return _KEPT.validate_json(path.read_bytes())
    except FileNotFoundError:
        return []
    except OSError as error:
        raise AccountFileError(f"Cannot read {path}: {error.strerror}.") from None
    except ValidationError:
        raise AccountFileError(f"{path} does not hold accounts: move it away.") from None


def keep_account(path: Path, kept: Credentials) -> None:
    """Add (or replace: same server and name) an account's credentials in ``path`` (0600)."""
    others = [
        each
        for each in load_accounts(path)
        if (each.server, each.name.casefold()) != (kept.server, kept.name.casefold())
    ]
    write_private(path, _KEPT.dump_json([*others, kept], indent=2).decode() + "\n")


def _session_of(headers: list[str]) -> str | None:
    """The session token among an answer's ``Set-Cookie`` headers."""
    for header in headers:
        cookie = http.cookies.SimpleCookie()
        cookie.load(header)
        if SESSION_COOKIE in cookie and cookie[SESSION_COOKIE].value:
            return cookie[SESSION_COOKIE].value
    return None


def _refusal(status: int, body: bytes) -> ServerError:
    """The server's refusal, with its sentence and code when it gave them."""
    try:
        refusal = AccountRefusal.model_validate_json(body, strict=False)
    except ValidationError:
        return ServerError(_sentence(status, body), status=status)
    return ServerError(refusal.error, status=status, code=refusal.code.value)


def _signed_up_or_in(server: str, path: str, body: NewAccount | SignIn) -> Credentials:
    """POST ``body`` to ``path``: the credentials of the session it starts; ``ServerError``."""
    request = urllib.request.Request(
        base_url(server) + path,
        data=body.model_dump_json().encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as answer:
            data, cookies = answer.read(), answer.headers.get_all("Set-Cookie") or []
    except urllib.error.HTTPError as error:
        with error:
            raise _refusal(error.code, error.read()) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ServerError(f"Cannot reach the server at {server}: {reason}.") from None
    try:
        me = Me.model_validate_json(data, strict=False)
    except ValidationError:
        raise ServerError("The server's answer is not an account.") from None
    session = _session_of(cookies)
    if session is None:
        raise ServerError("The server answered but set no session cookie.")
    return Credentials(server=base_url(server), name=me.name, bot=me.bot, session=session)


def create_account(server: str, wanted: NewAccount) -> Credentials:
    """``POST /api/accounts``: the new account's credentials; ``ServerError`` if refused."""
    return _signed_up_or_in(server, "/api/accounts", wanted)


def sign_in(server: str, wanted: SignIn) -> Credentials:
    """``POST /api/session``: the account's credentials with a new session.

    ``ServerError`` if refused (a wrong name or password, too many attempts).
    """
    return _signed_up_or_in(server, "/api/session", wanted)


class AccountNotKept(LookupError):
    """``--account NAME`` names no account kept on this device for that server."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _kept_list(kept: list[Credentials]) -> str:
    return ", ".join(f"{each.name} on {each.server}" for each in kept)


def kept_account(path: Path, name: str, server: str) -> Credentials:
    """The credentials kept in ``path`` for account ``name`` on ``server``.

    ``AccountNotKept`` with a sentence that lists the accounts kept when there is none (or
    only on other servers); ``AccountFileError`` for a file that cannot be read.
    """
    server = base_url(server)
    kept = load_accounts(path)
    named = [each for each in kept if each.name.casefold() == name.casefold()]
    here = next((each for each in named if each.server == server), None)
    if here is not None:
        return here
    make = f"rummy account new --server {server} --name {name}"
    if named:
        elsewhere = ", ".join(each.server for each in named)
        raise AccountNotKept(
            f"The account {name} is kept for {elsewhere}, not for {server}: an account "
            f"belongs to one server. Make one there with `{make}`."
        )
    if not kept:
        raise AccountNotKept(f"No account is kept on this device ({path}): make one with `{make}`.")
    raise AccountNotKept(
        f"No account {name} is kept on this device; kept: {_kept_list(kept)}. "
        f"Make it with `{make}`."
    )


def account_headers(kept: Credentials) -> dict[str, str]:
    """The headers that sign ``kept`` in, for requests and sockets.

    Its session cookie, and the server's own ``Origin`` (what its guard accepts from its own
    pages: a state-changing request that carries a session must come from the same site).
    """
    parts = urllib.parse.urlsplit(kept.server)
    return {
        "Cookie": f"{SESSION_COOKIE}={kept.session}",
        "Origin": f"{parts.scheme}://{parts.netloc}",
    }


def signed_in(kept: Credentials) -> Me:
    """``GET /api/me`` with ``kept``'s session: who it signs in.

    ``ServerError`` if the server refuses it (an ended session: sign in again) or signs in
    someone else.
    """
    request = urllib.request.Request(
        kept.server + "/api/me",
        headers={**account_headers(kept), "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as answer:
            data = answer.read()
    except urllib.error.HTTPError as error:
        with error:
            raise _refusal(error.code, error.read()) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ServerError(f"Cannot reach the server at {kept.server}: {reason}.") from None
    again = f"rummy account signin --server {kept.server} --name {kept.name}"
    try:
        me = _ME_ANSWER.validate_json(data, strict=False)
    except ValidationError:
        raise ServerError("The server's answer to /api/me is not an account.") from None
    if isinstance(me, NobodySignedIn):
        raise ServerError(
            f"The server refused the session kept for {kept.name} (it ended, or the server "
            f"forgot it): sign in again with `{again}`.",
            status=401,
            code=ServerCode.NOT_SIGNED_IN,
        )
    if me.name.casefold() != kept.name.casefold():
        raise ServerError(
            f"The session kept for {kept.name} signs in {me.name} on {kept.server}: sign in "
            f"again with `{again}`."
        )
    return me


def _password(args: argparse.Namespace, *, twice: bool = True) -> str:
    """The password: the first line of ``--password-file`` (``-``: standard input), or asked.

    Asked ``twice`` for a new account.
    """
    if args.password_file is not None:
        if str(args.password_file) == "-":
            return sys.stdin.readline().rstrip("\r\n")
        lines = Path(args.password_file).read_text(encoding="utf-8").splitlines()
        return lines[0] if lines else ""
    if not twice:
        return getpass.getpass(f"Password for {args.name}: ")
    first = getpass.getpass(f"Password for {args.name} ({MIN_PASSWORD}-{MAX_PASSWORD} chars): ")
    if getpass.getpass("The same password again: ") != first:
        raise ValueError("The two passwords differ.")
    return first


def _command_new(args: argparse.Namespace) -> int:
    try:
        password = _password(args)
        wanted = NewAccount(name=args.name, password=password, bot=args.bot_account)
    except OSError as error:
        print(f"rummy account new: cannot read the password: {error.strerror}.", file=sys.stderr)
        return 2
    except ValidationError:
        print(
            f"rummy account new: a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters.",
            file=sys.stderr,
        )
        return 2
    except ValueError as error:
        print(f"rummy account new: {error}", file=sys.stderr)
        return 2
    said = "Created {named} on {server}, signed in ({file})."
    return _kept("new", said, create_account, args.server, wanted)


def _command_signin(args: argparse.Namespace) -> int:
    try:
        wanted = SignIn(name=args.name, password=_password(args, twice=False))
    except OSError as error:
        print(f"rummy account signin: cannot read the password: {error.strerror}.", file=sys.stderr)
        return 2
    except ValidationError:
        print("rummy account signin: give the account's password.", file=sys.stderr)
        return 2
    return _kept("signin", "Signed in {named} on {server} ({file}).", sign_in, args.server, wanted)


Wanted = TypeVar("Wanted", NewAccount, SignIn)


def _kept(
    command: str,
    said: str,
    ask: Callable[[str, Wanted], Credentials],
    server: str,
    wanted: Wanted,
) -> int:
    """Ask the server (``ask``), keep the account it answers with, and say ``said``."""
    try:
        kept = ask(server, wanted)
        keep_account(default_accounts_path(), kept)
    except ServerError as error:
        print(f"rummy account {command}: {error.message}", file=sys.stderr)
        return 1
    except AccountFileError as error:
        print(f"rummy account {command}: {error}", file=sys.stderr)
        return 1
    named = with_bot_mark(kept.name, kept.bot)
    print(said.format(named=named, server=kept.server, file=default_accounts_path()))
    return 0


def _command_show(args: argparse.Namespace) -> int:
    try:
        kept = load_accounts(default_accounts_path())
    except AccountFileError as error:
        print(f"rummy account show: {error}", file=sys.stderr)
        return 1
    if args.json:
        listed = [{"name": each.name, "server": each.server, "bot": each.bot} for each in kept]
        print(json.dumps(listed))
        return 0
    if not kept:
        print("No account is kept on this device: rummy account new --server URL --name N.")
    for each in kept:
        print(f"{with_bot_mark(each.name, each.bot)}  {each.server}")
    return 0


def account_name(text: str) -> str:
    """An account's name as argparse reads it: 3 to 20 letters, digits, ``_`` or ``-``."""
    if not ACCOUNT_NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r}: a name is 3 to 20 letters, digits, _ or -")
    return text


def _server(text: str) -> str:
    try:
        return base_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_account_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``account new`` and ``account show`` to the ``rummy`` command's sub-commands."""
    account = commands.add_parser(
        "account",
        help="create accounts on servers (for ranked play) and list those kept here",
        description="Accounts on servers, kept on this device.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    account_commands = account.add_subparsers(
        dest="account_command", metavar="COMMAND", required=True
    )
    new = account_commands.add_parser(
        "new",
        help="create an account, sign it in and keep its credentials",
        description="Create an account on the server, asking for its password, and keep its "
        "credentials (never the password) in your data folder.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    new.add_argument(
        "--server", required=True, type=_server, metavar="URL", help="like http://host:8000"
    )
    new.add_argument(
        "--name", required=True, type=account_name, help="3-20 letters, digits, _ or -"
    )
    new.add_argument(
        "--bot-account",
        action="store_true",
        help="a program's account (for rummy join): shown with a BOT mark everywhere",
    )
    new.add_argument(
        "--password-file",
        metavar="FILE",
        help="read the password from the first line of FILE (- for standard input) instead "
        "of asking",
    )
    new.set_defaults(run=_command_new)
    signin = account_commands.add_parser(
        "signin",
        help="sign an account in again (a new session) and keep its credentials",
        description="Sign in to an account on the server, asking for its password, and keep "
        "the new session (never the password) in your data folder: for an account made on "
        "another device, or whose kept session has ended.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    signin.add_argument(
        "--server", required=True, type=_server, metavar="URL", help="like http://host:8000"
    )
    signin.add_argument("--name", required=True, type=account_name, help="the account's name")
    signin.add_argument(
        "--password-file",
        metavar="FILE",
        help="read the password from the first line of FILE (- for standard input) instead "
        "of asking",
    )
    signin.set_defaults(run=_command_signin)
    show = account_commands.add_parser(
        "show", help="list the accounts kept on this device", description="List the accounts."
    )
    show.add_argument("--json", action="store_true", help='[{"name", "server", "bot"}]')
    show.set_defaults(run=_command_show)
