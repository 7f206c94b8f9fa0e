"""Actions as values, and their text notation in the game record.

>>> action = parse_action("1 meld 5h X=6h 7h")
>>> action.cards, action.jokers_as
((Card.parse('5h'), Card.parse('X'), Card.parse('7h')), (Card.parse('6h'),))
>>> str(action), str(parse_action("0 draw discard 3")), str(parse_action("2 layoff 10h 0"))
('1 meld 5h X=6h 7h', '0 draw discard 3', '2 layoff Th 0')
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from rummykit.core.cards import JOKER, Card, format_cards
from rummykit.core.errors import InvalidActionError
from rummykit.core.frozen import rebuild_by_fields


class DrawSource(enum.StrEnum):
    """Where a draw takes its card from."""

    STOCK = "stock"
    """The top card of the face-down stock."""
    DISCARD = "discard"
    """The top of the face-up discard pile (or deeper, where the rules allow)."""


def _joker_text(card: Card, stood: Card | None) -> str:
    if card.is_joker and stood is not None:
        return f"X={stood}"
    return str(card)


@dataclasses.dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock, or the top ``depth`` cards of the discard pile."""

    seat: int
    """The seat that draws."""
    source: DrawSource
    """Stock or discard pile."""
    depth: int = 1
    """From the discard pile: how many cards from the top (1 is the top card alone)."""

    def __str__(self) -> str:
        text = f"{self.seat} draw {self.source.value}"
        return text + (f" {self.depth}" if self.depth != 1 else "")

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


@dataclasses.dataclass(frozen=True, slots=True)
class Meld:
    """Lay down a new set or run from the hand."""

    seat: int
    """The seat that melds."""
    cards: tuple[Card, ...]
    """The cards, jokers included (as ``JOKER``)."""
    jokers_as: tuple[Card | None, ...] = ()
    """For each joker in ``cards``, in order, the card it stands for (``None``: the rule's)."""

    @property
    def text(self) -> str:
        """The cards in record notation, jokers as ``X=card`` (as ``TableMeld.text``)."""
        stood = iter(self.jokers_as)
        return " ".join(
            _joker_text(card, next(stood, None) if card.is_joker else None) for card in self.cards
        )

    def __str__(self) -> str:
        return f"{self.seat} meld {self.text}"

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


@dataclasses.dataclass(frozen=True, slots=True)
class LayOff:
    """Add one card from the hand to a meld on the table, whoever laid it."""

    seat: int
    """The seat that lays off."""
    card: Card
    """The card added."""
    meld: int
    """The meld's number: melds are numbered from 0 in the order they were laid this deal."""
    joker_as: Card | None = None
    """For a joker, the card it stands for (``None``: the card above a run, else below)."""

    def __str__(self) -> str:
        return f"{self.seat} layoff {_joker_text(self.card, self.joker_as)} {self.meld}"

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


@dataclasses.dataclass(frozen=True, slots=True)
class Discard:
    """Throw one card face up on the discard pile, ending the turn."""

    seat: int
    """The seat that discards."""
    card: Card
    """The card thrown."""

    def __str__(self) -> str:
        return f"{self.seat} discard {self.card}"

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


@dataclasses.dataclass(frozen=True, slots=True)
class Knock:
    """Knock rummy: throw one card face up and end the deal; every hand is then laid out."""

    seat: int
    """The seat that knocks."""
    card: Card
    """The card thrown as it knocks."""

    def __str__(self) -> str:
        return f"{self.seat} knock {self.card}"

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


Action = Draw | Meld | LayOff | Discard | Knock
"""Any action a seat can take."""

ACTION_TYPES: Final = (Draw, Meld, LayOff, Discard, Knock)
"""The classes of ``Action``, for ``isinstance``."""


def action_sort_key(action: Action) -> tuple[int, ...]:
    """A key that sorts actions: draws, melds, lay-offs, discards, knocks, each by its cards."""
    if isinstance(action, Draw):
        return (0, action.source is DrawSource.DISCARD, action.depth)
    if isinstance(action, Meld):
        stood = iter(action.jokers_as)
        codes = [
            100 + (getattr(next(stood, None), "code", 99)) if card.is_joker else card.code
            for card in action.cards
        ]
        return (1, len(codes), *codes)
    if isinstance(action, LayOff):
        joker = action.joker_as.code if action.joker_as is not None else -1
        return (2, action.meld, action.card.code, joker)
    if isinstance(action, Knock):
        return (4, action.card.code)
    return (3, action.card.code)


def _read_card(text: str) -> tuple[Card, Card | None]:
    """A card, or ``X=card`` for a joker standing for a card."""
    if "=" in text:
        head, _, tail = text.partition("=")
        if Card.parse(head) is not JOKER:
            raise InvalidActionError("joker_only_stands", text=text)
        stood = Card.parse(tail)
        if stood.is_joker:
            raise InvalidActionError("joker_stands_natural", text=text)
        return JOKER, stood
    return Card.parse(text), None


_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")
"""A number in the notation: ASCII digits only (``²`` and ``①`` are digits to ``isdigit``
but not to ``int``), and few enough that no seat, depth or meld number is refused for size
while a number of thousands of digits never reaches ``int``."""


def whole_number(text: str) -> int | None:
    """``text`` as a whole number of the notation (``"12"``, ``"-1"``), or ``None``.

    >>> whole_number("3"), whole_number("²"), whole_number("9" * 5000)
    (3, None, None)
    """
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else None


def parse_action(text: str) -> Action:
    """Read an action in record notation: ``"1 draw stock"``, ``"0 meld 9c 9d 9s"``...

    Raises ``InvalidActionError`` (code ``bad_action``) for text that cannot be read.
    """
    words = text.split()
    seat = whole_number(words[0]) if words else None
    if len(words) < 2 or seat is None:
        raise InvalidActionError("not_an_action", text=text)
    parser = _VERBS.get(words[1].lower())
    if parser is None:
        raise InvalidActionError("unknown_verb", text=text, verb=words[1])
    return parser(text, seat, words[2:])


def _parse_draw(text: str, seat: int, rest: list[str]) -> Action:
    if len(rest) == 1 and rest[0].lower() == "stock":
        return Draw(seat, DrawSource.STOCK)
    if rest and rest[0].lower() == "discard" and len(rest) <= 2:
        depth = 1
        if len(rest) == 2:
            number = whole_number(rest[1])
            if number is None or number < 1:
                raise InvalidActionError("bad_depth", text=text)
            depth = number
        return Draw(seat, DrawSource.DISCARD, depth)
    raise InvalidActionError("draw_from", text=text)


def _parse_meld(text: str, seat: int, rest: list[str]) -> Action:
    if not rest:
        raise InvalidActionError("meld_needs_cards", text=text)
    read = [_read_card(word) for word in rest]
    cards = tuple(card for card, _ in read)
    jokers_as = tuple(stood for card, stood in read if card.is_joker)
    if all(stood is None for stood in jokers_as):
        jokers_as = ()
    return Meld(seat, cards, jokers_as)


def _parse_layoff(text: str, seat: int, rest: list[str]) -> Action:
    meld = whole_number(rest[1]) if len(rest) == 2 else None
    if meld is None or meld < 0:
        raise InvalidActionError("layoff_form", text=text)
    card, stood = _read_card(rest[0])
    return LayOff(seat, card, meld, stood)


def _parse_discard(text: str, seat: int, rest: list[str]) -> Action:
    if len(rest) != 1:
        raise InvalidActionError("discard_one", text=text)
    return Discard(seat, Card.parse(rest[0]))


def _parse_knock(text: str, seat: int, rest: list[str]) -> Action:
    if len(rest) != 1:
        raise InvalidActionError("knock_one", text=text)
    return Knock(seat, Card.parse(rest[0]))


_VERBS: dict[str, Callable[[str, int, list[str]], Action]] = {
    "draw": _parse_draw,
    "meld": _parse_meld,
    "layoff": _parse_layoff,
    "discard": _parse_discard,
    "knock": _parse_knock,
}
"""Each verb of the notation and the function that reads its arguments."""


class Tense(enum.StrEnum):
    """How ``describe_action`` tells an action."""

    ADVICE = "advice"
    """To the player, as advice: ``Take the 9♣ from the discard pile``."""
    PRESENT = "present"
    """As it happens, third person: ``Ann takes the 9♣ from the discard pile``."""
    PAST = "past"
    """As it happened: ``Ann took the 9♣ from the discard pile``."""


_VERBS_BY_TENSE: dict[str, tuple[str, str, str]] = {
    "draw": ("Draw", "draws", "drew"),
    "take": ("Take", "takes", "took"),
    "meld": ("Meld", "melds", "melded"),
    "lay off": ("Lay off", "lays off", "laid off"),
    "discard": ("Discard", "discards", "discarded"),
    "knock": ("Knock", "knocks", "knocked"),
}
"""Each verb of the table talk as advice, in the present (third person) and in the past."""


def _named(cards: Sequence[Card]) -> str:
    """One card as ``the 9♣``; several as ``9♣ 10♣ J♣``."""
    if len(cards) == 1:
        return f"the {cards[0].symbol}"
    return format_cards(cards, symbols=True)


def _meld_symbols(action: Meld) -> str:
    """The meld as written, each joker with the card it stands for when named: ``5♥ 🃏(6♥)``."""
    stood = iter(action.jokers_as)
    words = []
    for card in action.cards:
        standing = next(stood, None) if card.is_joker else None
        words.append(f"🃏({standing.symbol})" if standing is not None else card.symbol)
    return " ".join(words)


def agrees(subject: str, third: str, plain: str) -> str:
    """``subject`` and its verb in the present, agreed: the one place "You" is conjugated.

    >>> agrees("You", "deals", "deal"), agrees("Ann", "deals", "deal")
    ('You deal', 'Ann deals')
    >>> agrees("You", "is caught with", "are caught with")
    'You are caught with'
    """
    return f"{subject} {plain if subject == YOU else third}"


YOU: Final = "You"
"""The name a person's own seat goes by in the table's words (and in its records)."""


def describe_action(
    action: Action,
    *,
    actor: str | None = None,
    tense: Tense = Tense.PRESENT,
    taken: Sequence[Card] = (),
    meld: str | None = None,
    stock_too: Card | bool = False,
) -> str:
    """The action in words for people, with card symbols and no full stop.

    Every sentence the game says about an action comes from here: hints and the strong
    player's reasons (``ADVICE``), the replay transcript and viewer (``PRESENT``), the
    table's events (``PAST``). ``actor`` is the subject (third person; none for advice);
    ``taken`` the cards a draw took, when the teller may show them; ``meld`` the meld a meld
    or lay-off leaves on the table, as people read it (``TableMeld.symbols``); ``stock_too``
    the stock card a take from the pile brought with it (Boathouse): the card, when the
    teller may show it, else ``True``.

    >>> describe_action(parse_action("0 draw stock"))
    'draws from the stock'
    >>> describe_action(parse_action("1 draw discard"), actor="Ann", tense=Tense.PAST,
    ...                 taken=(Card.parse("9c"),))
    'Ann took the 9♣ from the discard pile'
    >>> describe_action(parse_action("1 layoff 7h 0"), tense=Tense.ADVICE)
    'Lay off the 7♥ on meld 0'
    >>> describe_action(parse_action("1 draw discard"), actor="Ann", taken=(Card.parse("9c"),),
    ...                 stock_too=True)
    'Ann takes the 9♣ from the discard pile and the top card of the stock'
    >>> describe_action(parse_action("2 knock 7h"), actor="Cho", tense=Tense.PAST)
    'Cho knocked, discarding the 7♥'
    """
    verb, rest = _verb_and_object(action, taken, meld)
    if stock_too is not False and isinstance(action, Draw):
        shown = "the top card" if stock_too is True else f"the {stock_too.symbol} from the top"
        rest += f" and {shown} of the stock"
    advice, present, past = _VERBS_BY_TENSE[verb]
    said = advice if tense is Tense.ADVICE else present if tense is Tense.PRESENT else past
    rest = rest if rest.startswith(",") else f" {rest}"
    if actor is None or tense is Tense.ADVICE:
        return f"{said}{rest}"
    if tense is Tense.PRESENT:
        return f"{agrees(actor, said, advice[0].lower() + advice[1:])}{rest}"
    return f"{actor} {said}{rest}"


def _verb_and_object(action: Action, taken: Sequence[Card], meld: str | None) -> tuple[str, str]:
    """The verb of ``describe_action`` and the words that follow it."""
    if isinstance(action, Draw):
        if action.source is DrawSource.STOCK:
            return "draw", f"{_named(taken)} from the stock" if taken else "from the stock"
        if taken:
            return "take", f"{_named(taken)} from the discard pile"
        if action.depth == 1:
            return "take", "the top discard"
        return "take", f"the top {action.depth} cards of the discard pile"
    if isinstance(action, Meld):
        return "meld", meld if meld is not None else _meld_symbols(action)
    if isinstance(action, LayOff):
        making = f", making {meld}" if meld is not None else ""
        return "lay off", f"the {action.card.symbol} on meld {action.meld}{making}"
    if isinstance(action, Knock):
        return "knock", f", discarding the {action.card.symbol}"
    return "discard", f"the {action.card.symbol}"
