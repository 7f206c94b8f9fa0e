"""Write the golden records: one whole game per preset, played by the ``basic`` bot.

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
TABLES = {"classic": 2, "standard": 3, "practice": 2, "party": 4, "500": 3}
NAMES = ["Ann", "Bob", "Cho", "Dev", "Eve", "Fay"]


def main(names: list[str]) -> None:
    """Write the records and their expected replays (those of ``names``; none: all)."""
    for name, seats in TABLES.items():
        if names and name not in names:
            continue
        bots = [make_bot("basic") for _ in range(seats)]
        for seed in range(100):
            record, finished = play_game(PRESETS[name], bots, seed, players=NAMES[:seats])
            if finished:
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
