// Cards that move: after each move at the table, the cards it moved fly there (a drawn card
// from the stock or the pile to its hand, a discard to the pile, a meld or a lay-off to the
// table). FLIP with the Web Animations API: the places are measured before the view is drawn
// and after it, and a copy of each card flies over the page from the first to the second.
//
// The flights are a picture only: the page is drawn in its final state first, and nothing
// waits for them. They are short, end at once on a click or a key or when the next view
// comes, and are off under `prefers-reduced-motion: reduce` or when the player turns them off.
import { bare, cardBack } from "../cards.js";
import { t } from "../i18n.js";
import { h, store } from "../util.js";

const MOTION_KEY = "rummykit.motion";

/** The id of every animation this module makes (tests look for it). */
export const FLIGHT_ID = "rummy-flight";

/** How long a card flies, in ms; the cards of one meld leave one after the other by STAGGER_MS. */
const FLIGHT_MS = 260;
const STAGGER_MS = 45;

/** Whether the player wants the cards to move (on unless turned off). */
export const motionWanted = () => store.get(MOTION_KEY, true) !== false;

/** Whether the system asks for reduced motion. */
const reducedMotion = () => !!globalThis.matchMedia && globalThis.matchMedia("(prefers-reduced-motion: reduce)").matches;

function canFly() {
  return motionWanted() && !reducedMotion() && typeof Element.prototype.animate === "function" && !document.hidden;
}

/** The element's box on the screen, or null when it is not drawn. */
function box(el) {
  if (!el || !el.isConnected) return null;
  const r = el.getBoundingClientRect();
  return r.width && r.height ? { left: r.left, top: r.top, width: r.width, height: r.height } : null;
}

/** The flights of one table page: `event` for each event frame, `measure` before a view is
 * drawn, `play` after; `stop` when the page goes. */
export function createMotion(table) {
  const { parts } = table;
  const flights = new Set(); // {anims, ghost}
  let events = [];
  let before = null;

  /** End every flight at once: the cards are where the page already shows them. */
  function finishAll() {
    for (const flight of [...flights]) {
      for (const anim of flight.anims) anim.finish();
      flight.ghost.remove();
      flights.delete(flight);
    }
  }

  function event(ev) {
    if (table.state.view) events.push(ev);
  }

  function measure() {
    finishAll();
    before = null;
    if (!table.state.view || !canFly()) return;
    const hand = [...parts.hand.querySelectorAll("[data-key]")].map((el) => ({ key: el.dataset.key, code: el.dataset.card, at: box(el) }));
    const seats = new Map([...parts.opponents.querySelectorAll("[data-seat]")].map((el) => [Number(el.dataset.seat), box(el.querySelector(".backs")) || box(el)]));
    const top = parts.discard.querySelector(".card:not(.empty)");
    before = {
      deal: table.state.view.deal,
      hand,
      seats,
      stock: box(parts.stock.querySelector(".card")),
      discard: box(parts.discard.querySelector(".card")),
      discardTop: top ? top.cloneNode(true) : null,
    };
  }

  /** Fly a copy of `look` from the box `from` to where `target` is drawn (hidden meanwhile).
   * A box far from a card's shape (a seat) gives the card's size at its centre. */
  function fly(look, source, target, order = 0) {
    const to = box(target);
    if (!source || !to || !look) return;
    const from = Math.abs(source.width / source.height - to.width / to.height) < 0.3 ? source
      : { left: source.left + (source.width - to.width) / 2, top: source.top + (source.height - to.height) / 2, width: to.width, height: to.height };
    const ghost = document.createElement("span");
    ghost.className = `${look.className} flying`;
    ghost.innerHTML = look.innerHTML;
    ghost.setAttribute("aria-hidden", "true");
    Object.assign(ghost.style, {
      left: `${to.left}px`,
      top: `${to.top}px`,
      width: `${to.width}px`,
      height: `${to.height}px`,
    });
    document.body.append(ghost);
    const timing = { duration: FLIGHT_MS, delay: order * STAGGER_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)", fill: "backwards", id: FLIGHT_ID };
    const start = `translate(${from.left - to.left}px, ${from.top - to.top}px) scale(${from.width / to.width}, ${from.height / to.height})`;
    const flight = { ghost, anims: [] };
    flight.anims.push(ghost.animate([{ transform: start }, { transform: "none" }], timing));
    if (target.isConnected) flight.anims.push(target.animate([{ opacity: 0 }, { opacity: 0 }], timing));
    flights.add(flight);
    flight.anims[0].finished.then(() => {
      ghost.remove();
      flights.delete(flight);
    }, () => ghost.remove());
  }

  /** The hand's box of a card that left it (`code`, a joker as "X"), each box used once. */
  function leaving(gone, code) {
    const at = gone.findIndex((card) => bare(card.code) === bare(code));
    return at < 0 ? null : gone.splice(at, 1)[0].at;
  }

  function flightsOf(ev, old, view) {
    const words = ev.action.split(" ");
    const verb = words[0];
    const mine = ev.seat === view.seat;
    const now = new Set([...parts.hand.querySelectorAll("[data-key]")].map((el) => el.dataset.key));
    const gone = mine ? old.hand.filter((card) => !now.has(card.key) && card.at) : [];
    const from = (code) => (mine ? leaving(gone, code) : old.seats.get(ev.seat) || null);
    if (verb === "draw") {
      const source = words[1] === "stock" ? old.stock : old.discard;
      if (mine) {
        const known = new Set(old.hand.map((card) => card.key));
        [...parts.hand.querySelectorAll("[data-key]")].filter((el) => !known.has(el.dataset.key)).forEach((el, i) => fly(el, source, el, i));
        return;
      }
      const seat = parts.opponents.querySelector(`[data-seat="${ev.seat}"]`);
      const target = seat && (seat.querySelector(".backs .card:last-child") || seat.querySelector(".backs") || seat);
      const look = words[1] === "stock" || !old.discardTop ? cardBack() : old.discardTop;
      if (target) fly(look, source, target);
    } else if (verb === "discard") {
      const top = parts.discard.querySelector(".card:not(.empty)");
      if (top) fly(top, from(words[1]), top);
    } else if (verb === "meld" || verb === "layoff") {
      const n = verb === "meld" ? view.melds.length - 1 : Number(words.at(-1));
      const meld = parts.melds.querySelector(`[data-meld="${n}"]`);
      if (!meld || !view.melds[n]) return;
      const faces = [...meld.querySelectorAll(".card")];
      const used = new Set();
      const played = verb === "meld" ? words.slice(1) : [words[1]];
      played.forEach((code, i) => {
        const at = view.melds[n].cards.findIndex((c, j) => (c === code || bare(c) === bare(code)) && faces[j] && !used.has(j));
        if (at < 0) return;
        used.add(at);
        fly(faces[at], from(code), faces[at], i);
      });
    }
  }

  function play() {
    const old = before;
    const happened = events;
    before = null;
    events = [];
    const view = table.state.view;
    if (!old || !view || old.deal !== view.deal || !canFly()) return;
    for (const ev of happened) flightsOf(ev, old, view);
  }

  // A click or a key while cards fly ends the flights: the player is not kept waiting.
  const skip = () => flights.size && finishAll();
  document.addEventListener("pointerdown", skip, true);
  document.addEventListener("keydown", skip, true);

  function stop() {
    document.removeEventListener("pointerdown", skip, true);
    document.removeEventListener("keydown", skip, true);
    finishAll();
  }

  return { event, measure, play, stop, finishAll };
}

/** The setting "Moving cards" (a checkbox, remembered), with a note under reduced motion. */
export function motionSetting() {
  const input = h("input", { type: "checkbox", id: "motion", testid: "motion-setting", checked: motionWanted() });
  input.addEventListener("change", () => store.set(MOTION_KEY, input.checked));
  return h("div", { class: "field check" },
    input,
    h("label", { for: "motion" }, t("hand.motion")),
    reducedMotion() ? h("p", { class: "help", testid: "motion-reduced" }, t("hand.motion_reduced")) : null);
}
