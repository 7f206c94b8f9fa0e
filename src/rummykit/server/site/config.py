"""What a site is made with, checked once: where its games live, who may reach it, its limits.

``rummy serve``'s options, a test's settings and a benchmark's all become one ``ServerConfig``;
settings that cannot go together are refused when it is made (``ConfigError``), with a
sentence for the person who gave them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from rummykit.protocol import Limits
from rummykit.puzzles.model import PuzzleError, PuzzleSet, load_puzzles
from rummykit.review.walk import DEFAULT_SAMPLES
from rummykit.server.http import Heartbeat
from rummykit.server.store import is_postgres_url

SHARED_SITE_NEEDS_POSTGRESQL = (
    "several processes share a site on one PostgreSQL database: give --database-url with "
    "--redis-url"
)
"""Why a site of several processes (Redis, or a cluster given) without PostgreSQL is refused."""


class ConfigError(ValueError):
    """Settings of a site that cannot go together."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class ServerConfig:
    """A site's settings. Every field has the default a person playing at home wants."""

    store_path: Path | str | None = None
    """The SQLite file of the games (``rummy serve --store``); not used with ``database_url``.
    No other process may serve the same file at the same time (``FileInUse``)."""
    database_url: str | None = None
    """A PostgreSQL database to keep the games in instead (``postgresql://...``)."""
    redis_url: str | None = None
    """The Redis of the other processes serving the same site (and database)."""
    allowed_hosts: Sequence[str] | None = None
    """The only ``Host`` names answered (``None``: any; a server on this computer should answer
    only ``loopback_hosts(port)``, against DNS rebinding; see ``HostGuard``)."""
    allowed_origins: Sequence[str] = ()
    """Other sites' origins whose pages may play here, besides the site's own."""
    accept_seeds: bool = False
    """Whether ``POST /api/tables`` may name a seed: for tests, never for live tables, which
    shuffle with the operating system's randomness."""
    public_history: bool = False
    """Every finished game listed to anyone, its record and replay too (the host's choice; by
    default a player sees only the games of the tokens they hold)."""
    limits: Limits = dataclasses.field(default_factory=Limits)
    """What an address and a socket may ask."""
    heartbeat: Heartbeat = dataclasses.field(default_factory=Heartbeat)
    """How soon a connection gone silent is noticed; tests shorten it."""
    idle_table_s: float | None = None
    """How long a table nobody watches stays in memory (``None``: ``IDLE_TABLE_S``)."""
    drop_grace_s: float | None = None
    """How long a person away keeps their turns (``None``: ``DROP_GRACE_S``)."""
    bye_grace_s: float | None = None
    """The same after their page said ``bye`` (``None``: ``BYE_GRACE_S``)."""
    review_samples: int = DEFAULT_SAMPLES
    """The samples a decision of a post-game review is played out in."""
    puzzles: Path | None = None
    """A puzzle file (``rummy puzzles make``) the site serves instead of the starter set."""

    def __post_init__(self) -> None:
        if self.database_url is not None and not is_postgres_url(self.database_url):
            raise ConfigError(
                f"a database URL begins with postgresql://, not {self.database_url!r}"
            )
        if self.database_url is None and self.store_path is None:
            raise ConfigError("a site keeps its games in a SQLite file or a PostgreSQL database")
        if self.redis_url is not None and self.database_url is None:
            raise ConfigError(SHARED_SITE_NEEDS_POSTGRESQL)
        if self.review_samples < 1:
            raise ConfigError(f"a review needs at least one sample, not {self.review_samples}")
        if self.puzzles is not None:
            self.puzzle_set()  # a file that cannot be served is refused at the start

    def puzzle_set(self) -> PuzzleSet | None:
        """The puzzles of ``puzzles`` (``None``: the starter set); ``ConfigError`` if unreadable."""
        if self.puzzles is None:
            return None
        try:
            found = load_puzzles(self.puzzles)
        except PuzzleError as error:
            raise ConfigError(f"puzzles: {error}") from None
        if not found.puzzles:
            raise ConfigError(f"puzzles: {self.puzzles} holds no puzzle")
        return found

    @property
    def store_location(self) -> Path | str:
        """Where the store opens: the PostgreSQL database if one is given, else the file."""
        location = self.database_url or self.store_path
        assert location is not None  # __post_init__ refused neither
        return location

    @property
    def shared(self) -> bool:
        """Whether several processes serve this site (a Redis is given)."""
        return self.redis_url is not None
