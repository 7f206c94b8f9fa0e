"""Conformance: each small record of tests/records/conformance/ replays as docs/RECORD.md says.

The records are built by ``tests/records/conformance/make_records.py`` (stacked decks, scripted
actions). Every expectation below is worked out by hand from docs/RECORD.md, never copied from the
engine: the comment above each says how.

Notation used in the reasoning: with ``n`` seats of ``h`` cards and dealer ``d``, card ``i`` of
the deck goes to seat ``(d + 1 + i) mod n``, card ``n*h`` is the up-card, the rest is the stock
top first, and seat ``d + 1`` plays first. Card values: ace 1, two to nine their number, ten
and faces 10.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from helpers import RECORD_ERROR_CODES
from rummykit.core.cards import standard_deck
from rummykit.core.presets import find_preset
from rummykit.core.record import (
    dump_record,
    load_record,
    record_of,
    replay,
    replay_json,
    state_json,
)
from rummykit.core.state import GameState

HERE = Path(__file__).resolve().parents[1] / "records" / "conformance"
CODE = [str(card) for card in standard_deck()]
"""The deck in code order, by rank then suit: Ac Ad Ah As 2c ... Ks."""


def cards(text: str) -> list[str]:
    return text.split()


def read(name: str) -> str:
    return (HERE / f"{name}.json").read_text(encoding="utf-8")


# ----- the decks the records are built from --------------------------------------------

# Deck B (2 seats, dealer 0): seat 0 holds B0, seat 1 holds B1, up-card 5d, the stock starts
# Kd Ts Qh and goes on with every other card in code order (B_REST).
B0 = cards("Ac 9c 3d 4h 5h 6s 7s 8d 9d Ks")  # 1+9+3+4+5+6+7+8+9+10 = 62
B1 = cards("2c 3c 4c 5c 6c 7c 8c 9h Th Jh")
B_REST = cards(
    "Ad Ah As 2d 2h 2s 3h 3s 4d 4s 5s 6d 6h 7d 7h 8h 8s 9s Tc Td Jc Jd Js Qc Qd Qs Kc Kh"
)
B_STOCK = ["Kd", "Ts", "Qh", *B_REST]

# Deck L (2 seats, dealer 1, so seat 0 plays first): up-card 5c, stock Qd Kd 3s Ts, then the
# rest. Seat 0 melds 9s 9d 9c and throws Qd: it keeps 2h 4h 6h 8h Tc Jc Kh = 2+4+6+8+30 = 50.
L_LEFT = cards("2h 4h 6h 8h Tc Jc Kh")
L_MELDS = [
    (0, "9c 9d 9h 9s"),
    (1, "Ac 2c 3c"),
    (1, "4d 5d 6d"),
    (1, "Ts Js Qs Ks"),
]

# Deck R: one seat holds Ac-4c, Ad-4d, 5h 6h and draws 7h; the other holds
# Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd = 100 points.

# Three seats (bonus records): seat 0 holds Ks Kh 5s 4d 6h Ts 2s = 47, seat 2 holds
# Kd Qd Jd 9s 8h 2d 3h = 52; seat 1 draws 7c and melds Ac 2c 3c 4c and 7s 7h 7d 7c.
BONUS_MELDS = [(1, "Ac 2c 3c 4c"), (1, "7c 7d 7h 7s")]

# Four seats of ten cards from the deck in code order, dealer 0: card i goes to seat
# (1 + i) mod 4, so seat 1 holds the clubs A-T, seat 2 the diamonds, seat 3 the hearts and
# seat 0 the spades; the up-card is Jc (card 40) and the stock is Jd Jh Js Qc ... Ks (11).
SPADES, CLUBS = cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts"), cards("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc")
DIAMONDS, HEARTS = cards("Ad 2d 3d 4d 5d 6d 7d 8d 9d Td"), cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th")
SUIT_HANDS = [SPADES, CLUBS, DIAMONDS, HEARTS]
# In STOCK_RUN seats 1, 2, 3, 0, 1, ... each draw the stock top and throw it back, 11 turns:
# the stock is empty, the pile is Jc (the up-card) then Jd ... Ks, seat 0 is to play.
PILE_AFTER_RUN = CODE[40:]
FOUR = ("Ann", "Bob", "Cho", "Dev")


@dataclasses.dataclass(frozen=True)
class Expect:
    """The key fields of ``rummy replay --json`` for one record (None: not checked)."""

    exit: int
    error: tuple[str, int | None, int | None] | None = None
    deals: list[tuple[int, str | None, int | None, list[int] | None]] | None = None
    scores: list[int] | None = None
    game_over: bool | None = None
    winner: int | str | None = "unchecked"
    state: Mapping[str, Any] | None = None


def bad(code: str = "bad_record") -> Expect:
    return Expect(2, (code, None, None))


def illegal(code: str, at_deal: int, at_action: int, **state: Any) -> Expect:
    """Exit 1 at action ``at_action`` of deal ``at_deal``; ``state`` is the position before."""
    return Expect(1, (code, at_deal, at_action), state=state or None)


CASES: dict[str, Expect] = {
    # ----- the deal -------------------------------------------------------------------
    # Dealer 0 at two seats: card i to seat (1+i) mod 2, so the even cards (Ac Ah 2c ...) go to
    # seat 1 and the odd ones (Ad As 2d ...) to seat 0; card 20 (6c) is the up-card and the
    # stock starts 6d. Seat 1 plays first: it draws 6d and throws Ac, seat 0 takes Ac.
    "deal_order_dealer_0": Expect(
        0,
        deals=[(0, None, None, None)],
        scores=[0, 0],
        game_over=False,
        winner=None,
        state={
            "deal": 0,
            "turn": 0,
            "phase": "play",
            "hands": [
                cards("Ad As 2d 2s 3d 3s 4d 4s 5d 5s Ac"),
                cards("Ah 2c 2h 3c 3h 4c 4h 5c 5h 6d"),
            ],
            "melds": [],
            "discard": ["6c"],
            "stock": CODE[22:],
        },
    ),
    # Dealer 1 at three seats ("players": 3): card i to seat (2+i) mod 3, seven cards each;
    # card 21 (6d) is the up-card; seat 2 plays first.
    "deal_order_dealer_1_three_seats_by_count": Expect(
        0,
        deals=[(1, None, None, None)],
        scores=[0, 0, 0],
        game_over=False,
        state={
            "deal": 0,
            "turn": 2,
            "phase": "draw",
            "hands": [
                cards("Ad 2c 2s 3h 4d 5c 5s"),
                cards("Ah 2d 3c 3s 4h 5d 6c"),
                cards("Ac As 2h 3d 4c 4s 5h"),
            ],
            "discard": ["6d"],
            "stock": CODE[22:],
        },
    ),
    # Five seats: six cards each ("by_seats"). Dealer 4: card i to seat (5+i) mod 5 = i mod 5;
    # card 30 (8h) is the up-card; seat 0, on the dealer's left, plays first.
    "deal_order_five_seats_dealer_4": Expect(
        0,
        deals=[(4, None, None, None)],
        state={
            "turn": 0,
            "phase": "draw",
            "hands": [
                cards("Ac 2d 3h 4s 6c 7d"),
                cards("Ad 2h 3s 5c 6d 7h"),
                cards("Ah 2s 4c 5d 6h 7s"),
                cards("As 3c 4d 5h 6s 8c"),
                cards("2c 3d 4h 5s 7c 8d"),
            ],
            "discard": ["8h"],
            "stock": CODE[31:],
        },
    ),
    # Deck B: seat 1 takes the up-card with "draw discard 1" and throws 2c.
    "draw_discard_1_is_the_top_card": Expect(
        0,
        state={
            "turn": 0,
            "phase": "draw",
            "hands": [B0, [*B1[1:], "5d"]],
            "discard": ["2c"],
            "stock": B_STOCK,
        },
    ),
    # Boathouse: seat 1 takes the 5♦ and, with it, the stock's top card, the K♦ of the deck.
    "boathouse_take_brings_the_stock_top": Expect(
        0,
        state={
            "turn": 0,
            "phase": "draw",
            "hands": [B0, [*B1[1:], "5d", "Kd"]],
            "discard": ["2c"],
            "stock": B_STOCK[1:],
        },
    ),
    # The deck in code order, some cards written 10h, 10♠, a♣, 6♦, KS, 9H: the same deal as
    # dealer 0 above. Seat 1 draws 6d and throws "a♣"; seat 0 draws 6h and throws "5♠".
    "card_notation_variants": Expect(
        0,
        state={
            "turn": 1,
            "phase": "draw",
            "hands": [
                cards("Ad As 2d 2s 3d 3s 4d 4s 5d 6h"),
                cards("Ah 2c 2h 3c 3h 4c 4h 5c 5h 6d"),
            ],
            "discard": ["6c", "Ac", "5s"],
            "stock": CODE[23:],
        },
    ),
    # ----- going out ------------------------------------------------------------------
    # Deck B. Seat 1: draws Kd, melds 2c-8c, throws Kd. Seat 0 draws and throws Ts. Seat 1
    # draws Qh and melds 9h Th Jh Qh: its hand is empty, the deal ends at once without a
    # discard. It melded on an earlier turn: "out", and it collects seat 0's 62.
    "out_by_meld": Expect(
        0,
        deals=[(0, "out", 1, [0, 62])],
        scores=[0, 62],
        game_over=False,
        winner=None,
        state={
            "deal": 0,
            "turn": 1,
            "phase": "over",
            "hands": [B0, []],
            "melds": [(1, "2c 3c 4c 5c 6c 7c 8c"), (1, "9h Th Jh Qh")],
            "discard": ["5d", "Kd", "Ts"],
            "stock": B_REST,
        },
    ),
    # Deck B. Seat 1 melds 2c-7c and 9h Th Jh, throws Kd (keeps 8c); later draws Qh, lays 8c off
    # on meld 0 and Qh on meld 1: out by a lay-off, 62.
    "out_by_layoff": Expect(
        0,
        deals=[(0, "out", 1, [0, 62])],
        scores=[0, 62],
        state={
            "turn": 1,
            "phase": "over",
            "hands": [B0, []],
            "melds": [(1, "2c 3c 4c 5c 6c 7c 8c"), (1, "9h Th Jh Qh")],
            "discard": ["5d", "Kd", "Ts"],
            "stock": B_REST,
        },
    ),
    # As above, but the Qh is discarded: out by a discard, 62.
    "out_by_discard": Expect(
        0,
        deals=[(0, "out", 1, [0, 62])],
        state={
            "turn": 1,
            "phase": "over",
            "hands": [B0, []],
            "melds": [(1, "2c 3c 4c 5c 6c 7c 8c"), (1, "9h Th Jh")],
            "discard": ["5d", "Kd", "Ts", "Qh"],
            "stock": B_REST,
        },
    ),
    # As above, but seat 1 takes the Ts seat 0 threw, lays 8c off and throws that same Ts: it
    # is its last card, so it may ("a turn must always be able to end"). Qh stays in the stock.
    "taken_discard_may_be_thrown_as_last_card": Expect(
        0,
        deals=[(0, "out", 1, [0, 62])],
        state={
            "turn": 1,
            "phase": "over",
            "hands": [B0, []],
            "melds": [(1, "2c 3c 4c 5c 6c 7c 8c"), (1, "9h Th Jh")],
            "discard": ["5d", "Kd", "Ts"],
            "stock": ["Qh", *B_REST],
        },
    ),
    # Deck L. Seat 1 lays 9h off on seat 0's nines on its first turn, then melds its whole hand
    # on its second. It laid off on an earlier turn: "out", not "rummy", no double: 50.
    "layoff_on_earlier_turn_is_not_rummy": Expect(
        0,
        deals=[(1, "out", 1, [0, 50])],
        scores=[0, 50],
        game_over=False,
        winner=None,
        state={
            "turn": 1,
            "phase": "over",
            "hands": [L_LEFT, []],
            "melds": L_MELDS,
            "discard": ["5c", "Qd", "Kd", "3s"],
        },
    ),
    # Deck L, but the lay-off comes in the going-out turn: nothing laid on any earlier turn, so
    # "rummy"; classic doubles: 2 x 50 = 100, which reaches the target: seat 1 wins.
    "layoff_in_the_going_out_turn_is_rummy": Expect(
        0,
        deals=[(1, "rummy", 1, [0, 100])],
        scores=[0, 100],
        game_over=True,
        winner=1,
        state={"turn": 1, "phase": "over", "hands": [L_LEFT, []], "melds": L_MELDS},
    ),
    # ----- rummy bonus and scoring (three seats; others hold 47 and 52, 99 in all) --------
    # Winner collects, double: 2 x 99 = 198; past 100, the game is over, seat 1 wins.
    "rummy_double_winner": Expect(
        0,
        deals=[(0, "rummy", 1, [0, 198, 0])],
        scores=[0, 198, 0],
        game_over=True,
        winner=1,
        state={"turn": 1, "phase": "over", "melds": BONUS_MELDS, "discard": ["9c"]},
    ),
    # Winner collects, plus10: 99 + 10 = 109, over 100.
    "rummy_plus10_winner": Expect(
        0, deals=[(0, "rummy", 1, [0, 109, 0])], scores=[0, 109, 0], game_over=True, winner=1
    ),
    # No bonus: 99, still "rummy"; below 100 the game goes on.
    "rummy_none_winner": Expect(
        0, deals=[(0, "rummy", 1, [0, 99, 0])], scores=[0, 99, 0], game_over=False, winner=None
    ),
    # Penalty, double: each other seat takes twice its own hand: 94 and 104. 104 reaches the
    # target; the lowest total (seat 1's 0) wins.
    "rummy_double_penalty": Expect(
        0,
        deals=[(0, "rummy", 1, [94, 0, 104])],
        scores=[94, 0, 104],
        game_over=True,
        winner=1,
    ),
    # Penalty, plus10: each other seat takes its hand plus 10: 57 and 62; nobody at 100.
    "rummy_plus10_penalty": Expect(
        0,
        deals=[(0, "rummy", 1, [57, 0, 62])],
        scores=[57, 0, 62],
        game_over=False,
        winner=None,
    ),
    # Seat 1 melds all but the 7c and throws it: out by a discard in one turn is rummy: 198.
    "rummy_by_final_discard": Expect(
        0,
        deals=[(0, "rummy", 1, [0, 198, 0])],
        state={
            "melds": [(1, "Ac 2c 3c 4c"), (1, "7d 7h 7s")],
            "discard": ["9c", "7c"],
        },
    ),
    # ----- renewing the stock ---------------------------------------------------------
    # Classic flips once, at once when seat 0's turn begins with the stock empty: the pile's
    # bottom card (the up-card Jc) becomes the stock top, the pile is empty. The record's
    # "reshuffles" list is never used by a flip, so its wrong content does not matter.
    "flip_renews_pile_bottom_first": Expect(
        0,
        deals=[(0, None, None, None)],
        state={
            "turn": 0,
            "phase": "draw",
            "hands": SUIT_HANDS,
            "discard": [],
            "stock": PILE_AFTER_RUN,
        },
    ),
    # Then twelve more turns (seats 0-3, three times) draw the flipped stock dry; seat 0's turn
    # begins with it empty and no renewal left: blocked, classic scores nothing.
    "flip_then_blocked_no_score": Expect(
        0,
        deals=[(0, "blocked", None, [0, 0, 0, 0])],
        scores=[0, 0, 0, 0],
        game_over=False,
        winner=None,
        state={
            "turn": 0,
            "phase": "over",
            "hands": SUIT_HANDS,
            "discard": PILE_AFTER_RUN,
            "stock": [],
        },
    ),
    # Right after the flip the pile is empty: "draw discard" is empty_discard, and the state is
    # the flipped position.
    "empty_discard_after_flip": illegal(
        "empty_discard", 0, 22, turn=0, phase="draw", discard=[], stock=PILE_AFTER_RUN
    ),
    # "draw discard 2" there breaks two rules; empty_discard comes before
    # discard_take_not_allowed.
    "order_empty_discard_before_discard_take": illegal("empty_discard", 0, 22),
    # Hands 55, 30, 55, 80: seat 1 is lowest and collects 25 + 25 + 50 = 100, reaching 100.
    "blocked_lowest_collects_four_seats": Expect(
        0,
        deals=[(0, "blocked", None, [0, 100, 0, 0])],
        scores=[0, 100, 0, 0],
        game_over=True,
        winner=1,
        state={"turn": 0, "phase": "over", "stock": []},
    ),
    # Practice, 2 seats: 31 turns empty the stock (seat 1 draws last), seat 0's turn flips the
    # pile (the up-card Jh and the 31 thrown cards, in deck order), 32 turns empty it again and
    # seat 0's next turn is blocked. Hands 100 and 22: seat 1 collects 100 - 22 = 78.
    "practice_blocked_lowest_collects": Expect(
        0,
        deals=[(0, "blocked", None, [0, 78])],
        scores=[0, 78],
        game_over=False,
        winner=None,
        state={
            "turn": 0,
            "phase": "over",
            "hands": [
                cards("Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd"),
                cards("Ad Ah As 2d 2h 2s 3d 3h 3s 4d"),
            ],
            "stock": [],
        },
    ),
    # The same under penalty scoring: the other seat takes its difference as penalty.
    "practice_blocked_lowest_collects_penalty": Expect(
        0, deals=[(0, "blocked", None, [78, 0])], scores=[78, 0], game_over=False
    ),
    # Code order at two seats: seat 1 holds Ac Ah 2c 2h ... 5c 5h = 30, seat 0 Ad As ... 5d 5s
    # = 30: a tie for lowest scores nothing. The pile is the whole rest of the deck, in order.
    "practice_blocked_tie_scores_nothing": Expect(
        0,
        deals=[(0, "blocked", None, [0, 0])],
        scores=[0, 0],
        state={"turn": 0, "phase": "over", "stock": [], "discard": CODE[20:]},
    ),
    # renew "none" with renewals null: seat 0's turn begins with the stock empty and there is
    # never a renewal: blocked at once, nothing scored.
    "renew_none_blocks_at_once": Expect(
        0,
        deals=[(0, "blocked", None, [0, 0, 0, 0])],
        state={"turn": 0, "phase": "over", "discard": PILE_AFTER_RUN, "stock": []},
    ),
    # Six seats of nine and three jokers: 54 cards dealt, card 54 (the third X) is the up-card
    # and the stock is empty from the start; seat 1 (card i to seat (1+i) mod 6: cards 0, 6,
    # ..., 48) faces it. Party keeps the top card: a pile of one is no renewal: blocked.
    "keep_top_pile_of_one_is_no_renewal": Expect(
        0,
        deals=[(0, "blocked", None, [0, 0, 0, 0, 0, 0])],
        scores=[0] * 6,
        state={
            "turn": 1,
            "phase": "over",
            "discard": ["X"],
            "stock": [],
            "hands": [
                cards("2d 3s 5d 6s 8d 9s Jd Qs X"),
                cards("Ac 2h 4c 5h 7c 8h Tc Jh Kc"),
                cards("Ad 2s 4d 5s 7d 8s Td Js Kd"),
                cards("Ah 3c 4h 6c 7h 9c Th Qc Kh"),
                cards("As 3d 4s 6d 7s 9d Ts Qd Ks"),
                cards("2c 3h 5c 6h 8c 9h Jc Qh X"),
            ],
        },
    ),
    # The same deal under classic: the flip turns the up-card alone into the stock.
    "flip_of_the_up_card_alone": Expect(
        0,
        deals=[(0, None, None, None)],
        state={"turn": 1, "phase": "draw", "discard": [], "stock": ["X"]},
    ),
    # ----- jokers ---------------------------------------------------------------------
    # A bare X in 5h X 7h fills the gap (6h); X=9s is what the record says; a bare X on 5s 6s
    # has no gap to fill and goes above the top (7s). Melds write their jokers X=card.
    "joker_gap_explicit_and_above_top": Expect(
        0,
        state={
            "turn": 0,
            "phase": "draw",
            "hands": [cards("Ac 2c 3c 4c 5c 6c 7c 8c Tc Jc"), ["Qd"]],
            "melds": [(1, "5h X=6h 7h"), (1, "9c 9d X=9s"), (1, "5s 6s X=7s")],
            "discard": ["Kd", "Kc"],
        },
    ),
    # Aces low: nothing goes above Kh, so a bare X on Qh Kh stands for Jh (and, lowest first,
    # comes first); in 9c 9d X the lowest suit not there is hearts.
    "joker_below_bottom_and_in_a_set": Expect(
        0,
        state={
            "hands": [cards("Ac 2c 3c 4c 5c 6c 7c 8c Tc Jc"), ["8s"]],
            "melds": [(1, "X=Jh Qh Kh"), (1, "9c 9d X=9h"), (1, "2d 3d 4d")],
            "discard": ["Kd", "Ts"],
        },
    ),
    # Seat 0 holds Kc Kd Kh Ks Qc Qd Qh Qs Jc (90) and a joker (15): 105; rummy doubles: 210.
    "joker_caught_in_hand_costs_15": Expect(
        0, deals=[(0, "rummy", 1, [0, 210])], scores=[0, 210], game_over=True, winner=1
    ),
    # ----- empty_stock_choice ---------------------------------------------------------
    # Standard lets seat 0, facing the empty stock, take the top discard (Ks) and throw As;
    # the stock stays empty and seat 1 now faces it, in the draw phase.
    "choice_draw_discard_keeps_stock_empty": Expect(
        0,
        deals=[(0, None, None, None)],
        state={
            "turn": 1,
            "phase": "draw",
            "hands": [[*SPADES[1:], "Ks"], CLUBS, DIAMONDS, HEARTS],
            "discard": [*CODE[40:51], "As"],
            "stock": [],
        },
    ),
    # "draw stock" on the empty stock renews it (flip: Jc on top) and draws its top card.
    "choice_draw_stock_renews": Expect(
        0,
        state={
            "turn": 0,
            "phase": "play",
            "hands": [[*SPADES, "Jc"], CLUBS, DIAMONDS, HEARTS],
            "discard": [],
            "stock": CODE[41:],
        },
    ),
    # renewals 0: seat 0 may still take the top discard; seat 1's "draw stock" blocks the
    # deal (turn stays with seat 1), no_score.
    "choice_without_renewal_draw_stock_blocks": Expect(
        0,
        deals=[(0, "blocked", None, [0, 0, 0, 0])],
        scores=[0, 0, 0, 0],
        state={
            "turn": 1,
            "phase": "over",
            "discard": [*CODE[40:51], "As"],
            "stock": [],
        },
    ),
    # ----- shuffles -------------------------------------------------------------------
    # Party (shuffle_keep_top): the top discard Ks stays as the pile; the other eleven become
    # the stock in the record's order.
    "shuffle_keep_top_uses_given_order": Expect(
        0,
        state={
            "turn": 0,
            "phase": "draw",
            "discard": ["Ks"],
            "stock": cards("Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc"),
        },
    ),
    # Eleven more turns (seats 0, 1, 2, 3, 0, ..., 2) draw that stock and throw each card; seat
    # 3's turn renews again: Jc (thrown last) stays, the second list is the new stock.
    "shuffle_keep_top_uses_lists_in_order": Expect(
        0,
        state={
            "turn": 3,
            "phase": "draw",
            "discard": ["Jc"],
            "stock": cards("Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks"),
        },
    ),
    # renew shuffle: all twelve cards go into the stock in the given order; the pile is empty.
    "shuffle_uses_given_order": Expect(
        0,
        state={
            "turn": 0,
            "phase": "draw",
            "discard": [],
            "stock": cards("Qs Jc Ks Kh Jd Qc Kc Jh Qh Kd Js Qd"),
        },
    ),
    # No "reshuffles": the order is drawn from random.Random(seed); see the seed tests below.
    "shuffle_keep_top_seeded": Expect(0, state={"turn": 0, "phase": "draw", "discard": ["Ks"]}),
    "shuffle_keep_top_unseeded": Expect(0, state={"turn": 0, "phase": "draw", "discard": ["Ks"]}),
    # A list that is not exactly the cards being shuffled: exit 2.
    "shuffle_keep_top_list_with_kept_card": bad(),
    "shuffle_list_missing_a_card": bad(),
    # ----- rules ----------------------------------------------------------------------
    # {"preset": "classic", "aces": "low_or_high"}: Q-K-A is a run, listed with the ace last.
    "aces_low_or_high_override": Expect(
        0,
        state={
            "turn": 0,
            "phase": "draw",
            "melds": [(1, "Qh Kh Ah")],
            "discard": ["Kc", "Kd"],
        },
    ),
    # Plain classic: aces are low, Q-K-A is refused at action 1, before it: seat 1 has drawn.
    "aces_low_refuses_queen_king_ace": illegal(
        "invalid_meld", 0, 1, turn=1, phase="play", melds=[]
    ),
    # aces "around": K-A-2 is a run; it starts after its gap (3 to Q), so Kh comes first.
    "aces_around_override": Expect(0, state={"melds": [(1, "Kh Ah 2h")]}),
    # aces "around": seat 1 melds K A 2 ... 8 of hearts; seat 0 lays off 9h, Th, Jh above and
    # Qh into the last gap: the whole suit, which is listed A to K.
    "around_whole_suit_is_listed_ace_to_king": Expect(
        0,
        state={
            "turn": 1,
            "phase": "draw",
            "melds": [(1, "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh")],
            "discard": ["Kd", "Ks", "7s"],
        },
    ),
    # standard (low_or_high): K-A-2 is never a run.
    "aces_low_or_high_refuses_king_ace_two": illegal("invalid_meld", 0, 1),
    "unknown_option": bad(),
    "unknown_preset": bad(),
    "rules_without_preset": bad(),
    "bad_json": bad(),
    "deck_missing_a_card": bad(),
    "deck_with_an_extra_card": bad(),
    "deck_with_an_unknown_card": bad(),
    "practice_with_three_players": bad(),
    "seven_players": bad(),
    # 6 x 10 + 1 = 61 cards needed, one deck holds 52.
    "deck_too_small_for_the_table": bad(),
    "no_deals": bad(),
    # Another format: "unsupported" (or bad_record), exit 2.
    "wrong_format": bad(),
    # ----- several deals --------------------------------------------------------------
    "dealer_breaks_rotation": bad(),
    "deal_after_unfinished_deal": bad(),
    "deal_after_game_end": bad(),
    # Deal 0 as out_by_meld (62 to seat 1); deal 1 dealt by seat 1 in code order: seat 0 gets
    # the even cards and plays first, so seat 1 may not draw: deal 1, action 0.
    "error_in_second_deal": Expect(
        1,
        ("not_your_turn", 1, 0),
        deals=[(0, "out", 1, [0, 62]), (1, None, None, None)],
        scores=[0, 62],
        game_over=False,
        winner=None,
        state={
            "deal": 1,
            "turn": 0,
            "phase": "draw",
            "hands": [
                cards("Ac Ah 2c 2h 3c 3h 4c 4h 5c 5h"),
                cards("Ad As 2d 2s 3d 3s 4d 4s 5d 5s"),
            ],
            "discard": ["6c"],
            "stock": CODE[21:],
        },
    ),
    # 62 in deal 0 (deck B), 50 in deal 1 (deck L, dealt by seat 1): 112 reaches 100.
    "game_to_target": Expect(
        0,
        deals=[(0, "out", 1, [0, 62]), (1, "out", 1, [0, 50])],
        scores=[0, 112],
        game_over=True,
        winner=1,
    ),
    # deals 2: seat 1's rummy pays 2 x 100 = 200, past the target, yet the game goes on; deal
    # 1 (dealer 1, deck B with the hands swapped) seat 0 goes out by a meld for 62. Two deals
    # played: over; the highest total wins.
    "deals_two_ends_after_two_deals": Expect(
        0,
        deals=[(0, "rummy", 1, [0, 200]), (1, "out", 0, [62, 0])],
        scores=[62, 200],
        game_over=True,
        winner=1,
    ),
    # Each seat goes rummy for 200 once: a tie at the top, no winner.
    "deals_two_tie_has_no_winner": Expect(
        0,
        deals=[(0, "rummy", 1, [0, 200]), (1, "rummy", 0, [200, 0])],
        scores=[200, 200],
        game_over=True,
        winner=None,
    ),
    # dealer "winner", target 500, three seats: seat 2 goes rummy on its first turn for
    # 2 x (70 + 43) = 226 and so deals deal 1; seat 0, on its left, plays first.
    "dealer_winner_deals_next": Expect(
        0,
        deals=[(0, "rummy", 2, [0, 0, 226]), (2, None, None, None)],
        scores=[0, 0, 226],
        game_over=False,
        state={"deal": 1, "turn": 0, "phase": "draw"},
    ),
    "dealer_winner_refuses_left_rotation": bad(),
    # dealer "winner": deal 0 blocked (as flip_then_blocked_no_score) has no winner, so seat 1,
    # on dealer 0's left, deals deal 1 and seat 2 plays first.
    "dealer_winner_passes_left_after_blocked_deal": Expect(
        0,
        deals=[(0, "blocked", None, [0, 0, 0, 0]), (1, None, None, None)],
        state={"deal": 1, "turn": 2, "phase": "draw"},
    ),
    # decks must be 1 or 2.
    "bad_option_value": bad(),
    # ----- error codes (deck B unless said; state is the position before the action) -----
    "err_not_your_turn": illegal(
        "not_your_turn",
        0,
        0,
        deal=0,
        turn=1,
        phase="draw",
        hands=[B0, B1],
        melds=[],
        discard=["5d"],
        stock=B_STOCK,
    ),
    "err_not_your_turn_no_such_seat": illegal(
        "not_your_turn", 0, 1, turn=1, phase="play", hands=[B0, [*B1, "Kd"]]
    ),
    "err_wrong_phase_draw_twice": illegal(
        "wrong_phase", 0, 1, turn=1, phase="play", stock=B_STOCK[1:]
    ),
    "err_wrong_phase_meld_before_draw": illegal("wrong_phase", 0, 0, turn=1, phase="draw"),
    "err_wrong_phase_after_deal_over": Expect(
        1,
        ("wrong_phase", 0, 7),
        deals=[(0, "out", 1, [0, 62])],
        state={"turn": 1, "phase": "over", "hands": [B0, []]},
    ),
    "err_card_not_in_hand": illegal("card_not_in_hand", 0, 1, phase="play"),
    # "a card listed twice must be held twice": 2c 2c 3c is card_not_in_hand.
    "err_card_listed_twice_held_once": illegal("card_not_in_hand", 0, 1),
    "err_invalid_meld": illegal("invalid_meld", 0, 1, phase="play", melds=[]),
    # melds_per_turn 1: the second meld of the turn.
    "err_meld_limit": illegal("meld_limit", 0, 2, turn=1, phase="play", melds=[(1, "2c 3c 4c")]),
    # layoff after_meld: seat 0 has no meld of its own.
    "err_layoff_not_allowed_before_own_meld": illegal(
        "layoff_not_allowed",
        0,
        4,
        turn=0,
        phase="play",
        hands=[[*B0, "Ts"], cards("9h Th Jh")],
        melds=[(1, "2c 3c 4c 5c 6c 7c 8c")],
    ),
    # layoff turn_after_meld: not in the turn of the seat's first meld.
    "err_layoff_not_allowed_in_first_meld_turn": illegal(
        "layoff_not_allowed", 0, 2, turn=1, phase="play", melds=[(1, "2c 3c 4c 5c 6c 7c")]
    ),
    "err_layoff_does_not_fit": illegal(
        "layoff_does_not_fit", 0, 4, turn=0, melds=[(1, "2c 3c 4c 5c 6c 7c 8c")]
    ),
    "err_no_such_meld": illegal("no_such_meld", 0, 1, melds=[]),
    # Seat 1 took the up-card 5d and throws it back with ten other cards held.
    "err_discard_taken_card": illegal(
        "discard_taken_card", 0, 1, turn=1, phase="play", hands=[B0, [*B1, "5d"]], discard=[]
    ),
    # go_out discard: seat 1 holds 9h Th Jh Qh and would meld them all.
    "err_must_discard_to_go_out_by_meld": illegal(
        "must_discard_to_go_out",
        0,
        7,
        turn=1,
        phase="play",
        hands=[B0, cards("9h Th Jh Qh")],
        melds=[(1, "2c 3c 4c 5c 6c 7c 8c")],
    ),
    # go_out discard: seat 1 holds only Qh and would lay it off.
    "err_must_discard_to_go_out_by_layoff": illegal(
        "must_discard_to_go_out",
        0,
        8,
        hands=[B0, ["Qh"]],
        melds=[(1, "2c 3c 4c 5c 6c 7c 8c"), (1, "9h Th Jh")],
    ),
    # The pile is 5d Kd; classic takes only the top card.
    "err_discard_take_not_allowed_top_only": illegal(
        "discard_take_not_allowed", 0, 2, turn=0, phase="draw", discard=["5d", "Kd"]
    ),
    # discard_take any, but the pile holds one card.
    "err_discard_take_beyond_the_pile": illegal("discard_take_not_allowed", 0, 0),
    "err_bad_action_unknown_verb": illegal("bad_action", 0, 0),
    "err_bad_action_no_such_card": illegal("bad_action", 0, 1),
    "err_bad_action_meld_of_no_cards": illegal("bad_action", 0, 1),
    # ----- the reporting order ----------------------------------------------------------
    # After the deal ended: an unreadable action is bad_action, before wrong_phase.
    "order_bad_action_before_deal_over": illegal("bad_action", 0, 7, phase="over"),
    # After the deal ended, seat 0 (not the seat on turn) acts: wrong_phase, not not_your_turn.
    "order_deal_over_before_not_your_turn": illegal("wrong_phase", 0, 7, phase="over"),
    # Seat 0 melds (not held 9h) in seat 1's draw phase: not_your_turn comes first.
    "order_not_your_turn_before_wrong_phase": illegal("not_your_turn", 0, 0),
    # Seat 1 discards an unheld card before drawing: wrong_phase comes first.
    "order_wrong_phase_before_card_not_in_hand": illegal("wrong_phase", 0, 0),
    # A second meld of unheld cards: card_not_in_hand before meld_limit.
    "order_card_not_in_hand_before_meld_limit": illegal("card_not_in_hand", 0, 2),
    # A second meld that is no meld either: meld_limit before invalid_meld.
    "order_meld_limit_before_invalid_meld": illegal("meld_limit", 0, 2),
    # go_out discard, the whole hand 8c 9h Th Jh Qh as one "meld": invalid_meld first.
    "order_invalid_meld_before_must_discard": illegal("invalid_meld", 0, 6),
    # Lay off an unheld As on a meld that does not exist: card_not_in_hand first.
    "order_card_not_in_hand_before_no_such_meld": illegal("card_not_in_hand", 0, 1),
    # layoff after_meld, seat 0 without a meld lays 9c off on meld 3: no_such_meld first.
    "order_no_such_meld_before_layoff_not_allowed": illegal("no_such_meld", 0, 4),
    # layoff after_meld, 9d (which fits nothing) on meld 0: layoff_not_allowed first.
    "order_layoff_not_allowed_before_does_not_fit": illegal("layoff_not_allowed", 0, 4),
    # go_out discard, the last card Qh on the clubs run: layoff_does_not_fit first.
    "order_does_not_fit_before_must_discard": illegal("layoff_does_not_fit", 0, 8),
    # go_out discard: 8c laid off, 9h Th Jh melded, Qh discarded: out (melded earlier), 62.
    "go_out_discard_rule_out_by_final_discard": Expect(
        0,
        deals=[(0, "out", 1, [0, 62])],
        state={
            "phase": "over",
            "melds": [(1, "2c 3c 4c 5c 6c 7c 8c"), (1, "9h Th Jh")],
            "discard": ["5d", "Kd", "Ts", "Qh"],
        },
    ),
    # layoff turn_after_meld: seat 1 melded 2c-7c on its first turn; on its second it may lay
    # 8c off.
    "layoff_turn_after_meld_allows_next_turn": Expect(
        0,
        state={
            "turn": 1,
            "phase": "play",
            "hands": [B0, cards("9h Th Jh Qh")],
            "melds": [(1, "2c 3c 4c 5c 6c 7c 8c")],
        },
    ),
    # layoff after_meld allows the lay-off in the very turn of the first meld.
    "layoff_after_meld_allows_same_turn": Expect(
        0, state={"turn": 1, "phase": "play", "melds": [(1, "2c 3c 4c 5c 6c 7c 8c")]}
    ),
}


# ----- comparing ------------------------------------------------------------------------


def _meld_key(cards_: list[str]) -> list[str]:
    """Sets may list their cards in any order; runs list them lowest first."""
    ranks = {card[0] for card in cards_ if card != "X" and not card.startswith("X=")}
    return sorted(cards_) if len(ranks) == 1 else list(cards_)


def _check_state(state: Mapping[str, Any], expected: Mapping[str, Any]) -> None:
    for key, value in expected.items():
        actual = state[key]
        if key == "hands":
            assert [sorted(hand) for hand in actual] == [sorted(hand) for hand in value], key
        elif key == "melds":
            got = [(meld["owner"], _meld_key(meld["cards"])) for meld in actual]
            want = [(owner, _meld_key(cards(text))) for owner, text in value]
            assert got == want, key
        else:
            assert actual == value, key


def check(result: Mapping[str, Any], code: int, expect: Expect) -> None:
    assert code == expect.exit, result["error"]
    assert result["ok"] is (expect.exit == 0)
    if expect.error is None:
        assert result["error"] is None
    else:
        error = result["error"]
        want_code, deal, action = expect.error
        if want_code == "bad_record":
            assert error["code"] in ("bad_record", "unsupported"), error
        else:
            assert error["code"] == want_code, error
        assert (error["deal"], error["action"]) == (deal, action), error
        assert isinstance(error["message"], str) and error["message"], error
    if expect.deals is not None:
        got = [(d["dealer"], d["result"], d["winner"], d["points"]) for d in result["deals"]]
        assert got == expect.deals
    if expect.scores is not None:
        assert result["scores"] == expect.scores
    if expect.game_over is not None:
        assert result["game_over"] is expect.game_over
    if expect.winner != "unchecked":
        assert result["winner"] == expect.winner
    if expect.state is not None:
        _check_state(result["state"], expect.state)


def test_every_conformance_record_has_an_expectation() -> None:
    files = {path.stem for path in HERE.glob("*.json")}
    assert files == set(CASES)


def test_every_error_code_of_record_md_is_exercised() -> None:
    used = {expect.error[0] for expect in CASES.values() if expect.error and expect.exit == 1}
    assert used >= set(RECORD_ERROR_CODES), set(RECORD_ERROR_CODES) - used


@pytest.mark.parametrize("name", sorted(CASES))
def test_record_replays_as_record_md_says(name: str) -> None:
    result, code = replay_json(read(name))
    check(result, code, CASES[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_replay_json_object_has_every_key_of_record_md(name: str) -> None:
    result, _ = replay_json(read(name))
    assert set(result) == {"ok", "error", "deals", "scores", "game_over", "winner", "state"}
    if result["error"] is not None:
        assert set(result["error"]) == {"deal", "action", "code", "message"}
    if result["state"] is not None:
        state = result["state"]
        assert set(state) == {"deal", "turn", "phase", "hands", "melds", "discard", "stock"}


def test_illegal_action_message_names_the_cards() -> None:
    # "TEXT is a sentence a player understands, naming the cards": 2♣ 3♣ 5♣ is refused.
    result, _ = replay_json(read("err_invalid_meld"))
    message = result["error"]["message"]
    assert any(symbol in message for symbol in ("2♣", "3♣", "5♣")), message


def test_output_cards_are_canonical_whatever_the_input_notation() -> None:
    result, _ = replay_json(read("card_notation_variants"))
    state = result["state"]
    shown = [card for hand in state["hands"] for card in hand] + state["discard"] + state["stock"]
    assert sorted(shown) == sorted(CODE)


def test_keys_the_format_does_not_define_are_ignored() -> None:
    data = json.loads(read("out_by_meld"))
    plain = {key: value for key, value in data.items() if key != "about"}
    plain["deals"] = [{**plain["deals"][0], "comment": "ignored too"}]
    assert replay_json(plain) == replay_json(data)


# ----- shuffles by seed ----------------------------------------------------------------


def test_seeded_shuffle_replays_the_same_every_time() -> None:
    first, code = replay_json(read("shuffle_keep_top_seeded"))
    second, _ = replay_json(read("shuffle_keep_top_seeded"))
    assert code == 0
    assert first == second


def test_seeded_shuffle_keeps_the_top_discard_and_shuffles_the_rest() -> None:
    # Party keeps Ks on the pile; the other eleven cards (Jc ... Kh) make the stock.
    result, _ = replay_json(read("shuffle_keep_top_seeded"))
    state = result["state"]
    assert state["discard"] == ["Ks"]
    assert Counter(state["stock"]) == Counter(PILE_AFTER_RUN[:-1])


def test_seeded_shuffle_is_random_of_seed_shuffling_the_pile_bottom_first() -> None:
    # "the engine draws the order from random.Random(deal["seed"]) ..., shuffling the cards
    # listed bottom of the pile first": Jc (the up-card) first, Kh last, Ks kept.
    order = list(PILE_AFTER_RUN[:-1])
    random.Random(7).shuffle(order)
    result, _ = replay_json(read("shuffle_keep_top_seeded"))
    assert result["state"]["stock"] == order


def test_missing_seed_is_seed_zero() -> None:
    data = json.loads(read("shuffle_keep_top_unseeded"))
    zero = json.loads(read("shuffle_keep_top_unseeded"))
    zero["deals"][0]["seed"] = 0
    assert replay_json(data) == replay_json(zero)
    assert replay_json(data)[0]["state"] != replay_json(read("shuffle_keep_top_seeded"))[0]["state"]


def test_a_written_record_includes_the_shuffle_it_drew() -> None:
    # "A record that the project writes always includes the lists."
    record = load_record(read("shuffle_keep_top_seeded"))
    state = replay(record).state
    assert state is not None
    written = json.loads(dump_record(record_of(state, record.preset, FOUR)))
    stock = replay_json(read("shuffle_keep_top_seeded"))[0]["state"]["stock"]
    assert written["deals"][0]["reshuffles"] == [stock]


# ----- writing records -----------------------------------------------------------------


def _loads(name: str) -> bool:
    try:
        load_record(read(name))
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("name", [name for name in sorted(CASES) if _loads(name)])
def test_dump_then_load_replays_the_same(name: str) -> None:
    record = load_record(read(name))
    again = load_record(dump_record(record))
    assert again == record
    assert replay_json(dump_record(record)) == replay_json(read(name))


def _play(game: GameState, turns: int, choose: Callable[[GameState], str]) -> None:
    for _ in range(turns):
        if game.deal_over:
            return
        game.apply_text(choose(game))


def _draw_then_throw_lowest(game: GameState) -> str:
    seat = game.turn
    if game.phase.value == "draw":
        return f"{seat} draw stock"
    for card in sorted(game.hands[seat]):
        text = f"{seat} discard {card}"
        if _can(game, text):
            return text
    raise AssertionError("no discard")


def _can(game: GameState, text: str) -> bool:
    try:
        game.check_text(text)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(
    ("preset", "seats", "seed", "turns"),
    [("classic", 2, 11, 9), ("standard", 3, 5, 14), ("party", 4, 3, 120)],
)
def test_record_of_a_played_game_replays_to_the_same_state(
    preset: str, seats: int, seed: int, turns: int
) -> None:
    rules = find_preset(preset).rules
    game = GameState.new(rules, seats, dealer=seats - 1, seed=seed)
    _play(game, turns, _draw_then_throw_lowest)
    names = [f"P{seat}" for seat in range(seats)]
    record = record_of(game, find_preset(preset), names)
    result = replay(record)
    assert result.ok and result.state is not None
    assert state_json(result.state) == state_json(game)
    assert result.state.scores == game.scores
    # and through the written text
    result_json, code = replay_json(dump_record(record))
    assert code == 0
    assert result_json["state"] == state_json(game)


def test_record_of_a_game_past_a_shuffle_holds_the_shuffle() -> None:
    # Party at four seats of ten: 11 cards in the stock, so 120 draw-and-throw actions pass
    # several shuffles; the written record must replay them without the game's rng.
    rules = find_preset("party").rules.replace(hand_size=10)
    game = GameState.new(rules, 4, seed=21)
    _play(game, 120, _draw_then_throw_lowest)
    assert game.renewals_used >= 2
    record = record_of(game, find_preset("party"), list(FOUR))
    written = json.loads(dump_record(record))
    assert len(written["deals"][0]["reshuffles"]) == game.renewals_used
    assert replay_json(written)[0]["state"] == state_json(game)
