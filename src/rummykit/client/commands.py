"""``rummy party new`` and ``rummy join``: a program takes a seat at a party and plays it.

Both end the same way: the seat is played to the game's end by a bot, the record is written
if asked (``--record``), and the last line says the result. Exit codes: 0 the game was played
to its end; 1 the party could not be joined or the seat was lost (a sentence says why);
2 the command itself is wrong (argparse's usage errors, an unreadable option).
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from pathlib import Path
from typing import Any, Final

from rummykit.client.party import PartyPlan, PartySession
from rummykit.client.player import GaveUp, TablePlayer
from rummykit.client.report import Report
from rummykit.client.seat_file import (
    Seat,
    SeatFileError,
    default_seat_path,
    load_seat,
    save_seat,
)
from rummykit.client.sockets import Backoff, SeatLost
from rummykit.client.web import (
    PartyRefused,
    ServerError,
    base_url,
    create_party,
    game_record,
    invite_link,
    join_party,
    party_code,
)
from rummykit.server.party_messages import NewParty
from rummykit.server.protocol import RuleValue
from rummykit.server.settings import BotLevel, TurnTimer


@dataclasses.dataclass(frozen=True, slots=True)
class SeatOptions:
    """What both commands share: where, who plays, and what to write at the end."""

    server: str
    bot: str
    name: str
    record: Path | None = None
    as_json: bool = False
    seat_file: Path | None = None
    pace_ms: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class NewPartyOptions:
    """``rummy party new``'s own options."""

    preset: str = "classic"
    rules: tuple[tuple[str, RuleValue], ...] = ()
    timer: TurnTimer | None = None
    players: int = 2
    cpus: tuple[BotLevel, ...] = ()


def _play(
    options: SeatOptions, seat: Seat, plan: PartyPlan, report: Report, *, rejoined: bool
) -> int:
    """The party until its table is dealt, then the table to the game's end."""
    session = PartySession(options.server, seat.code, seat.token, report)
    party = session.wait_for_table(plan)
    assert party.table is not None
    report.say(f"Playing at table {party.table} with the {options.bot} bot.")
    player = TablePlayer(
        options.server,
        party.table,
        seat.token,
        options.bot,
        report,
        rng=random.Random(),
        pace_ms=options.pace_ms,
    )
    view = player.play()
    if options.record is not None:
        record = _fetch_record(options.server, view.table, seat.token)
        options.record.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
        report.say(f"The game's record is in {options.record}.")
    report.finished(view, rejoined=rejoined)
    return 0


RECORD_TRIES: Final = 8
"""Tries to fetch the finished game's record while the server cannot be reached (about a
minute with the waits of ``Backoff``): the game is over, so no seat waits on this."""


def _fetch_record(server: str, table: str, token: str) -> dict[str, Any]:
    backoff = Backoff()
    for _ in range(RECORD_TRIES - 1):
        try:
            return game_record(server, table, token)
        except ServerError as error:
            if error.status is not None:
                raise  # an answer, not an absence: trying again would get the same
        time.sleep(backoff.next_wait())
    return game_record(server, table, token)


def _failed(command: str, report: Report, message: str) -> int:
    report.note(f"rummy {command}: {message}")
    return 1


def new_party(options: SeatOptions, party: NewPartyOptions, report: Report) -> int:
    """``rummy party new``: create the party, print its code and link, fill it, play."""
    request = NewParty(
        name=options.name,
        preset=party.preset,
        rules=dict(party.rules),
        turn_timer=party.timer,
    )
    try:
        server = base_url(options.server)
        joined = create_party(server, request)
    except (ServerError, ValueError) as error:
        return _failed("party new", report, str(error))
    report.invite(joined.code, invite_link(server, joined.url))
    seat = Seat(
        server=server,
        code=joined.code,
        token=joined.token,
        member=joined.member,
        name=options.name,
    )
    plan = PartyPlan(host=True, seats=party.players, cpus=party.cpus)
    try:
        if options.seat_file is not None:
            save_seat(options.seat_file, seat)
        return _play(
            dataclasses.replace(options, server=server),
            seat,
            plan,
            report,
            rejoined=False,
        )
    except (SeatLost, GaveUp, ServerError, OSError) as error:
        return _failed("party new", report, getattr(error, "message", str(error)))


def join(options: SeatOptions, code_or_link: str, report: Report) -> int:
    """``rummy join``: take a seat at the party (or return to the one kept), ready, play."""
    try:
        server = base_url(options.server)
        code = party_code(code_or_link)
        path = options.seat_file or default_seat_path(server, code)
        kept = load_seat(path, server, code)
    except (ValueError, SeatFileError) as error:
        return _failed("join", report, str(error))
    rejoined = kept is not None
    if kept is not None:
        seat = kept
        report.say(f"Rejoined party {code} as {seat.name} (seat kept in {path}).")
    else:
        try:
            joined = join_party(server, code, options.name)
        except PartyRefused as error:
            watch = " It can be watched instead, from its link." if error.watch else ""
            return _failed("join", report, f"Cannot join party {code}: {error.message}{watch}")
        except ServerError as error:
            return _failed("join", report, error.message)
        seat = Seat(
            server=server,
            code=joined.code,
            token=joined.token,
            member=joined.member,
            name=options.name,
        )
        try:
            save_seat(path, seat)  # at once: killed from now on, it comes back to this seat
        except OSError as error:
            return _failed("join", report, f"Cannot keep the seat in {path}: {error.strerror}.")
        report.say(f"Joined party {joined.code} as {options.name}.")
    try:
        return _play(
            dataclasses.replace(options, server=server),
            seat,
            PartyPlan(),
            report,
            rejoined=rejoined,
        )
    except (SeatLost, GaveUp, ServerError, OSError) as error:
        return _failed("join", report, getattr(error, "message", str(error)))
