"""Write the conformance records: small games, each exercising one clause of docs/RECORD.md.

Run from the repository root: ``.venv/bin/python tests/records/conformance/make_records.py``.
It only builds the records (decks stacked with ``tests/helpers.py``, actions scripted here);
it never replays them. What each record must replay to is worked out by hand, from docs/RECORD.md,
in ``tests/core/test_record_conformance.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1]))

from helpers import stacked_deck  # noqa: E402
from rummykit.core.cards import standard_deck  # noqa: E402
from rummykit.core.presets import preset_with_overrides  # noqa: E402

FORMAT = "rummy-record/1"
CODE_ORDER = [str(card) for card in standard_deck()]
"""The 52 cards by rank, then suit: Ac Ad Ah As 2c ... Ks."""

# Deck B (2 seats, dealer 0): seat 1 plays first and can go out on its second turn.
B_HANDS = ["Ac 9c 3d 4h 5h 6s 7s 8d 9d Ks", "2c 3c 4c 5c 6c 7c 8c 9h Th Jh"]
B_UP = "5d"
B_STOCK = "Kd Ts Qh"

# Going out by a meld, on a later turn than the seat's first meld.
B_OUT_BY_MELD = [
    "1 draw stock",
    "1 meld 2c 3c 4c 5c 6c 7c 8c",
    "1 discard Kd",
    "0 draw stock",
    "0 discard Ts",
    "1 draw stock",
    "1 meld 9h Th Jh Qh",
]
B_TWO_MELDS = [
    "1 draw stock",
    "1 meld 2c 3c 4c 5c 6c 7c",
    "1 meld 9h Th Jh",
    "1 discard Kd",
    "0 draw stock",
    "0 discard Ts",
    "1 draw stock",
]

# Deck L (2 seats, dealer 1): seat 0 melds nines; seat 1 may lay its 9h off on them.
L_HANDS = ["9s 9d 9c 2h 4h 6h 8h Tc Jc Kh", "9h Ac 2c 3c 4d 5d 6d Js Qs Ks"]
L_UP = "5c"
L_STOCK = "Qd Kd 3s Ts"

# Deck R (2 seats): one seat can meld its whole hand on its first turn, the other holds 100.
R_WINNER = "Ac 2c 3c 4c Ad 2d 3d 4d 5h 6h"
R_LOSER = "Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd"


def rules_of(rules: Any) -> Any:
    return preset_with_overrides(rules)[1]


def stacked(rules: Any, hands: list[str], up: str, stock: str = "", dealer: int = 0) -> list[str]:
    deck = stacked_deck(rules_of(rules), hands, up, stock, dealer)
    return [str(card) for card in deck]


def deal(dealer: int, deck: list[str], actions: list[str], **extra: Any) -> dict[str, Any]:
    return {"dealer": dealer, "deck": deck, "actions": actions, **extra}


def record(about: str, rules: Any, players: Any, *deals: dict[str, Any]) -> dict[str, Any]:
    # "about" is a key the format does not define: readers must ignore it.
    return {
        "format": FORMAT,
        "about": about,
        "rules": rules,
        "players": players,
        "deals": list(deals),
    }


def b_deck(rules: Any = "classic") -> list[str]:
    return stacked(rules, B_HANDS, B_UP, B_STOCK)


def l_deck(rules: Any = "classic") -> list[str]:
    return stacked(rules, L_HANDS, L_UP, L_STOCK, dealer=1)


def r_deck(winner: int, rules: Any = "classic") -> list[str]:
    # The seat on the dealer's left goes rummy: dealer 0 for seat 1, dealer 1 for seat 0.
    hands = [R_LOSER, R_WINNER] if winner == 1 else [R_WINNER, R_LOSER]
    return stacked(rules, hands, "2s", "7h", dealer=1 - winner)


def r_actions(seat: int) -> list[str]:
    return [
        f"{seat} draw stock",
        f"{seat} meld Ac 2c 3c 4c",
        f"{seat} meld Ad 2d 3d 4d",
        f"{seat} meld 5h 6h 7h",
    ]


def draw_and_throw(
    deck: list[str], seats: int, hand: int, dealer: int, turns: int, renew: str
) -> list[str]:
    """Actions for ``turns`` turns in which each seat draws the stock top and throws it back.

    ``renew`` is what happens when a turn begins with the stock empty: "flip" (the pile,
    bottom first, becomes the stock), or "stop" (the script ends there).
    """
    stock = list(deck[seats * hand :])  # the up-card is the pile; put it back below
    pile = [stock.pop(0)]
    seat = (dealer + 1) % seats
    actions: list[str] = []
    for _ in range(turns):
        if not stock:
            if renew != "flip":
                raise ValueError("the stock ran out")
            stock, pile = pile, []
        card = stock.pop(0)
        actions += [f"{seat} draw stock", f"{seat} discard {card}"]
        pile.append(card)
        seat = (seat + 1) % seats
    return actions


# Other ways to write some cards of the deck: "10" for T, symbols, any case.
NOTATION = {"Th": "10h", "Ts": "10♠", "Ac": "a♣", "6d": "6♦", "Ks": "KS", "9h": "9H"}
CLASSIC_10 = {"preset": "classic", "hand_size": 10}
PARTY_10 = {"preset": "party", "hand_size": 10}
STANDARD_10 = {"preset": "standard", "hand_size": 10}
FOUR = ["Ann", "Bob", "Cho", "Dev"]
TWO = ["Ann", "Bob"]
# Four seats of ten cards, dealt from the deck in code order: 11 cards left in the stock.
STOCK_RUN = draw_and_throw(CODE_ORDER, 4, 10, 0, 11, "stop")


def records() -> dict[str, Any]:
    out: dict[str, Any] = {}

    # ----- the deal -------------------------------------------------------------------
    out["deal_order_dealer_0"] = record(
        "Card i goes to seat (d+1+i) mod n; card n*h is the up-card; the stock is top first.",
        "classic",
        TWO,
        deal(0, CODE_ORDER, ["1 draw stock", "1 discard Ac", "0 draw discard"]),
    )
    out["deal_order_dealer_1_three_seats_by_count"] = record(
        "Dealer 1 at three seats given as a bare count: seat 2 gets the first card and plays.",
        "classic",
        3,
        deal(1, CODE_ORDER, []),
    )
    out["deal_order_five_seats_dealer_4"] = record(
        "Five seats get six cards each; dealer 4's left is seat 0, which plays first.",
        "standard",
        ["Ann", "Bob", "Cho", "Dev", "Eve"],
        deal(4, CODE_ORDER, []),
    )
    out["draw_discard_1_is_the_top_card"] = record(
        "'draw discard 1' takes the top card, where the rules allow only the top card.",
        "classic",
        TWO,
        deal(0, b_deck(), ["1 draw discard 1", "1 discard 2c"]),
    )
    out["boathouse_take_brings_the_stock_top"] = record(
        "Under stock_with_discard, 'draw discard' also takes the stock's top card, from the deck.",
        "boathouse",
        TWO,
        deal(0, b_deck("boathouse"), ["1 draw discard", "1 discard 2c"]),
    )
    out["card_notation_variants"] = record(
        "10 reads as T, suit symbols read, case does not matter; output is canonical.",
        "classic",
        TWO,
        deal(
            0,
            [NOTATION.get(card, card) for card in CODE_ORDER],
            ["1 draw stock", "1 discard a♣", "0 draw stock", "0 discard 5♠"],
        ),
    )

    # ----- going out ------------------------------------------------------------------
    out["out_by_meld"] = record(
        "Going out by a meld, having melded on an earlier turn: out, no bonus.",
        "classic",
        TWO,
        deal(0, b_deck(), B_OUT_BY_MELD),
    )
    out["out_by_layoff"] = record(
        "Going out by a lay-off, having melded on an earlier turn.",
        "classic",
        TWO,
        deal(0, b_deck(), [*B_TWO_MELDS, "1 layoff 8c 0", "1 layoff Qh 1"]),
    )
    out["out_by_discard"] = record(
        "Going out by discarding the last card.",
        "classic",
        TWO,
        deal(0, b_deck(), [*B_TWO_MELDS, "1 layoff 8c 0", "1 discard Qh"]),
    )
    out["taken_discard_may_be_thrown_as_last_card"] = record(
        "The card taken from the pile may be discarded when it is the last card in the hand.",
        "classic",
        TWO,
        deal(
            0,
            b_deck(),
            [*B_TWO_MELDS[:-1], "1 draw discard", "1 layoff 8c 0", "1 discard Ts"],
        ),
    )
    l_first = ["0 draw stock", "0 meld 9s 9d 9c", "0 discard Qd"]
    l_last = ["1 meld Ac 2c 3c", "1 meld 4d 5d 6d", "1 meld Ts Js Qs Ks"]
    out["layoff_on_earlier_turn_is_not_rummy"] = record(
        "Seat 1 laid off on its first turn, melds out on its second: out, not rummy.",
        "classic",
        TWO,
        deal(
            1,
            l_deck(),
            [
                *l_first,
                "1 draw stock",
                "1 layoff 9h 0",
                "1 discard Kd",
                "0 draw stock",
                "0 discard 3s",
                "1 draw stock",
                *l_last,
            ],
        ),
    )
    out["layoff_in_the_going_out_turn_is_rummy"] = record(
        "Seat 1 lays off and melds out in one turn, nothing laid before: rummy, doubled.",
        "classic",
        TWO,
        deal(
            1,
            l_deck(),
            [
                *l_first,
                "1 draw stock",
                "1 discard Kd",
                "0 draw stock",
                "0 discard 3s",
                "1 draw stock",
                "1 layoff 9h 0",
                *l_last,
            ],
        ),
    )

    # ----- rummy bonus and scoring ----------------------------------------------------
    bonus_hands = ["Ks Kh 5s 4d 6h Ts 2s", "Ac 2c 3c 4c 7d 7h 7s", "Kd Qd Jd 9s 8h 2d 3h"]
    bonus_actions = ["1 draw stock", "1 meld Ac 2c 3c 4c", "1 meld 7s 7h 7d 7c"]
    for name, rules in [
        ("rummy_double_winner", "classic"),
        ("rummy_plus10_winner", {"preset": "classic", "rummy_bonus": "plus10"}),
        ("rummy_none_winner", {"preset": "classic", "rummy_bonus": "none"}),
        ("rummy_double_penalty", {"preset": "classic", "scoring": "penalty"}),
        (
            "rummy_plus10_penalty",
            {"preset": "classic", "scoring": "penalty", "rummy_bonus": "plus10"},
        ),
    ]:
        out[name] = record(
            "Seat 1 melds its whole hand on its first turn (rummy) at three seats.",
            rules,
            ["Ann", "Bob", "Cho"],
            deal(0, stacked(rules, bonus_hands, "9c", "7c"), bonus_actions),
        )
    out["rummy_by_final_discard"] = record(
        "Going out by a discard on the first turn is rummy too.",
        "classic",
        ["Ann", "Bob", "Cho"],
        deal(
            0,
            stacked("classic", bonus_hands, "9c", "7c"),
            ["1 draw stock", "1 meld Ac 2c 3c 4c", "1 meld 7s 7h 7d", "1 discard 7c"],
        ),
    )

    # ----- renewing the stock ---------------------------------------------------------
    out["flip_renews_pile_bottom_first"] = record(
        "Classic flips the pile when a turn begins with the stock empty; reshuffles are unused.",
        CLASSIC_10,
        FOUR,
        deal(0, CODE_ORDER, STOCK_RUN, reshuffles=[["Ks"]]),
    )
    out["flip_then_blocked_no_score"] = record(
        "Classic renews once; when the flipped stock runs dry the deal is blocked, no score.",
        CLASSIC_10,
        FOUR,
        deal(0, CODE_ORDER, draw_and_throw(CODE_ORDER, 4, 10, 0, 23, "flip")),
    )
    empty_pile = deal(0, CODE_ORDER, [*STOCK_RUN, "0 draw discard"])
    out["empty_discard_after_flip"] = record(
        "After a flip the pile is empty: drawing from it is empty_discard.",
        CLASSIC_10,
        FOUR,
        empty_pile,
    )
    out["order_empty_discard_before_discard_take"] = record(
        "draw discard 2 from an empty pile under top-only rules: empty_discard comes first.",
        CLASSIC_10,
        FOUR,
        deal(0, CODE_ORDER, [*STOCK_RUN, "0 draw discard 2"]),
    )
    lowest = {"preset": "classic", "hand_size": 10, "blocked": "lowest_collects"}
    four_hands = [
        "As 2s 3s 4s 5s 6s 7s 8s 9s Ts",
        "Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d",
        "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th",
        "6c 7c 8c 9c Tc 6d 7d 8d 9d Td",
    ]
    four_deck = stacked(lowest, four_hands, "Jc")
    out["blocked_lowest_collects_four_seats"] = record(
        "Blocked under lowest_collects: the lowest hand scores the sum of the differences.",
        lowest,
        FOUR,
        deal(0, four_deck, draw_and_throw(four_deck, 4, 10, 0, 23, "flip")),
    )
    practice_hands = [R_LOSER, "Ad Ah As 2d 2h 2s 3d 3h 3s 4d"]
    practice_deck = stacked("practice", practice_hands, "Jh")
    practice_run = draw_and_throw(practice_deck, 2, 10, 0, 63, "flip")
    out["practice_blocked_lowest_collects"] = record(
        "Practice: one flip, then blocked; the lower hand (22) collects 100 - 22.",
        "practice",
        TWO,
        deal(0, practice_deck, practice_run),
    )
    out["practice_blocked_lowest_collects_penalty"] = record(
        "Practice under penalty scoring: the higher hand takes the difference as penalty.",
        {"preset": "practice", "scoring": "penalty"},
        TWO,
        deal(0, practice_deck, practice_run),
    )
    out["practice_blocked_tie_scores_nothing"] = record(
        "Practice, hands dealt in code order are worth 30 each: a tie for lowest scores nothing.",
        "practice",
        TWO,
        deal(0, CODE_ORDER, draw_and_throw(CODE_ORDER, 2, 10, 0, 63, "flip")),
    )

    out["renew_none_blocks_at_once"] = record(
        'renew "none" never renews, whatever renewals says: blocked when the stock is empty.',
        {**CLASSIC_10, "renew": "none", "renewals": None},
        FOUR,
        deal(0, CODE_ORDER, STOCK_RUN),
    )
    # Six seats of nine with three jokers: 55 cards, the stock is empty from the deal.
    jokers_deck = [*CODE_ORDER, "X", "X", "X"]
    out["keep_top_pile_of_one_is_no_renewal"] = record(
        "The stock is empty at the deal and the pile is the up-card alone: no renewal, blocked.",
        {"preset": "party", "jokers": 3, "hand_size": 9},
        6,
        deal(0, jokers_deck, []),
    )
    out["flip_of_the_up_card_alone"] = record(
        "The stock is empty at the deal: the flip makes the up-card the stock.",
        {"preset": "classic", "jokers": 3, "hand_size": 9},
        6,
        deal(0, jokers_deck, []),
    )

    # ----- jokers ---------------------------------------------------------------------
    jokers_3 = {"preset": "classic", "jokers": 3}
    out["joker_gap_explicit_and_above_top"] = record(
        "A bare joker fills a run's gap or goes above its top; X=9s says what it stands for.",
        jokers_3,
        TWO,
        deal(
            0,
            stacked(
                jokers_3,
                ["Ac 2c 3c 4c 5c 6c 7c 8c Tc Jc", "5h 7h X 9c 9d X 5s 6s X Kc"],
                "Kd",
                "Qd",
            ),
            [
                "1 draw stock",
                "1 meld 5h X 7h",
                "1 meld 9c 9d X=9s",
                "1 meld 5s 6s X",
                "1 discard Kc",
            ],
        ),
    )
    jokers_2 = {"preset": "classic", "jokers": 2}
    out["joker_below_bottom_and_in_a_set"] = record(
        "Aces low: a bare joker on Q-K goes below; in a set, the lowest suit not there.",
        jokers_2,
        TWO,
        deal(
            0,
            stacked(
                jokers_2,
                ["Ac 2c 3c 4c 5c 6c 7c 8c Tc Jc", "Qh Kh X 9c 9d X 2d 3d 4d 8s"],
                "Kd",
                "Ts",
            ),
            ["1 draw stock", "1 meld Qh Kh X", "1 meld 9c 9d X", "1 meld 2d 3d 4d", "1 discard Ts"],
        ),
    )
    jokers_1 = {"preset": "classic", "jokers": 1}
    out["joker_caught_in_hand_costs_15"] = record(
        "A joker caught in a hand costs joker_points (15).",
        jokers_1,
        TWO,
        deal(
            0,
            stacked(jokers_1, ["Kc Kd Kh Ks Qc Qd Qh Qs Jc X", R_WINNER], "2s", "7h"),
            r_actions(1),
        ),
    )

    # ----- empty_stock_choice -----------------------------------------------------------
    out["choice_draw_discard_keeps_stock_empty"] = record(
        "With empty_stock_choice a seat facing an empty stock takes the top discard.",
        STANDARD_10,
        FOUR,
        deal(0, CODE_ORDER, [*STOCK_RUN, "0 draw discard", "0 discard As"]),
    )
    out["choice_draw_stock_renews"] = record(
        "With empty_stock_choice, 'draw stock' on an empty stock flips the pile and draws.",
        STANDARD_10,
        FOUR,
        deal(0, CODE_ORDER, [*STOCK_RUN, "0 draw stock"]),
    )
    out["choice_without_renewal_draw_stock_blocks"] = record(
        "With no renewal left, 'draw discard' is still allowed and 'draw stock' blocks.",
        {**STANDARD_10, "renewals": 0},
        FOUR,
        deal(0, CODE_ORDER, [*STOCK_RUN, "0 draw discard", "0 discard As", "1 draw stock"]),
    )

    # ----- shuffles -------------------------------------------------------------------
    first = ["Kh", "Kd", "Kc", "Qs", "Qh", "Qd", "Qc", "Js", "Jh", "Jd", "Jc"]
    second = ["Jd", "Jh", "Js", "Qc", "Qd", "Qh", "Qs", "Kc", "Kd", "Kh", "Ks"]
    out["shuffle_keep_top_uses_given_order"] = record(
        "Party keeps the top discard and shuffles the rest into the order the record gives.",
        PARTY_10,
        FOUR,
        deal(0, CODE_ORDER, STOCK_RUN, reshuffles=[first]),
    )
    second_run = []
    for index, card in enumerate(first):
        seat = index % 4
        second_run += [f"{seat} draw stock", f"{seat} discard {card}"]
    out["shuffle_keep_top_uses_lists_in_order"] = record(
        "Two shuffles in one deal use the record's two lists in order.",
        PARTY_10,
        FOUR,
        deal(0, CODE_ORDER, [*STOCK_RUN, *second_run], reshuffles=[first, second]),
    )
    shuffled = ["Qs", "Jc", "Ks", "Kh", "Jd", "Qc", "Kc", "Jh", "Qh", "Kd", "Js", "Qd"]
    shuffle_rules = {**CLASSIC_10, "renew": "shuffle"}
    out["shuffle_uses_given_order"] = record(
        "renew shuffle: the whole pile becomes the stock in the order the record gives.",
        shuffle_rules,
        FOUR,
        deal(0, CODE_ORDER, STOCK_RUN, reshuffles=[shuffled]),
    )
    out["shuffle_keep_top_list_with_kept_card"] = record(
        "The list holds the kept top card (Ks) instead of the bottom one (Jc): bad_record.",
        PARTY_10,
        FOUR,
        deal(0, CODE_ORDER, STOCK_RUN, reshuffles=[["Ks", *first[:-1]]]),
    )
    out["shuffle_list_missing_a_card"] = record(
        "The shuffle list lacks one of the twelve cards being shuffled: bad_record.",
        shuffle_rules,
        FOUR,
        deal(0, CODE_ORDER, STOCK_RUN, reshuffles=[shuffled[:-1]]),
    )
    out["shuffle_keep_top_seeded"] = record(
        "No reshuffles: the order comes from random.Random(seed).",
        PARTY_10,
        FOUR,
        deal(0, CODE_ORDER, STOCK_RUN, seed=7),
    )
    out["shuffle_keep_top_unseeded"] = record(
        "No reshuffles and no seed: the order comes from random.Random(0).",
        PARTY_10,
        FOUR,
        deal(0, CODE_ORDER, STOCK_RUN),
    )

    # ----- rules ----------------------------------------------------------------------
    aces_hands = ["2s 3s 4s 5s 6s 7s 8s 2d 3d 4d", "Qh Kh Ah 2h 3c 4c 5d 6d 7d 9s"]
    for name, rules, meld in [
        ("aces_low_or_high_override", {"preset": "classic", "aces": "low_or_high"}, "Ah Kh Qh"),
        ("aces_low_refuses_queen_king_ace", "classic", "Ah Kh Qh"),
        ("aces_around_override", {"preset": "classic", "aces": "around"}, "2h Ah Kh"),
        ("aces_low_or_high_refuses_king_ace_two", "standard", "2h Ah Kh"),
    ]:
        out[name] = record(
            "Which runs an ace may sit in, by the aces option.",
            rules,
            TWO,
            deal(
                0,
                stacked(rules, aces_hands, "Kc", "Kd"),
                ["1 draw stock", f"1 meld {meld}", "1 discard Kd"],
            ),
        )
    around = {"preset": "classic", "aces": "around"}
    out["around_whole_suit_is_listed_ace_to_king"] = record(
        "A run round the corner, laid off on until it holds the whole suit, lists A to K.",
        around,
        TWO,
        deal(
            0,
            stacked(
                around,
                ["9h Th Jh Qh Ac 2c 3c 4d 5d 6d", "Kh Ah 2h 3h 4h 5h 6h 7h Ks Kc"],
                "Kd",
                "8h 7s",
            ),
            [
                "1 draw stock",
                "1 meld Kh Ah 2h 3h 4h 5h 6h 7h 8h",
                "1 discard Ks",
                "0 draw stock",
                "0 layoff 9h 0",
                "0 layoff Th 0",
                "0 layoff Jh 0",
                "0 layoff Qh 0",
                "0 discard 7s",
            ],
        ),
    )
    out["unknown_option"] = record(
        "An unknown key inside rules is an error.",
        {"preset": "classic", "wild_cards": True},
        TWO,
        deal(0, CODE_ORDER, []),
    )
    out["unknown_preset"] = record(
        "An unknown preset is an error.", "gin", TWO, deal(0, CODE_ORDER, [])
    )
    out["rules_without_preset"] = record(
        "A rules object must name its preset.", {"aces": "low"}, TWO, deal(0, CODE_ORDER, [])
    )
    out["deck_missing_a_card"] = record(
        "A deck without the Ks.", "classic", TWO, deal(0, CODE_ORDER[:-1], [])
    )
    out["deck_with_an_extra_card"] = record(
        "A deck with a second As.", "classic", TWO, deal(0, [*CODE_ORDER, "As"], [])
    )
    out["deck_with_an_unknown_card"] = record(
        "A deck with a card that is no card.",
        "classic",
        TWO,
        deal(0, [*CODE_ORDER[:-1], "Kx"], []),
    )
    out["practice_with_three_players"] = record(
        "Practice is for two seats.", "practice", ["Ann", "Bob", "Cho"], deal(0, CODE_ORDER, [])
    )
    out["seven_players"] = record(
        "Seven seats need two decks, and standard plays with one.",
        "standard",
        7,
        deal(0, CODE_ORDER, []),
    )
    out["deck_too_small_for_the_table"] = record(
        "Six seats of ten cards and an up-card need 61 cards.",
        CLASSIC_10,
        6,
        deal(0, CODE_ORDER, []),
    )
    out["no_deals"] = record("deals must hold at least one deal.", "classic", TWO)
    out["wrong_format"] = {**record("Not this format.", "classic", TWO, deal(0, CODE_ORDER, []))}
    out["wrong_format"]["format"] = "rummy-record/9"

    # ----- several deals --------------------------------------------------------------
    b_meld = deal(0, b_deck(), B_OUT_BY_MELD)
    dealer1_code = deal(1, CODE_ORDER, [])
    out["dealer_breaks_rotation"] = record(
        "After dealer 0 the next deal is seat 1's, not seat 0's.",
        "classic",
        TWO,
        b_meld,
        deal(0, CODE_ORDER, []),
    )
    out["deal_after_unfinished_deal"] = record(
        "Only the last deal may be unfinished.",
        "classic",
        TWO,
        deal(0, b_deck(), B_OUT_BY_MELD[:2]),
        dealer1_code,
    )
    out["deal_after_game_end"] = record(
        "Seat 1 goes rummy for 200 and the game is over: no deal may follow.",
        "classic",
        TWO,
        deal(0, r_deck(1), r_actions(1)),
        dealer1_code,
    )
    out["error_in_second_deal"] = record(
        "Deal 1, dealt by seat 1: seat 0 plays first, so seat 1 may not draw.",
        "classic",
        TWO,
        b_meld,
        deal(1, CODE_ORDER, ["1 draw stock"]),
    )
    out["game_to_target"] = record(
        "Seat 1 scores 62, then 50 more in the second deal: it passes 100 and wins.",
        "classic",
        TWO,
        b_meld,
        deal(
            1,
            l_deck(),
            [
                *l_first,
                "1 draw stock",
                "1 layoff 9h 0",
                "1 discard Kd",
                "0 draw stock",
                "0 discard 3s",
                "1 draw stock",
                *l_last,
            ],
        ),
    )
    deals_two = {"preset": "classic", "deals": 2}
    out["deals_two_ends_after_two_deals"] = record(
        "With deals 2 the target is ignored: 200 after one deal does not end the game.",
        deals_two,
        TWO,
        deal(0, r_deck(1, deals_two), r_actions(1)),
        deal(1, b_deck_dealt_by(1), B_OUT_BY_MELD_SEAT0),
    )
    out["deals_two_tie_has_no_winner"] = record(
        "Two deals, 200 each: a tie at the top, no winner.",
        deals_two,
        TWO,
        deal(0, r_deck(1, deals_two), r_actions(1)),
        deal(1, r_deck(0, deals_two), r_actions(0)),
    )
    winner_deals = {"preset": "classic", "dealer": "winner", "target": 500}
    three_hands = ["Ks Kh Kd Qs Qh Qd Js", "2h 3h 5s 6s 8c 9c Th", "Ac 2c 3c 4c Ad 2d 3d"]
    three_deal = deal(
        0,
        stacked(winner_deals, three_hands, "Jd", "Kc 4d"),
        [
            "1 draw stock",
            "1 discard Kc",
            "2 draw stock",
            "2 meld Ac 2c 3c 4c",
            "2 meld Ad 2d 3d 4d",
        ],
    )
    out["dealer_winner_deals_next"] = record(
        "dealer: winner. Seat 2 goes out in deal 0, so seat 2 deals deal 1.",
        winner_deals,
        ["Ann", "Bob", "Cho"],
        three_deal,
        deal(2, CODE_ORDER, []),
    )
    out["dealer_winner_refuses_left_rotation"] = record(
        "dealer: winner. Seat 1 (the left of the last dealer) may not deal deal 1.",
        winner_deals,
        ["Ann", "Bob", "Cho"],
        three_deal,
        deal(1, CODE_ORDER, []),
    )

    winner_blocked = {**CLASSIC_10, "dealer": "winner"}
    out["dealer_winner_passes_left_after_blocked_deal"] = record(
        "dealer: winner. A blocked deal has no winner, so the deal passes to the left.",
        winner_blocked,
        FOUR,
        deal(0, CODE_ORDER, draw_and_throw(CODE_ORDER, 4, 10, 0, 23, "flip")),
        deal(1, CODE_ORDER, []),
    )
    out["bad_option_value"] = record(
        "An option with a value it cannot take (three decks) is an error.",
        {"preset": "classic", "decks": 3},
        TWO,
        deal(0, CODE_ORDER, []),
    )

    # ----- error codes ----------------------------------------------------------------
    def on_b(about: str, actions: list[str], rules: Any = "classic") -> dict[str, Any]:
        return record(about, rules, TWO, deal(0, b_deck(rules), actions))

    after_meld = {"preset": "classic", "layoff": "after_meld"}
    turn_after = {"preset": "classic", "layoff": "turn_after_meld"}
    one_meld = {"preset": "classic", "melds_per_turn": 1}
    by_discard = {"preset": "classic", "go_out": "discard"}
    any_take = {"preset": "classic", "discard_take": "any"}
    b_t1 = ["1 draw stock", "1 meld 2c 3c 4c 5c 6c 7c 8c", "1 discard Kd", "0 draw stock"]
    b_must = [
        "1 draw stock",
        "1 meld 2c 3c 4c 5c 6c 7c",
        "1 discard Kd",
        "0 draw stock",
        "0 discard Ts",
        "1 draw stock",
    ]
    cases: list[tuple[str, list[str], Any]] = [
        ("err_not_your_turn", ["0 draw stock"], "classic"),
        ("err_not_your_turn_no_such_seat", ["1 draw stock", "2 discard Kd"], "classic"),
        ("err_wrong_phase_draw_twice", ["1 draw stock", "1 draw discard"], "classic"),
        ("err_wrong_phase_meld_before_draw", ["1 meld 2c 3c 4c"], "classic"),
        ("err_wrong_phase_after_deal_over", [*B_OUT_BY_MELD, "1 draw stock"], "classic"),
        ("err_card_not_in_hand", ["1 draw stock", "1 discard As"], "classic"),
        ("err_card_listed_twice_held_once", ["1 draw stock", "1 meld 2c 2c 3c"], "classic"),
        ("err_invalid_meld", ["1 draw stock", "1 meld 2c 3c 5c"], "classic"),
        (
            "err_meld_limit",
            ["1 draw stock", "1 meld 2c 3c 4c", "1 meld 5c 6c 7c"],
            one_meld,
        ),
        ("err_layoff_not_allowed_before_own_meld", [*b_t1, "0 layoff 9c 0"], after_meld),
        (
            "err_layoff_not_allowed_in_first_meld_turn",
            ["1 draw stock", "1 meld 2c 3c 4c 5c 6c 7c", "1 layoff 8c 0"],
            turn_after,
        ),
        ("err_layoff_does_not_fit", [*b_t1, "0 layoff 9d 0"], "classic"),
        ("err_no_such_meld", ["1 draw stock", "1 layoff 9h 0"], "classic"),
        ("err_discard_taken_card", ["1 draw discard", "1 discard 5d"], "classic"),
        (
            "err_must_discard_to_go_out_by_meld",
            [*b_must, "1 layoff 8c 0", "1 meld 9h Th Jh Qh"],
            by_discard,
        ),
        (
            "err_must_discard_to_go_out_by_layoff",
            [*B_TWO_MELDS, "1 layoff 8c 0", "1 layoff Qh 1"],
            by_discard,
        ),
        (
            "err_discard_take_not_allowed_top_only",
            ["1 draw stock", "1 discard Kd", "0 draw discard 2"],
            "classic",
        ),
        ("err_discard_take_beyond_the_pile", ["1 draw discard 2"], any_take),
        ("err_bad_action_unknown_verb", ["1 frobnicate"], "classic"),
        ("err_bad_action_no_such_card", ["1 draw stock", "1 discard Zz"], "classic"),
        ("err_bad_action_meld_of_no_cards", ["1 draw stock", "1 meld"], "classic"),
        # The reporting order.
        ("order_bad_action_before_deal_over", [*B_OUT_BY_MELD, "0 frobnicate"], "classic"),
        ("order_deal_over_before_not_your_turn", [*B_OUT_BY_MELD, "0 draw stock"], "classic"),
        ("order_not_your_turn_before_wrong_phase", ["0 meld 9c 9d 9h"], "classic"),
        ("order_wrong_phase_before_card_not_in_hand", ["1 discard As"], "classic"),
        (
            "order_card_not_in_hand_before_meld_limit",
            ["1 draw stock", "1 meld 2c 3c 4c", "1 meld As 2s 3s"],
            one_meld,
        ),
        (
            "order_meld_limit_before_invalid_meld",
            ["1 draw stock", "1 meld 2c 3c 4c", "1 meld 5c 6c 9h"],
            one_meld,
        ),
        (
            "order_invalid_meld_before_must_discard",
            [*b_must, "1 meld 8c 9h Th Jh Qh"],
            by_discard,
        ),
        (
            "order_card_not_in_hand_before_no_such_meld",
            ["1 draw stock", "1 layoff As 4"],
            "classic",
        ),
        ("order_no_such_meld_before_layoff_not_allowed", [*b_t1, "0 layoff 9c 3"], after_meld),
        ("order_layoff_not_allowed_before_does_not_fit", [*b_t1, "0 layoff 9d 0"], after_meld),
        (
            "order_does_not_fit_before_must_discard",
            [*B_TWO_MELDS, "1 layoff 8c 0", "1 layoff Qh 0"],
            by_discard,
        ),
    ]
    for name, actions, rules in cases:
        out[name] = on_b(name.replace("_", " "), actions, rules)
    out["go_out_discard_rule_out_by_final_discard"] = on_b(
        "Under go_out discard a seat goes out by discarding its last card.",
        [*b_must, "1 layoff 8c 0", "1 meld 9h Th Jh", "1 discard Qh"],
        by_discard,
    )
    out["layoff_turn_after_meld_allows_next_turn"] = on_b(
        "layoff turn_after_meld: from the turn after the seat's first meld it may lay off.",
        [*b_must, "1 layoff 8c 0"],
        turn_after,
    )
    out["layoff_after_meld_allows_same_turn"] = on_b(
        "layoff after_meld: a seat may lay off in the turn of its first meld.",
        ["1 draw stock", "1 meld 2c 3c 4c 5c 6c 7c", "1 layoff 8c 0"],
        after_meld,
    )
    return out


# Deal 1 of "deals_two_ends_after_two_deals": deck B dealt by seat 1, so the hands change seats
# and seat 0 plays first and goes out by a meld, as seat 1 does in B_OUT_BY_MELD.
def b_deck_dealt_by(dealer: int) -> list[str]:
    hands = list(reversed(B_HANDS))
    return stacked("classic", hands, B_UP, B_STOCK, dealer=dealer)


B_OUT_BY_MELD_SEAT0 = [
    "0 draw stock",
    "0 meld 2c 3c 4c 5c 6c 7c 8c",
    "0 discard Kd",
    "1 draw stock",
    "1 discard Ts",
    "0 draw stock",
    "0 meld 9h Th Jh Qh",
]


def write(name: str, data: dict[str, Any]) -> None:
    """One record per file: a line for the header, a line per deal."""
    head = {key: value for key, value in data.items() if key != "deals"}
    opening = json.dumps(head, ensure_ascii=False)[:-1]
    deals = ",\n  ".join(json.dumps(item, ensure_ascii=False) for item in data["deals"])
    body = f"[\n  {deals}\n]" if deals else "[]"
    (HERE / f"{name}.json").write_text(f'{opening}, "deals": {body}}}\n', encoding="utf-8")


def main() -> None:
    for name, data in records().items():
        write(name, data)
    (HERE / "bad_json.json").write_text('{"format": "rummy-record/1", "rules": \n', "utf-8")


if __name__ == "__main__":
    main()
