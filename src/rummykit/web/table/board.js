// Drawing the middle of the table from the view: the other seats, the stock and discard
// piles, and the melds laid down.
import { cardBack, cardFace, cardName, cardRow, short } from "../cards.js";
import { t } from "../i18n.js";
import { h, fill, number } from "../util.js";
import { changed, noteText } from "./state.js";
import { nameOf, seatLine, seatMarkText, seatMarks, watching, who } from "./texts.js";
import { clockText, secondsLeft } from "./timer.js";

/** How long a seat's note flashes after its move, in ms (a glance, not a distraction). */
const NOTE_FLASH_MS = 1500;

/** How long a quick reaction shows at its sender's seat, in ms. */
export const BUBBLE_MS = 3000;

function seatBox(table, seat, box) {
  const { state, parts } = table;
  const view = state.view;
  const player = view.players[seat];
  const mine = seat === view.seat;
  const turn = view.turn === seat && view.phase !== "over";
  const marks = seatMarks(player);
  box.className = `seat${mine ? " me" : ""}${turn ? " turn" : ""}${marks.length ? " away" : ""}`;
  box.dataset.seat = String(seat);
  box.dataset.position = player.position;
  box.dataset.name = player.name;
  const note = state.notes[seat];
  const bubble = state.bubbles[seat];
  const cards = view.hand_sizes[seat];
  // taken from the pile, not played yet (at a deal's end its whole hand shows instead)
  const known = mine || view.deal_result ? [] : view.known[seat] || [];
  const label = mine ? (player.name && player.name !== "You" ? t("table.you_named", { name: player.name }) : t("table.you")) : nameOf(view, seat);
  const line = seatLine(view, seat);
  const result = view.deal_result;
  const score = view.scores ? view.scores[seat] : null;
  const laid = meldPoints(view) ? view.table_points[seat] : null;
  const said = note && !mine ? noteText(note) : "";
  // the turn's clock, at the seat whose turn it is, for everyone (timer.js keeps it counting)
  const left = turn ? secondsLeft(state) : null;
  fill(box,
    h("div", { class: "seat-head" },
      h("strong", { class: "seat-name", testid: "seat-name" }, label),
      known.length ? knownChip(known) : null,
      view.dealer === seat ? h("span", { class: "dealer", testid: "dealer-mark", title: t("table.dealer"), "aria-label": t("table.dealer") }, t("table.dealer_mark")) : null,
      turn ? h("span", { class: "turn-dot", testid: "turn-mark" }, mine ? t("table.your_turn") : t("table.to_play")) : null,
      left === null ? null : h("span", { class: "seat-clock", testid: "seat-clock", title: t("words.seat_clock_title") }, clockText(left)),
      marks.map((mark) => h("span", { class: `seat-mark mark-${mark.split(" ")[0]}`, testid: "seat-mark", "data-mark": mark }, seatMarkText(mark)))),
    h("div", { class: "seat-sub" },
      line ? h("span", { class: "seat-line" }, line) : null,
      h("span", { class: "count", testid: "card-count" }, t("common.cards", { count: cards })),
      score === null || score === undefined ? null : h("span", { class: "seat-score", testid: "seat-score" }, t("table.points", { count: score })),
      laid === null || laid === undefined ? null : h("span", { class: "seat-laid", testid: "seat-laid", title: t("table.laid_title") }, t("table.laid_points", { points: number(laid) }))),
    mine
      ? parts.handValue
      : result
        ? h("div", { class: "revealed" }, result.hands[seat].length ? cardRow(result.hands[seat]) : null, " ", t("table.points", { count: result.values[seat] }))
        : heldCards(cards, known),
    // the note's line is kept while it says nothing, so that the seat keeps its height
    mine
      ? null
      : h("div", { class: `note${said && Date.now() - note.stamp < NOTE_FLASH_MS ? " flash" : ""}`, testid: said ? "seat-note" : null, title: said || null }, said ? h("span", { class: "note-text" }, said) : null),
    bubble && Date.now() - bubble.stamp < BUBBLE_MS
      ? h("div", { class: "bubble", testid: "reaction-bubble", role: "status" }, bubble.text)
      : null);
  return box;
}

/** Another seat's hand in one row of one height: the cards known to all (taken from the
 * pile) face up, then the backs of the rest. A take from the pile moves nothing around it. */
function heldCards(count, known) {
  const backs = Math.max(0, Math.min(count, 12) - known.length);
  return h("div", { class: "held" },
    known.length ? h("div", { class: "known", testid: "seat-known" }, h("span", { class: "known-label" }, t("table.known")), cardRow(known)) : null,
    h("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: backs }, () => cardBack({ small: true }))));
}

/** The known cards in a few words at the end of the name's line, for a phone, whose seats
 * show no cards (style.css shows either this or `heldCards`'s). */
function knownChip(known) {
  const cards = known.map(short).join(" ");
  return h("span", { class: "known-chip", title: `${t("table.known")} ${cards}` }, h("span", { class: "sr-only" }, t("table.known"), " "), cards);
}

/** Every seat: the others in play order from your left, then yours (a spectator sees every
 * seat in order, and has none of their own). */
export function renderSeats(table) {
  const { state, parts } = table;
  const view = state.view;
  const n = view.players.length;
  const boxes = [];
  const spectator = watching(view);
  for (let step = spectator ? 0 : 1; step < n; step++) {
    const seat = ((spectator ? 0 : view.seat) + step) % n;
    boxes.push(seatBox(table, seat, h("div", { testid: "seat" })));
  }
  fill(parts.opponents, boxes);
  parts.opponents.dataset.count = String(boxes.length);
  if (!spectator) seatBox(table, view.seat, parts.mySeat);
}

/** The stock and the discard pile, live when you may draw from them; the whole pile on demand. */
export function renderPiles(table) {
  const { state, parts, intents } = table;
  const view = state.view;
  const myDraw = view.turn === view.seat && view.phase === "draw";
  const canStock = myDraw && view.legal.includes("draw stock");
  const canPile = myDraw && view.legal.some((a) => a.startsWith("draw discard"));
  const { stock, discard } = parts;
  stock.classList.toggle("live", canStock);
  stock.classList.toggle("flash", !!state.flash && state.flash.kind === "stock");
  stock.setAttribute("aria-label", t(canStock ? "table.stock_live_aria" : "table.stock_aria", { count: view.stock }));
  fill(stock, view.stock ? cardBack() : h("span", { class: "card empty" }), h("span", { class: "pile-label" }, t("table.stock"), " ", h("b", { testid: "stock-count" }, String(view.stock))));
  const top = view.discard.at(-1);
  discard.classList.toggle("live", canPile);
  discard.classList.toggle("flash", !!state.flash && (state.flash.kind === "discard" || state.flash.kind === "took"));
  // named by its content (the top card, "Discard" and the count: WCAG's label in name);
  // the longer sentence is its description
  discard.title = top ? t(canPile ? "table.discard_live_aria" : "table.discard_aria", { card: cardName(top) }) : t("table.discard_empty_aria");
  fill(discard, top ? cardFace(top) : h("span", { class: "card empty" }), h("span", { class: "pile-label" }, t("table.discard_pile"), " ", h("b", {}, String(view.discard.length))));
  parts.pileToggle.textContent = state.pileOpen ? t("table.hide_pile") : t("table.see_pile", { count: view.discard.length });
  parts.pileToggle.setAttribute("aria-expanded", String(state.pileOpen));
  parts.pilePanel.hidden = !state.pileOpen;
  if (!state.pileOpen) return;
  // The depths the server lets you take from ("draw discard 3"): those cards are buttons.
  const takeable = new Set(view.legal.filter((a) => a.startsWith("draw discard")).map((a) => Number(a.split(" ")[2] || 1)));
  const n = view.discard.length;
  fill(parts.pilePanel,
    h("p", { class: "help" }, n ? t("table.pile_help") : t("table.pile_empty")),
    h("div", { class: "card-row" }, view.discard.map((code, i) => {
      const depth = n - i;
      if (takeable.has(depth) && depth > 1)
        return cardFace(code, { tag: "button", small: true, attrs: { type: "button", class: "takeable", title: t("table.take_deep", { card: short(code) }), onclick: () => intents.drawDiscard(depth) } });
      return cardFace(code, { small: true });
    })));
}

/** Whether the table plays meld points (500 Rum): every card laid scores for whoever lays it. */
export const meldPoints = (view) => !!view.rules && view.rules.scoring === "melds" && Array.isArray(view.table_points);

/** "set" or "run" in the page's language. */
const kindWord = (kind) => (kind === "set" ? t("table.kind_set") : kind === "run" ? t("table.kind_run") : kind);

/** The melds on the table; clicking one lays the selected card off on it. */
export function renderMelds(table) {
  const { state, parts, intents } = table;
  const view = state.view;
  if (!changed(state, "melds", view.melds, state.flash, view.players, view.table_points)) return;
  const scoring = meldPoints(view);
  if (!view.melds.length) {
    fill(parts.melds, h("p", { class: "help empty-melds" }, t("table.melds_empty")));
    return;
  }
  const last = view.melds.length - 1;
  const flash = state.flash && state.flash.kind === "meld" ? state.flash.meld : null;
  fill(parts.melds, view.melds.map((meld, i) => {
    const owner = who(view, meld.owner);
    const flashing = flash === i || (flash === -1 && i === last);
    return h("button", {
      type: "button",
      class: `meld${flashing ? " flash" : ""}`,
      testid: `meld-${i}`,
      "data-meld": String(i),
      "aria-label": t("table.meld_aria", { n: i + 1, kind: kindWord(meld.kind), owner, cards: meld.cards.map(cardName).join(t("table.card_joiner")) })
        + (scoring ? ` ${t("table.meld_points_aria", { count: meld.points })}` : ""),
      onclick: () => intents.layoffOn(i),
    },
    h("span", { class: "meld-owner" }, t("table.meld_owner", { owner, kind: kindWord(meld.kind) }),
      scoring ? h("span", { class: "meld-points", testid: "meld-points" }, t("table.points", { count: meld.points })) : null),
    h("span", { class: "card-row" }, meld.cards.map((code) => cardFace(code, { small: true }))));
  }));
}
