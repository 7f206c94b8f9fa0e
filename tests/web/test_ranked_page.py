"""Accounts and ranked play in a real browser: two people, each in a browser context of their
own (own cookies, own storage), sign up in the page, play a ranked party game by clicks; the
game is on both pages, counted for nothing (two new accounts: ``rummykit.ratings.trust``), and
the player page says so and what counts, in the server's numbers.

Ada signs up through the header's dialog with the keyboard only, makes a ranked party in the
lobby (the timer set to 60 s by ticking "Ranked") and sets one deal on the party page. Bo opens
the invite link signed out: the page says the party is ranked and asks to sign in; Bo signs up
in the dialog it opens (first with a taken name) and is joined at once. The game is played
with ``simple_choice`` and clicks (``test_party_page``'s helpers); the player API, asked with
each context's own cookie, then shows one rated game each.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from websockets.sync.client import connect
from websockets.typing import Origin

from party_client import PASSWORD
from rummykit.ratings import REPEAT_WINDOW_DAYS, TRUSTED_GAMES, TRUSTED_OPPONENTS, Rating
from rummykit.server.accounts.logins import PAIR_FAILURES
from table_client import LiveServer, hello
from web import test_accessibility
from web.test_party_page import mark_ready, member, play_deal, seat_of, serving
from web_helpers import People, screenshot, violations
from web_languages import SIZES, language_page, open_lobby, wait_language

pytestmark = [pytest.mark.e2e]

"""One browser context a person (the party page tests' fixture)."""
axe_script = test_accessibility.axe_script
"""axe-core's browser build (the accessibility tests' fixture)."""


def sign_up_with_keys(page: Page, name: str) -> None:
    """Sign up through the header's account dialog, with the keyboard only: a repeat that
    differs first (the form says so), then the right one."""
    button = page.get_by_test_id("account-button")
    expect(button).to_have_attribute("aria-haspopup", "dialog")
    button.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_test_id("account-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text("Sign in")
    expect(page.get_by_label("Account name")).to_be_focused()
    page.keyboard.press("Shift+Tab")  # "New here? Create an account", above the fields
    expect(page.get_by_test_id("account-make-one")).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog.get_by_role("heading")).to_have_text("Create an account")
    expect(page.get_by_label("Account name")).to_be_focused()
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    expect(page.get_by_label("Password", exact=True)).to_be_focused()
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Tab")
    expect(page.get_by_label("The password again")).to_be_focused()
    page.keyboard.type(PASSWORD + "!")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("account-repeat-error")).to_have_text(
        "The two passwords differ: type the same one twice."
    )
    repeat = page.get_by_label("The password again")
    expect(repeat).to_be_focused()
    expect(repeat).to_have_attribute("aria-invalid", "true")
    page.keyboard.press("Backspace")
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("account-label")).to_have_text(name)
    expect(page.get_by_test_id("sign-out")).to_be_visible()


def make_ranked_party(page: Page) -> str:
    """In the lobby, signed in: tick "Ranked" (the timer becomes 60 s) and make the party;
    then one deal, the stock renewed once at most, on the party page. The party's code."""
    ranked = page.get_by_test_id("friends-ranked")
    expect(ranked).to_be_enabled()
    expect(page.get_by_test_id("friends-timer")).to_have_value("")
    ranked.check()
    expect(page.get_by_test_id("friends-timer")).to_have_value("60")
    expect(page.get_by_test_id("friends-play-as")).to_have_text("You play as Ada (signed in).")
    page.get_by_test_id("play-with-friends").click()
    page.wait_for_url("**/#/party/*")
    expect(page.get_by_test_id("party-ranked-text")).to_have_text(
        "Ranked: these games change your rating."
    )
    expect(page.get_by_test_id("party-ranked")).to_be_checked()
    expect(page.get_by_test_id("party-timer")).to_have_value("60")
    expect(page.get_by_test_id("add-cpu")).to_be_disabled()
    page.get_by_test_id("party-rule-renewals").select_option(label="Once")
    page.get_by_test_id("more-rules").locator("summary").click()
    page.get_by_test_id("party-rule-deals-none").uncheck()
    deals = page.get_by_test_id("party-rule-deals")
    deals.fill("1")
    deals.dispatch_event("change")
    expect(deals).to_have_value("1")
    return page.get_by_test_id("party-code").inner_text()


def sign_up_to_join(page: Page, link: str, tmp_path: Path) -> None:
    """Open the invite link signed out: told the party is ranked, asked to sign in; sign up
    in the dialog (a taken name first), and be joined at once."""
    page.goto(link)
    expect(page.get_by_test_id("party-about")).to_contain_text("party is ranked")
    expect(page.get_by_test_id("party-about")).to_contain_text("Sign in")
    expect(page.get_by_test_id("party-name")).to_be_hidden()
    join = page.get_by_test_id("join-party")
    expect(join).to_have_text("Sign in to join")
    join.click()
    expect(page.get_by_test_id("account-why")).to_contain_text("This party is ranked")
    page.get_by_test_id("account-make-one").click()
    page.get_by_label("Account name").fill("Ada")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("The password again").fill(PASSWORD)
    screenshot(page, "account.png", tmp_path)
    page.get_by_test_id("account-submit").click()
    expect(page.get_by_test_id("account-error")).to_have_text("That name is taken: choose another.")
    page.get_by_label("Account name").fill("Bo_2")
    page.get_by_test_id("account-submit").click()
    expect(page.get_by_test_id("account-dialog")).to_be_hidden()
    expect(page.get_by_test_id("members")).to_contain_text("Bo_2")
    expect(page.get_by_test_id("party-ranked-text")).to_have_text(
        "Ranked: these games change your rating."
    )
    expect(page.get_by_test_id("party-ranked-line").get_by_role("checkbox")).to_be_hidden()


def program_joins_ready(page: Page, server: LiveServer, code: str, name: str) -> None:
    """A program's account (made as ``rummy account new --bot-account`` makes one, with the
    page's context as its cookie jar) joins the party and marks ready over its socket."""
    origin = {"Origin": server.url}  # the site's own, as the server asks of every change
    request = page.context.request
    body = {"name": name, "password": PASSWORD, "bot": True}
    assert request.post(f"{server.url}/api/accounts", data=body, headers=origin).ok
    joined = request.post(
        f"{server.url}/api/parties/{code}/join", data={"name": name}, headers=origin
    )
    assert joined.ok, joined.text()
    url = f"ws://127.0.0.1:{server.port}/ws/party/{code}"
    with connect(url, origin=Origin(server.url)) as socket:
        socket.send(hello(joined.json()["token"]))
        socket.recv()
        socket.send(json.dumps({"t": "ready", "v": 0, "d": {"ready": True}}))
        expect(member(page, name)).to_have_attribute("data-ready", "true")


def rated_once(page: Page, server_url: str, name: str) -> dict[str, Any]:
    """The player API, asked with the page's own cookie: one rated game, counted for nothing
    (two new accounts), so the rating is the newcomer's still."""
    answer = page.context.request.get(f"{server_url}/api/players/{name}")
    assert answer.ok, answer.text()
    player: dict[str, Any] = answer.json()
    assert player["name"] == name and player["bot"] is False
    (pool,) = player["pools"].values()
    assert pool["games"] == 1, pool
    (game,) = player["recent"]
    assert game["seats"] == 2
    assert game["weight"] == 0 and game["rating_after"] == game["rating_before"] == 1500, game
    assert pool["sigma"] == Rating().sigma, pool
    assert pool["rating"] == game["rating_after"]
    return player


@pytest.mark.timeout(240)
def test_two_people_sign_up_play_a_ranked_party_game_by_clicks_that_counts_nothing_yet(
    people: People, tmp_path: Path
) -> None:
    people.expected.append("409 (Conflict) at */api/accounts")  # the taken name, on purpose
    with serving(tmp_path, people=people) as server:
        ada, bo = people.new_page(), people.new_page()
        ada.goto(server.url + "/")
        expect(ada.get_by_test_id("account-label")).to_have_text("Sign in")
        # signed out, "Ranked" cannot be ticked, and the form says why
        expect(ada.get_by_test_id("friends-ranked")).to_be_disabled()
        expect(ada.locator("#friends-ranked-help")).to_contain_text("sign in")
        sign_up_with_keys(ada, "Ada")
        code = make_ranked_party(ada)
        link = ada.get_by_test_id("invite-link").input_value()
        assert re.fullmatch(rf"{re.escape(server.url)}/#/party/{code}\.[A-Za-z0-9_-]{{22}}", link)
        sign_up_to_join(bo, link, tmp_path)
        expect(member(ada, "Bo_2")).to_be_visible()
        expect(ada.get_by_test_id("bot-badge")).to_have_count(0)  # people, no program
        mark_ready(bo, "Bo_2")
        start = ada.get_by_test_id("start-party")
        expect(start).to_be_enabled()
        start.click()
        tables = [seat_of(page, server) for page in (ada, bo)]
        view = tables[0].view()
        assert view["rules"]["deals"] == 1 and view["turn_timer"] == 60
        assert [player["name"] for player in view["players"]] == ["Ada", "Bo_2"]
        play_deal(tables)
        assert tables[0].view()["game_over"]
        rated = {
            name: rated_once(page, server.url, name) for page, name in ((ada, "Ada"), (bo, "Bo_2"))
        }
        for page, name, other in ((ada, "Ada", "Bo_2"), (bo, "Bo_2", "Ada")):
            see_rating_on_the_pages(page, name, other, rated[name])


def see_rating_on_the_pages(page: Page, name: str, other: str, rated: dict[str, Any]) -> None:
    """The player page shows the rating (provisional: "?"), one dot, the game against
    ``other`` counted 0%, and what counts in the thresholds' numbers; the leaderboard lists
    the player only among everyone rated (one game is far from settled), with the same
    rating."""
    (pool,) = rated["pools"]
    record = rated["pools"][pool]
    shown = f"{record['rating']}?"
    page.goto(f"{page.url.split('#')[0]}#/player/{name}")
    expect(page.get_by_test_id("player-name")).to_contain_text(name)
    expect(page.get_by_test_id("player-rating")).to_contain_text(shown)
    expect(page.get_by_test_id("rating-chart").locator("circle")).to_have_count(1)
    (game,) = rated["recent"]
    change = game["rating_after"] - game["rating_before"]
    expect(page.get_by_test_id("recent-opponents")).to_contain_text(other)
    if change:
        said = f"{change:+d}".replace("-", "−")
        expect(page.get_by_test_id("recent-change")).to_contain_text(said)
    expect(page.get_by_test_id("recent-weight")).to_have_text(f"counted {game['weight']:.0%}")
    counting = page.get_by_test_id("player-counting")
    expect(counting).to_contain_text(f"played {TRUSTED_GAMES} ranked games")
    expect(counting).to_contain_text(f"met {TRUSTED_OPPONENTS} other people")
    expect(counting).to_contain_text(f"within {REPEAT_WINDOW_DAYS} days")
    page.goto(f"{page.url.split('#')[0]}#/leaderboard/{pool}")
    expect(page.get_by_test_id("board-empty")).to_be_visible()  # nobody settled yet
    everyone = page.get_by_test_id("board-everyone")
    if not everyone.is_checked():
        everyone.check()
    row = page.locator(f'[data-testid="board-row"][data-name="{name}"]')
    expect(row.get_by_test_id("board-rating")).to_contain_text(shown)


@pytest.mark.timeout(60)
def test_a_friendly_party_says_it_is_not_rated_and_ranked_refusals_are_in_our_words(
    people: People, tmp_path: Path
) -> None:
    # refusals asked for on purpose: wrong passwords, then too many of them
    people.expected += ["401 (Unauthorized) at */api/session", "429 (Too Many Requests) at */api/"]
    with serving(tmp_path, people=people) as server:
        host = people.new_page()
        host.goto(server.url + "/")
        sign_up_with_keys(host, "Host")
        host.get_by_test_id("play-with-friends").click()
        host.wait_for_url("**/#/party/*")
        expect(host.get_by_test_id("party-ranked-text")).to_have_text("Friendly: not rated.")
        expect(host.get_by_test_id("party-ranked")).not_to_be_checked()
        # a computer seat, then "Ranked": refused, in the page's words
        host.get_by_test_id("add-cpu").click()
        expect(host.get_by_test_id("member")).to_have_count(2)
        # a click, not check(): the refusal may put the box back before check() looks at it
        host.get_by_test_id("party-ranked").click()
        expect(host.get_by_test_id("party-message")).to_have_text(
            "A ranked party seats people only: remove the computer players first."
        )
        expect(host.get_by_test_id("party-ranked")).not_to_be_checked()
        expect(host.get_by_test_id("party-timer")).to_have_value("")
        # without it, "Ranked" sets the 60 s timer it needs; signing out shows "Sign in"
        host.get_by_test_id("remove-member").click()
        expect(host.get_by_test_id("member")).to_have_count(1)
        host.get_by_test_id("party-ranked").check()
        expect(host.get_by_test_id("party-ranked-text")).to_have_text(
            "Ranked: these games change your rating."
        )
        expect(host.get_by_test_id("party-timer")).to_have_value("60")
        # a program's account may play ranked: marked BOT by its name, here and at the table
        program_joins_ready(host, server, host.get_by_test_id("party-code").inner_text(), "robo")
        badge = member(host, "robo").get_by_test_id("bot-badge")
        expect(badge).to_have_text("BOT")
        expect(badge).to_have_attribute("title", "a program's account")
        expect(member(host, "Host").get_by_test_id("bot-badge")).to_have_count(0)
        host.get_by_test_id("start-party").click()
        host.wait_for_url("**/#/table/*")
        expect(host.locator("[data-name=robo] [data-testid=bot-badge]")).to_have_count(1)
        expect(host.locator("[data-name=Host] [data-testid=bot-badge]")).to_have_count(0)
        # signing out: the header says "Sign in" again, and the server knows nobody
        host.get_by_test_id("sign-out").click()
        expect(host.get_by_test_id("account-label")).to_have_text("Sign in")
        me = host.context.request.get(f"{server.url}/api/me")
        assert (me.status, me.json()) == (200, {"signed_in": False})
        # a wrong password, again and again: refused, then the wait the server asks for
        host.get_by_test_id("account-button").click()
        host.get_by_label("Account name").fill("Host")
        host.get_by_label("Password", exact=True).fill("not the password")
        error = host.get_by_test_id("account-error")
        for _ in range(PAIR_FAILURES):
            host.get_by_test_id("account-submit").click()
            expect(error).to_have_text("No account has that name and password: check both.")
        host.get_by_test_id("account-submit").click()
        expect(error).to_have_text(
            re.compile(r"^Too many tries: wait [0-9]+ seconds?, then try again\.$")
        )


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_account_dialog_and_a_ranked_party_pass_the_audit_on_a_phone(
    browser: Any, live_server: LiveServer, axe_script: Path, lang: str
) -> None:
    found: dict[str, Any] = {}
    with language_page(browser, lang, SIZES["phone"], bypass_csp=True) as page:
        open_lobby(page, live_server)
        wait_language(page, lang)
        page.get_by_test_id("account-button").click()
        page.get_by_test_id("account-make-one").click()
        page.get_by_test_id("account-submit").click()  # empty: each box says what it needs
        expect(page.get_by_test_id("account-name")).to_have_attribute("aria-invalid", "true")
        found["sign-up dialog"] = violations(page)
        page.get_by_test_id("account-name").fill("Audit")
        page.get_by_test_id("account-password").fill(PASSWORD)
        page.get_by_test_id("account-repeat").fill(PASSWORD)
        page.get_by_test_id("account-submit").click()
        expect(page.get_by_test_id("account-label")).to_have_text("Audit")
        found["lobby signed in"] = violations(page)
        page.get_by_test_id("friends-ranked").check()
        page.get_by_test_id("play-with-friends").click()
        expect(page.get_by_test_id("party-ranked")).to_be_checked()
        found["ranked party"] = violations(page)
    failing = {name: problems for name, problems in found.items() if problems}
    assert not failing, json.dumps(failing, indent=1, ensure_ascii=False)
