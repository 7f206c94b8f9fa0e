"""A program's account online, challenged from the browser, as a stranger would do it.

A program's account is made and started the way the README says (``rummy account new
--bot-account``, then ``rummy bot``, a process of its own); a person signs up in the page,
finds the program in the lobby's list, opens its page, challenges it to a ranked game, lands
at the party with the program joined, makes the game one deal (the program is ready again),
starts, and is taken to the table. The person's seat is
then played by a program of the client on the page's own token (even one deal by clicks
takes long); the program plays its seat to the end, and the leaderboard of the programs'
pool lists it with its BOT mark and its online dot.
"""

from __future__ import annotations

import io
import random
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from cli_programs import Programs
from party_client import PASSWORD
from rummykit.cli import main
from rummykit.client.player import TablePlayer
from rummykit.client.report import Report
from web.test_party_page import member, serving
from web.test_ranked_page import sign_up_with_keys
from web_helpers import People

pytestmark = pytest.mark.e2e


@pytest.mark.timeout(240)
def test_a_program_started_with_rummy_bot_takes_a_challenge_made_in_the_browser(
    people: People, tmp_path: Path, data: Path
) -> None:
    with serving(tmp_path, people=people) as server:
        password = tmp_path / "password.txt"
        password.write_text(PASSWORD + "\n", encoding="utf-8")
        new = ["account", "new", "--server", server.url, "--name", "robo-1", "--bot-account"]
        assert main([*new, "--password-file", str(password)]) == 0
        programs = Programs(tmp_path)
        try:
            program = programs.start(
                *("bot", "--server", server.url, "--account", "robo-1", "--bot", "basic"),
                *("--json",),
            )
            assert program.wait_for(lambda line: "online" in line) == {"online": "robo-1"}
            ada = people.new_page()
            ada.goto(server.url + "/")
            sign_up_with_keys(ada, "Ada")
            # the lobby lists the program online; its page offers the challenge
            online = ada.get_by_test_id("bots-online")
            expect(online).to_contain_text("robo-1")
            online.get_by_role("link", name="robo-1").click()
            expect(ada.get_by_test_id("player-online")).to_have_text("Online")
            form = ada.get_by_test_id("challenge-form")
            expect(form).to_be_visible()
            ada.get_by_test_id("challenge-button").click()
            ada.wait_for_url("**/#/party/*")
            assert program.wait_for(lambda line: "accepted" in line)["code"]
            robo = member(ada, "robo-1")
            expect(robo.get_by_test_id("bot-badge")).to_have_text("BOT")
            expect(robo).to_have_attribute("data-ready", "true")
            expect(ada.get_by_test_id("party-ranked")).to_be_checked()
            # one deal, not a game to 100 (two basic players take some thirty deals to it):
            # the host changes the rules after the program joined, and it is ready again
            ada.get_by_test_id("more-rules").locator("summary").click()
            ada.get_by_test_id("party-rule-deals-none").uncheck()
            deals = ada.get_by_test_id("party-rule-deals")
            deals.fill("1")
            deals.dispatch_event("change")
            expect(robo).to_have_attribute("data-ready", "true")
            ada.get_by_test_id("start-party").click()
            ada.wait_for_url("**/#/table/*")
            table = ada.url.split("#/table/", 1)[1]
            token = ada.evaluate("id => localStorage.getItem('rummykit.seat.' + id)", table)
            assert token, "the party page kept no seat token for the table"
            # the person's seat, played on the page's token by the client's own bot
            quiet = Report(True, out=io.StringIO(), err=io.StringIO())
            player = TablePlayer(server.url, table, token, "basic", quiet, rng=random.Random(3))
            person = threading.Thread(target=player.play)
            person.start()
            last = program.wait_for(lambda line: "rejoined" in line, within_s=120)
            person.join(timeout=60)
            assert last["table"] == table and last["seat"] == 1
            # the leaderboard of the programs' pool: robo-1, marked BOT, online
            ada.goto(f"{server.url}/#/leaderboard/winner_bots")
            everyone = ada.get_by_test_id("board-everyone")
            if not everyone.is_checked():
                everyone.check()
            row = ada.locator('[data-testid="board-row"][data-name="robo-1"]')
            expect(row.get_by_test_id("bot-badge")).to_have_text("BOT")
            expect(row.get_by_test_id("board-online")).to_be_visible()
            expect(ada.locator('[data-testid="board-row"][data-name="Ada"]')).to_have_count(1)
        finally:
            programs.stop_all()
