"""A long tournament played in windows: each finished duplicate set kept in a folder.

A set's games depend only on the tournament's bots, rules, seed and set number, so a set
played once need never be played again. ``Checkpoint`` writes every finished set's tally to
``set-NNNNN.json`` in its folder (atomically: a set cut half-way by a stop leaves no file),
beside ``tournament.json``, which names what decides the games. Run the same tournament
again with the same folder and only the sets not yet there are played; the results are
those of one uninterrupted run (the timings aside). A folder made for another tournament is
refused rather than mixed in.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from rummykit.tournament.config import SimConfig, SimError
from rummykit.tournament.tally import SetTally, tally_from_json, tally_to_json

IDENTITY_FILE = "tournament.json"


def identity(config: SimConfig) -> dict[str, Any]:
    """What decides a set's games (the number of sets does not: more may be added later)."""
    return {
        "bots": list(config.bots),
        "preset": config.preset.name,
        "rules": repr(config.rules),
        "seed": config.seed,
        "action_cap": config.action_cap,
    }


class Checkpoint:
    """The folder of one tournament's finished sets."""

    def __init__(self, folder: Path, config: SimConfig) -> None:
        """Use ``folder`` for ``config``'s tournament, made if new.

        ``SimError`` if it holds another tournament's sets.
        """
        self.folder = folder
        wanted = identity(config)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / IDENTITY_FILE
        if path.exists():
            try:
                found = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise SimError(f"{path} cannot be read: {error}.") from None
            if found != wanted:
                differences = _differences(found, wanted)
                raise SimError(
                    f"{folder} holds the sets of another tournament ({differences});"
                    " name another folder."
                )
        else:
            _write_atomically(path, json.dumps(wanted, indent=2) + "\n")

    def _path(self, set_index: int) -> Path:
        return self.folder / f"set-{set_index:05d}.json"

    def load(self, sets: int) -> dict[int, SetTally]:
        """The tallies of the sets among the first ``sets`` already played, by set number."""
        found: dict[int, SetTally] = {}
        for set_index in range(sets):
            path = self._path(set_index)
            if not path.exists():
                continue
            try:
                found[set_index] = tally_from_json(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise SimError(
                    f"{path} cannot be read ({error}); remove it to play that set again."
                ) from None
        return found

    def save(self, set_index: int, tally: SetTally) -> None:
        """Keep one finished set's tally."""
        _write_atomically(self._path(set_index), json.dumps(tally_to_json(tally)) + "\n")


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_suffix(path.suffix + ".part")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def _differences(found: object, wanted: dict[str, Any]) -> str:
    if not isinstance(found, dict):
        return "unreadable settings"
    names = [name for name in wanted if found.get(name) != wanted[name]]
    return "other " + ", ".join(names) if names else "other settings"
