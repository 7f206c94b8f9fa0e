// The practice area's words in English (see ../../i18n.js): the practice table's
// explanations of the rules (practice.js), one or more sentences per topic.
export default {
  "practice.title.draw": "Drawing",
  "practice.title.empty_stock": "An empty stock",
  "practice.title.meld": "Melding",
  "practice.title.layoff": "Laying off",
  "practice.title.no_throwback": "No throwing back",
  "practice.title.discard": "Discarding",
  "practice.title.renewed": "A new stock",
  "practice.title.blocked": "A blocked deal",
  "practice.title.rummy": "Going rummy",
  "practice.title.out": "Going out",
  "practice.times": { one: "once", other: "{count} times" },
  "practice.twice": "twice",
  "practice.draw":
    "Every turn begins by taking one card. The stock gives you a card nobody has seen; the discard pile gives you the card on top, which everyone saw you pick up.",
  "practice.draw_deep":
    "Here you may dig deeper into the pile: you take the card you choose and every card above it.",
  "practice.draw_deep_must": "That deepest card must go into a meld, or onto one, before you discard.",
  "practice.draw_stock_too": "A card taken from the pile brings the top card of the stock with it, which only you see.",
  "practice.draw_top": "Only its top card may be taken.",
  "practice.empty_stock": "The stock is empty.",
  "practice.empty_stock_flip": "Drawing from it now turns the discard pile face down, in the same order, as a new stock.",
  "practice.empty_stock_shuffle": "Drawing from it now shuffles the whole discard pile into a new stock.",
  "practice.empty_stock_shuffle_keep_top": "Drawing from it now shuffles the discard pile, all but its top card, into a new stock.",
  "practice.empty_stock_choice": "You may take the top discard instead.",
  "practice.empty_stock_limit": "A deal can do this {times}; after that, the deal is blocked.",
  "practice.meld":
    "You hold a meld. A set is three or four cards of one rank; a run is three or more cards of one suit in a row. Select the cards and press Meld: once on the table, they no longer count against you.",
  "practice.meld_aces_low": "At this table the ace only goes below the two: A-2-3 counts, Q-K-A does not.",
  "practice.meld_aces_around": "Runs may turn the corner, so K-A-2 is a run too.",
  "practice.meld_aces_either": "An ace sits below the two or above the king, but a run cannot go round the corner.",
  "practice.meld_jokers": "A joker stands in for any one card of a meld.",
  "practice.meld_limit": { one: "You may put down one new meld a turn.", other: "You may put down {count} new melds a turn." },
  "practice.layoff":
    "A card of yours fits a meld already on the table, whoever put it there. Select it and press Lay off, or click the meld. A set takes a fourth card of its rank; a run grows by one card at either end.",
  "practice.layoff_after_meld": "At this table you may only do this once you have a meld of your own down this deal.",
  "practice.layoff_turn_after_meld": "At this table you may only do this from the turn after your first meld of the deal.",
  "practice.no_throwback":
    "You took the top discard this turn, so that card may not go straight back on the pile. Next turn you may throw it freely.",
  "practice.discard":
    "End your turn by putting one card face up on the discard pile. Shed cards that fit nothing, dearest first (tens and pictures cost 10), and avoid handing the next player a card that fits their melds.",
  "practice.discard_keep_one": "Going out here needs a last discard, so keep one card back.",
  "practice.discard_go_out": "If melds and lay-offs empty your hand, you are out without discarding.",
  "practice.renewed": "The stock ran out, so the game made a new stock from the discard pile.",
  "practice.renewed_flip": "The stock ran out, so the game turns the discard pile face down, in the same order, as a new stock.",
  "practice.renewed_shuffle": "The stock ran out, so the game shuffles the whole discard pile into a new stock.",
  "practice.renewed_shuffle_keep_top": "The stock ran out, so the game shuffles the discard pile, all but its top card, into a new stock.",
  "practice.renewed_limit": "That may happen {times} a deal; if the stock runs dry after that, the deal is blocked.",
  "practice.blocked": "The stock is gone for good and nobody went out: the deal is blocked.",
  "practice.blocked_collects":
    "The player whose hand is cheapest collects the difference from each other hand; if the hands cost the same, nobody scores.",
  "practice.blocked_nobody": "Nobody scores for it.",
  "practice.rummy": "Going rummy means putting your whole hand down in one turn, having laid nothing earlier in the deal.",
  "practice.rummy_double": "It pays double.",
  "practice.rummy_plus10": "It pays 10 points more.",
  "practice.rummy_same": "At this table it pays the same as going out.",
  "practice.out": "A player has no cards left, which ends the deal at once.",
  "practice.out_penalty":
    "Everyone else adds the value of their own hand to their total, and the lowest total wins the game.",
  "practice.out_collect": "They score what every other hand still holds; cards on the table cost nothing.",
};
