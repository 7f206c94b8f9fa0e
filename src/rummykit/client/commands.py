"""``rummy party new`` and ``rummy join``: a program takes a seat at a party and plays it.

Both end the same way: the seat is played to the game's end by a bot, the record is written
if asked (``--record``), and the last line says the result. With ``--account NAME`` the seat
is that account's: its kept session (``rummykit.client.account``) goes with the party's
requests and sockets, and the server names the member after it. Exit codes: 0 the game was
played to its end; 1 the party could not be made or joined, the server refused the account's
session, or the seat was lost (a sentence says why); 2 the command itself is wrong
(argparse's usage errors, an unreadable option, an account not kept on this device).
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from rummykit.client.account import (
    AccountFileError,
    AccountNotKept,
    account_headers,
    default_accounts_path,
    kept_account,
    signed_in,
)
from rummykit.client.addresses import party_code, party_reference
from rummykit.client.party import PartyPlan, PartySession, PartyStopped
from rummykit.client.player import GaveUp, TablePlayer
from rummykit.client.report import Report
from rummykit.client.seat_file import (
    Seat,
    SeatFileError,
    default_seat_path,
    load_seat,
    save_seat,
)
from rummykit.client.servers import Servers, signed_for
from rummykit.client.sockets import Backoff, SeatLost
from rummykit.client.web import (
    PartyRefused,
    ServerError,
    create_party,
    game_record,
    invite_link,
    join_party,
)
from rummykit.core.presets import TABLE_PRESET
from rummykit.protocol import BotLevel, NewParty, RuleValue, TurnTimer


@dataclasses.dataclass(frozen=True, slots=True)
class SeatOptions:
    """What both commands share: where, who plays, and what to write at the end."""

    servers: tuple[str, ...]
    """The site's addresses (``--server``, once or more): the first names the site."""
    bot: str
    name: str
    record: Path | None = None
    as_json: bool = False
    seat_file: Path | None = None
    pace_ms: int | None = None
    account: str | None = None
    """The kept account to play as (``--account``)."""
    signed: Mapping[str, str] | None = None
    """The headers that sign the account in, once its session is checked."""
    start_within_s: float | None = None
    """Leave a party joined whose table is not dealt within this many seconds."""

    @property
    def server(self) -> str:
        """The site's first address: its name for the seat file and the kept account."""
        return self.servers[0]


@dataclasses.dataclass(frozen=True, slots=True)
class NewPartyOptions:
    """``rummy party new``'s own options."""

    preset: str = TABLE_PRESET
    rules: tuple[tuple[str, RuleValue], ...] = ()
    timer: TurnTimer | None = None
    players: int = 2
    cpus: tuple[BotLevel, ...] = ()
    ranked: bool = False
    """The party's games are rated (``--ranked``: accounts only, a turn timer)."""


def _play(
    options: SeatOptions,
    sites: Servers,
    seat: Seat,
    plan: PartyPlan,
    report: Report,
    *,
    rejoined: bool,
) -> int:
    """The party until its table is dealt, then the table to the game's end.

    At ``sites``, from the address in use.
    """
    session = PartySession(sites, seat.code, seat.token, report, signed=options.signed)
    party = session.wait_for_table(plan)
    assert party.table is not None
    report.say(f"Playing at table {party.table} with the {options.bot} bot.")
    player = TablePlayer(
        sites,
        party.table,
        seat.token,
        options.bot,
        report,
        rng=random.Random(),
        pace_ms=options.pace_ms,
        signed=options.signed,
    )
    view = player.play()
    if options.record is not None:
        record = _fetch_record(sites, view.table, seat.token)
        options.record.parent.mkdir(parents=True, exist_ok=True)
        options.record.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
        report.say(f"The game's record is in {options.record}.")
    report.finished(view, rejoined=rejoined)
    return 0


RECORD_TRIES: Final = 8
"""Tries to fetch the finished game's record while the server cannot be reached (about a
minute with the waits of ``Backoff``): the game is over, so no seat waits on this."""


def _fetch_record(sites: Servers, table: str, token: str) -> dict[str, Any]:
    backoff = Backoff()

    def fetch(server: str) -> dict[str, Any]:
        return game_record(server, table, token)

    for _ in range(RECORD_TRIES - 1):
        try:
            return sites.first_answer(fetch)
        except ServerError as error:
            if error.status is not None:
                raise  # an answer, not an absence: trying again would get the same
        time.sleep(backoff.next_wait())
    return sites.first_answer(fetch)


def _failed(command: str, report: Report, message: str, status: int = 1) -> int:
    report.note(f"rummy {command}: {message}")
    return status


class AccountProblem(Exception):
    """``--account`` cannot be played: a sentence, and the exit code."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.message = message
        self.status = status


def signed_options(options: SeatOptions) -> SeatOptions:
    """``options`` with the site's addresses checked, signed in as ``--account`` if given.

    The account's name becomes the seat's; ``ValueError`` for an address that is none.

    ``AccountProblem``: 2 for an account not kept here (or for another site), 1 for a
    session the site refuses or a site that does not answer at any address.
    """
    sites = Servers(options.servers)
    options = dataclasses.replace(options, servers=sites.urls)
    if options.account is None:
        return options
    try:
        kept = kept_account(default_accounts_path(), options.account, sites.site)
    except (AccountNotKept, AccountFileError) as error:
        raise AccountProblem(str(error), 2) from None
    try:
        me = sites.first_answer(lambda url: signed_in(kept.model_copy(update={"server": url})))
    except ServerError as error:
        raise AccountProblem(error.message, 1) from None
    return dataclasses.replace(options, name=me.name, signed=account_headers(kept))


def _refused_sentence(error: ServerError) -> str:
    """The server's refusal as one line; a hint where the command line can mend it."""
    if error.code == "ranked_account":
        return (
            f"{error.message} Play as a kept account with --account NAME (made by "
            "`rummy account new --server URL --name NAME --bot-account`)."
        )
    return error.message


def _stopped(command: str, report: Report, error: PartyStopped) -> int:
    return _failed(command, report, f"The party cannot go on: {error.message} ({error.code})")


def new_party(options: SeatOptions, party: NewPartyOptions, report: Report) -> int:
    """``rummy party new``: create the party, print its code and link, fill it, play."""
    try:
        options = signed_options(options)
    except ValueError as error:
        return _failed("party new", report, str(error))
    except AccountProblem as error:
        return _failed("party new", report, error.message, error.status)
    server = options.server
    sites = Servers(options.servers)
    request = NewParty(
        name=options.name,
        preset=party.preset,
        rules=dict(party.rules),
        turn_timer=party.timer,
        ranked=party.ranked,
    )
    try:
        joined = sites.first_answer(
            lambda url: create_party(url, request, signed_for(options.signed, url))
        )
    except PartyRefused as error:
        return _failed("party new", report, f"Cannot make the party: {_refused_sentence(error)}")
    except ServerError as error:
        return _failed("party new", report, error.message)
    report.invite(joined.code, invite_link(server, joined.url))
    if party.ranked:
        report.say(
            f"The party is ranked: its games count on the leaderboard ({party.timer} s a turn). "
            f"Everyone joins with an account: rummy join {joined.code} --server {server} "
            "--account NAME --bot LEVEL"
        )
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
        return _play(options, sites, seat, plan, report, rejoined=False)
    except PartyStopped as error:
        return _stopped("party new", report, error)
    except (SeatLost, GaveUp, ServerError, OSError) as error:
        return _failed("party new", report, getattr(error, "message", str(error)))


def join(options: SeatOptions, code_or_link: str, report: Report) -> int:
    """``rummy join``: take a seat at the party (or return to the one kept), ready, play."""
    try:
        sites = Servers(options.servers)
        server = sites.site
        code = party_code(code_or_link)
        reference = party_reference(code_or_link)
        path = options.seat_file or default_seat_path(server, code, options.account)
        kept = load_seat(path, server, code)
    except (ValueError, SeatFileError) as error:
        return _failed("join", report, str(error))
    try:
        options = signed_options(options)
    except AccountProblem as error:
        return _failed("join", report, error.message, error.status)
    rejoined = kept is not None
    if kept is not None:
        seat = kept
        report.say(f"Rejoined party {code} as {seat.name} (seat kept in {path}).")
    else:
        try:
            joined = sites.first_answer(
                lambda url: join_party(
                    url, reference, options.name, signed_for(options.signed, url)
                )
            )
        except PartyRefused as error:
            watch = " It can be watched instead, from its link." if error.watch else ""
            said = _refused_sentence(error)
            return _failed("join", report, f"Cannot join party {code}: {said}{watch}")
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
        plan = PartyPlan(start_within_s=options.start_within_s)
        return _play(options, sites, seat, plan, report, rejoined=rejoined)
    except PartyStopped as error:
        return _stopped("join", report, error)
    except (SeatLost, GaveUp, ServerError, OSError) as error:
        return _failed("join", report, getattr(error, "message", str(error)))
