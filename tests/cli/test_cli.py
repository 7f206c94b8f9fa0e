"""The ``rummy`` command: replay (JSON and transcript), rules, play, help, as docs/RECORD.md
says."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.cli import explain_preset, main, rules_table
from rummykit.core.options import describe_option
from rummykit.core.presets import PRESETS, Preset
from rummykit.core.record import replay_json
from rummykit.core.rules import OPTION_NAMES, Rules, option_specs

CONFORMANCE = Path(__file__).resolve().parents[1] / "records" / "conformance"
PRESET_NAMES = ("classic", "standard", "practice", "party", "boathouse", "knock", "500")


def record_text(name: str) -> str:
    return (CONFORMANCE / f"{name}.json").read_text(encoding="utf-8")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m rummykit ARGS`` in a fresh process, as a user would run ``rummy``."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "rummykit", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``rummy ARGS`` in this process: the exit code, standard output and standard error."""
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def copy_to(tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(record_text(name), encoding="utf-8")
    return str(path)


# ----- rummy replay FILE --json ----------------------------------------------------------


def test_replay_json_prints_the_result_object_and_exits_0_when_all_is_legal(
    tmp_path: Path,
) -> None:
    proc = run("replay", copy_to(tmp_path, "out_by_meld"), "--json")
    assert proc.returncode == 0, proc.stderr
    printed = json.loads(proc.stdout)
    assert printed["ok"] is True
    assert printed["error"] is None
    assert printed["deals"] == [{"dealer": 0, "result": "out", "winner": 1, "points": [0, 62]}]
    assert printed == replay_json(record_text("out_by_meld"))[0]


def test_replay_json_exits_1_at_the_first_illegal_action(tmp_path: Path) -> None:
    proc = run("replay", copy_to(tmp_path, "err_invalid_meld"), "--json")
    assert proc.returncode == 1
    printed: dict[str, Any] = json.loads(proc.stdout)
    assert printed["ok"] is False
    assert printed["error"]["code"] == "invalid_meld"
    assert (printed["error"]["deal"], printed["error"]["action"]) == (0, 1)
    # The state is the position before the illegal meld: seat 1 has drawn.
    assert printed["state"]["phase"] == "play"
    assert printed["state"]["melds"] == []


@pytest.mark.parametrize(
    "name",
    ["bad_json", "unknown_preset", "unknown_option", "deck_missing_a_card", "no_deals"],
)
def test_replay_json_exits_2_for_a_record_that_cannot_be_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    code, out, _ = cli(capsys, "replay", copy_to(tmp_path, name), "--json")
    assert code == 2
    printed = json.loads(out)
    assert printed["ok"] is False
    error = printed["error"]
    assert error["code"] in ("bad_record", "unsupported")
    assert (error["deal"], error["action"]) == (None, None)
    assert error["message"]


def test_replay_json_exits_2_for_a_reshuffle_with_the_wrong_cards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = cli(capsys, "replay", copy_to(tmp_path, "shuffle_list_missing_a_card"), "--json")
    assert code == 2
    assert json.loads(out)["error"]["code"] == "bad_record"


def test_replay_json_exits_2_for_a_file_that_does_not_exist(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = cli(capsys, "replay", str(tmp_path / "nowhere.json"), "--json")
    assert code == 2
    printed = json.loads(out)
    assert printed["ok"] is False
    assert printed["error"]["code"] == "bad_record"


def test_replay_dash_reads_the_record_from_standard_input() -> None:
    proc = run("replay", "-", "--json", stdin=record_text("layoff_on_earlier_turn_is_not_rummy"))
    assert proc.returncode == 0, proc.stderr
    printed = json.loads(proc.stdout)
    assert printed["deals"][0]["result"] == "out"
    assert printed["scores"] == [0, 50]


def test_replay_dash_reports_an_illegal_record_from_standard_input() -> None:
    proc = run("replay", "-", "--json", stdin=record_text("err_not_your_turn"))
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "not_your_turn"


def test_replay_dash_reports_bad_json_from_standard_input() -> None:
    proc = run("replay", "-", "--json", stdin="{not json")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error"]["code"] == "bad_record"


# ----- rummy replay FILE (the transcript) --------------------------------------------------


def test_transcript_names_players_uses_suit_symbols_and_gives_result_and_totals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = cli(capsys, "replay", copy_to(tmp_path, "out_by_meld"))
    assert code == 0
    assert "Ann" in out and "Bob" in out
    assert "classic" in out
    for symbol in "♣♦♥♠":
        assert symbol in out
    assert "10♥" in out  # tens are written 10 for people
    assert "goes out" in out
    assert "62" in out
    assert "Totals" in out


def test_transcript_announces_going_rummy_and_the_game_winner(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = cli(capsys, "replay", copy_to(tmp_path, "rummy_double_winner"))
    assert code == 0
    assert "rummy" in out.lower()
    assert "198" in out
    assert "Game over" in out
    assert "Bob wins" in out


def test_transcript_announces_a_blocked_deal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = cli(capsys, "replay", copy_to(tmp_path, "flip_then_blocked_no_score"))
    assert code == 0
    assert "blocked" in out.lower()
    for name in ("Ann", "Bob", "Cho", "Dev"):
        assert name in out


def test_transcript_names_seats_of_a_record_that_gives_a_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = cli(
        capsys, "replay", copy_to(tmp_path, "deal_order_dealer_1_three_seats_by_count")
    )
    assert code == 0
    assert "Seat 2" in out


def test_transcript_of_an_illegal_record_exits_1_with_the_code_and_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = cli(capsys, "replay", copy_to(tmp_path, "err_invalid_meld"))
    assert code == 1
    message = replay_json(record_text("err_invalid_meld"))[0]["error"]["message"]
    assert "invalid_meld" in out
    assert message in out


def test_transcript_of_an_unreadable_record_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = cli(capsys, "replay", copy_to(tmp_path, "unknown_preset"))
    assert code == 2
    assert "gin" in out + err


def test_transcript_exit_code_matches_replay_json_in_a_fresh_process(tmp_path: Path) -> None:
    for name, expected in [("out_by_layoff", 0), ("err_meld_limit", 1), ("bad_json", 2)]:
        proc = run("replay", copy_to(tmp_path, name))
        assert proc.returncode == expected, (name, proc.stdout, proc.stderr)


# ----- rummy rules ---------------------------------------------------------------------------


def test_rules_shows_every_preset_and_every_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = cli(capsys, "rules")
    assert code == 0
    for name in PRESET_NAMES:
        assert name in out
    for option in OPTION_NAMES:
        assert option in out


def test_rules_table_shows_each_presets_values(capsys: pytest.CaptureFixture[str]) -> None:
    # docs/RECORD.md's preset table: classic flips once, standard lets you take the discard,
    # practice has the lowest hand collect, party keeps the top card and renews 15 times; 500 scores
    # melds, takes deep, counts aces 15 and plays to 500 with a stock never renewed.
    _, out, _ = cli(capsys, "rules")
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.strip()}
    # Boathouse is standard going out by a discard, with the stock card beside a discard taken.
    boat = PRESET_NAMES.index("boathouse")
    assert rows["renew"][:4] == ["flip", "flip", "flip", "shuffle_keep_top"]
    assert rows["renewals"][:4] == ["1", "null", "1", "15"]
    assert rows["blocked"][:4] == ["no_score", "no_score", "lowest_collects", "no_score"]
    assert rows["empty_stock_choice"][:4] == ["false", "true", "false", "false"]
    assert rows["aces"][:4] == ["low", "low_or_high", "low_or_high", "low"]
    assert rows["rummy_bonus"][:4] == ["double", "none", "none", "double"]
    assert rows["seats"][:4] == ["2-8", "2-8", "2-2", "2-8"]
    assert (rows["renew"][boat], rows["renewals"][boat]) == ("flip", "null")
    assert (rows["blocked"][boat], rows["empty_stock_choice"][boat]) == ("no_score", "true")
    assert (rows["aces"][boat], rows["rummy_bonus"][boat]) == ("low_or_high", "none")
    assert rows["go_out"][boat] == "discard" and rows["go_out"][:4] == ["any"] * 4
    assert rows["stock_with_discard"][boat] == "true"
    assert rows["stock_with_discard"][:4] == ["false"] * 4
    assert rows["seats"][boat] == "2-8"
    # knock rummy: no melds during play; the pile turned over once, then the lowest collects.
    knock = PRESET_NAMES.index("knock")
    assert rows["melding"][knock] == "knock"
    assert rows["melding"][:4] == ["during_play"] * 4
    assert rows["blocked"][knock] == "lowest_collects"
    assert rows["knock_limit"][knock] == "null"
    # 500 Rum: meld points to 500, any card of the pile, aces 15, the stock never renewed.
    five = PRESET_NAMES.index("500")
    assert (rows["renew"][five], rows["renewals"][five]) == ("none", "0")
    assert (rows["scoring"][five], rows["discard_take"][five]) == ("melds", "any")
    assert (rows["ace_points"][five], rows["target"][five]) == ("15", "500")
    assert rows["scoring"][:4] == ["winner"] * 4 and rows["target"][:4] == ["100"] * 4


def test_rules_party_explains_each_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "rules", "party")
    assert code == 0
    assert "party" in out
    lines = {line.split()[0]: line for line in out.splitlines() if line[:1].isalpha()}
    party = PRESETS["party"].rules.to_mapping()
    for option in OPTION_NAMES:
        assert option in lines, option
        words = lines[option].split()
        value = "null" if party[option] is None else str(party[option]).lower()
        assert words[1] == value, option


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_name_explains_each_option_by_its_one_description(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    _, out, _ = cli(capsys, "rules", name)
    told = one_line(out)
    for spec in option_specs():
        assert one_line(f"{spec.title}: {spec.help}") in told, spec.name
        for choice in spec.choices:
            assert one_line(choice.label) in told, (spec.name, choice.value)
        if spec.none is not None:
            assert one_line(f"null ({spec.none})") in told, spec.name


def test_rules_party_states_its_own_renewal_choices_and_its_aces_tie(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = cli(capsys, "rules", "party")
    told = one_line(out)
    offer = PRESETS["party"].offer("renewals")
    assert offer is not None
    shown = "; ".join(f"{choice.value} ({choice.label})" for choice in offer.choices)
    assert f"The party table offers: {one_line(shown)}." in told
    assert f"At the party table: {one_line(offer.help)}" in told
    renewals = next(line for line in out.splitlines() if line.startswith("renewals"))
    assert renewals.split()[1] == "15" and "Up to 15 times" in renewals
    assert "No limit" not in renewals  # null's word, never a number's
    [tie] = PRESETS["party"].ties
    assert one_line(f"setting aces also sets ace_points. {tie.reason}") in told


def test_rules_standard_says_what_its_endless_deal_means(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = cli(capsys, "rules", "standard")
    renewals = next(line for line in out.splitlines() if line.startswith("renewals"))
    assert renewals.split()[1] == "null" and "No limit" in renewals
    assert "Linked" not in out


@dataclasses.dataclass(frozen=True, slots=True)
class RulesWithWildTwos(Rules):
    wild_twos: bool = dataclasses.field(
        default=False,
        metadata=describe_option("Wild twos", "Every two is wild: it stands for any card."),
    )


def test_an_option_added_in_a_subclass_reaches_both_rules_outputs() -> None:
    wild = Preset("wild", RulesWithWildTwos(wild_twos=True), 2, 6, "Twos are wild.")
    told = explain_preset(wild)
    line = next(line for line in told.splitlines() if line.startswith("wild_twos"))
    assert line.split()[1:] == ["true", "yes"]
    assert "Wild twos: Every two is wild: it stands for any card." in told
    assert "Values: true; false." in told
    table = rules_table({"classic": PRESETS["classic"], "wild": wild})
    row = next(line for line in table.splitlines() if line.startswith("wild_twos"))
    assert row.split() == ["wild_twos", "-", "true"]


def test_rules_of_an_unknown_preset_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "rules", "nosuch")
    assert code == 2
    assert "nosuch" in out + err


def test_rules_of_an_unknown_preset_exits_2_in_a_fresh_process() -> None:
    proc = run("rules", "nosuch")
    assert proc.returncode == 2


def test_rules_into_a_closed_pipe_ends_quietly() -> None:
    """``rummy rules party | head -1``: the reader goes, and no traceback follows."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummykit", "rules", "party"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before the first line is written
    _, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err
    assert b"BrokenPipeError" not in err
    assert proc.returncode == 141


def test_rules_head_one_reads_the_first_line_and_nothing_breaks() -> None:
    proc = subprocess.run(
        f"{sys.executable} -m rummykit rules party | head -1",
        shell=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=60,
        check=False,
    )
    assert proc.stdout.count("\n") == 1
    assert "Traceback" not in proc.stderr


# ----- rummy watch, help -----------------------------------------------------------------------


def test_watch_tells_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "watch")
    assert code == 0
    assert "Deal 1" in out
    assert "Totals" in out
    assert "Game over" in out


def test_help_mentions_the_subcommands() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    for command in ("play", "replay", "rules"):
        assert command in proc.stdout


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys)
    assert code == 0
    for command in ("play", "replay", "rules"):
        assert command in out


def test_replay_help_states_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["replay", "--help"])
    assert raised.value.code == 0
    out = capsys.readouterr().out
    assert "--json" in out
    for code in ("0", "1", "2"):
        assert code in out


def test_unknown_subcommand_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["frobnicate"])
    assert raised.value.code == 2


def test_serve_sizes_the_worker_pool_and_refuses_none(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from rummykit.server.runtime.workers import WorkerPool

    pools: list[WorkerPool] = []
    monkeypatch.setattr(
        uvicorn.Server,
        "run",
        lambda server, sockets: pools.append(server.config.app.state.lobby.workers),
    )
    store = str(tmp_path / "tables.sqlite3")
    assert main(["serve", "--port", "0", "--store", store, "--workers", "3"]) == 0
    assert [pool.workers for pool in pools] == [3]
    said = capsys.readouterr().out
    assert "rummykit is serving at http://127.0.0.1:" in said
    assert "http://127.0.0.1:0/" not in said  # port 0: the port the system chose is said
    with pytest.raises(SystemExit):
        main(["serve", "--workers", "0"])
    assert "not a whole number of at least 1" in capsys.readouterr().err
