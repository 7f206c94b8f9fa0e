"""The puzzle model: its JSON round trip, its view's way back to an observation, its id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.core.actions import parse_action
from rummykit.core.observation import observe
from rummykit.core.record import GameRecord
from rummykit.core.state import GameState
from rummykit.protocol.settings import HumanPlayer
from rummykit.protocol.views import observation_of, seat_view
from rummykit.puzzles.model import (
    FORMAT,
    Puzzle,
    PuzzleError,
    PuzzleOption,
    PuzzleSet,
    PuzzleSource,
    Theme,
    dump_puzzles,
    initial_rating,
    load_puzzles,
    puzzle_id,
    read_puzzles,
    write_puzzles,
)


def _game_at(record: GameRecord, action: int) -> GameState:
    deal = record.deals[0]
    game = GameState(record.rules, len(record.players), deal.dealer)
    game.start_deal(deal.deck, reshuffles=deal.reshuffles, seed=deal.seed)
    for text in deal.actions[:action]:
        game.apply(parse_action(text))
    return game


def _puzzle(record: GameRecord, action: int) -> Puzzle:
    game = _game_at(record, action)
    seat = game.turn
    players = (HumanPlayer(kind="human", name="Player 1"), HumanPlayer(kind="human", name="P2"))
    view = seat_view(
        game, seat, players, table_id="puzzle", preset="classic", practice=False, pace_ms=0
    )
    legal = [str(action) for action in observe(game, seat).legal_actions]
    solutions = legal[:1]
    return Puzzle(
        id=puzzle_id(view, solutions),
        theme=Theme.DISCARD,
        view=view,
        seat=seat,
        solutions=solutions,
        played=legal[-1],
        options=[
            PuzzleOption(action=legal[-1], gain=0.0, ci95=0.0),
            PuzzleOption(action=legal[0], gain=7.5, ci95=1.25),
        ],
        loss=7.5,
        exact=False,
        rating=initial_rating(7.5, Theme.DISCARD),
        source=PuzzleSource(record="planted", deal=0, action=action, seat=seat),
    )


@pytest.mark.parametrize("action", [0, 7, 20, 32])
def test_a_view_turns_back_into_the_observation_with_the_same_legal_actions(
    planted_record: GameRecord, action: int
) -> None:
    game = _game_at(planted_record, action)
    puzzle = _puzzle(planted_record, action)
    assert observation_of(puzzle.view).legal_actions == observe(game, game.turn).legal_actions


def test_a_puzzle_set_reads_back_from_its_json_as_it_was_written(
    planted_record: GameRecord,
) -> None:
    puzzles = PuzzleSet(
        format=FORMAT, puzzles=[_puzzle(planted_record, 7), _puzzle(planted_record, 32)]
    )
    text = dump_puzzles(puzzles)
    again = read_puzzles(text)
    assert again == puzzles
    assert dump_puzzles(again) == text
    assert json.loads(text)["format"] == "rummykit-puzzles/1"


def test_a_puzzle_file_written_and_loaded_is_the_same_set(
    planted_record: GameRecord, tmp_path: Path
) -> None:
    puzzles = PuzzleSet(format=FORMAT, puzzles=[_puzzle(planted_record, 20)])
    path = tmp_path / "set.json"
    write_puzzles(puzzles, path)
    assert load_puzzles(path) == puzzles


def test_the_id_names_the_position_and_solutions_not_the_table(
    planted_record: GameRecord,
) -> None:
    puzzle = _puzzle(planted_record, 20)
    renamed = puzzle.view.model_copy(update={"table": "elsewhere", "players": ()})
    assert puzzle_id(renamed, puzzle.solutions) == puzzle.id
    assert puzzle_id(puzzle.view, [*puzzle.solutions, "0 discard Kd"]) != puzzle.id
    assert puzzle_id(_puzzle(planted_record, 32).view, puzzle.solutions) != puzzle.id


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        '{"format": "rummykit-puzzles/2", "puzzles": []}',
        '{"format": "rummykit-puzzles/1"}',
        '{"format": "rummykit-puzzles/1", "puzzles": [{"id": "x"}]}',
    ],
)
def test_a_file_that_is_not_a_puzzle_set_is_refused_with_its_name(text: str) -> None:
    with pytest.raises(PuzzleError, match=r"mine\.json is not a rummykit-puzzles/1 file"):
        read_puzzles(text, "mine.json")


def test_a_missing_file_is_refused_with_its_name() -> None:
    with pytest.raises(PuzzleError, match=r"cannot read /no/such/file\.json"):
        load_puzzles("/no/such/file.json")


def test_an_id_is_twelve_hex_digits(planted_record: GameRecord) -> None:
    puzzle = _puzzle(planted_record, 7).model_dump(mode="json")
    puzzle["id"] = "XYZ"
    with pytest.raises(ValueError, match="id"):
        Puzzle.model_validate_json(json.dumps(puzzle))


@given(
    st.floats(min_value=5, max_value=200),
    st.floats(min_value=5, max_value=200),
    st.sampled_from(list(Theme)),
)
def test_a_costlier_mistake_never_rates_harder(first: float, second: float, theme: Theme) -> None:
    low, high = sorted((first, second))
    assert initial_rating(high, theme) <= initial_rating(low, theme)
    assert 800 <= initial_rating(high, theme) <= 2200


def test_the_mistake_line_rates_at_the_centre_with_the_themes_offset() -> None:
    assert initial_rating(5.0, Theme.DRAW) == 1500
    assert initial_rating(5.0, Theme.GO_OUT) < initial_rating(5.0, Theme.DISCARD)
    assert initial_rating(5.0, Theme.DISCARD) < initial_rating(5.0, Theme.LAY_OFF)
