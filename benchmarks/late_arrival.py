"""A late arrival's clock: how much of a 30 s turn a person has when they reach the table.

Issue 27: a friend still reading the deal's summary (or slow to open the party's first table)
arrived at their first turn with 24.4 s of 30: the clock had started without them. Now a
person's turn is timed from its start only once their page has the deal, and the next deal
waits for everyone still reading (``rummykit.server.tables.next_deal``).

On the real clock, a party of Ann and Bob with a 30 s turn timer, played over the server's
socket (Starlette's test client, the app in this process):

- **first table**: the player to act first opens the party's first table ``--read`` seconds
  after the other; the seconds of the turn left when their view arrives;
- **next deal**: at the end of the first deal the other player presses "Next deal" at once,
  the one to act first ``--read`` seconds later; the seconds left on their first turn of the
  second deal when it is dealt.

Each line is ``deadline - server_now`` of the view that seat received (the page counts down
from it). The whole turn is 30.0.

    .venv/bin/python benchmarks/late_arrival.py --read 5.6

``tests/benchmarks/test_late_arrival_smoke.py`` runs it without the wait (``--read 0``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# run as a script: tests/ holds the socket clients the server tests use
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from starlette.testclient import TestClient

from party_client import open_seat, started_party
from rummykit.protocol.limits import Limits
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from table_client import WORKERS, SeatSocket, bearer, simple_choice

TURN_TIMER = 30
Frame = dict[str, Any]


def _last_version(seat: SeatSocket) -> int:
    version: int = next(f for f in reversed(seat.frames) if f["t"] == "view")["v"]
    return version


def _catch_up(seat: SeatSocket, version: int) -> None:
    if _last_version(seat) < version:
        seat.until(lambda frame: frame["t"] == "view" and frame["v"] >= version)


def _left(view: dict[str, Any]) -> float:
    """The seconds of the turn left as the view says (what the page counts down from)."""
    return float(view["deadline"] - view["server_now"])


def measure(read_s: float, say: Callable[[str], None] = print) -> dict[str, float]:
    """Both late arrivals, each ``read_s`` late; the seconds left at each."""
    found: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            ServerConfig(
                store_path=Path(folder) / "tables.sqlite3",
                accept_seeds=True,
                limits=Limits.unlimited(),
            ),
            workers=WORKERS,
        )
        with TestClient(app) as client:
            rules = {"deals": 2, "renewals": 1}
            _, table, tokens = started_party(
                client, ["Ann", "Bob"], rules=rules, turn_timer=TURN_TIMER
            )
            answer = client.get(f"/api/tables/{table}", headers=bearer(tokens[0])).json()
            first = answer["view"]["turn"]
            with open_seat(client, table, tokens[1 - first]) as other:
                time.sleep(read_s)  # the first player is still on their way
                with open_seat(client, table, tokens[first]) as late:
                    found["first_table"] = _left(late.view)
                    say(f"first table, opened {read_s} s late: {found['first_table']:.1f} s")
                    found["next_deal"] = _second_deal(read_s, {first: late, 1 - first: other})
                    say(f"next deal, pressed {read_s} s late: {found['next_deal']:.1f} s")
    return found


def _second_deal(read_s: float, seats: dict[int, SeatSocket]) -> float:
    """Play the first deal out; the second deal's first player presses ``read_s`` late."""
    watcher = seats[0]
    while watcher.view["phase"] != "over":
        seat = seats[watcher.view["turn"]]
        _catch_up(seat, _last_version(watcher))
        played: Frame = seat.act(simple_choice(seat.view["legal"]))
        for each in seats.values():
            _catch_up(each, played["v"])
    starter = (watcher.view["dealer"] + 2) % 2  # the seat after the next dealer
    early = 1 - starter
    seats[early].send("next", version=_last_version(seats[early]))
    seats[starter].until(lambda f: f["t"] == "view" and f["d"]["next_ready"] == [early])
    time.sleep(read_s)  # still reading the summary
    seats[starter].send("next", version=_last_version(seats[starter]))
    dealt: Frame = seats[starter].until(lambda f: f["t"] == "view" and f["d"]["deal"] == 1)
    return _left(dealt["d"])


def main(argv: list[str] | None = None) -> int:
    """Measure and print both figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--read", type=float, default=5.6, help="seconds late (default 5.6)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    found = measure(args.read, (lambda _: None) if args.json else print)
    if args.json:
        print(json.dumps(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
