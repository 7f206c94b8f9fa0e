"""A game record told as a readable transcript: who did what, each deal's result, the score."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rummykit.core.actions import (
    Action,
    Draw,
    DrawSource,
    LayOff,
    Meld,
    agrees,
    describe_action,
    parse_action,
)
from rummykit.core.cards import Card, format_cards
from rummykit.core.record import GameRecord, ReplayResult, replay
from rummykit.core.rules import Renew, Scoring
from rummykit.core.state import DealResult, GameState


def _in_order(cards: Iterable[Card]) -> list[Card]:
    """Cards by suit, then rank: how a player sorts a hand."""
    return sorted(cards, key=lambda card: (card.suit or 0, card.code))


def _cards(cards: list[Card] | tuple[Card, ...]) -> str:
    return format_cards(_in_order(cards), symbols=True)


def _meld_left(game: GameState, action: Action) -> str | None:
    """The meld a meld or lay-off leaves on the table, as people read it."""
    if isinstance(action, Meld):
        return game.melds[-1].symbols
    if isinstance(action, LayOff):
        return game.melds[action.meld].symbols
    return None


class Transcript:
    """Collects the lines of a transcript while a record is replayed."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.names = record.players
        self.lines: list[str] = []
        self._hands: list[list[Card]] = []
        self._table: list[int] = []
        self._renewals = 0
        seats = len(self.names)
        self.lines.append(
            f"Rummy under the {record.preset.name} rules"
            f"{'' if record.rules == record.preset.rules else ' (with house changes)'}, "
            f"{seats} players: {', '.join(self.names)}."
        )

    def _snapshot(self, game: GameState) -> None:
        self._hands = [list(hand) for hand in game.hands]
        self._table = list(game.table_points)
        self._renewals = game.renewals_used

    def dealt(self, game: GameState, deal: int) -> None:
        """Announce a new deal and the hands dealt."""
        dealer = game.logs[-1].dealer
        first = game.turn
        top = game.discard_top
        self.lines.append("")
        self.lines.append(
            f"Deal {deal + 1}: {agrees(self.names[dealer], 'deals', 'deal')}, "
            f"{agrees(self.names[first], 'plays', 'play')} first; "
            f"the up-card is {top.symbol if top else 'missing'}, {game.stock_count} in the stock."
        )
        for seat, hand in enumerate(game.hands):
            self.lines.append(f"  {agrees(self.names[seat], 'holds', 'hold')} {_cards(hand)}.")
        self._snapshot(game)
        self._note_renewal(game)

    def _note_renewal(self, game: GameState) -> None:
        if game.renewals_used > self._renewals:
            how = (
                "turned over"
                if game.rules.renew is Renew.FLIP
                else "shuffled"
                if game.rules.renew is Renew.SHUFFLE
                else "shuffled, all but its top card,"
            )
            self.lines.append(f"  The stock is empty: the discard pile is {how} into a new stock.")

    def applied(self, game: GameState, deal: int, text: str) -> None:
        """Describe one action and, if it ended the deal, the result."""
        action = parse_action(text)
        name = self.names[action.seat]
        before = Counter(self._hands[action.seat])
        self._note_renewal(game)
        gained = _in_order((Counter(game.hands[action.seat]) - before).elements())
        extra = game.deal.stock_extra if isinstance(action, Draw) else None
        if extra is not None:  # the transcript shows every hand, so it names the stock card
            gained.remove(extra)
        if isinstance(action, Draw) and action.source is DrawSource.STOCK and not gained:
            told = f"{name} would draw, but the stock is gone for good"
        else:
            told = describe_action(
                action,
                actor=name,
                taken=gained if isinstance(action, Draw) else (),
                meld=_meld_left(game, action),
                stock_too=extra if extra is not None else False,
            )
            if isinstance(action, Meld):
                told += f" (meld {len(game.melds) - 1})"
            if game.rules.scoring is Scoring.MELDS and isinstance(action, Meld | LayOff):
                scored = game.table_points[action.seat] - self._table[action.seat]
                told += f", scoring {scored} ({game.table_points[action.seat]} on the table)"
        self.lines.append(f"  {told}.")
        self._snapshot(game)
        if game.deal_over:
            self._deal_result(game)

    def _deal_result(self, game: GameState) -> None:
        if game.result is DealResult.BLOCKED:
            self.lines.append("  The deal is blocked: the stock has run out for good.")
        elif game.deal.knocker is None:
            winner = game.deal_winner
            assert winner is not None
            how = "rummy" if game.result is DealResult.RUMMY else "out"
            self.lines.append(f"  {agrees(self.names[winner], 'goes', 'go')} {how}!")
        if game.deal.layouts is not None:
            self._laid_out(game)
            self._scored(game)
            return
        for seat, hand in enumerate(game.hands):
            if hand:
                self.lines.append(
                    f"  {agrees(self.names[seat], 'is', 'are')} caught with {_cards(hand)}: "
                    f"{game.hand_value(seat)} points."
                )
        self._scored(game)

    def _laid_out(self, game: GameState) -> None:
        """Knock rummy: every hand spread in its melds, its deadwood counted, and who won."""
        layouts = game.deal.layouts
        assert layouts is not None
        for seat, layout in enumerate(layouts):
            melds = " · ".join(meld.symbols for meld in layout.melds)
            loose = _cards(layout.deadwood) if layout.deadwood else "nothing"
            self.lines.append(
                f"  {agrees(self.names[seat], 'lays', 'lay')} out {melds or 'no meld'}; "
                f"loose: {loose} ({layout.value})."
            )
        winner = game.deal_winner
        if game.result is DealResult.KNOCK and winner is not None:
            self.lines.append(f"  {agrees(self.names[winner], 'wins', 'win')} the knock.")
        elif game.result is DealResult.UNDERCUT and winner is not None:
            self.lines.append(
                f"  {agrees(self.names[winner], 'undercuts', 'undercut')} the knocker and "
                "wins the deal."
            )

    def _scored(self, game: GameState) -> None:
        """The deal's points, the totals, and the game's end."""
        if game.rules.scoring is Scoring.MELDS:
            laid = ", ".join(
                f"{self.names[seat]} {value}" for seat, value in enumerate(game.table_points)
            )
            self.lines.append(f"  Laid on the table: {laid}.")
        points = game.deal_points or ()
        scored = ", ".join(
            f"{self.names[seat]} {value}" for seat, value in enumerate(points) if value
        )
        penalty = game.rules.scoring is Scoring.PENALTY
        self.lines.append(
            f"  {'Penalty points' if penalty else 'Points'}: {scored or 'nobody scores'}."
        )
        totals = " · ".join(f"{self.names[seat]} {score}" for seat, score in enumerate(game.scores))
        self.lines.append(f"  Totals: {totals}.")
        if game.game_over:
            if game.winner is None:
                self.lines.append("")
                self.lines.append("Game over: a tie at the top, so nobody wins.")
            else:
                self.lines.append("")
                self.lines.append(
                    f"Game over: {agrees(self.names[game.winner], 'wins', 'win')} "
                    f"with {game.scores[game.winner]}."
                )


def transcript(record: GameRecord) -> tuple[str, ReplayResult]:
    """The record told as text, and the replay's result (which says where it stopped)."""
    teller = Transcript(record)
    result = replay(record, teller)
    if result.error is not None:
        where = ""
        if result.error.deal is not None and result.error.action is not None:
            where = f" (deal {result.error.deal + 1}, action {result.error.action + 1})"
        teller.lines.append("")
        teller.lines.append(f"Stopped{where}: {result.error.message} [{result.error.code}]")
    elif result.state is not None and not result.state.deal_over:
        turn = result.state.turn
        teller.lines.append("")
        teller.lines.append(
            f"The record ends here, with {teller.names[turn]} to {result.state.phase.value}."
        )
    return "\n".join(teller.lines), result
