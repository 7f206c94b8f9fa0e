"""The game record, ``rummy-record/1``: reading, writing and replaying it (see docs/RECORD.md).

>>> from rummykit.core.cards import standard_deck
>>> record = {"format": "rummy-record/1", "rules": "classic", "players": 2,
...           "deals": [{"dealer": 0, "deck": [str(card) for card in standard_deck()],
...                      "actions": ["1 draw stock", "1 discard 6d"]}]}
>>> result = replay(load_record(record))
>>> result.ok, result.state.turn, result.state.discard_top
(True, 0, Card.parse('6d'))
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from rummykit.core.actions import parse_action
from rummykit.core.cards import Card, deck_problem, standard_deck
from rummykit.core.deal import DealSummary
from rummykit.core.errors import IllegalActionError, InvalidActionError, RecordError, RulesError
from rummykit.core.presets import Preset, describe_rules, preset_with_overrides
from rummykit.core.rules import Rules
from rummykit.core.state import GameState

FORMAT = "rummy-record/1"
"""The format this module reads and writes."""


@dataclasses.dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal of a record: who dealt, the deck top first, the actions, the shuffles."""

    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[str, ...]
    reshuffles: tuple[tuple[Card, ...], ...] = ()
    seed: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game record, read and checked for shape (not yet replayed)."""

    preset: Preset
    """The preset the rules start from."""
    rules: Rules
    """The rules, overrides applied."""
    players: tuple[str, ...]
    """The players' names in seat order (``Seat 0``... when the record gives a count)."""
    deals: tuple[DealRecord, ...]
    """The deals in play order."""

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object (always with ``reshuffles``)."""
        return {
            "format": FORMAT,
            "rules": describe_rules(self.preset, self.rules),
            "players": list(self.players),
            "deals": [
                {
                    "dealer": deal.dealer,
                    "deck": [str(card) for card in deal.deck],
                    "actions": list(deal.actions),
                    "reshuffles": [[str(card) for card in order] for order in deal.reshuffles],
                    **({"seed": deal.seed} if deal.seed else {}),
                }
                for deal in self.deals
            ],
        }


def dump_record(record: GameRecord) -> str:
    """The record as JSON text: one line for the header, one per deal, easy to diff."""
    data = record.to_json()
    deals = ",\n  ".join(json.dumps(deal, ensure_ascii=False) for deal in data["deals"])
    head = {key: value for key, value in data.items() if key != "deals"}
    opening = json.dumps(head, ensure_ascii=False)[:-1]
    return f'{opening}, "deals": [\n  {deals}\n]}}\n'


def record_of(game: GameState, preset: Preset, players: Sequence[str]) -> GameRecord:
    """The record of a game played so far."""
    return GameRecord(
        preset,
        game.rules,
        tuple(players),
        tuple(
            DealRecord(log.dealer, log.deck, tuple(log.actions), tuple(log.reshuffles), log.seed)
            for log in game.logs
        ),
    )


def _cards(value: object, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise RecordError(f"{where} must be a list of cards.")
    try:
        return tuple(Card.parse(item) for item in value)
    except InvalidActionError as error:
        raise RecordError(f"{where}: {error}") from None


def load_record(source: str | bytes | Mapping[str, Any]) -> GameRecord:
    """Read a record from JSON text or a parsed object; ``RecordError`` if it is malformed."""
    if isinstance(source, str | bytes):
        try:
            data = json.loads(source)
        except json.JSONDecodeError as error:
            raise RecordError(f"The record is not JSON: {error}.") from None
    else:
        data = source
    if not isinstance(data, Mapping):
        raise RecordError("A record is a JSON object.")
    if data.get("format") != FORMAT:
        raise RecordError(
            f"This is not a {FORMAT} record (format {data.get('format')!r}).", "unsupported"
        )
    preset, rules = _load_rules(data.get("rules"))
    players = _load_players(data.get("players"))
    try:
        preset.check_seats(len(players))
        rules.check_seats(len(players))
    except RulesError as error:
        raise RecordError(str(error)) from None
    deals_value = data.get("deals")
    if not isinstance(deals_value, list) or not deals_value:
        raise RecordError("deals must be a list of at least one deal.")
    deals = tuple(_load_deal(deal, index, len(players)) for index, deal in enumerate(deals_value))
    whole = standard_deck(rules.decks, rules.jokers)
    for index, deal in enumerate(deals):
        problem = deck_problem(deal.deck, whole)
        if problem:
            raise RecordError(
                f"Deal {index}'s deck is not a whole deck for these rules: {problem}."
            )
    return GameRecord(preset, rules, players, deals)


def _load_rules(value: object) -> tuple[Preset, Rules]:
    try:
        if not isinstance(value, str | Mapping):
            raise RulesError("rules_not_object")
        return preset_with_overrides(value)
    except RulesError as error:
        raise RecordError(str(error)) from None


def _load_players(value: object) -> tuple[str, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        return tuple(f"Seat {seat}" for seat in range(value))
    if isinstance(value, list) and all(isinstance(name, str) for name in value):
        return tuple(value)
    raise RecordError("players must be a list of names or a number of seats.")


def _load_deal(deal: object, index: int, seats: int) -> DealRecord:
    where = f"Deal {index}"
    if not isinstance(deal, Mapping):
        raise RecordError(f"{where} must be an object.")
    dealer = deal.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < seats:
        raise RecordError(f"{where}: dealer must be a seat from 0 to {seats - 1}.")
    deck = _cards(deal.get("deck"), f"{where}'s deck")
    actions = deal.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(text, str) for text in actions):
        raise RecordError(f"{where}: actions must be a list of strings.")
    reshuffles_value = deal.get("reshuffles", [])
    if not isinstance(reshuffles_value, list):
        raise RecordError(f"{where}: reshuffles must be a list of card lists.")
    reshuffles = tuple(
        _cards(order, f"{where}'s reshuffle {number}")
        for number, order in enumerate(reshuffles_value)
    )
    seed = deal.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"{where}: seed must be a whole number.")
    return DealRecord(dealer, deck, tuple(actions), reshuffles, seed)


@dataclasses.dataclass(frozen=True, slots=True)
class ReplayError:
    """Where and why a replay stopped."""

    deal: int | None
    action: int | None
    code: str
    message: str


@dataclasses.dataclass(frozen=True, slots=True)
class ReplayResult:
    """The outcome of replaying a record: the game as far as it went, and any error."""

    record: GameRecord | None
    state: GameState | None
    error: ReplayError | None

    @property
    def ok(self) -> bool:
        """Whether every action was legal."""
        return self.error is None

    @property
    def exit_code(self) -> int:
        """0 when all was legal, 1 at an illegal action, 2 for a record that cannot be read."""
        if self.error is None:
            return 0
        return 2 if self.error.code in ("bad_record", "unsupported") else 1

    def to_json(self) -> dict[str, Any]:
        """The object ``rummy replay --json`` prints (see docs/RECORD.md)."""
        error = dataclasses.asdict(self.error) if self.error is not None else None
        game = self.state
        if game is None or not game.logs:
            return {
                "ok": self.ok,
                "error": error,
                "deals": [],
                "scores": [],
                "game_over": False,
                "winner": None,
                "state": None,
            }
        summaries = list(game.summaries)
        if not game.deal_over:
            summaries.append(game.summary())
        return {
            "ok": self.ok,
            "error": error,
            "deals": [_summary_json(summary) for summary in summaries],
            "scores": list(game.scores),
            "game_over": game.game_over,
            "winner": game.winner,
            "state": state_json(game),
        }


def _summary_json(summary: DealSummary) -> dict[str, Any]:
    data: dict[str, Any] = {
        "dealer": summary.dealer,
        "result": summary.result.value if summary.result is not None else None,
        "winner": summary.winner,
        "points": list(summary.points) if summary.points is not None else None,
    }
    if summary.knocker is not None:  # knock rummy only: other records keep their shape
        data["knocker"] = summary.knocker
    if summary.deadwood is not None:
        data["deadwood"] = list(summary.deadwood)
    return data


def state_json(game: GameState) -> dict[str, Any]:
    """The position as docs/RECORD.md's ``state`` object."""
    data: dict[str, Any] = {
        "deal": game.deal_number,
        "turn": game.turn,
        "phase": game.phase.value,
        "hands": [[str(card) for card in sorted(hand)] for hand in game.hands],
        "melds": [{"owner": meld.owner, "cards": meld.text.split()} for meld in game.melds],
        "discard": [str(card) for card in game.discard_pile],
        "stock": [str(card) for card in reversed(game.stock)],
    }
    layouts = game.deal.layouts
    if layouts is not None:  # knock rummy: every hand laid out at the deal's end
        data["laid_out"] = [
            {
                "melds": [meld.text.split() for meld in layout.melds],
                "deadwood": [str(card) for card in layout.deadwood],
                "value": layout.value,
            }
            for layout in layouts
        ]
    return data


class ReplayObserver(Protocol):
    """Follows a replay: told of each deal dealt and each action applied."""

    def dealt(self, game: GameState, deal: int) -> None:
        """Deal number ``deal`` has just been dealt."""

    def applied(self, game: GameState, deal: int, text: str) -> None:
        """The action ``text`` has just been applied."""


def replay(record: GameRecord, observer: ReplayObserver | None = None) -> ReplayResult:
    """Play a record through the engine, stopping at the first illegal action.

    Shape errors found on the way (a deal after an unfinished one or after the game's end, a
    dealer against the rotation, a reshuffle with the wrong cards) stop it with
    ``bad_record``.
    """
    game = GameState(record.rules, len(record.players), record.deals[0].dealer)
    for deal_index, deal in enumerate(record.deals):
        problem = _deal_problem(game, deal, deal_index)
        if problem is not None:
            return _failed(record, game, deal_index, None, "bad_record", problem)
        try:
            game.start_deal(deal.deck, reshuffles=deal.reshuffles, seed=deal.seed)
        except RecordError as error:
            return _failed(record, game, deal_index, None, error.code, error.message)
        if observer is not None:
            observer.dealt(game, deal_index)
        for action_index, text in enumerate(deal.actions):
            try:
                game.apply(parse_action(text))
            except (InvalidActionError, IllegalActionError) as error:
                return _failed(record, game, deal_index, action_index, error.code, error.message)
            except RecordError as error:
                return _failed(record, game, deal_index, action_index, error.code, error.message)
            if observer is not None:
                observer.applied(game, deal_index, text)
    return ReplayResult(record, game, None)


def _deal_problem(game: GameState, deal: DealRecord, index: int) -> str | None:
    if index == 0:
        return None
    if not game.deal_over:
        return f"Deal {index - 1} is unfinished, but another deal follows it."
    if game.game_over:
        return f"The game ended with deal {index - 1}; deal {index} cannot follow."
    if deal.dealer != game.dealer:
        return f"Deal {index} must be dealt by seat {game.dealer}, not seat {deal.dealer}."
    return None


def _failed(
    record: GameRecord,
    game: GameState,
    deal: int | None,
    action: int | None,
    code: str,
    message: str,
) -> ReplayResult:
    if code in ("bad_record", "unsupported"):
        deal, action = None, None
    return ReplayResult(record, game, ReplayError(deal, action, code, message))


def replay_json(source: str | bytes | Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """Read and replay a record: docs/RECORD.md's JSON object and the exit code."""
    try:
        record = load_record(source)
    except RecordError as error:
        failed = ReplayResult(None, None, ReplayError(None, None, error.code, error.message))
        return failed.to_json(), 2
    result = replay(record)
    return result.to_json(), result.exit_code
