"""Playing cards: ranks, suits, the joker, their text notation and whole decks.

Every card is an interned value: there is exactly one ``Card`` object for the seven of
hearts, so cards compare and hash as cheaply as small integers, even with two decks (two
physical 7♥ are the same value, held twice).

>>> Card.parse("Th")
Card.parse('Th')
>>> str(Card.parse("10♥")), Card.parse("th").symbol
('Th', '10♥')
>>> Card.parse("X").is_joker
True
>>> sorted(Card.parse(text) for text in ("Ks", "2c", "Kh", "X"))
[Card.parse('2c'), Card.parse('Kh'), Card.parse('Ks'), Card.parse('X')]
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from typing import Final

from rummykit.core.errors import InvalidActionError


class Suit(enum.IntEnum):
    """The four suits, in the order used to break ties: clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The suit's letter in card notation: ``c``, ``d``, ``h`` or ``s``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @property
    def word(self) -> str:
        """The suit's name in plural, as a player says it: ``hearts``."""
        return self.name.lower()


class Rank(enum.IntEnum):
    """The thirteen ranks, ace (1) to king (13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The rank's character in card notation: ``A 2 ... 9 T J Q K``."""
        return "A23456789TJQK"[self - 1]

    @property
    def word(self) -> str:
        """The rank's name as a player says it: ``seven``."""
        return self.name.lower()


NATURAL_COUNT: Final = 52
"""Natural cards in one deck; they have codes 0 to 51."""
JOKER_CODE: Final = NATURAL_COUNT
"""The integer code of the joker, after every natural card."""
CODE_COUNT: Final = JOKER_CODE + 1
"""How many distinct card codes there are, the joker included."""


def card_code(rank: int, suit: int) -> int:
    """The code of the natural card of this rank (1-13) and suit (0-3): rank first, then suit.

    Codes sort cards by rank, then suit; they are the only place this layout is written.
    """
    return (rank - 1) * 4 + suit


RANK_OF_CODE: Final[tuple[int, ...]] = (*(code // 4 + 1 for code in range(NATURAL_COUNT)), 0)
"""The rank (1-13) of each card code, 0 for the joker: a lookup as fast as arithmetic."""
SUIT_OF_CODE: Final[tuple[int, ...]] = (*(code % 4 for code in range(NATURAL_COUNT)), -1)
"""The suit (0-3) of each card code, -1 for the joker."""
RANK_BIT_OF_CODE: Final[tuple[int, ...]] = (*(1 << (code // 4) for code in range(NATURAL_COUNT)), 0)
"""Bit ``rank - 1`` for each natural card's code (0 for the joker): for rank masks."""


_RANK_LETTERS: Final = {letter: Rank(index + 1) for index, letter in enumerate("A23456789TJQK")}
_SUIT_LETTERS: Final = {"c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES}
_SUIT_LETTERS.update({"♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES})


_INTERNED: Final[dict[int, Card]] = {}
"""Each card value by its code, made once (the compiled build refuses ``object.__new__``)."""


class Card:
    """One playing card, or the joker; an immutable, interned value.

    ``code`` numbers the cards rank first: ``(rank - 1) * 4 + suit`` for a natural card
    (so cards sort by rank, then suit) and 52 for the joker, which sorts last.

    >>> card = Card(Rank.SEVEN, Suit.HEARTS)
    >>> card is Card.parse("7h"), card.code, card.word
    (True, 26, 'seven of hearts')
    """

    __slots__ = ("code", "rank", "suit")

    code: int
    rank: Rank | None
    suit: Suit | None

    def __new__(cls, rank: Rank | None, suit: Suit | None) -> Card:
        """Return the card of this rank and suit (both ``None`` for the joker)."""
        if rank is None or suit is None:
            if rank is not None or suit is not None:
                raise ValueError("a joker has neither rank nor suit")
            code = JOKER_CODE
        else:
            code = card_code(rank, suit)
        interned = _INTERNED.get(code)
        if interned is None:  # only while the module builds ``ALL_CARDS``
            interned = super().__new__(cls)
            object.__setattr__(interned, "code", code)
            object.__setattr__(interned, "rank", rank)
            object.__setattr__(interned, "suit", suit)
            _INTERNED[code] = interned
        return interned

    @staticmethod
    def from_code(code: int) -> Card:
        """The card with this integer code (see the class docstring)."""
        return _ALL[code]

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card: rank then suit (``Th``, ``10h``, ``T♥``), or ``X`` for the joker.

        Case does not matter. Raises ``InvalidActionError`` for text that is no card.
        """
        cleaned = text.strip()
        if cleaned.upper() == "X":
            return _ALL[JOKER_CODE]
        if len(cleaned) == 3 and cleaned[:2] == "10":
            cleaned = "T" + cleaned[2]
        if len(cleaned) == 2:
            rank = _RANK_LETTERS.get(cleaned[0].upper())
            suit = _SUIT_LETTERS.get(cleaned[1].lower())
            if rank is not None and suit is not None:
                return _ALL[card_code(rank, suit)]
        raise InvalidActionError("not_a_card", text=text)

    @property
    def is_joker(self) -> bool:
        """Whether this card is the joker."""
        return self.code == JOKER_CODE

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, for people: ``7♥``, ``10♠``; the joker is ``🃏``."""
        if self.rank is None or self.suit is None:
            return "🃏"
        return ("10" if self.rank == Rank.TEN else self.rank.letter) + self.suit.symbol

    @property
    def word(self) -> str:
        """The card in words, for screen readers: ``seven of hearts``, ``joker``."""
        if self.rank is None or self.suit is None:
            return "joker"
        return f"{self.rank.word} of {self.suit.word}"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_code, (self.code,))

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "X"
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __hash__(self) -> int:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    def __le__(self, other: Card) -> bool:
        return self.code <= other.code

    def __gt__(self, other: Card) -> bool:
        return self.code > other.code

    def __ge__(self, other: Card) -> bool:
        return self.code >= other.code


_ALL: Final[tuple[Card, ...]] = (
    *(Card(Rank(RANK_OF_CODE[code]), Suit(SUIT_OF_CODE[code])) for code in range(NATURAL_COUNT)),
    Card(None, None),
)

JOKER: Final = _ALL[JOKER_CODE]
"""The joker (every joker is this same value)."""

NATURAL_CARDS: Final = _ALL[:JOKER_CODE]
"""The 52 natural cards, in code order (by rank, then suit)."""

ALL_CARDS: Final = _ALL
"""Every card value by its code: the 52 natural cards, then the joker."""


def standard_deck(decks: int = 1, jokers: int = 0) -> tuple[Card, ...]:
    """A whole deck, unshuffled: ``decks`` times the 52 cards, then ``jokers`` jokers.

    >>> len(standard_deck()), len(standard_deck(2, 4))
    (52, 108)
    """
    return NATURAL_CARDS * decks + (JOKER,) * jokers


def deck_problem(deck: Iterable[Card], whole: Iterable[Card]) -> str:
    """What keeps ``deck`` from being ``whole`` (cards missing or extra), or ``""``.

    >>> deck_problem(standard_deck()[1:] + (JOKER,), standard_deck())
    'missing A♣; extra 🃏'
    """
    held = Counter(deck)
    wanted = Counter(whole)
    detail = []
    missing = sorted((wanted - held).elements())
    extra = sorted((held - wanted).elements())
    if missing:
        detail.append("missing " + format_cards(missing, symbols=True))
    if extra:
        detail.append("extra " + format_cards(extra, symbols=True))
    return "; ".join(detail)


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """Read several cards (see ``Card.parse``)."""
    return tuple(Card.parse(text) for text in texts)


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    """Cards as text separated by spaces, in notation (``7h 8h``) or symbols (``7♥ 8♥``)."""
    return " ".join(card.symbol if symbols else str(card) for card in cards)
