"""What the server sends a viewer: a seat's observation as JSON, with the table around it.

``seat_view`` is the one projection of a table for anyone: a seat sees its own hand, a
spectator (no seat) sees what everyone at the table sees, and nobody sees another seat's
hidden cards or the stock's order.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rummykit.core.actions import Draw, LayOff, Meld, parse_action
from rummykit.core.cards import Card, parse_cards
from rummykit.core.deadwood import Partition, deadwood_value
from rummykit.core.melds import TableMeld
from rummykit.core.observation import Observation, observe
from rummykit.core.rules import Melding, Rules
from rummykit.core.state import DealResult, GameState, Phase
from rummykit.protocol.facts import RuleValue
from rummykit.protocol.messages import (
    POSITION_WORDS,
    DealResultView,
    DealSummaryView,
    LaidOutView,
    MeldView,
    PlayerView,
    Position,
    SeatView,
)
from rummykit.protocol.settings import RULE_VALUES, BotPlayer, HumanPlayer, Player
from rummykit.protocol.vocabularies import PracticeTopic

POSITIONS: dict[int, tuple[Position, ...]] = {
    2: ("you", "across"),
    3: ("you", "left", "right"),
    4: ("you", "left", "across", "right"),
    5: ("you", "left", "far_left", "far_right", "right"),
    6: ("you", "left", "far_left", "across", "far_right", "right"),
    7: ("you", "left", "far_left", "across_left", "across_right", "far_right", "right"),
    8: ("you", "left", "far_left", "across_left", "across", "across_right", "far_right", "right"),
}
"""Where each seat sits as seen from a seat, by how many places to its left it is."""

Viewer = int | None
"""Who a connection is: a seat, or ``None`` for a spectator."""


def position_of(viewer: int | None, seat: int, seats: int) -> Position | Literal[""]:
    """``left``, ``across``... for ``seat`` as seen from ``viewer`` ('' for a spectator)."""
    if viewer is None:
        return ""
    return POSITIONS[seats][(seat - viewer) % seats]


def called(viewer: int | None, seat: int, names: Sequence[str]) -> str:
    """How ``viewer`` calls the player at ``seat`` in English: ``You``, ``Ann (Left)``, ``Ann``."""
    where = position_of(viewer, seat, len(names))
    if where == "you":
        return POSITION_WORDS["you"]
    return f"{names[seat]} ({POSITION_WORDS[where]})" if where else names[seat]


@dataclass(frozen=True)
class Presence:
    """Who is at the table: the people with a page open, those the computer plays for."""

    connected: frozenset[int] = field(default_factory=frozenset)
    """Seats of people with a page open (computer players are always there)."""
    standing_in: frozenset[int] = frozenset()
    """Seats of people the computer plays for while they are away."""
    left: frozenset[int] = frozenset()
    """Seats of people who left for good."""
    watchers: int = 0
    paused: bool = False


@dataclass(frozen=True)
class Between:
    """The wait for the next deal at a table of several people (empty elsewhere)."""

    ready: frozenset[int] = frozenset()
    """Seats whose people pressed "next deal"."""
    waiting: frozenset[int] = frozenset()
    """People with a page open whose press the next deal still waits for."""
    deadline: float | None = None
    """When the next deal starts whoever is still reading (from the first press)."""


def _cards(cards: tuple[Card, ...] | list[Card]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


def _without_seat(text: str) -> str:
    return text.split(" ", 1)[1]


def practice_topics(observation: Observation, game: GameState) -> list[PracticeTopic]:
    """The rules that matter right now, for the practice game to explain the first time."""
    topics: list[PracticeTopic] = []
    if observation.is_my_turn:
        legal = observation.legal_actions
        if observation.phase is Phase.DRAW:
            topics.append("draw")
            if observation.stock_count == 0:
                topics.append("empty_stock")
        else:
            if any(isinstance(action, Meld) for action in legal):
                topics.append("meld")
            if any(isinstance(action, LayOff) for action in legal):
                topics.append("layoff")
            if observation.taken_top is not None and len(observation.hand) > 1:
                topics.append("no_throwback")
            topics.append("discard")
    if observation.renewals_used:
        topics.append("renewed")
    if game.result is DealResult.BLOCKED:
        topics.append("blocked")
    elif game.result is DealResult.RUMMY:
        topics.append("rummy")
    elif game.result is DealResult.OUT:
        topics.append("out")
    return topics


def _player(
    player: Player, seat: int, position: Position | Literal[""], presence: Presence
) -> PlayerView:
    bot = isinstance(player, BotPlayer)
    return PlayerView(
        name=player.name,
        kind=player.kind,
        level=player.level if isinstance(player, BotPlayer) else None,
        position=position,
        connected=bot or seat in presence.connected,
        stand_in=seat in presence.standing_in or seat in presence.left,
        left=seat in presence.left,
        program=isinstance(player, HumanPlayer) and player.program,
    )


def _deal_result(game: GameState) -> DealResultView:
    layouts = game.deal.layouts
    values = tuple(game.hand_value(other) for other in range(game.seat_count))
    laid_out = None
    if layouts is not None:  # knock rummy: every hand spread, its deadwood what counts
        values = tuple(layout.value for layout in layouts)
        laid_out = tuple(
            LaidOutView(
                melds=tuple(_meld_view(meld) for meld in layout.melds),
                deadwood=_cards(layout.deadwood),
                value=layout.value,
            )
            for layout in layouts
        )
    return DealResultView(
        result=game.result,
        winner=game.deal_winner,
        points=tuple(game.deal_points or ()),
        hands=tuple(_cards(sorted(hand)) for hand in game.hands),
        values=values,
        knocker=game.deal.knocker,
        laid_out=laid_out,
    )


def _meld_view(meld: TableMeld, points: int = 0) -> MeldView:
    return MeldView(
        owner=meld.owner,
        kind=meld.kind,
        cards=tuple(meld.text.split()),
        start=meld.start,
        points=points,
    )


def _history(game: GameState) -> tuple[DealSummaryView, ...]:
    return tuple(
        DealSummaryView(
            dealer=summary.dealer,
            result=summary.result,
            winner=summary.winner,
            points=tuple(summary.points or ()),
        )
        for summary in game.summaries
    )


@functools.lru_cache(maxsize=256)
def _rule_values(rules: Rules) -> dict[str, RuleValue]:
    """A table's rules as its views say them, read once a table.

    Every view of a table says the same rules: reading them anew took about 2% of the
    serving loop under load.
    """
    return RULE_VALUES.validate_python(rules.to_mapping())


def seat_view(
    game: GameState,
    seat: int | None,
    players: tuple[Player, ...],
    *,
    table_id: str,
    preset: str,
    practice: bool,
    pace_ms: int,
    turn_timer: int | None = None,
    deadline: float | None = None,
    server_now: float | None = None,
    party: str | None = None,
    next_table: str | None = None,
    presence: Presence | None = None,
    between: Between | None = None,
) -> SeatView:
    """Everything seat ``seat`` may see (``None``: a spectator): never a hidden card.

    Hands are shown to everyone only once the deal is over, as at a real table; a spectator
    sees no hand, no legal action and no practice topic. With a turn timer, ``deadline`` is
    when the turn being timed runs out (every seat sees it, so that each can show whose time
    runs) and ``server_now`` the server's clock as the view is made. ``between``: the wait
    for the next deal at a table of several people.
    """
    presence = presence or Presence(connected=frozenset(range(game.seat_count)))
    between = between or Between()
    view = observe(game, seat)
    rules = game.rules
    seats = game.seat_count
    return SeatView(
        table=table_id,
        seat=seat,
        practice=practice,
        preset=preset,
        rules=dict(_rule_values(rules)),
        players=tuple(
            _player(player, other, position_of(seat, other, seats), presence)
            for other, player in enumerate(players)
        ),
        deal=view.deal_number,
        dealer=view.dealer,
        turn=view.turn,
        phase=view.phase,
        hand=_cards(view.hand),
        hand_value=(
            deadwood_value(view.hand, rules)
            if rules.melding is Melding.KNOCK
            else sum(rules.card_points(card.code) for card in view.hand)
        ),
        hand_sizes=tuple(view.hand_sizes),
        known=tuple(_cards(cards) for cards in view.known_cards),
        melds=tuple(
            _meld_view(meld, points)
            for meld, points in zip(view.melds, view.meld_points, strict=True)
        ),
        discard=_cards(view.discard_pile),
        stock=view.stock_count,
        renewals_used=view.renewals_used,
        idle_renewals_used=view.idle_renewals_used,
        scores=tuple(view.scores),
        taken=str(view.taken_top) if view.taken_top else None,
        turn_number=view.turn_number,
        has_laid=view.has_laid,
        first_meld_turns=view.first_meld_turns,
        refused=tuple(_cards(cards) for cards in view.refused),
        thrown=tuple(_cards(cards) for cards in view.thrown),
        must_play=str(view.must_play) if view.must_play else None,
        melds_this_turn=view.melds_this_turn,
        played_this_turn=view.played_this_turn,
        legal=tuple(_without_seat(str(action)) for action in view.legal_actions),
        can_draw_stock=any(
            isinstance(action, Draw) and action.source.value == "stock"
            for action in view.legal_actions
        ),
        deal_result=_deal_result(game) if game.phase is Phase.OVER else None,
        history=_history(game),
        game_over=game.game_over,
        winner=game.winner,
        target=rules.target,
        deals_limit=rules.deals,
        lower_wins=rules.scoring.value == "penalty",
        pace_ms=pace_ms,
        topics=tuple(practice_topics(view, game)) if practice and seat is not None else (),
        turn_timer=turn_timer,
        deadline=deadline,
        server_now=server_now,
        party=party,
        next_table=next_table,
        paused=presence.paused,
        watchers=presence.watchers,
        table_points=view.table_points,
        next_ready=tuple(sorted(between.ready)),
        next_waiting=tuple(sorted(between.waiting)),
        next_deadline=between.deadline,
    )


def observation_of(view: SeatView) -> Observation:
    """The observation a view was made from: ``seat_view``'s other direction.

    A program at the table (``rummy join``) gives its bot this, exactly what the server's own
    computer players are given.
    """
    seat = view.seat
    result = view.deal_result
    return Observation(
        seat=seat,
        rules=Rules.from_mapping({"preset": view.preset, **view.rules}),
        seat_count=len(view.players),
        dealer=view.dealer,
        deal_number=view.deal,
        turn=view.turn,
        turn_number=view.turn_number,
        phase=view.phase,
        hand=tuple(parse_cards(view.hand)),
        hand_sizes=view.hand_sizes,
        known_cards=tuple(tuple(parse_cards(cards)) for cards in view.known),
        melds=tuple(_table_meld(meld) for meld in view.melds),
        meld_points=tuple(meld.points for meld in view.melds),
        table_points=view.table_points or (0,) * len(view.players),
        discard_pile=tuple(parse_cards(view.discard)),
        stock_count=view.stock,
        renewals_used=view.renewals_used,
        idle_renewals_used=view.idle_renewals_used,
        scores=view.scores,
        has_laid=view.has_laid,
        first_meld_turns=view.first_meld_turns,
        refused=tuple(tuple(parse_cards(cards)) for cards in view.refused),
        thrown=tuple(tuple(parse_cards(cards)) for cards in view.thrown)
        or ((),) * len(view.players),
        taken_top=Card.parse(view.taken) if view.taken else None,
        must_play=Card.parse(view.must_play) if view.must_play else None,
        melds_this_turn=view.melds_this_turn,
        played_this_turn=view.played_this_turn,
        legal_actions=tuple(parse_action(f"{seat} {text}") for text in view.legal),
        result=result.result if result else None,
        deal_winner=result.winner if result else None,
        deal_points=result.points if result else None,
        game_over=view.game_over,
        winner=view.winner,
        knocker=result.knocker if result else None,
        layouts=_layouts(result.laid_out) if result and result.laid_out else None,
    )


def _layouts(laid_out: Sequence[LaidOutView]) -> tuple[Partition, ...]:
    """Knock rummy: the hands spread at the deal's end, as the engine holds them."""
    return tuple(
        Partition(
            hand.value,
            tuple(_table_meld(meld) for meld in hand.melds),
            tuple(parse_cards(hand.deadwood)),
        )
        for hand in laid_out
    )


def _table_meld(view: MeldView) -> TableMeld:
    """A meld as the engine holds it, from its view (``X=6h``: a joker standing for 6h)."""
    laid = [word.partition("=") for word in view.cards]
    cards = tuple(Card.parse(shown) for shown, _, _ in laid)
    stands_for = tuple(Card.parse(stood or shown) for shown, _, stood in laid)
    return TableMeld(view.kind, cards, stands_for, view.start, view.owner)
