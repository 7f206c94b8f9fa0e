"""One task per table: its turns, its seats, its computer players, what it says."""

from rummykit.server.tables.frames import replay_frames_json
from rummykit.server.tables.new_table import (
    TableError,
    computer_names,
    new_table_settings,
    rules_in_play,
)
from rummykit.server.tables.table import Sleep, Table, fresh_table, new_seat_token, restore_table
from rummykit.server.tables.turn_keeper import Send

__all__ = [
    "Send",
    "Sleep",
    "Table",
    "TableError",
    "computer_names",
    "fresh_table",
    "new_seat_token",
    "new_table_settings",
    "replay_frames_json",
    "restore_table",
    "rules_in_play",
]
