// What the table says, in the page's language: events (an action played), notices (the timer,
// someone away or back, the stock turned over or running low, a blocked deal) and the log of
// the current deal, each worded from its kind and params with the names the table shows.
// The English templates are Python's (server/table_words.py, generated into i18n/en/events.js).
// No DOM here.
import { short } from "../cards.js";
import { has, listOf, orOf, t } from "../i18n.js";
import { resultText, who } from "./texts.js";

/** What a placeholder holds, by its name (the same convention as core/refusals.py). */
const SEAT_PARAMS = new Set(["seat", "turn"]);
const CARD_PARAMS = new Set(["card", "stock_card"]);
const MELD_PARAMS = new Set(["cards", "meld"]);
const LIST_PARAMS = new Set(["missing"]);
const NAMES_PARAMS = new Set(["names"]);
const CHOICE_PARAMS = new Set(["choices"]);
const POSSESSIVE = "_pos";
/** The param naming the rules' own reason (core/error_words.py) that a party's refusal words
 * into its {detail} from the params beside it (protocol/party_words.py). */
const DETAIL_REASON = "detail_reason";

/** The kinds that are actions (event frames); the rest are notices and deal lines. */
const ACTIONS = new Set([
  "draw_stock",
  "take_discard",
  "take_discards",
  "take_top",
  // Boathouse: the take brought the stock's top card too (named to its taker only)
  "take_discard_stock",
  "take_discards_stock",
  "take_discard_stock_card",
  "take_discards_stock_card",
  "meld",
  "layoff",
  "discard",
]);

const mark = (name) => `\u0000${name}\u0000`;
const ALONE = /^[\s.,;:!?)）。、]|^$/u;

/** A seat in a sentence: "you" for your own, else its name as the table shows it. */
export function seatWord(view, seat) {
  return view && seat === view.seat ? t("events.you") : who(view, seat);
}

/** A seat's possessive: "your" ("yours" when nothing follows), or "Left's". */
function possessive(view, seat, alone) {
  if (view && seat === view.seat) return t(alone ? "events.yours" : "events.your");
  return t("events.possessive", { name: who(view, seat) });
}

const cardsShown = (codes) => (codes && codes.length ? codes.map(short).join(" ") : t("refusals.nothing"));

/**
 * The sentence of catalogue entry `key` with `params` (seats as ints, cards as codes) put in
 * words for `view`: seats named as the table names them, cards as the table shows them,
 * people's names listed ("Ada and Bob"), choices offered ("1 or 2"), and a `detail_reason`
 * worded from the params beside it into {detail}.
 */
export function sentence(key, view, params = {}) {
  const text = filled(key, view, params || {});
  // "you discarded…" starts with a capital; an option's or a message's name ("decks must
  // be…", "hello is…") is written as the program spells it
  const lead = /^\{([a-z_]+?)(?:_pos)?\}/u.exec(t(key, { count: (params || {}).count ?? 0 }));
  return lead && SEAT_PARAMS.has(lead[1]) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Whether every key a refusal's or event's params call for is in the catalogue: its own,
 * and a `detail_reason`'s. */
export const worded = (key, params = {}) =>
  has(key, "en") && (typeof (params || {})[DETAIL_REASON] !== "string" || has(`refusals.${params[DETAIL_REASON]}`, "en"));

function filled(key, view, params) {
  const { [DETAIL_REASON]: inner, ...own } = params;
  if (typeof inner === "string") return filled(key, view, { detail: filled(`refusals.${inner}`, view, own) });
  const words = {};
  for (const [name, value] of Object.entries(params)) {
    if (SEAT_PARAMS.has(name) && Number.isInteger(value)) {
      words[name] = seatWord(view, value);
      words[name + POSSESSIVE] = mark(name);
    } else if (CARD_PARAMS.has(name) && typeof value === "string") words[name] = short(value);
    else if (MELD_PARAMS.has(name) && Array.isArray(value)) words[name] = cardsShown(value);
    else if (LIST_PARAMS.has(name) && Array.isArray(value)) words[name] = listOf(value.map(short));
    else if (NAMES_PARAMS.has(name) && Array.isArray(value)) {
      words[name] = listOf(value);
      words.count ??= value.length;
    } else if (CHOICE_PARAMS.has(name) && Array.isArray(value)) words[name] = orOf(value);
    else words[name] = value;
  }
  if (Object.hasOwn(params, "count")) words.count = params.count;
  let text = t(key, words);
  for (const name of SEAT_PARAMS) {
    if (!Object.hasOwn(params, name)) continue;
    const token = mark(name);
    let at = text.indexOf(token);
    while (at >= 0) {
      const alone = ALONE.test(text.slice(at + token.length));
      text = text.slice(0, at) + possessive(view, params[name], alone) + text.slice(at + token.length);
      at = text.indexOf(token);
    }
  }
  return text;
}

/** An event's or notice's sentence ({kind, params, text}): the server's English when the
 * kind is unknown here, or when there is no view yet to name the seats by. */
export function eventText(view, said) {
  if (said.kind === "deal_over" && view && view.deal_result) return resultText(view);
  const key = `events.${said.kind}`;
  if (!view || !said.kind || !has(key, "en")) return said.text;
  return sentence(key, view, said.params);
}

/** The lines of a `log` frame, for the page's log ({text, kind} each, as the live ones). */
export function logLines(view, log) {
  return log.lines.map((line) => {
    const mine = !!view && line.seat === view.seat && ACTIONS.has(line.kind);
    const kind = line.kind.startsWith("deal") && line.kind !== "deal_over" ? "deal" : ACTIONS.has(line.kind) ? (mine ? "mine" : "") : "result";
    return { text: eventText(view, line), kind };
  });
}
