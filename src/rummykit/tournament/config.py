"""A tournament's settings: the bots, the rules and the number of duplicate sets, checked."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from rummykit.bots.play import DEAL_ACTION_CAP
from rummykit.core.errors import RulesError
from rummykit.core.presets import DEFAULT_PRESET, Preset, preset_with_overrides
from rummykit.core.rules import MAX_SEATS, MIN_SEATS, OPTION_NAMES, Rules, parse_option


class SimError(ValueError):
    """A tournament that cannot be set up or played: the message says why."""


@dataclasses.dataclass(frozen=True, slots=True)
class SimConfig:
    """Everything that decides a tournament's games (the process count does not)."""

    bots: tuple[str, ...]
    """The bots' names by position, as given; position ``i`` sits at seat ``i`` in the
    first rotation."""
    preset: Preset
    """The preset the rules start from (named in the records)."""
    rules: Rules
    """The rules, overrides applied."""
    sets: int
    """Duplicate sets to play: each is one game a rotation, ``len(bots)`` games."""
    seed: int = 0
    """The seed every deck order and every bot's random source come from."""
    records: Path | None = None
    """A folder to write every game's record into, or ``None``."""
    checkpoint: Path | None = None
    """A folder that keeps every finished set, so that a stopped run picks up where it was
    (``rummykit.tournament.checkpoint``), or ``None``."""
    action_cap: int = DEAL_ACTION_CAP
    """Actions after which a deal is cut (see ``DEAL_ACTION_CAP``)."""

    @property
    def seat_count(self) -> int:
        """How many seats play."""
        return len(self.bots)

    @property
    def games(self) -> int:
        """Games to play: one a seat rotation of every set."""
        return self.sets * self.seat_count

    @staticmethod
    def from_options(
        bots: Sequence[str],
        *,
        games: int,
        preset: str = DEFAULT_PRESET,
        rules: Mapping[str, str] | Sequence[str] = (),
        deals_only: bool = False,
        seed: int = 0,
        records: Path | str | None = None,
        checkpoint: Path | str | None = None,
    ) -> SimConfig:
        """A checked configuration from command-line values; ``SimError`` says what is wrong.

        ``rules`` holds overrides as ``NAME=VALUE`` texts or a mapping of texts;
        ``deals_only`` makes each game a single deal. ``games`` is rounded up to whole
        duplicate sets. ``checkpoint`` names a folder that keeps the finished sets.
        """
        from rummykit.bots import BOTS

        names = tuple(bots)
        if not MIN_SEATS <= len(names) <= MAX_SEATS:
            raise SimError(
                f"Name one bot a seat, {MIN_SEATS} to {MAX_SEATS} of them, not {len(names)}."
            )
        unknown = [name for name in names if name not in BOTS]
        if unknown:
            raise SimError(
                f"Unknown bot {unknown[0]!r}: choose from {', '.join(sorted(BOTS))} "
                "(see `rummy bots`)."
            )
        if games < 1:
            raise SimError(f"Play at least one game, not {games}.")
        overrides = _parse_rules(rules)
        if deals_only:
            if "deals" in overrides:
                raise SimError("Give either --deals-only or --rule deals=..., not both.")
            overrides["deals"] = 1
        try:
            chosen, rules_value = preset_with_overrides({"preset": preset, **overrides})
            chosen.check_seats(len(names))
            rules_value.check_seats(len(names))
        except RulesError as error:
            raise SimError(str(error)) from None
        sets = math.ceil(games / len(names))
        folder = Path(records) if records is not None else None
        kept = Path(checkpoint) if checkpoint is not None else None
        return SimConfig(names, chosen, rules_value, sets, seed, folder, checkpoint=kept)


def _parse_rules(rules: Mapping[str, str] | Sequence[str]) -> dict[str, object]:
    pairs: list[tuple[str, str]] = []
    if isinstance(rules, Mapping):
        pairs = list(rules.items())
    else:
        for text in rules:
            name, equals, value = text.partition("=")
            if not equals or not name.strip():
                raise SimError(f"A rule is NAME=VALUE (like renewals=2), not {text!r}.")
            pairs.append((name.strip(), value))
    overrides: dict[str, object] = {}
    for name, value in pairs:
        if name not in OPTION_NAMES:
            raise SimError(f"Unknown rule option {name!r}; see `rummy rules`.")
        try:
            overrides[name] = parse_option(name, value)
        except RulesError as error:
            raise SimError(str(error)) from None
    return overrides
