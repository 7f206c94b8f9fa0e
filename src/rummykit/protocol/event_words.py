"""What a table says, by kind: its events, its deal's lines and its notices, in English.

Every event (an action played), line of a deal's story and notice (what no action says: the
timer, someone away or back, the stock turned over or running low, a blocked deal) has a
stable ``kind``: the keys here are the whole vocabulary of the ``kind`` of the ``event``,
``notice`` and ``log`` frames (``rummykit.protocol.vocabularies``) and of the replay's frames.
Each kind's English template is here with it; ``rummykit.server.tables.table_words`` fills it
for each viewer, and the browser renders the same templates (generated into
``web/i18n/en/events.js``) or their Japanese. See ``rummykit.core.refusals`` for what a
placeholder's name says it holds.
"""

from __future__ import annotations

from typing import Final

from rummykit.core.refusals import Template

TIME_RAN_OUT: Final = "The time ran out: the computer played your turn."
RESTARTED: Final = "The server was restarted: the turn timer got at least {grace} more seconds."

ACTION_EVENTS: Final[dict[str, Template]] = {
    "draw_stock": "{seat} drew from the stock.",
    "take_discard": "{seat} took the {card} from the discard pile.",
    "take_discards": "{seat} took {cards} from the discard pile.",
    "take_top": "{seat} took the top discard.",
    # Boathouse: a take from the pile brings the stock's top card, named only to its taker.
    "take_discard_stock": "{seat} took the {card} from the discard pile and the top card of the "
    "stock.",
    "take_discards_stock": "{seat} took {cards} from the discard pile and the top card of the "
    "stock.",
    "take_discard_stock_card": "{seat} took the {card} from the discard pile and the "
    "{stock_card} from the top of the stock.",
    "take_discards_stock_card": "{seat} took {cards} from the discard pile and the "
    "{stock_card} from the top of the stock.",
    "meld": "{seat} melded {meld}.",
    "layoff": "{seat} laid off the {card}, making {meld}.",
    "discard": "{seat} discarded the {card}.",
    "knock": "{seat} knocked, discarding the {card}.",
}
"""An action just played (``event`` frames): each kind's English template."""

DEAL_LINES: Final[dict[str, Template]] = {
    "deal": "Deal {number}: {seat} deals.",
    "deal_you": "Deal {number}: you deal.",
    "deal_over": "The deal is over.",
}
"""A deal's first and last lines (``log`` frames and the replay's)."""

NOTICES: Final[dict[str, Template]] = {
    # ----- the stock ----------------------------------------------------------------------
    "renewed_flip": {
        "one": "The discard pile was turned over to make a new stock (this happens once a deal).",
        "other": "The discard pile was turned over to make a new stock (this happens at most "
        "{count} times a deal).",
    },
    "renewed_flip_any": "The discard pile was turned over to make a new stock.",
    "renewed_shuffle": {
        "one": "The discard pile was shuffled to make a new stock (this happens once a deal).",
        "other": "The discard pile was shuffled to make a new stock (this happens at most "
        "{count} times a deal).",
    },
    "renewed_shuffle_any": "The discard pile was shuffled to make a new stock.",
    "renewed_shuffle_keep_top": {
        "one": "The discard pile, all but its top card, was shuffled to make a new stock "
        "(this happens once a deal).",
        "other": "The discard pile, all but its top card, was shuffled to make a new stock "
        "(this happens at most {count} times a deal).",
    },
    "renewed_shuffle_keep_top_any": "The discard pile, all but its top card, was shuffled to "
    "make a new stock.",
    "stock_low": {
        "one": "{count} card left in the stock.",
        "other": "{count} cards left in the stock.",
    },
    "stock_last": {
        "one": "{count} card left in the stock, and it will not be renewed.",
        "other": "{count} cards left in the stock, and it will not be renewed.",
    },
    "stalled": {
        "one": "The stock was renewed and ran out again with nothing laid on the table: the "
        "deal stops here.",
        "other": "The stock was renewed {count} times in a row with nothing laid on the "
        "table: the deal stops here.",
    },
    "blocked": "The deal is blocked: nobody scores.",
    "blocked_collects": "The deal is blocked: {points} points to {seat}, who held the cheapest "
    "hand.",
    # ----- people -------------------------------------------------------------------------
    "time_ran_out_you": TIME_RAN_OUT,
    "time_ran_out": "The time ran out for {seat}: the computer played their turn.",
    "standing_in_you": "You were away: the computer is playing your turns until you are back.",
    "standing_in": "The computer is playing for {seat}.",
    "back_you": "Welcome back: your seat is yours again.",
    "back": "{seat} is back.",
    "left_you": "You left the table: the computer plays your seat to the end.",
    "left": "{seat} left the table: the computer plays their seat to the end.",
    "restarted": RESTARTED,
}
"""What the table says that no action says (``notice`` frames): each kind's template."""

EVENTS: Final[dict[str, Template]] = {**ACTION_EVENTS, **DEAL_LINES, **NOTICES}
"""Every event's, deal line's and notice's kind and its English template, in that order."""
