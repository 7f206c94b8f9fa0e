// Cards: reading the server's codes ("7h", "Td", "X", "X=6h"), naming them, drawing them.
import { t } from "./i18n.js";
import { h } from "./util.js";

const RANKS = "A23456789TJQK";
const RANK_SHOWN = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** {code, joker, rank (1-13), suit ("c"...), stands} for a card or "X=6h" meld code. */
export function parse(code) {
  const text = String(code);
  if (text[0] === "X" || text[0] === "x") {
    const stands = text.includes("=") ? parse(text.split("=")[1]) : null;
    return { code: text, joker: true, rank: 0, suit: null, stands };
  }
  const rank = RANKS.indexOf(text[0].toUpperCase()) + 1;
  return { code: text, joker: false, rank, suit: text[1].toLowerCase(), stands: null };
}

/** The card as plain code, a joker without what it stands for: "X=6h" -> "X". */
export const bare = (code) => (String(code).startsWith("X") ? "X" : String(code));

/** The card's name for screen readers, in the page's language: "seven of hearts" / "ハートの7",
 * "joker", "joker as six of hearts". */
export function cardName(code) {
  const card = parse(code);
  if (card.joker) return card.stands ? t("common.joker_as_name", { card: cardName(card.stands.code) }) : t("common.joker_name");
  return t("common.card_name", { rank: t(`common.rank.${card.rank}`), suit: t(`common.suit.${card.suit}`) });
}

/** "7♥", "10♦", "Joker", "Joker (6♥)" (the joker's word in the page's language). */
export function short(code) {
  const card = parse(code);
  if (card.joker) return card.stands ? t("common.joker_as", { card: short(card.stands.code) }) : t("common.joker");
  return RANK_SHOWN[card.rank - 1] + SUITS[card.suit];
}

const SUIT_ORDER = { s: 0, h: 1, c: 2, d: 3 }; // alternating colours when sorted by suit

/** Sort keys: by rank (suit breaks ties) or by suit (rank within); jokers last. */
export function sortKey(code, mode) {
  const card = parse(code);
  if (card.joker) return 1000;
  return mode === "suit" ? SUIT_ORDER[card.suit] * 20 + card.rank : card.rank * 4 + SUIT_ORDER[card.suit];
}

/**
 * A drawn card face. `tag` is "span" (display) or "button" (your hand).
 * Colour is never the only cue: the suit symbol is always printed twice.
 * A span is an image named by its `aria-label`; a button is named by its own (visually
 * hidden) words, so its accessible name is its content, as WCAG's "label in name" asks.
 */
export function cardFace(code, { tag = "span", small = false, attrs = {} } = {}) {
  const card = parse(code);
  const classes = ["card"];
  if (small) classes.push("small");
  if (attrs.class) {
    classes.push(attrs.class);
    attrs = { ...attrs };
    delete attrs.class;
  }
  const named = tag === "span" ? { role: "img", "aria-label": cardName(code) } : {};
  const spoken = tag === "span" ? null : h("span", { class: "sr-only" }, cardName(code));
  if (card.joker) {
    classes.push("joker");
    const stands = card.stands;
    if (stands) classes.push("has-stands");
    return h(
      tag,
      { class: classes.join(" "), ...named, title: short(code), ...attrs },
      spoken,
      h("span", { class: "corner", "aria-hidden": "true" }, h("span", { class: "rank" }, "★"), h("span", { class: "suit" }, "JKR")),
      h("span", { class: "pip", "aria-hidden": "true" }, "★"),
      stands ? h("span", { class: `stands suit-${stands.suit}`, "aria-hidden": "true" }, short(stands.code)) : null,
    );
  }
  classes.push(`suit-${card.suit}`);
  const shownRank = RANK_SHOWN[card.rank - 1];
  return h(
    tag,
    { class: classes.join(" "), ...named, title: short(code), ...attrs },
    spoken,
    h("span", { class: "corner", "aria-hidden": "true" }, h("span", { class: "rank" }, shownRank), h("span", { class: "suit" }, SUITS[card.suit])),
    h("span", { class: "pip", "aria-hidden": "true" }, SUITS[card.suit]),
  );
}

/** The back of a card (the stock, hidden hands). */
export function cardBack({ small = false } = {}) {
  return h("span", { class: `card back${small ? " small" : ""}`, "aria-hidden": "true" });
}

/** A row of small faces. */
export function cardRow(codes, small = true) {
  return h("span", { class: "card-row" }, codes.map((code) => cardFace(code, { small })));
}
