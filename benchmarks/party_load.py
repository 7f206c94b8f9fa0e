"""People at parties over real sockets: a party made and started, a seat's hello, its frames.

``start_party`` does what the party page does: the host makes the party
(``POST /api/parties``), the others join (``POST /api/parties/{code}/join``) and mark ready
on the party's socket, the host seats the computer players and starts. Each person comes
from a loopback address of their own (``load_client.client_address``), as in the load
benchmark: the server limits requests per address.

A table's socket takes the seat's token in its first message, ``hello``, with the last
version the client saw (``seat_socket`` opens it, ``hello`` is that message). ``party_player``
is the load benchmark's ``player`` for parties: two people (``load_client.play_table`` each)
and two computer players at a party, game after game.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from benchmarks.load_client import (
    HTTP_TIMEOUT_S,
    RETRY_PAUSE_S,
    PlayerSettings,
    Recorder,
    Refused,
    client_address,
    play_table,
    post_json,
)
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

PEOPLE: Final = 2
"""People at each party of the party load (seats 0 and 1); the rest are computer players."""
PARTY_SEATS: Final = 4

Frame = dict[str, Any]


class PartyRefused(Exception):
    """The party's socket refused a step of the start (its code says why)."""


def hello(token: str, last: int = 0, client: str | None = None) -> str:
    """A socket's first message: the seat's token, the last version seen (0: none) and the
    client's id (intent numbers count under it)."""
    said: dict[str, Any] = {"token": token}
    if client is not None:
        said["client"] = client
    return json.dumps({"t": "hello", "v": last, "d": said})


def message(kind: str, data: dict[str, Any] | None = None, version: int = 0) -> str:
    """A client message of the table's or the party's socket."""
    return json.dumps({"t": kind, "v": version, "d": data or {}})


def socket_from(port: int, path: str, address: str) -> Any:
    """A socket to ``path`` from ``address``, as a browser opens it (no client pings)."""
    return connect(
        f"ws://127.0.0.1:{port}{path}",
        proxy=None,
        local_addr=(address, 0),
        open_timeout=HTTP_TIMEOUT_S,
        ping_interval=None,
        close_timeout=2,
    )


def seat_socket(port: int, table: str, address: str) -> Any:
    """A table's socket (send ``hello`` first: the socket says nothing before it)."""
    return socket_from(port, f"/ws/{table}", address)


async def receive(socket: ClientConnection) -> Frame:
    """The next frame, parsed."""
    frame: Frame = json.loads(await socket.recv())
    return frame


def my_turn(view: dict[str, Any]) -> bool:
    """Whether the view's seat is to act in a deal still going."""
    return bool(view["turn"] == view["seat"] and view["phase"] != "over")


def quick_choice(legal: Sequence[str]) -> str:
    """A person in a hurry: the first draw listed, else the last discard, else the first."""
    draws = [action for action in legal if action.startswith("draw")]
    discards = [action for action in legal if action.startswith("discard")]
    return draws[0] if draws else discards[-1] if discards else legal[0]


@dataclasses.dataclass(frozen=True)
class StartedParty:
    """A party whose table has started: people at seats 0, 1, ... in the order given."""

    code: str
    table: str
    tokens: tuple[str, ...]
    addresses: tuple[str, ...]


async def _joined(port: int, path: str, body: dict[str, Any], address: str) -> tuple[str, str]:
    status, answer = await post_json(port, path, body, address)
    if status != 200:
        raise Refused(f"http {status} on {path.split('/')[-1] or path}")
    return answer["code"], answer["token"]


async def _until_party(
    socket: ClientConnection, condition: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Read the party's socket until the party satisfies ``condition`` (a refusal raises)."""
    while True:
        frame = await receive(socket)
        if frame["t"] == "refused":
            raise PartyRefused(frame["d"]["code"])
        if frame["t"] == "party" and condition(frame["d"]):
            party: dict[str, Any] = frame["d"]
            return party


def _is_ready(member: int, party: dict[str, Any]) -> bool:
    return any(each["id"] == member and each["ready"] for each in party["members"])


async def start_party(
    port: int,
    addresses: Sequence[str],
    cpus: Sequence[str],
    *,
    preset: str = "classic",
    turn_timer: int | None = None,
) -> StartedParty:
    """A party of one person from each address (the first hosts) and computer players of
    ``cpus``' levels, started: its table and each person's token, in seat order."""
    body: dict[str, Any] = {"name": "Person 1", "preset": preset, "spectators": False}
    if turn_timer is not None:
        body["turn_timer"] = turn_timer
    code, host = await _joined(port, "/api/parties", body, addresses[0])
    tokens = [host]
    for number, address in enumerate(addresses[1:], start=2):
        joined = await _joined(
            port, f"/api/parties/{code}/join", {"name": f"Person {number}"}, address
        )
        tokens.append(joined[1])
    seats = len(addresses) + len(cpus)
    async with (
        asyncio.timeout(HTTP_TIMEOUT_S),
        socket_from(port, f"/ws/party/{code}", addresses[0]) as lobby,
    ):
        await lobby.send(hello(host))
        await _until_party(lobby, lambda party: True)
        for level in cpus:
            await lobby.send(message("add_cpu", {"level": level}))
        for token, address in zip(tokens[1:], addresses[1:], strict=True):
            async with socket_from(port, f"/ws/party/{code}", address) as member:
                await member.send(hello(token))
                me = (await _until_party(member, lambda party: True))["me"]
                await member.send(message("ready", {"ready": True}))
                await _until_party(member, functools.partial(_is_ready, me))
        await _until_party(
            lobby,
            lambda party: (
                len(party["members"]) == seats
                and all(m["ready"] or m["host"] for m in party["members"])
            ),
        )
        await lobby.send(message("start"))
        started = await _until_party(lobby, lambda party: party["table"] is not None)
    return StartedParty(code, started["table"], tuple(tokens), tuple(addresses))


def party_addresses(index: int, people: int = PEOPLE) -> list[str]:
    """The loopback addresses of party ``index``'s people (each their own)."""
    return [client_address(index * people + person) for person in range(people)]


SETUP_ERRORS: Final = (
    Refused,
    PartyRefused,
    ConnectionClosed,
    InvalidHandshake,
    OSError,
    TimeoutError,
    ValueError,
    KeyError,
)
"""What a party's start may fail with on a server under load (counted, then tried again)."""


async def party_player(index: int, settings: PlayerSettings, recorder: Recorder) -> None:
    """Party ``index``: two people and two computer players of ``settings.level``, game after
    game until cancelled; each person plays as the load benchmark's ``Seat`` does (``think_s``
    before each action, "next" between deals: both press it, one of them is told it is stale).
    """
    rng = random.Random(index)
    addresses = party_addresses(index)
    cpus = [settings.level] * (PARTY_SEATS - PEOPLE)
    while not recorder.stopping:
        try:
            party = await start_party(settings.port, addresses, cpus)
        except SETUP_ERRORS as error:
            recorder.errors[f"party not started: {type(error).__name__} {error}"[:80]] += 1
            await asyncio.sleep(RETRY_PAUSE_S)
            continue
        recorder.tables_created += 1
        await asyncio.gather(
            *(
                play_table(settings, recorder, rng, party.table, token, address)
                for token, address in zip(party.tokens, party.addresses, strict=True)
            )
        )
