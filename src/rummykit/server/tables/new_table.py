"""A new table against the computer, checked: the settings ``POST /api/tables`` asks for."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping
from typing import Final

from rummykit.core.presets import (
    PRACTICE_PRESET,
    TABLE_PRESET,
    describe_rules,
    preset_with_overrides,
)
from rummykit.protocol import (
    DEFAULT_PACE_MS,
    PRACTICE_OPPONENTS,
    RECORD_RULES,
    RULE_VALUES,
    BotPlayer,
    HumanPlayer,
    NewTable,
    Player,
    RulesInPlay,
    TableSettings,
)


def rules_in_play(preset: str, overrides: Mapping[str, object]) -> RulesInPlay:
    """What ``preset`` with ``overrides`` plays: the changes, every value, the table sizes.

    ``RulesError`` if the options cannot be played together.
    """
    found, rules = preset_with_overrides({**overrides, "preset": preset})
    described = describe_rules(found, rules)
    changed = {} if isinstance(described, str) else dict(described)
    changed.pop("preset", None)
    seats = found.seat_counts(rules)
    return RulesInPlay(
        preset=found.name,
        rules=RULE_VALUES.validate_python(changed),
        in_play=RULE_VALUES.validate_python(rules.to_mapping()),
        seats=seats,
        hands={str(count): rules.hand_size_for(count) for count in seats},
    )


class TableError(ValueError):
    """A table that cannot be made or found as asked.

    Its sentence is for programs and logs: the page asks for no table this refuses (a
    practice table as the page asks for it, no preset among the rules), and a table it cannot
    find is said by the answer's status (404).
    """


def _practice_conflict(request: NewTable) -> str | None:
    """What a practice request asks that a practice table does not play, if anything."""
    if request.preset not in (None, PRACTICE_PRESET):
        return (
            f'preset: a practice table plays the "{PRACTICE_PRESET}" preset, '
            f"not {request.preset!r}."
        )
    if request.rules:
        return "rules: a practice table plays the practice rules; leave rules out."
    if request.opponents not in (None, PRACTICE_OPPONENTS):
        return 'opponents: a practice table is against one "strong" computer player.'
    return None


COMPUTER_NAMES: Final = (
    "Mira", "Otto", "Lena", "Kai", "Noor", "Ivo", "Sana", "Theo", "Yuki", "Ravi", "Ines", "Bram",
)  # fmt: skip
"""The computer players' names: short, told apart at a glance, in records and in replays.
The level is shown beside the name (``Mira · basic``), never in it."""


def computer_names(count: int, taken: Iterable[str], seed: int | None = None) -> list[str]:
    """``count`` distinct names for computer players, none of the names ``taken`` already.

    ``taken``: the person's own at a new table, every member's at a party. Chosen at random
    for each table (from its seed on a test table, so tests see the same).
    """
    rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
    used = {name.casefold() for name in taken}
    free = [name for name in COMPUTER_NAMES if name.casefold() not in used]
    return rng.sample(free, count)


def new_table_settings(request: NewTable) -> TableSettings:
    """Checked settings for a new table: the human at seat 0, then the computer players.

    ``TableError`` or ``RulesError`` say what cannot be played.
    """
    if request.practice:
        conflict = _practice_conflict(request)
        if conflict is not None:
            raise TableError(conflict)
        preset, opponents = PRACTICE_PRESET, PRACTICE_OPPONENTS
    else:
        preset, opponents = request.preset or TABLE_PRESET, request.opponents or ("basic",)
    if request.rules and "preset" in request.rules:
        raise TableError("rules.preset: name the preset in preset, not among the rules.")
    found, rules = preset_with_overrides({"preset": preset, **(request.rules or {})})
    found.check_seats(len(opponents) + 1)
    rules.check_seats(len(opponents) + 1)
    players: list[Player] = [HumanPlayer(kind="human", name=request.name)]
    names = computer_names(len(opponents), (request.name,), request.seed)
    players += [
        BotPlayer(kind="bot", name=name, level=level)
        for name, level in zip(names, opponents, strict=True)
    ]
    return TableSettings(
        rules=RECORD_RULES.validate_python(describe_rules(found, rules)),
        players=tuple(players),
        practice=request.practice,
        seed=request.seed,
        pace_ms=DEFAULT_PACE_MS,
        turn_timer=request.turn_timer,
    )
