"""Programs' accounts online, in a real browser: the lobby lists them, a program's page says it
is online and challenges it, the leaderboard marks it, a party's host invites it.

The program is stood in for by ``OnlineProgram``: a thread that speaks docs/PROTOCOL.md §7 as
a program written from it would. It signs up a program's account over HTTP, opens ``/ws/bot``
with its session cookie, says its limits in ``hello``, and answers each invitation by them
with the server's own rule (``decline_reason``); accepting, it joins the party by the
invitation's link with its cookie and marks ready on the party's socket. Each frame it
receives is checked against the published models.
"""

from __future__ import annotations

import contextlib
import json
import threading
import urllib.request
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from party_client import PASSWORD, store_rated_game
from rummykit.core.presets import PARTY_PRESET
from rummykit.protocol.account import SESSION_COOKIE
from rummykit.protocol.bot_stream import (
    BOT_SERVER_MESSAGES,
    BotLimits,
    InvitationView,
    decline_reason,
)
from rummykit.ratings import Pool
from rummykit.server.store.rated import RatedGame
from table_client import LiveServer, hello
from web import test_accessibility
from web.test_party_page import host_party, member, serving
from web_helpers import People, violations, wait_until
from web_languages import SIZES, english_left_over, language_page, open_lobby, wait_language

pytestmark = [pytest.mark.e2e]

axe_script = test_accessibility.axe_script
"""axe-core's browser build (the accessibility tests' fixture)."""

ANSWER_WAIT_S = 15.0
"""How long a held program waits for the test to let it answer: the server's own wait for
an answer (``ANSWER_WITHIN_S``), after which the invitation is gone anyway."""


def _frame(kind: str, data: dict[str, Any]) -> str:
    return json.dumps({"t": kind, "v": 0, "d": data})


def _post(server: LiveServer, path: str, body: dict[str, Any], cookie: str = "") -> Any:
    """POST JSON as a program does (its own cookie, the site's origin): the answer."""
    headers = {"Content-Type": "application/json", "Origin": server.url}
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(
        server.url + path, json.dumps(body).encode(), headers, method="POST"
    )
    return urllib.request.urlopen(request, timeout=10)


class OnlineProgram:
    """A program's account online with ``limits``, its stream on a thread of its own.

    It answers each invitation by its limits; ``held``, each answer waits for ``answer()``,
    so a page's waiting line can be seen. ``answers`` lists (host, preset, decline reason or
    None) as it answered; ``games`` the tables its stream said were dealt.
    """

    def __init__(self, server: LiveServer, name: str, *, held: bool = False, **limits: Any):
        self.server = server
        self.name = name
        self.limits = BotLimits.model_validate_json(json.dumps(limits))  # as the server reads it
        self.held = held
        self.answers: list[tuple[str, str, str | None]] = []
        self.games: list[str] = []
        self.failure: BaseException | None = None
        self.parties = contextlib.ExitStack()
        """The parties' sockets it holds, open until it goes offline."""
        self.welcomed = threading.Event()
        self.go = threading.Semaphore(0)
        self.stopping = threading.Event()
        answer = _post(server, "/api/accounts", {"name": name, "password": PASSWORD, "bot": True})
        cookie = SimpleCookie(answer.headers["Set-Cookie"])[SESSION_COOKIE].value
        self.cookie = f"{SESSION_COOKIE}={cookie}"
        self.thread = threading.Thread(target=self._run, name=f"program-{name}", daemon=True)

    def __enter__(self) -> OnlineProgram:
        self.thread.start()
        assert self.welcomed.wait(10), f"{self.name} was not welcomed: {self.failure!r}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(10)
        assert not self.thread.is_alive(), f"{self.name}'s stream did not stop"
        if self.failure is not None and exc[0] is None:
            raise AssertionError(f"{self.name}'s stream failed") from self.failure

    def answer(self) -> None:
        """Let a held program answer its next invitation."""
        self.go.release()

    def _run(self) -> None:
        try:
            url = f"ws://127.0.0.1:{self.server.port}/ws/bot"
            origin = Origin(self.server.url)
            with connect(url, origin=origin, additional_headers={"Cookie": self.cookie}) as stream:
                stream.send(_frame("hello", {"limits": self.limits.model_dump(mode="json")}))
                self._listen(stream)
        except BaseException as error:  # told to the test at exit
            self.failure = error
        finally:
            self.parties.close()

    def _listen(self, stream: ClientConnection) -> None:
        while not self.stopping.is_set():
            try:
                text = stream.recv(timeout=0.1)
            except TimeoutError:
                continue
            except ConnectionClosed:
                return
            message = BOT_SERVER_MESSAGES.validate_json(text)
            frame = json.loads(text)
            match message.t:
                case "welcome":
                    self.welcomed.set()
                case "invitation":
                    self._answer(stream, InvitationView.model_validate(frame["d"]))
                case "game_started":
                    self.games.append(frame["d"]["table"])
                case "refused":
                    raise AssertionError(f"the server refused the program: {frame}")

    def _answer(self, stream: ClientConnection, invitation: InvitationView) -> None:
        if self.held and not self.go.acquire(timeout=ANSWER_WAIT_S):
            raise AssertionError(f"the test never let {self.name} answer {invitation}")
        reason = decline_reason(self.limits, invitation, playing=len(self.games))
        self.answers.append((invitation.host, invitation.preset, reason))
        if reason is not None:
            stream.send(_frame("decline", {"invitation": invitation.id, "reason": reason}))
            return
        stream.send(_frame("accept", {"invitation": invitation.id}))
        self._join_ready(invitation)

    def _join_ready(self, invitation: InvitationView) -> None:
        """Join by the invitation's link, signed in, and mark ready on the party's socket, kept
        open (``test_ranked_page.program_joins_ready`` does the same for a program it drives)."""
        reference = invitation.url.rsplit("/", 1)[-1]
        joined = json.load(
            _post(self.server, f"/api/parties/{reference}/join", {"name": self.name}, self.cookie)
        )
        url = f"ws://127.0.0.1:{self.server.port}/ws/party/{invitation.code}"
        socket = self.parties.enter_context(connect(url, origin=Origin(self.server.url)))
        socket.send(hello(joined["token"]))
        socket.recv(timeout=10)  # the party as it stands
        socket.send(json.dumps({"t": "ready", "v": 0, "d": {"ready": True}}))
        while True:  # until the party's view says so
            frame = json.loads(socket.recv(timeout=10))
            if frame["t"] == "refused":
                raise AssertionError(f"the party refused the program: {frame}")
            if frame["t"] != "party":
                continue
            mine = [each for each in frame["d"]["members"] if each["id"] == joined["member"]]
            if mine and mine[0]["ready"]:
                return


def sign_up_in_dialog(page: Page, name: str) -> None:
    """In the account dialog the page opened: make the account ``name``."""
    page.get_by_test_id("account-make-one").click()
    page.get_by_test_id("account-name").fill(name)
    page.get_by_test_id("account-password").fill(PASSWORD)
    page.get_by_test_id("account-repeat").fill(PASSWORD)
    page.get_by_test_id("account-submit").click()
    expect(page.get_by_test_id("account-dialog")).to_be_hidden()
    expect(page.get_by_test_id("account-label")).to_have_text(name)


def rate_a_game(server: LiveServer, table: str, names: tuple[str, ...], pool: Pool) -> None:
    """A ranked game among ``names`` in ``pool``, put in the store as a finished table does."""
    store = server.app.state.lobby.store
    accounts = tuple(store.accounts.named(name).id for name in names)
    totals = tuple(90 - 10 * seat for seat in range(len(names)))
    store_rated_game(store, RatedGame(table, pool, accounts, totals, 1))


def board_row(page: Page, name: str) -> Any:
    return page.locator(f'[data-testid="board-row"][data-name="{name}"]')


@pytest.mark.timeout(60)
def test_a_person_sees_a_program_online_challenges_it_is_declined_then_plays_it(
    people: People, tmp_path: Path
) -> None:
    people.expected.append("409 (Conflict) at */api/challenges")  # the decline, on purpose
    with serving(tmp_path, people=people) as server:
        ada = people.new_page()
        limits = {"presets": ["classic", "party"], "games": 2}
        with OnlineProgram(server, "robo", held=True, **limits) as robo:
            challenge_robo(ada, server, robo)
        # offline now: the page says so, and offers no challenge
        ada.goto(f"{server.url}/#/player/robo")
        expect(ada.get_by_test_id("player-online")).to_have_text("Offline")
        expect(ada.get_by_test_id("player-offline-help")).to_have_text(
            "A program can be challenged while it is online."
        )
        expect(ada.get_by_test_id("challenge-form")).to_have_count(0)


def challenge_robo(ada: Page, server: LiveServer, robo: OnlineProgram) -> None:
    """From the lobby to robo's page, signed up there; a challenge robo declines, then one
    it accepts and the game started; the leaderboard's mark of robo online."""
    ada.goto(server.url + "/")
    # the lobby lists the program, marked BOT, free for a game, linked to its page
    listed = ada.get_by_test_id("bots-online").get_by_test_id("bot-online")
    expect(listed).to_have_count(1)
    expect(listed.get_by_test_id("bot-badge")).to_have_text("BOT")
    expect(listed.get_by_test_id("bot-playing")).to_have_text("free for a game")
    listed.get_by_role("link", name="robo").click()
    ada.wait_for_url("**/#/player/robo")
    expect(ada.get_by_test_id("player-online")).to_have_text("Online")
    # signed out: no form, the way to sign in; signed up there, the form
    expect(ada.get_by_test_id("challenge-form")).to_have_count(0)
    expect(ada.get_by_test_id("challenge-signed-out")).to_contain_text(
        "Sign in to challenge robo to a game."
    )
    ada.get_by_test_id("challenge-sign-in").click()
    expect(ada.get_by_test_id("account-why")).to_contain_text("challenge robo")
    sign_up_in_dialog(ada, "Ada")
    form = ada.get_by_test_id("challenge-form")
    expect(form).to_be_visible()
    # preselected: the program's first house rules, 60 s, ranked, the programs' pool
    expect(form.get_by_label("House rules")).to_have_value("classic")
    expect(form.get_by_label("Time for each turn")).to_have_value("60")
    expect(form.get_by_label("Ranked (counts for rating)")).to_be_checked()
    expect(form.get_by_label("Rate it with people's games")).not_to_be_checked()
    expect(form.get_by_test_id("challenge-plays")).to_have_text(
        "robo plays these house rules: classic and party."
    )
    # ranked needs a timer: "No time limit" is no choice while it is ticked
    no_limit = form.get_by_label("Time for each turn").locator("option[value='']")
    expect(no_limit).to_be_disabled()
    # house rules it does not play: it declines, and the page says why in its words
    form.get_by_label("House rules").select_option("knock")
    form.get_by_test_id("challenge-button").click()
    status = ada.get_by_test_id("challenge-status")
    expect(status).to_have_text("Waiting for robo to answer…")
    expect(status).to_have_attribute("aria-live", "polite")
    expect(form.get_by_test_id("challenge-button")).to_be_disabled()
    robo.answer()
    expect(ada.get_by_test_id("challenge-error")).to_have_text(
        "robo declined: it does not play these house rules."
    )
    expect(status).to_be_empty()
    # rules it plays, ranked: the party page, the program joined and ready, and Start
    form.get_by_label("House rules").select_option("classic")
    form.get_by_test_id("challenge-button").press("Enter")
    expect(status).to_have_text("Waiting for robo to answer…")
    robo.answer()
    ada.wait_for_url("**/#/party/*")
    assert robo.answers == [("Ada", "knock", "preset"), ("Ada", "classic", None)]
    expect(member(ada, "robo").get_by_test_id("bot-badge")).to_have_text("BOT")
    expect(member(ada, "robo")).to_have_attribute("data-ready", "true")
    expect(ada.get_by_test_id("party-ranked-text")).to_have_text(
        "Ranked: these games change your rating."
    )
    expect(ada.get_by_test_id("party-timer")).to_have_value("60")
    start = ada.get_by_test_id("start-party")
    expect(start).to_be_enabled()
    start.click()
    ada.wait_for_url("**/#/table/*")
    table = ada.url.split("#/table/", 1)[1]
    wait_until(lambda: robo.games == [table], timeout=10, what="the program's game_started")
    # the leaderboard marks the program online by its name, and only it
    rate_a_game(server, "rated-with-robo", ("Ada", "robo"), Pool.WINNER_BOTS)
    ada.goto(f"{server.url}/#/leaderboard/winner_bots")
    everyone = ada.get_by_test_id("board-everyone")
    if not everyone.is_checked():
        everyone.check()
    expect(board_row(ada, "robo").get_by_test_id("board-online")).to_have_text("Online")
    expect(board_row(ada, "Ada")).to_be_visible()
    expect(board_row(ada, "Ada").get_by_test_id("board-online")).to_have_count(0)


@pytest.mark.timeout(60)
def test_the_host_invites_a_program_online_and_it_joins_the_party_by_itself(
    people: People, tmp_path: Path
) -> None:
    people.expected.append("409 (Conflict) at */invite")  # the decline, on purpose
    with (
        serving(tmp_path, people=people) as server,
        OnlineProgram(server, "robo") as robo,
        OnlineProgram(server, "duo", max_seats=2) as duo,
    ):
        host = people.new_page()
        host_party(host, server, "Host")
        invite = host.get_by_test_id("invite-bot")
        expect(invite).to_be_visible()
        choice = invite.get_by_label("Program online")
        expect(choice.locator("option")).to_have_text(["duo", "robo"])  # by name
        choice.select_option("robo")
        invite.get_by_test_id("invite-bot-button").click()
        status = invite.get_by_test_id("invite-bot-status")
        expect(status).to_have_text("robo accepted: it is joining the party.")
        expect(member(host, "robo").get_by_test_id("bot-badge")).to_have_text("BOT")
        expect(member(host, "robo")).to_have_attribute("data-ready", "true")
        expect(member(host, "robo")).to_have_attribute("data-connected", "true")
        # a program at the party is not offered again; one that takes two players declines
        expect(choice.locator("option")).to_have_text(["duo"])
        invite.get_by_test_id("invite-bot-button").click()
        expect(status).to_have_text("duo declined: it does not join a party this big.")
        assert robo.answers == [("Host", PARTY_PRESET, None)]  # the lobby's party's rules
        assert duo.answers == [("Host", PARTY_PRESET, "seats")]
        expect(host.get_by_test_id("member")).to_have_count(2)
        # a person who joins sees no invite control: the host's only
        guest = people.new_page()
        guest.goto(host.get_by_test_id("invite-link").input_value())
        guest.get_by_test_id("party-name").fill("Bo")
        guest.get_by_test_id("join-party").click()
        expect(guest.get_by_test_id("members")).to_contain_text("Bo")
        expect(guest.get_by_test_id("invite-bot")).to_be_hidden()
        guest.get_by_test_id("ready-toggle").click()
        start = host.get_by_test_id("start-party")
        expect(start).to_be_enabled()
        start.click()
        host.wait_for_url("**/#/table/*")
        expect(host.locator("[data-name=robo] [data-testid=bot-badge]")).to_have_count(1)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_programs_pages_pass_the_audit_on_a_phone_in_every_language(
    browser: Any, live_server: LiveServer, axe_script: Path, lang: str, tmp_path: Path
) -> None:
    found: dict[str, Any] = {}
    names = ("robo", "Audit")
    with (
        OnlineProgram(live_server, "robo", presets=["classic"]),
        language_page(browser, lang, SIZES["phone"], bypass_csp=True) as page,
    ):
        open_lobby(page, live_server)
        wait_language(page, lang)
        expect(page.get_by_test_id("bot-online")).to_have_count(1)
        found["lobby"] = violations(page)
        page.goto(f"{live_server.url}/#/player/robo")
        page.get_by_test_id("challenge-sign-in").click()
        sign_up_in_dialog(page, "Audit")
        expect(page.get_by_test_id("challenge-form")).to_be_visible()
        found["player page"] = violations(page)
        if lang == "ja":
            found["English on the player page"] = english_left_over(
                page, ("party", "ratings", "account"), names=names
            )
        # four pools on a phone: the switch wraps, the page does not scroll sideways
        rate_a_game(live_server, f"rated-{lang}", ("Audit", "robo"), Pool.WINNER_BOTS)
        page.goto(f"{live_server.url}/#/leaderboard/winner_bots")
        page.get_by_test_id("board-everyone").check()
        expect(board_row(page, "robo").get_by_test_id("board-online")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        screenshot_name = f"leaderboard-programs-{lang}.png"
        page.screenshot(path=str(tmp_path / screenshot_name), full_page=True)
        found["leaderboard"] = violations(page)
        open_lobby(page, live_server)
        page.get_by_test_id("play-with-friends").click()
        expect(page.get_by_test_id("invite-bot")).to_be_visible()
        found["party page"] = violations(page)
        if lang == "ja":
            found["English on the party page"] = english_left_over(
                page, ("party", "lobby"), names=names
            )
    failing = {name: problems for name, problems in found.items() if problems}
    assert not failing, json.dumps(failing, indent=1, ensure_ascii=False)
