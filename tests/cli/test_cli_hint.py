"""``rummy hint FILE``: replay a record and advise the seat to act, with the reason.

Exit codes: 0 advice printed; 1 no move to advise (the deal is over, or the record stops at
an illegal action); 2 a record that cannot be read.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.bots import BasicBot
from rummykit.bots.hints import hint
from rummykit.cli import main
from rummykit.core.observation import observe
from rummykit.core.presets import find_preset
from rummykit.core.record import dump_record, record_of
from rummykit.core.state import GameState

PLAYERS = ["Ada", "Ben", "Cleo"]


def game_after(actions: int, seed: int = 7, preset: str = "classic") -> GameState:
    """A three-seat game after ``actions`` actions of ``basic`` play (or at the deal's end)."""
    rules = find_preset(preset).rules
    game = GameState.new(rules, 3, seed=seed)
    rng = random.Random(seed)
    bot = BasicBot()
    for _ in range(actions):
        if game.deal_over:
            break
        game.apply(bot.choose(observe(game, game.turn), rng))
    return game


def write_record(tmp_path: Path, game: GameState, preset: str = "classic") -> str:
    path = tmp_path / "game.json"
    path.write_text(dump_record(record_of(game, find_preset(preset), PLAYERS)), encoding="utf-8")
    return str(path)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("actions", "phase"), [(0, "draw"), (1, "play"), (7, "play"), (12, "draw")]
)
def test_hint_prints_the_action_and_the_reason_for_the_seat_to_act(
    actions: int, phase: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """For a record that ends mid-deal, in the draw phase or the play phase."""
    game = game_after(actions)
    assert game.phase.value == phase
    advice = hint(observe(game, game.turn))
    code, out, err = cli(capsys, "hint", write_record(tmp_path, game))
    assert code == 0, err
    assert out.splitlines() == [
        f"{PLAYERS[game.turn]} to {game.phase.value}: {advice.action}",
        advice.reason,
    ]
    assert advice.action in game.legal_actions()


def test_hint_reads_the_record_from_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = game_after(5)
    text = dump_record(record_of(game, find_preset("classic"), PLAYERS))
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = cli(capsys, "hint", "-")
    assert code == 0
    assert out.splitlines()[0].startswith(f"{PLAYERS[game.turn]} to {game.phase.value}: ")


@pytest.mark.parametrize("level", ["expert", "master"])
def test_hint_from_a_searcher_prints_a_legal_action(
    level: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = game_after(6)
    code, out, err = cli(capsys, "hint", write_record(tmp_path, game), "--bot", level)
    assert code == 0, err
    head, reason = out.splitlines()
    prefix = f"{PLAYERS[game.turn]} to {game.phase.value}: "
    assert head.startswith(prefix)
    printed = head.removeprefix(prefix)
    assert printed in {str(action) for action in game.legal_actions()}
    assert reason


def test_hint_exits_1_when_the_record_ends_with_the_deal_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = game_after(10_000)
    assert game.deal_over and not game.game_over, "classic plays on to 100 points"
    code, out, _ = cli(capsys, "hint", write_record(tmp_path, game))
    assert code == 1
    assert "the deal over" in out


def test_hint_exits_1_when_the_record_stops_at_an_illegal_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = game_after(3)
    data = record_of(game, find_preset("classic"), PLAYERS).to_json()
    data["deals"][0]["actions"].append(f"{(game.turn + 1) % 3} draw stock")
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = cli(capsys, "hint", str(path))
    assert code == 1
    assert "illegal action" in err


def test_hint_exits_2_when_the_record_cannot_be_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, "hint", str(tmp_path / "missing.json"))
    assert code == 2 and err.startswith("rummy hint:")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    code, _, err = cli(capsys, "hint", str(broken))
    assert code == 2 and err.startswith("rummy hint:")


def test_rummy_hint_runs_as_a_command_with_suit_symbols(tmp_path: Path) -> None:
    """``python -m rummykit hint FILE`` in a fresh process, as a user runs ``rummy hint``."""
    game = game_after(1)
    advice = hint(observe(game, game.turn))
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-m", "rummykit", "hint", write_record(tmp_path, game)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"{PLAYERS[game.turn]} to play: {advice.action}",
        advice.reason,
    ]
    assert any(symbol in advice.reason for symbol in "♣♦♥♠🃏")
