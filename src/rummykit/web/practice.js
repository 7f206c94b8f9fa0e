// The practice game's short explanations, one per topic, written for the table's own rules.
import { store } from "./util.js";

const times = (n) => (n === 1 ? "once" : n === 2 ? "twice" : `${n} times`);

function renewWords(rules) {
  switch (rules.renew) {
    case "flip":
      return "turns the discard pile face down, in the same order, as a new stock";
    case "shuffle":
      return "shuffles the whole discard pile into a new stock";
    case "shuffle_keep_top":
      return "shuffles the discard pile, all but its top card, into a new stock";
    default:
      return "";
  }
}

function blockedWords(rules) {
  return rules.blocked === "lowest_collects"
    ? "The player whose hand is cheapest collects the difference from each other hand; if the hands cost the same, nobody scores."
    : "Nobody scores for it.";
}

const TEXTS = {
  draw: (r) =>
    "Every turn begins by taking one card. The stock gives you a card nobody has seen; the discard pile gives you the card on top, which everyone saw you pick up." +
    (r.discard_take === "any"
      ? " Here you may dig deeper into the pile: you take the card you choose and every card above it, and must play that deepest card this turn."
      : " Only its top card may be taken."),
  empty_stock: (r) => {
    let text = "The stock is empty.";
    if (r.renew !== "none") text += ` Drawing from it now ${renewWords(r)}.`;
    if (r.empty_stock_choice) text += " You may take the top discard instead.";
    if (r.renewals !== null && r.renew !== "none")
      text += ` A deal can do this ${times(r.renewals)}; after that, the deal is blocked.`;
    return text;
  },
  meld: (r) => {
    let text =
      "You hold a meld. A set is three or four cards of one rank; a run is three or more cards of one suit in a row. Select the cards and press Meld: once on the table, they no longer count against you.";
    text +=
      r.aces === "low"
        ? " At this table the ace only goes below the two: A-2-3 counts, Q-K-A does not."
        : r.aces === "around"
          ? " Runs may turn the corner, so K-A-2 is a run too."
          : " An ace sits below the two or above the king, but a run cannot go round the corner.";
    if (r.jokers > 0) text += " A joker stands in for any one card of a meld.";
    if (r.melds_per_turn > 0) text += ` You may put down ${r.melds_per_turn === 1 ? "one new meld" : r.melds_per_turn + " new melds"} a turn.`;
    return text;
  },
  layoff: (r) =>
    "A card of yours fits a meld already on the table, whoever put it there. Select it and press Lay off, or click the meld. A set takes a fourth card of its rank; a run grows by one card at either end." +
    (r.layoff === "after_meld"
      ? " At this table you may only do this once you have a meld of your own down this deal."
      : r.layoff === "turn_after_meld"
        ? " At this table you may only do this from the turn after your first meld of the deal."
        : ""),
  no_throwback: () =>
    "You took the top discard this turn, so that card may not go straight back on the pile. Next turn you may throw it freely.",
  discard: (r) =>
    "End your turn by putting one card face up on the discard pile. Shed cards that fit nothing, dearest first (tens and pictures cost 10), and avoid handing the next player a card that fits their melds." +
    (r.go_out === "discard"
      ? " Going out here needs a last discard, so keep one card back."
      : " If melds and lay-offs empty your hand, you are out without discarding."),
  renewed: (r) => {
    let text = `The stock ran out, so the game ${renewWords(r) || "made a new stock from the discard pile"}.`;
    if (r.renewals !== null) text += ` That may happen ${times(r.renewals)} a deal; if the stock runs dry after that, the deal is blocked.`;
    return text;
  },
  blocked: (r) => `The stock is gone for good and nobody went out: the deal is blocked. ${blockedWords(r)}`,
  rummy: (r) =>
    "Going rummy means putting your whole hand down in one turn, having laid nothing earlier in the deal. " +
    (r.rummy_bonus === "double"
      ? "It pays double."
      : r.rummy_bonus === "plus10"
        ? "It pays 10 points more."
        : "At this table it pays the same as going out."),
  out: (r) =>
    "A player has no cards left, which ends the deal at once. " +
    (r.scoring === "penalty"
      ? "Everyone else adds the value of their own hand to their total, and the lowest total wins the game."
      : "They score what every other hand still holds; cards on the table cost nothing."),
};

export const TOPIC_TITLES = {
  draw: "Drawing",
  empty_stock: "An empty stock",
  meld: "Melding",
  layoff: "Laying off",
  no_throwback: "No throwing back",
  discard: "Discarding",
  renewed: "A new stock",
  blocked: "A blocked deal",
  rummy: "Going rummy",
  out: "Going out",
};

export function explainTopic(topic, rules) {
  const text = TEXTS[topic];
  return text ? text(rules) : "";
}

/** Which topics to explain now: those never shown at this table (remembered per table). */
export class Topics {
  constructor(table) {
    this.key = `rummykit.topics.${table}`;
    const saved = store.get(this.key, { shown: [], last: [] });
    this.shown = new Set(saved.shown || []);
    this.last = saved.last || [];
  }

  /**
   * The topics to show for this view's list (the rules that apply now): the new ones, else
   * those last shown that still apply. A rule that no longer applies (a new deal, the meld
   * laid, the turn over) is not explained any more, after a reload either.
   */
  take(topics) {
    const now = (topics || []).filter((topic) => TEXTS[topic]);
    const fresh = now.filter((topic) => !this.shown.has(topic));
    if (fresh.length) {
      fresh.forEach((topic) => this.shown.add(topic));
      this.last = fresh;
    } else {
      this.last = this.last.filter((topic) => now.includes(topic));
    }
    store.set(this.key, { shown: [...this.shown], last: this.last });
    return this.last;
  }
}
