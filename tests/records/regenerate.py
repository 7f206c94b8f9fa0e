"""Write the golden records: one whole game per preset, and one at eight seats, by ``basic``.

Knock rummy is played by ``strong``, which knocks early enough to be undercut at times, so
that its record holds both outcomes of a knock.

Run from the repository root: ``python tests/records/regenerate.py [PRESET...]``. It rewrites each
``PRESET.json`` and, beside it, ``PRESET.expected.json`` (what ``rummy replay --json``
printed when the record was made). Regenerate only on purpose: a changed expectation is a
changed rule, and the diff must say which.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rummykit.bots import make_bot
from rummykit.bots.play import play_game
from rummykit.core.presets import PRESETS
from rummykit.core.record import dump_record, replay_json

HERE = Path(__file__).parent
TABLES = {
    "classic": 2,
    "standard": 3,
    "practice": 2,
    "party": 4,
    "boathouse": 3,
    "knock": 3,
    "500": 3,
}
"""Each preset's golden game, by the number of seats it is played at."""
BIG_TABLES: dict[str, tuple[str, int, dict[str, object]]] = {
    "eight_seats": ("standard", 8, {"decks": 2}),
}
"""Golden games under a preset with options changed: name, (preset, seats, overrides)."""
NAMES = ["Ann", "Bob", "Cho", "Dev", "Eve", "Fay", "Gus", "Hal"]
BOTS = {"knock": "strong"}
"""The bot that plays a preset's record, where it is not ``basic``."""
OUTCOMES = {"knock": {"knock", "undercut"}}
"""Deal results a preset's record must hold (the first seed whose game holds them is kept)."""


def main(names: list[str]) -> None:
    """Write the records and their expected replays (those of ``names``; none: all)."""
    games: dict[str, tuple[str, int, dict[str, object]]] = {
        name: (name, seats, {}) for name, seats in TABLES.items()
    }
    games.update(BIG_TABLES)
    for name, (preset_name, seats, overrides) in games.items():
        if names and name not in names:
            continue
        preset = PRESETS[preset_name]
        rules = preset.rules.replace(**overrides)
        bots = [make_bot(BOTS.get(name, "basic")) for _ in range(seats)]
        for seed in range(100):
            record, finished = play_game(preset, bots, seed, rules, players=NAMES[:seats])
            results = {deal["result"] for deal in replay_json(record.to_json())[0]["deals"]}
            if finished and OUTCOMES.get(name, set()) <= results:
                break
        data = record.to_json()
        (HERE / f"{name}.json").write_text(dump_record(record), encoding="utf-8")
        result, code = replay_json(data)
        assert code == 0, result["error"]
        expected = HERE / f"{name}.expected.json"
        expected.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        print(f"{name}: seed {seed}, {len(record.deals)} deals, scores {result['scores']}")


if __name__ == "__main__":
    main(sys.argv[1:])
