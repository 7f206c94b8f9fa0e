"""The accounts, their sessions and the networks they were seen at."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Final, NamedTuple

from rummykit.ratings import NETWORK_WINDOW_DAYS
from rummykit.server.store.common import Now, token_hash
from rummykit.server.store.database import Database, Session
from rummykit.server.store.rated import DAY_S

SESSION_LIFETIME_S: Final = 30 * 24 * 3600.0
"""How long a sign-in lasts: 30 days, then the account signs in again. A session ends sooner
when its holder signs out."""


@dataclasses.dataclass(frozen=True, slots=True)
class Account:
    """An account as the store keeps it."""

    id: int
    name: str
    """As it was signed up (names are unique whatever their case)."""
    bot: bool
    """A program's account (``kind`` 'bot'), marked as such wherever its name shows."""
    password_hash: str
    """``rummykit.server.accounts.passwords.hash_password``'s string: never the password."""


class AccountName(NamedTuple):
    """An account's id and name (the names the sign-up gate compares a new one with).

    A pair, as ``protocol.names.Names.refresh`` takes them.
    """

    id: int
    name: str


class Accounts:
    """The ``accounts``, ``sessions`` and ``account_networks`` tables."""

    def __init__(self, db: Database, now: Now, sweep: Callable[[Session, float], None]) -> None:
        """Over ``db``, stamping with ``now``; ``sweep`` deletes what expired, when due."""
        self._db = db
        self._now = now
        self._sweep = sweep

    def add(self, name: str, bot: bool, password_hash: str) -> Account | None:
        """A new account; ``None`` if the name is taken (whatever its case)."""
        kind = "bot" if bot else "person"
        with self._db.transaction() as db:
            added = db.execute(
                "INSERT INTO accounts (name, kind, password, created) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING RETURNING id",
                (name, kind, password_hash, self._now()),
            ).fetchall()
        return Account(int(added[0][0]), name, bot, password_hash) if added else None

    def named(self, name: str) -> Account | None:
        """The account of that name (whatever its case), or ``None``."""
        with self._db.read() as db:
            row = db.execute(
                "SELECT id, name, kind, password FROM accounts WHERE lower(name) = lower(?)",
                (name,),
            ).fetchone()
        return _account(*row) if row else None

    def names_after(self, account: int) -> list[AccountName]:
        """The id and name of each account whose id is above ``account``, by id."""
        with self._db.read() as db:
            rows = db.execute(
                "SELECT id, name FROM accounts WHERE id > ? ORDER BY id", (account,)
            ).fetchall()
        return [AccountName(int(row[0]), str(row[1])) for row in rows]

    def set_password_hash(self, account: int, password_hash: str) -> None:
        """Replace an account's hash (the same password hashed with stronger parameters)."""
        with self._db.transaction() as db:
            db.execute("UPDATE accounts SET password = ? WHERE id = ?", (password_hash, account))

    def add_session(self, account: int, token: str) -> float:
        """Keep a session of ``account`` (only its token's hash); when it expires."""
        now = self._now()
        expires = now + SESSION_LIFETIME_S
        with self._db.transaction() as db:
            db.execute(
                "INSERT INTO sessions (token, account, created, expires) VALUES (?, ?, ?, ?)",
                (token_hash(token), account, now, expires),
            )
        return expires

    def session_account(self, token: str) -> Account | None:
        """The account a session's token signs in, if the session has not expired."""
        now = self._now()
        with self._db.read() as db:
            self._sweep(db, now)
            row = db.execute(
                "SELECT accounts.id, accounts.name, accounts.kind, accounts.password "
                "FROM sessions JOIN accounts ON accounts.id = sessions.account "
                "WHERE sessions.token = ? AND sessions.expires > ?",
                (token_hash(token), now),
            ).fetchone()
        return _account(*row) if row else None

    def end_session(self, token: str) -> None:
        """Forget a session (signing out); nothing if there is none."""
        with self._db.transaction() as db:
            db.execute("DELETE FROM sessions WHERE token = ?", (token_hash(token),))

    def note_network(self, account: int, network: str) -> None:
        """``account`` was seen at ``network`` now (``server.networks``): kept for its ratings.

        Its networks not seen within ``NETWORK_WINDOW_DAYS`` are forgotten in the same breath.
        """
        now = self._now()
        with self._db.transaction() as db:
            db.execute(
                "DELETE FROM account_networks WHERE account = ? AND seen <= ?",
                (account, now - NETWORK_WINDOW_DAYS * DAY_S),
            )
            db.execute(
                "INSERT INTO account_networks (account, network, seen) VALUES (?, ?, ?) "
                "ON CONFLICT (account, network) DO UPDATE SET seen = excluded.seen",
                (account, network, now),
            )

    def networks(self, account: int) -> set[str]:
        """The networks ``account`` was seen at within ``NETWORK_WINDOW_DAYS``."""
        with self._db.read() as db:
            rows = db.execute(
                "SELECT network FROM account_networks WHERE account = ? AND seen > ?",
                (account, self._now() - NETWORK_WINDOW_DAYS * DAY_S),
            ).fetchall()
        return {str(row[0]) for row in rows}


def _account(account_id: int, name: str, kind: str, password_hash: str) -> Account:
    return Account(int(account_id), str(name), kind == "bot", str(password_hash))
