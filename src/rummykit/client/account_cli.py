"""``rummy account new|signin|show`` on the command line: their parsers and commands.

The accounts themselves (kept on this device, signed in over HTTP) are in
``rummykit.client.account``, imported when a command runs: ``rummy --help`` needs none of it.
Exit codes: 0 done; 1 the server refused (a sentence says why); 2 a usage error.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from rummykit.client.addresses import add_server_option
from rummykit.client.report import with_bot_mark
from rummykit.protocol import ACCOUNT_NAME, MAX_PASSWORD, MIN_PASSWORD

if TYPE_CHECKING:
    from rummykit.client.account import Credentials
    from rummykit.protocol import NewAccount, SignIn

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
    from pydantic import ValidationError

    from rummykit.client.account import create_account
    from rummykit.protocol import NewAccount

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
    from pydantic import ValidationError

    from rummykit.client.account import sign_in
    from rummykit.protocol import SignIn

    try:
        wanted = SignIn(name=args.name, password=_password(args, twice=False))
    except OSError as error:
        print(f"rummy account signin: cannot read the password: {error.strerror}.", file=sys.stderr)
        return 2
    except ValidationError:
        print("rummy account signin: give the account's password.", file=sys.stderr)
        return 2
    return _kept("signin", "Signed in {named} on {server} ({file}).", sign_in, args.server, wanted)


Wanted = TypeVar("Wanted", "NewAccount", "SignIn")


def _kept(
    command: str,
    said: str,
    ask: Callable[[str, Wanted], Credentials],
    server: str,
    wanted: Wanted,
) -> int:
    """Ask the server (``ask``), keep the account it answers with, and say ``said``."""
    from rummykit.client.account import AccountFileError, default_accounts_path, keep_account
    from rummykit.client.web import ServerError

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
    from rummykit.client.account import AccountFileError, default_accounts_path, load_accounts

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
    add_server_option(new)
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
    add_server_option(signin)
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
