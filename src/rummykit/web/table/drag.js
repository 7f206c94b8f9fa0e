// Moving the cards of your hand yourself: drag a card to a new place (pointer events, so a
// mouse, a finger or a pen), or press Shift+← / Shift+→ on it. The new order is the player's
// own (order.js): kept across draws and discards, and remembered for the table.
import { cardName } from "../cards.js";
import { t } from "../i18n.js";
import { h } from "../util.js";
import { moveInHand } from "./order.js";
import { displayHand } from "./state.js";

/** How far (px) a card must be pulled before it is dragged rather than clicked. */
const DRAG_PX = 8;

const CARD = "[data-testid=hand-card]";

/** Make the hand of `table` draggable and Shift+arrows move its cards; the help line and
 * the line that says where a moved card went (for screen readers), to place in the page. */
export function installDrag(table) {
  const { parts, state } = table;
  const hand = parts.hand;
  const help = h("p", { class: "help hand-help", id: "hand-help", testid: "hand-help" }, t("hand.move_help"));
  const said = h("p", { class: "sr-only", testid: "hand-moved", "aria-live": "polite" });
  hand.setAttribute("aria-describedby", "hand-help");

  let press = null; // {id, key, el, x, y, dragging, drop}
  let swallowClick = false;

  const cardOf = (node) => {
    const el = node instanceof Element ? node.closest(CARD) : null;
    return el && hand.contains(el) ? el : null;
  };

  /** Move card `key` to place `to`, draw the hand again and say where it went. */
  function move(key, to) {
    if (!state.view) return;
    const cards = displayHand(state);
    if (!moveInHand(state, cards, key, to)) return;
    table.render();
    const shown = displayHand(state);
    const at = shown.findIndex((card) => card.key === key);
    if (at >= 0) said.textContent = t("hand.moved", { card: cardName(shown[at].code), place: at + 1, count: shown.length });
  }

  /** Where a card dropped at (x, y) goes: before or after the nearest other card. */
  function dropAt(x, y) {
    const others = [...hand.querySelectorAll(CARD)].filter((el) => el.dataset.key !== press.key);
    let best = null;
    others.forEach((el, i) => {
      const r = el.getBoundingClientRect();
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      // rows count more than columns: a card dropped on a row stays on it
      const distance = Math.hypot(x - cx, (y - cy) * 2);
      if (!best || distance < best.distance) best = { el, distance, place: x < cx ? i : i + 1, side: x < cx ? "before" : "after" };
    });
    return best;
  }

  function mark(drop) {
    for (const el of hand.querySelectorAll(".drop-before, .drop-after")) el.classList.remove("drop-before", "drop-after");
    if (drop) drop.el.classList.add(`drop-${drop.side}`);
  }

  function end() {
    if (!press) return;
    if (press.dragging) {
      press.el.classList.remove("dragging");
      press.el.style.transform = "";
      hand.classList.remove("reordering");
      mark(null);
      if (hand.hasPointerCapture(press.id)) hand.releasePointerCapture(press.id);
    }
    press = null;
  }

  hand.addEventListener("pointerdown", (event) => {
    const el = cardOf(event.target);
    if (!el || !event.isPrimary || event.button !== 0 || !state.view) return;
    press = { id: event.pointerId, key: el.dataset.key, el, x: event.clientX, y: event.clientY, dragging: false, drop: null };
  });

  hand.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < DRAG_PX) return;
      press.dragging = true;
      hand.setPointerCapture(press.id);
      hand.classList.add("reordering");
      press.el.classList.add("dragging");
    }
    event.preventDefault();
    press.el.style.transform = `translate(${dx}px, ${dy}px)`;
    press.drop = dropAt(event.clientX, event.clientY);
    mark(press.drop);
  });

  hand.addEventListener("pointerup", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const { dragging, key } = press;
    const drop = dragging ? dropAt(event.clientX, event.clientY) : null;
    end();
    if (!dragging) return;
    // the click that ends a drag is not a click on the card (it would select it)
    swallowClick = true;
    setTimeout(() => (swallowClick = false));
    if (drop) move(key, drop.place);
  });

  hand.addEventListener("pointercancel", end);
  // (a touch is captured by its card first: only the hand's own capture ending ends a drag)
  hand.addEventListener("lostpointercapture", (event) => event.target === hand && press && event.pointerId === press.id && press.dragging && end());

  hand.addEventListener("click", (event) => {
    if (!swallowClick) return;
    swallowClick = false;
    event.stopPropagation();
    event.preventDefault();
  }, true);

  // Shift+←/→ moves the card the focus is on (plain arrows walk the hand: keys.js).
  hand.addEventListener("keydown", (event) => {
    if (!event.shiftKey || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const el = cardOf(event.target);
    if (!el || !state.view) return;
    event.preventDefault();
    const at = displayHand(state).findIndex((card) => card.key === el.dataset.key);
    move(el.dataset.key, at + (event.key === "ArrowRight" ? 1 : -1));
  });

  return h("div", { class: "hand-tools" }, help, said);
}
