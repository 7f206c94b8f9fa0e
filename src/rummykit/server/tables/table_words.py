"""What a table says: its notices and its events, as kinds with parameters and in our words.

Every event (an action played) and notice (what no action says: the timer, someone away or
back, the stock turned over or running low, a blocked deal) has a stable ``kind`` and
``params`` (seats as ints, cards as codes, counts as ints). Its English sentence is the
kind's template (``rummykit.protocol.event_words``, where the kinds are defined with the
wire), filled here for each viewer: "You", or the player's name with where they
sit ("Ann (Left)"), or the name alone for a spectator. The browser renders the same
templates (generated into ``web/i18n/en/events.js``) or their Japanese, with the table's
names (``web/table/event_words.js``). The refusals' sentences are
``rummykit.core.refusals``'s.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from rummykit.core.actions import (
    Action,
    Discard,
    Draw,
    DrawSource,
    Knock,
    LayOff,
    Meld,
    parse_action,
)
from rummykit.core.cards import Card
from rummykit.core.deal import DealLog, DealResult
from rummykit.core.refusals import (
    SEAT_PARAMS,
    ParamValue,
    Template,
    fill,
)
from rummykit.core.rules import Renew
from rummykit.core.state import GameState
from rummykit.protocol import EVENTS, POSITION_WORDS, REACTIONS, Viewer, called, refusal_text

GAME_OVER_MESSAGE: Final = refusal_text("game_over", {})
REACTIONS_PER_WINDOW: Final = 3
REACTION_WINDOW_S: Final = 10.0
"""At most 3 quick reactions per seat every 10 seconds: enough to say something, too few to
flood the table."""

NAMING_WORDS: Final[dict[str, str]] = {
    "you": "you",
    "your": "your",
    "yours": "yours",
    "possessive": "{name}'s",
}
"""How the browser names your own seat in a sentence, and anyone's possessive."""

STOCK_WARNINGS: Final = (5, 3, 1)
"""The stock's last counts said out loud."""

HELLO_ONCE: Final = refusal_text("hello_once", {})
LEFT_ALREADY: Final = refusal_text("left_already", {})
TOO_MANY_REACTIONS: Final = refusal_text(
    "too_many_reactions", {"count": REACTIONS_PER_WINDOW, "seconds": int(REACTION_WINDOW_S)}
)
NOT_A_PARTY_LEAVE: Final = refusal_text("not_a_party_leave", {})
NOT_A_PARTY_REMATCH: Final = refusal_text("not_a_party_rematch", {})
NOT_OVER_YET: Final = refusal_text("not_over_yet", {})
NO_HINTS_AT_PARTIES: Final = refusal_text("no_hints", {})
NO_REDEAL_AT_PARTIES: Final = refusal_text("no_redeal_at_parties", {})

_SEAT_PLACEHOLDER: Final = re.compile(r"\{(seat)\}")


@dataclasses.dataclass(frozen=True)
class Said:
    """Something the table says, before it is worded for a viewer: a kind and its params.

    ``seat`` is the seat it is about (``None``: nobody's); ``action`` and ``card`` are set
    for an action's event (the action without its seat; the card it showed, when public).
    ``secret`` is a card only ``seat`` may be told (Boathouse's stock card): ``seen_by``
    gives each viewer the words it may have.
    """

    kind: str
    params: Mapping[str, ParamValue]
    seat: int | None = None
    action: str | None = None
    card: str | None = None
    secret: str | None = None

    def seen_by(self, viewer: Viewer) -> Said:
        """What ``viewer`` is told: the secret card named to its own seat, else left out."""
        if self.secret is None or viewer != self.seat:
            return self
        params = {**self.params, "stock_card": self.secret}
        return dataclasses.replace(self, kind=f"{self.kind}_card", params=params, secret=None)

    def revealed(self) -> Said:
        """The words with the secret card named, for a finished game's replay."""
        return self.seen_by(self.seat)

    def text(self, viewer: Viewer, names: Sequence[str]) -> str:
        """The English sentence for ``viewer``."""
        told = self.seen_by(viewer)
        return say(told.kind, told.params, viewer, names)


def say(kind: str, params: Mapping[str, ParamValue], viewer: Viewer, names: Sequence[str]) -> str:
    """A kind's English sentence, its seats named for ``viewer`` ("You" or "Ann (Left)")."""
    template = EVENTS[kind]
    named = {
        name: called(viewer, value, names)
        for name, value in params.items()
        if name in SEAT_PARAMS and isinstance(value, int)
    }
    plain = {name: value for name, value in params.items() if name not in named}
    text = fill(template, plain)

    def seat_words(match: re.Match[str]) -> str:
        word = named.get(match[1], match[0])
        return "you" if word == "You" and match.start() > 0 else word

    return _SEAT_PLACEHOLDER.sub(seat_words, text)


def standing_in(names: Sequence[str], seat: int, viewer: Viewer) -> Said:
    """The computer takes the turns of the person at ``seat``, who is away."""
    return Said("standing_in_you" if seat == viewer else "standing_in", {"seat": seat}, seat)


def is_back(names: Sequence[str], seat: int, viewer: Viewer) -> Said:
    """The person at ``seat`` came back."""
    return Said("back_you" if seat == viewer else "back", {"seat": seat}, seat)


def has_left(names: Sequence[str], seat: int, viewer: Viewer) -> Said:
    """The person at ``seat`` left for good."""
    return Said("left_you" if seat == viewer else "left", {"seat": seat}, seat)


def ran_out(names: Sequence[str], seat: int, viewer: Viewer) -> Said:
    """The turn timer of ``seat`` ran out."""
    return Said("time_ran_out_you" if seat == viewer else "time_ran_out", {"seat": seat}, seat)


def restarted(seat: int, grace: int) -> Said:
    """The server came back; the turn timer of ``seat`` got ``grace`` seconds more."""
    return Said("restarted", {"grace": grace}, seat)


def action_said(game: GameState, action: Action) -> Said:
    """What ``action``, just applied to ``game``, says (the same for every viewer)."""
    seat = action.seat
    notation = str(action).split(" ", 1)[1]
    params: dict[str, ParamValue] = {"seat": seat}
    if isinstance(action, Draw):
        if action.source is DrawSource.STOCK:
            return Said("draw_stock", params, seat, notation)
        # Cards taken from the pile are public; a card drawn from the stock is not.
        taken: tuple[Card, ...] = tuple(game.known[seat][-action.depth :])
        if not taken:
            return Said("take_top", params, seat, notation)
        card = str(taken[-1])
        extra = game.deal.stock_extra
        secret = str(extra) if extra is not None else None
        stock = "_stock" if extra is not None else ""
        if len(taken) == 1:
            said = {**params, "card": card}
            return Said(f"take_discard{stock}", said, seat, notation, card, secret)
        cards = [str(each) for each in taken]
        return Said(
            f"take_discards{stock}", {**params, "cards": cards}, seat, notation, card, secret
        )
    if isinstance(action, Meld):
        meld = game.melds[-1].text.split()
        return Said("meld", {**params, "meld": meld}, seat, notation)
    card = str(action.card)
    if isinstance(action, LayOff):
        meld = game.melds[action.meld].text.split()
        layoff = {**params, "card": card, "number": action.meld, "meld": meld}
        return Said("layoff", layoff, seat, notation, card)
    if isinstance(action, Knock):
        return Said("knock", {**params, "card": card}, seat, notation, card)
    assert isinstance(action, Discard)
    return Said("discard", {**params, "card": card}, seat, notation, card)


def _renewed(game: GameState) -> Said:
    rules = game.rules
    kind = f"renewed_{rules.renew.value}"
    if rules.renewals is None:
        return Said(f"{kind}_any", {})
    return Said(kind, {"count": rules.renewals})


def _idle_limit_reached(game: GameState) -> bool:
    """Whether ``idle_renewals`` forbids another new stock until a card is laid."""
    limit = game.rules.idle_renewals
    return limit is not None and game.idle_renewals_used >= limit


def stock_said(game: GameState, stock_before: int, renewed: bool) -> list[Said]:
    """What the stock says after an action: turned over, running low, a blocked deal."""
    said: list[Said] = []
    rules = game.rules
    if renewed:
        said.append(_renewed(game))
    count = game.stock_count
    if count != stock_before and count in STOCK_WARNINGS and not game.deal_over:
        may_renew = (
            rules.renew is not Renew.NONE
            and (rules.renewals is None or game.renewals_used < rules.renewals)
            and not _idle_limit_reached(game)
        )
        said.append(Said("stock_low" if may_renew else "stock_last", {"count": count}))
    if game.deal_over and game.result is DealResult.BLOCKED:
        if _idle_limit_reached(game) and (
            rules.renewals is None or game.renewals_used < rules.renewals
        ):
            said.append(Said("stalled", {"count": rules.idle_renewals}))
        points = game.deal_points or ()
        winner = game.deal_winner
        if winner is not None and any(points):
            collects = {"seat": winner, "points": points[winner]}
            said.append(Said("blocked_collects", collects, winner))
        else:
            said.append(Said("blocked", {}))
    return said


def renews_first(action: Action) -> bool:
    """Whether a stock renewed by ``action`` was renewed before the action was played.

    A draw from an empty stock turns the pile over first, then draws from the new stock. Any
    other renewal follows the action: a discard that leaves the next seat an empty stock.
    """
    return isinstance(action, Draw) and action.source is DrawSource.STOCK


def stock_told(
    game: GameState, action: Action, stock_before: int, renewed: bool
) -> tuple[list[Said], list[Said]]:
    """The stock's notices after ``action`` (``stock_said``): (before its event, after it).

    A renewal is told where it happened (``renews_first``); the rest always follow.
    """
    told = stock_said(game, stock_before, renewed)
    first = 1 if renewed and renews_first(action) else 0
    return told[:first], told[first:]


def deal_said(game: GameState, deal: int, viewer: Viewer) -> Said:
    """The log's first line of a deal: its number (from 1) and its dealer."""
    dealer = game.logs[deal].dealer
    if dealer == viewer:
        return Said("deal_you", {"number": deal + 1}, dealer)
    return Said("deal", {"number": deal + 1, "seat": dealer}, dealer)


def deal_log(game: GameState) -> list[Said]:
    """The current deal told again from its stored actions: its events and the stock's notices.

    Rebuilt from the deal's deck, seed and actions, so that a page that reloads, or comes
    back after a restart, shows the lines it showed before. ``DealStory`` does the same
    without replaying what it has told already.
    """
    return DealStory().update(game)


class DealStory:
    """The current deal's story, kept up to date by replaying only the actions new since then.

    A reconnect then does not cost a replay of the whole deal (milliseconds on the server's
    event loop for a long deal).
    """

    def __init__(self) -> None:
        """An empty story, for no deal yet."""
        self._log: DealLog | None = None
        self._replayed: GameState | None = None
        self._told = 0
        self._said: list[Said] = []

    def update(self, game: GameState) -> list[Said]:
        """The story of ``game``'s current deal (a copy of the lines), as ``deal_log`` tells it."""
        if not game.logs:
            return []
        log = game.logs[-1]
        if log is not self._log or self._replayed is None or len(log.actions) < self._told:
            self._log, self._told, self._said = log, 0, []
            self._replayed = GameState(game.rules, game.seat_count, dealer=log.dealer)
            self._replayed.start_deal(log.deck, reshuffles=log.reshuffles, seed=log.seed)
        replayed = self._replayed
        for text in log.actions[self._told :]:
            action = parse_action(text)
            stock_before = replayed.stock_count
            renewals_before = replayed.renewals_used
            replayed.apply(action)
            renewed = replayed.renewals_used > renewals_before
            before, after = stock_told(replayed, action, stock_before, renewed)
            self._said.extend(before)
            self._said.append(action_said(replayed, action))
            self._said.extend(after)
        self._told = len(log.actions)
        return list(self._said)


def event_of(
    game: GameState, action: Action, viewer: Viewer, names: Sequence[str]
) -> dict[str, Any]:
    """The event of ``action``, just applied to ``game``, as ``viewer`` is told it."""
    said = action_said(game, action).seen_by(viewer)
    return {
        "seat": action.seat,
        "action": said.action,
        "card": said.card,
        "kind": said.kind,
        "params": dict(said.params),
        "text": said.text(viewer, names),
    }


def catalogue() -> dict[str, Template]:
    """The English catalogue area ``events`` (``web_catalogues``): key ``events.KIND``.

    Also the seats' positions (``events.position.CODE``) and the quick reactions
    (``events.reaction.CODE``), which travel as codes.
    """
    words: dict[str, Template] = {f"events.{kind}": text for kind, text in EVENTS.items()}
    words.update({f"events.{key}": text for key, text in NAMING_WORDS.items()})
    words.update({f"events.position.{code}": text for code, text in POSITION_WORDS.items()})
    words.update({f"events.reaction.{code}": text for code, text in REACTIONS.items()})
    return words
