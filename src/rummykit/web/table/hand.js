// Drawing your hand from the view and the page's selection: a button per card, in the
// chosen order, with the cards just drawn and the hinted ones marked; and the action
// buttons, lit when the selection fits them.
import { cardFace } from "../cards.js";
import { t } from "../i18n.js";
import { h, fill } from "../util.js";
import { changed, displayHand } from "./state.js";

export function renderHand(table) {
  const { state, parts, intents } = table;
  const view = state.view;
  const hand = parts.hand;
  // The cost of the hand is the server's figure: the page never counts points itself.
  // (under knock rummy: the hand's loose cards in its best split, what a knock would count)
  const knock = view.rules.melding === "knock";
  parts.handValue.textContent = t(knock ? "table.loose_in_hand" : "table.in_hand", { count: view.hand_value });
  parts.sortSuit.setAttribute("aria-pressed", String(state.sort === "suit"));
  parts.sortRank.setAttribute("aria-pressed", String(state.sort === "rank"));
  if (!changed(state, "hand", view.hand, [...state.selected], state.sort, [...state.fresh], state.hint && state.hint.action)) return;
  // Rebuilding the buttons loses the focus: give it back to the same card, or its place.
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  const focusIndex = focused ? [...hand.children].findIndex((b) => b.dataset.key === focused) : -1;
  const cards = displayHand(state);
  // The hand is one row: the cards overlap (a fan) when they would not fit side by side.
  // The stylesheet spreads them over --columns places (see .hand in style.css).
  hand.style.setProperty("--columns", String(Math.max(cards.length - 1, 1)));
  fill(hand, cards.map((c) => {
    const button = cardFace(c.code, {
      tag: "button",
      attrs: {
        type: "button",
        "data-testid": "hand-card",
        "data-card": c.code,
        "data-key": c.key,
        "aria-pressed": state.selected.has(c.key) ? "true" : "false",
        onclick: () => intents.toggleCard(c.key),
      },
    });
    if (state.fresh.has(c.key)) {
      button.classList.add("fresh");
      button.dataset.freshLabel = t("table.fresh");
    }
    if (c.hinted) button.classList.add("hinted");
    return button;
  }));
  if (!cards.length) hand.append(h("p", { class: "help" }, t("table.no_cards")));
  if (focused) {
    const again = [...hand.children].find((b) => b.dataset.key === focused) || hand.children[Math.min(focusIndex, hand.children.length - 1)];
    if (again && again.focus) again.focus({ preventScroll: true });
  }
}

/** The action buttons: lit when it is your play and the selection could make that move. */
export function renderButtons(table) {
  const { state, parts } = table;
  const view = state.view;
  const play = view.turn === view.seat && view.phase === "play";
  const n = state.selected.size;
  // Knock rummy: no melds or lay-offs during play; the Knock button takes their place.
  const knock = view.rules.melding === "knock";
  parts.meldButton.hidden = knock;
  parts.layoffButton.hidden = knock;
  parts.knockButton.hidden = !knock;
  parts.meldButton.classList.toggle("primary", play && n >= 3);
  parts.layoffButton.classList.toggle("primary", play && n === 1 && view.melds.length > 0);
  parts.discardButton.classList.toggle("primary", play && n === 1);
  parts.knockButton.classList.toggle("primary", play && n === 1 && view.legal.some((a) => a.startsWith("knock ")));
  const over = view.phase === "over";
  parts.newDeal.disabled = over || view.game_over;
  parts.showSummary.hidden = !(over && state.summaryClosed === view.deal);
}
