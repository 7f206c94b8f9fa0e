"""Helpers for party tests: making and joining parties, their lobby's socket, and seats.

Ranked parties: ``account`` signs up and gives the headers of its session, which ``post``
sends by hand (the client's own jar cleared), so one client acts for several accounts;
``started_ranked`` makes and starts a ranked party of them.

``PartySocket`` is a member's (or a visitor's) connection to ``/ws/party/{code}``;
``open_seat`` opens a table's socket the way every client now does, with the token in the
first message (``hello``); ``play_seat`` plays one seat of a party's table to the end of the
game, tolerating the refusals that several people acting at once cause (two pressing "next
deal" together: one of them is stale).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import json
import random
import re
from collections.abc import Callable, Container, Iterator, Sequence
from pathlib import Path
from typing import Any

from rummykit.core.deal import DealResult, DealSummary
from rummykit.protocol.account import SESSION_COOKIE
from rummykit.protocol.party import PARTY_SERVER_MESSAGES
from rummykit.protocol.settings import HumanPlayer, TableSettings
from rummykit.ratings import TRUSTED_DAYS, TRUSTED_GAMES, Pool
from rummykit.server.store.rated import RatedGame
from rummykit.server.store.seat_figures import Played
from rummykit.server.store.store import Store
from table_client import (
    MAX_FRAMES,
    Frame,
    ManualClock,
    SeatSocket,
    hello,
    is_my_turn,
    seat_connection,
    simple_choice,
)

SHORT_GAME: dict[str, Any] = {"deals": 1}
"""Rules for a game of one deal: party tests play whole games quickly."""


def new_party(client: Any, name: str = "Ann", **body: Any) -> tuple[str, str]:
    """POST /api/parties; the party's code and the host's token."""
    response = client.post("/api/parties", json={"name": name, **body})
    assert response.status_code == 200, response.text
    answer = response.json()
    # the link: the code, then a key of 128 bits from secrets (22 URL-safe letters)
    assert re.fullmatch(rf"/#/party/{answer['code']}\.[A-Za-z0-9_-]{{22}}", answer["url"])
    return answer["code"], answer["token"]


def join_party(client: Any, code: str, name: str) -> str:
    """POST /api/parties/{code}/join; the member's token (a refusal fails)."""
    response = client.post(f"/api/parties/{code}/join", json={"name": name})
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


class PartySocket:
    """One connection to a party's lobby: every frame parsed and kept."""

    def __init__(self, websocket: Any) -> None:
        self.ws = websocket
        self.frames: list[Frame] = []
        self.party: dict[str, Any] = {}

    def recv(self) -> Frame:
        """The next frame."""
        text = self.ws.receive_text()
        PARTY_SERVER_MESSAGES.validate_json(text)
        frame: Frame = json.loads(text)
        self.frames.append(frame)
        if frame["t"] == "party":
            self.party = frame["d"]
        assert len(self.frames) < MAX_FRAMES
        return frame

    def until(self, condition: Callable[[Frame], bool]) -> Frame:
        """Receive until a frame satisfies ``condition``."""
        while True:
            frame = self.recv()
            if condition(frame):
                return frame

    def until_party(self, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Receive until the party satisfies ``condition`` (refusals fail)."""
        if self.party and condition(self.party):
            return self.party
        frame = self.until(lambda frame: frame["t"] == "refused" or condition(frame["d"]))
        assert frame["t"] == "party", frame
        return self.party

    def send(self, kind: str, data: dict[str, Any] | None = None) -> None:
        """Send a message."""
        self.ws.send_text(json.dumps({"t": kind, "v": 0, "d": data or {}}))

    def refused(self) -> Frame:
        """The next refusal."""
        return self.until(lambda frame: frame["t"] == "refused")


@contextlib.contextmanager
def party_socket(client: Any, code: str, token: str | None) -> Iterator[PartySocket]:
    """A connection to the party's lobby, its first frame received (``None``: a visitor)."""
    with client.websocket_connect(f"/ws/party/{code}") as websocket:
        websocket.send_text(hello(token))  # a party's hello, as a table's
        party = PartySocket(websocket)
        party.recv()
        yield party


@contextlib.contextmanager
def open_seat(
    client: Any, table_id: str, token: str | None, last: int = 0, page: str | None = None
) -> Iterator[SeatSocket]:
    """A table's socket with the token in its hello (``None``: a spectator), the first
    view received; ``last`` is the last version this client saw, ``page`` its client id."""
    with seat_connection(client, table_id, token, last, page) as seat:
        seat.until(lambda frame: frame["t"] == "view")
        yield seat


def started_party(
    client: Any,
    names: list[str],
    cpus: list[str] | None = None,
    rules: dict[str, Any] | None = None,
    **settings: Any,
) -> tuple[str, str, list[str]]:
    """A party of these people (the first hosts) and computer players, started.

    Its rules are ``rules`` (default ``SHORT_GAME``); ``settings`` go to ``new_party``. The
    party's code, its table and each person's token, in seat order.
    """
    rules = SHORT_GAME if rules is None else rules
    code, host = new_party(client, names[0], rules=rules, **settings)
    tokens = [host] + [join_party(client, code, name) for name in names[1:]]
    cpus = cpus or []
    with party_socket(client, code, host) as lobby:
        for level in cpus:
            lobby.send("add_cpu", {"level": level})
        for token in tokens[1:]:
            with party_socket(client, code, token) as member:
                member.send("ready", {"ready": True})
                wait_ready(member)
        lobby.until_party(lambda party: len(party["members"]) == len(names) + len(cpus))
        lobby.send("start")
        party = lobby.until_party(lambda party: party["table"] is not None)
    return code, party["table"], tokens


def wait_ready(member: PartySocket) -> None:
    """Wait until the party shows this member ready."""
    me = member.party["me"]
    member.until_party(
        lambda party: any(each["id"] == me and each["ready"] for each in party["members"])
    )


STALE_CODES = ("stale", "wrong_phase", "game_over")
"""Refusals a seat may get when another person acted first (both pressed "next deal")."""


def play_seat(
    seat: SeatSocket, choose: Callable[[list[str]], str] = simple_choice
) -> dict[str, Any]:
    """Play this seat until the game is over; its last view.

    Deals the next deal when one is over (another seat may have done so first).
    """
    acted_at = -1
    pending = [_current(seat)] if seat.view else []
    while True:
        frame = pending.pop() if pending else seat.recv()
        if frame["t"] == "refused":
            assert frame["d"]["code"] in STALE_CODES, frame
            continue
        if frame["t"] != "view" or frame["v"] == acted_at:
            continue
        view: dict[str, Any] = frame["d"]
        if view["game_over"]:
            return view
        if view["phase"] == "over":
            acted_at = frame["v"]
            seat.send("next", version=frame["v"])
        elif is_my_turn(view):
            acted_at = frame["v"]
            seat.send("act", {"action": choose(view["legal"])}, version=frame["v"])


def play_everyone(seats: dict[int, SeatSocket]) -> dict[int, dict[str, Any]]:
    """Each person plays their seat in a thread of their own, to the end of the game."""
    with concurrent.futures.ThreadPoolExecutor(len(seats)) as pool:
        plays = {seat: pool.submit(play_seat, socket) for seat, socket in seats.items()}
        return {seat: play.result(timeout=100) for seat, play in plays.items()}


def _current(seat: SeatSocket) -> Frame:
    return {"t": "view", "v": seat.version, "d": seat.view}


PASSWORD = "correct horse battery"
"""Every test account's password."""


def account(client: Any, name: str, *, bot: bool = False) -> dict[str, str]:
    """Sign up ``name`` (a program's account with ``bot``): the headers of its session."""
    body = {"name": name, "password": PASSWORD, "bot": bot}
    answer = client.post("/api/accounts", json=body)
    assert answer.status_code == 200, answer.text
    token = answer.cookies[SESSION_COOKIE]
    client.cookies.clear()
    return {"cookie": f"{SESSION_COOKIE}={token}"}


def post(client: Any, path: str, body: dict[str, Any], who: dict[str, str] | None) -> Any:
    """POST ``body`` as the account whose session headers are ``who`` (``None``: a guest)."""
    client.cookies.clear()
    return client.post(path, json=body, headers=who or {})


def ranked_party(
    client: Any, host: dict[str, str] | None, **body: Any
) -> tuple[int, dict[str, Any]]:
    """POST a ranked party of a short game, timed, hosted by ``host``: status and answer."""
    body = {"name": "Host", "rules": SHORT_GAME, "ranked": True, "turn_timer": 60, **body}
    answer = post(client, "/api/parties", body, host)
    return answer.status_code, answer.json()


def started_ranked(
    client: Any, people: list[dict[str, str]], seed: int = 7
) -> tuple[str, str, list[str]]:
    """A ranked party of these accounts (the first hosts), started: code, table, tokens."""
    status, made = ranked_party(client, people[0], seed=seed)
    assert status == 200, made
    code = made["code"]
    tokens = [made["token"]]
    for who in people[1:]:
        joined = post(client, f"/api/parties/{code}/join", {"name": "x"}, who)
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    with party_socket(client, code, tokens[0]) as lobby:
        for token in tokens[1:]:
            with party_socket(client, code, token) as member:
                member.send("ready", {"ready": True})
                wait_ready(member)
        lobby.send("start")
        party = lobby.until_party(lambda party: party["table"] is not None)
    return code, party["table"], tokens


def accounts_store(
    path: Path | str, clock: ManualClock, names: tuple[str, ...], bots: Container[str] = ()
) -> Store:
    """A store on ``clock`` with these accounts (ids 1, 2, ... in order); ``bots``' are BOT."""
    store = Store(path, now=clock.time)
    for name in names:
        assert store.accounts.add(name, name in bots, "hash") is not None
    return store


def store_rated_game(store: Store, rated: RatedGame) -> None:
    """Make ``rated``'s table in the store and finish it, rating it as a ranked table does.

    Each seat plays one turn, in seat order, and the game is one deal that the best total
    went out of, scoring the totals (unless ``rated`` has its own deals).
    """
    people = tuple(HumanPlayer(kind="human", name=f"P{seat}") for seat in rated.accounts)
    settings = TableSettings(rules="standard", players=people, practice=False)
    store.create_table(rated.table_id, settings, {}, (0, (), 0))
    if not rated.deals:
        best = (min if rated.pool.lower_wins else max)(rated.totals)
        out = DealSummary(0, DealResult.OUT, rated.totals.index(best), rated.totals)
        rated = dataclasses.replace(rated, deals=(out,))
    last = len(rated.accounts) - 1
    for seat in range(last + 1):
        summary = {"players": [person.name for person in people], "scores": list(rated.totals)}
        finished = summary if seat == last else None
        store.add_action(
            rated.table_id,
            0,
            seat,
            "d",
            [],
            seat + 2,
            finished=finished,
            rated=rated if seat == last else None,
            seat=seat,
            by=Played.PERSON,
        )


def play_club(store: Store, clock: ManualClock, members: int, games: int, seed: int = 3) -> None:
    """``games`` four-player winner-scoring games among accounts 1 to ``members``, one a day
    on ``clock``; seeded, and the lower an account's number, the better its totals."""
    rng = random.Random(seed)
    for number in range(games):
        clock.now += 24 * 3600.0
        accounts = tuple(sorted(rng.sample(range(1, members + 1), 4)))
        totals = tuple(rng.randrange(100) - 4 * account for account in accounts)
        store_rated_game(store, RatedGame(f"t{number}", Pool.WINNER, accounts, totals, 1))


def establish(
    store: Store, clock: ManualClock, accounts: Sequence[int], outsiders: Sequence[int]
) -> None:
    """Give each of ``accounts`` ``TRUSTED_GAMES`` won games, each against a fresh outsider,
    and move ``clock`` on by ``TRUSTED_DAYS``.

    ``outsiders`` holds ``TRUSTED_GAMES`` fresh accounts for each of ``accounts``, each met
    once: every account has then met that many people, a week ago, and its results count in
    full against the others (``rummykit.ratings.trust``). The games counted for nothing
    (fresh opponents, who met no one else): every account's rating is still the newcomer's.
    """
    assert len(outsiders) >= TRUSTED_GAMES * len(accounts), "too few outsiders"
    for index, account in enumerate(accounts):
        for number in range(TRUSTED_GAMES):
            outsider = outsiders[index * TRUSTED_GAMES + number]
            rated = RatedGame(
                f"known{account}-{number}", Pool.WINNER, (account, outsider), (90, 10), 1
            )
            store_rated_game(store, rated)
    clock.advance(TRUSTED_DAYS * 24 * 3600.0)


def known_accounts(store_path: Path, clock: ManualClock, accounts: tuple[int, ...]) -> None:
    """Make these accounts of the store at ``store_path`` known (``establish``), against
    outsiders added after them: their results count in full against each other, though the
    test client gives every account one network; their ratings stay the newcomer's."""
    store = Store(store_path, now=clock.time)
    first = 1 + max(accounts)
    outsiders = TRUSTED_GAMES * len(accounts)
    for number in range(outsiders):
        assert store.accounts.add(f"Out{number}", False, "hash") is not None
    establish(store, clock, accounts, range(first, first + outsiders))
    store.close()
