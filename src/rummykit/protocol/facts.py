"""The protocol's plain facts, importable without the message models (no pydantic here).

Numbers and words that the wire, the command line and the page share, written once.
``rummy --help`` reads them on an install without the site; the page gets them generated.
"""

from __future__ import annotations

import re
from typing import Final, Literal, TypeAlias, get_args

from rummykit.core.rules import MAX_SEATS, MIN_SEATS

BotLevel: TypeAlias = Literal["basic", "strong", "expert", "master"]
"""The computer players a table can seat, weakest first (each measured above the one before:
"Bots benchmark: the ladder" in ``benchmarks/README.md``)."""

BOT_LEVELS: Final[tuple[str, ...]] = get_args(BotLevel)
"""The computer players a table can seat."""

HintLevel: TypeAlias = Literal["strong", "expert", "master"]
"""Who a hint at a table comes from, quickest first: ``strong`` answers at once and says why;
``expert`` and ``master`` search for their 200 ms first (the reason is the strong player's
words when they agree)."""

TABLE_HINT_LEVELS: Final[tuple[str, ...]] = get_args(HintLevel)
"""The levels a table's hint may be asked of."""

DEFAULT_HINT_LEVEL: Final = "strong"
"""Who a hint comes from when the request names nobody."""

DEFAULT_PACE_MS: Final = 700
"""How long the computer waits before each of its actions: slow enough to follow."""

MAX_PACE_MS: Final = 5000
"""The slowest the computer may be asked to play: slower feels broken."""

TurnTimer: TypeAlias = Literal[30, 60]
"""How long a person has for a turn, in seconds, when a table times turns."""

TURN_TIMERS: Final[tuple[int, ...]] = get_args(TurnTimer)
"""The turn timers a table may be made with (besides none)."""

MAX_PARTY_SEATS: Final = MAX_SEATS
"""The most seats a party's table has (people and computer players): any table's most (seven
or eight play with two decks, which the rules' own check asks for when the game starts)."""

MIN_PARTY_SEATS: Final = MIN_SEATS
"""The fewest seats a party's table starts with."""

RuleValue: TypeAlias = bool | int | str | None
"""One rule option's value as JSON: a number, a word, a yes/no, or null for no limit."""

ACCOUNT_NAME: Final = re.compile(r"[A-Za-z0-9_-]{3,20}")
"""What an account's name may be: 3 to 20 letters, digits, ``_`` or ``-``."""

MIN_PASSWORD: Final = 8
"""The shortest password an account may have."""

MAX_PASSWORD: Final = 128
"""The longest password an account may have."""

MAX_BOT_GAMES: Final = 8
"""The most games a program's account may say it plays at once (``BotLimits.games``)."""
