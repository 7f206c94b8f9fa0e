"""A seat's ``Observation`` rebuilt from what the table sends it, for the bots to decide.

The bots (``rummykit.bots``) choose from an ``Observation``: what a player at a real table
could know. The table's socket sends a ``SeatView`` after every change, and before it an
``Event`` for each action. The view carries most of the observation as it is (hand, melds,
pile, legal actions...), but not the course of the turn and of the deal: the turn's number,
who laid something on an earlier turn, the turn each seat first melded, the top discards each
seat left lying, the deep card the seat to act must still play, and what it laid this turn.
Everyone at the table saw those happen, so ``DealTrack`` follows them from the events; a client
that saw every action of the deal since its first view has them exactly
(``DealTrack.exact``). After a gap (it came back after missing actions, and the table sent
only the view) they are estimated until the next deal: the legal actions still come from the
server, so a bot's choice stays legal, only less well informed.
"""

from __future__ import annotations

import dataclasses

from rummykit.core.actions import Discard, Draw, DrawSource, LayOff, Meld, parse_action
from rummykit.core.cards import Card, parse_cards
from rummykit.core.deal import DealResult, Phase
from rummykit.core.melds import MeldKind, TableMeld
from rummykit.core.observation import Observation
from rummykit.core.rules import Rules
from rummykit.server.protocol import Event, MeldView, SeatView


def table_meld(view: MeldView) -> TableMeld:
    """A meld as the engine holds it, from its view (``5h X=6h 7h``: a joker for the 6h)."""
    cards: list[Card] = []
    stands_for: list[Card] = []
    for word in view.cards:
        shown, _, stood = word.partition("=")
        card = Card.parse(shown)
        cards.append(card)
        stands_for.append(Card.parse(stood) if stood else card)
    kind = MeldKind(view.kind)
    # a run lies lowest first, so it starts at its first card's rank (an ace first is low)
    start = int(stands_for[0].rank or 0) if kind is MeldKind.RUN else 0
    return TableMeld(kind, tuple(cards), tuple(stands_for), start, view.owner)


def view_rules(view: SeatView) -> Rules:
    """The table's rules: the view lists every option's value, and the preset for its ties."""
    return Rules.from_mapping({"preset": view.preset, **view.rules})


@dataclasses.dataclass(slots=True)
class DealTrack:
    """The public course of the deal being played, followed from the table's messages.

    Feed it every ``view`` and ``event`` in the order they come, with their versions
    (``on_view``, ``on_event``); ``observation`` then gives the seat's whole observation.
    """

    deal: int | None = None
    """The deal followed (``None`` before the first view)."""
    version: int = -1
    """The version of the last view."""
    last: SeatView | None = None
    """The last view: what the table looked like before the next event."""
    exact: bool = False
    """Whether every action of the deal was seen, so that the fields below are exact."""
    turn_number: int = 1
    has_laid: list[bool] = dataclasses.field(default_factory=list)
    first_meld_turns: list[int | None] = dataclasses.field(default_factory=list)
    refused: list[list[Card]] = dataclasses.field(default_factory=list)
    must_play: Card | None = None
    melds_this_turn: int = 0
    played_this_turn: bool = False
    pending: list[tuple[int, Event]] = dataclasses.field(default_factory=list)
    """Events after the last view, applied when the view that follows them comes."""

    def _start_deal(self, view: SeatView, *, exact: bool) -> None:
        seats = len(view.players)
        self.deal = view.deal
        self.exact = exact
        self.turn_number = 1
        self.has_laid = [False] * seats
        self.first_meld_turns = [None] * seats
        self.refused = [[] for _ in range(seats)]
        self._new_turn()
        if not exact:
            self._estimate(view)

    def _new_turn(self) -> None:
        self.must_play = None
        self.melds_this_turn = 0
        self.played_this_turn = False

    def _estimate(self, view: SeatView) -> None:
        """Guesses for a deal joined in its course.

        The turns from the first player to the one to act; anyone who owns a meld laid it on
        an earlier turn.
        """
        seats = len(view.players)
        first = (view.dealer + 1) % seats
        self.turn_number = 1 + (view.turn - first) % seats
        for meld in view.melds:
            if meld.owner != view.turn or view.phase == Phase.DRAW.value:
                self.has_laid[meld.owner] = True
                if self.first_meld_turns[meld.owner] is None:
                    self.first_meld_turns[meld.owner] = 0
            elif view.phase == Phase.PLAY.value:
                self.played_this_turn = True
                if self.first_meld_turns[meld.owner] is None:
                    self.first_meld_turns[meld.owner] = self.turn_number

    def on_event(self, version: int, event: Event) -> None:
        """An action just played (its view comes next)."""
        self.pending.append((version, event))

    def on_view(self, version: int, view: SeatView) -> None:
        """The seat's view at ``version``, after the events that led to it."""
        events, self.pending = self.pending, []
        contiguous = self.last is not None and [v for v, _ in events] == list(
            range(self.version + 1, version + 1)
        )
        if view.deal != self.deal:
            # a new deal is dealt in one step, with no event: seen whole if the view follows
            # the last one at once
            fresh = not events and (version == self.version + 1 or version == 1)
            self._start_deal(view, exact=fresh)
        elif not contiguous:
            if events or version != self.version:
                self.exact = False
                self._catch_up(view)
        else:
            before = self.last
            assert before is not None
            for _, event in events:
                self._apply(event, before)
        self.last = view
        self.version = version

    def _catch_up(self, view: SeatView) -> None:
        """After a gap: what the view alone shows of the turns missed."""
        last = self.last
        if last is None:
            return
        seats = len(view.players)
        passed = (view.turn - last.turn) % seats
        if passed:
            self.turn_number += passed
            self._new_turn()
        for meld in view.melds[len(last.melds) :]:
            if meld.owner == view.turn and view.phase == Phase.PLAY.value:
                self.played_this_turn = True
                self.melds_this_turn += 1
            else:
                self.has_laid[meld.owner] = True
            if self.first_meld_turns[meld.owner] is None:
                self.first_meld_turns[meld.owner] = self.turn_number

    def _apply(self, event: Event, before: SeatView) -> None:
        """One action, as the engine's ``GameState.apply`` changes the public fields."""
        seat = event.seat
        action = parse_action(f"{seat} {event.action}")
        pile = parse_cards(before.discard)
        if isinstance(action, Draw):
            if action.source is DrawSource.STOCK:
                if pile:
                    self.refused[seat].append(pile[-1])
            elif action.depth > 1:
                self.must_play = pile[-action.depth]
        elif isinstance(action, Meld):
            self.melds_this_turn += 1
            self.played_this_turn = True
            if self.first_meld_turns[seat] is None:
                self.first_meld_turns[seat] = self.turn_number
            if self.must_play is not None and self.must_play in action.cards:
                self.must_play = None
        elif isinstance(action, LayOff):
            self.played_this_turn = True
            if self.must_play is action.card:
                self.must_play = None
        elif isinstance(action, Discard) and before.hand_sizes[seat] > 1:
            # (a discard that empties the hand ends the deal: the turn does not pass)
            if self.played_this_turn:
                self.has_laid[seat] = True
            self.turn_number += 1
            self._new_turn()

    def observation(self) -> Observation:
        """The seat's observation at the last view."""
        view = self.last
        if view is None:
            raise ValueError("No view has come yet.")
        return observation_from_view(view, self)


def _fallback(view: SeatView) -> DealTrack:
    track = DealTrack()
    track._start_deal(view, exact=False)
    track.last = view
    return track


def observation_from_view(view: SeatView, track: DealTrack | None = None) -> Observation:
    """The ``Observation`` a seat's view stands for.

    The fields the view does not carry come from ``track`` (the deal followed from the
    table's events); without one they are estimated (see ``DealTrack``).
    """
    if view.seat is None:
        raise ValueError("A spectator's view has no seat to play.")
    if track is None or track.deal != view.deal:
        track = _fallback(view)
    seat = view.seat
    result = view.deal_result
    return Observation(
        seat=seat,
        rules=view_rules(view),
        seat_count=len(view.players),
        dealer=view.dealer,
        deal_number=view.deal,
        turn=view.turn,
        turn_number=track.turn_number,
        phase=Phase(view.phase),
        hand=tuple(sorted(parse_cards(view.hand))),
        hand_sizes=view.hand_sizes,
        known_cards=tuple(parse_cards(cards) for cards in view.known),
        melds=tuple(table_meld(meld) for meld in view.melds),
        discard_pile=parse_cards(view.discard),
        stock_count=view.stock,
        renewals_used=view.renewals_used,
        scores=view.scores,
        has_laid=tuple(track.has_laid),
        first_meld_turns=tuple(track.first_meld_turns),
        refused=tuple(tuple(cards) for cards in track.refused),
        taken_top=Card.parse(view.taken) if view.taken else None,
        must_play=track.must_play,
        melds_this_turn=track.melds_this_turn,
        played_this_turn=track.played_this_turn,
        legal_actions=tuple(parse_action(f"{seat} {text}") for text in view.legal),
        result=DealResult(result.result) if result and result.result else None,
        deal_winner=result.winner if result else None,
        deal_points=result.points if result else None,
        game_over=view.game_over,
        winner=view.winner,
    )


__all__ = ["DealTrack", "observation_from_view", "table_meld", "view_rules"]
