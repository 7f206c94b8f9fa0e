// The table's state: the server's latest view, this page's own choices (selection, sort,
// open panels, flashes), and how each frame from the server changes them. No DOM here.
import { bare, sortKey } from "../cards.js";
import { Topics } from "../practice.js";
import { store } from "../util.js";
import { eventText } from "./event_words.js";
import { resultText, who } from "./texts.js";
import { takeServerClock } from "./timer.js";

const SORT_KEY = "rummykit.sort";

/** A fresh state for one table page. */
export function newTableState(tableId) {
  return {
    tableId,
    view: null,
    version: -1,
    selected: new Set(), // keys "7h#0" (the first 7♥ in the hand)
    sort: store.get(SORT_KEY, "rank"),
    pileOpen: false,
    notes: {}, // seat -> {text, stamp}: what that seat did last, under its name
    flash: null, // {kind: "discard"|"took"|"stock"|"meld", meld}
    fresh: new Set(), // keys of the cards just drawn
    summaryClosed: null, // deal number whose summary was put away
    hint: null, // {action, reason, version}
    topics: null, // practice tables: which rules were explained already
    loggedDeal: null, // the deal whose "Deal N" line the log holds
    redealing: false, // a redeal was asked for and not yet seen
    eventSeen: false, // an event came since the last view
    shown: {}, // part -> what it last showed (see `changed`)
    clockOffset: 0, // the server's clock minus this device's, in seconds (timer.js)
    bubbles: {}, // seat -> {text, stamp}: the quick reaction that seat just sent
  };
}

/** Remember the sort order of the hand, for this page and the next. */
export function setSort(state, mode) {
  state.sort = mode;
  store.set(SORT_KEY, mode);
}

/** Each card of the hand with a key that tells two copies of one card apart. */
function handKeys(cards) {
  const seen = {};
  return cards.map((code) => {
    seen[code] = (seen[code] || 0) + 1;
    return { code, key: `${code}#${seen[code] - 1}` };
  });
}

/** The hand in the chosen order, each card marked when the hint names it. */
export function displayHand(state) {
  const hinted = hintCards(state.hint);
  return handKeys(state.view.hand)
    .map((c, i) => ({ ...c, i, hinted: hinted.has(c.code) }))
    .sort((a, b) => sortKey(a.code, state.sort) - sortKey(b.code, state.sort) || a.i - b.i);
}

/** The codes of the selected cards, in the order the hand shows them. */
export function selectedCodes(state) {
  return displayHand(state).filter((c) => state.selected.has(c.key)).map((c) => c.code);
}

/** The cards a hint's action plays ("meld 7h 7d 7c" names three). */
function hintCards(hint) {
  if (!hint || !hint.action) return new Set();
  const words = hint.action.split(" ");
  if (words[0] === "meld") return new Set(words.slice(1).map(bare));
  if (words[0] === "layoff" || words[0] === "discard") return new Set([bare(words[1])]);
  return new Set();
}

/**
 * Parts are rebuilt only when what they show has changed, so a card under the pointer is
 * not swapped for a copy while a computer plays. True when `inputs` differ from last time.
 */
export function changed(state, part, ...inputs) {
  const key = JSON.stringify(inputs);
  if (state.shown[part] === key) return false;
  state.shown[part] = key;
  return true;
}

/**
 * An event frame: someone acted. Notes what that seat did (in the server's words) and which
 * part of the table should flash. The log line to add: {text, kind}.
 */
export function takeEvent(state, event) {
  state.eventSeen = true;
  const mine = !!state.view && event.seat === state.view.seat;
  // events missed before this page's first view (a reload's catch-up): logged, not flashed
  const text = eventText(state.view, event);
  if (!state.view) return { text, kind: "" };
  const verb = event.action.split(" ")[0];
  const fromStock = event.action.startsWith("draw stock");
  state.notes[event.seat] = { text, stamp: Date.now() };
  if (verb === "discard") state.flash = { kind: "discard" };
  else if (verb === "meld") state.flash = { kind: "meld", meld: -1 };
  else if (verb === "layoff") state.flash = { kind: "meld", meld: Number(event.action.split(" ").at(-1)) };
  else if (verb === "draw" && !fromStock) state.flash = { kind: "took" };
  else state.flash = { kind: "stock" };
  if (mine && verb !== "draw") state.selected.clear();
  return { text, kind: mine ? "mine" : "" };
}

/** A quick reaction from a seat: shown at that seat for a moment (board.js's BUBBLE_MS). */
export function takeReaction(state, reaction) {
  state.bubbles[reaction.seat] = { text: reaction.text, stamp: Date.now() };
}

/**
 * A view frame (or a fetched view) at `version`. Older versions are ignored. Returns the log
 * lines it calls for ({text, kind}), or null when the view was stale.
 */
export function takeView(state, view, version) {
  if (version < state.version) return null;
  const lines = [];
  const old = state.view;
  // A redeal keeps the deal's number: it is the one new version that no event announced.
  const redealt = state.redealing && old && version > state.version && !state.eventSeen && view.phase !== "over";
  state.eventSeen = false;
  if (redealt) {
    state.redealing = false;
    state.loggedDeal = null;
    lines.push({ text: "That deal was thrown away; here is a new one.", kind: "result" });
  }
  state.version = version;
  state.view = view;
  takeServerClock(state, view);
  if (!state.topics && view.practice) state.topics = new Topics(state.tableId);
  const sameDeal = old && old.deal === view.deal && !redealt;
  noteFreshCards(state, old, sameDeal);
  if (!sameDeal) {
    if (old) {
      state.notes = {};
      state.selected.clear();
      state.flash = null;
    }
    if (state.loggedDeal !== view.deal) {
      state.loggedDeal = view.deal;
      const dealer = who(view, view.dealer);
      lines.push({ text: `Deal ${view.deal + 1}: ${dealer === "You" ? "you deal" : `${dealer} deals`}.`, kind: "deal" });
    }
  }
  const newlyOver = view.phase === "over" && (!old || old.phase !== "over" || old.deal !== view.deal);
  if (newlyOver && old) lines.push({ text: resultText(view), kind: "result" });
  if (state.hint && version > state.hint.version) state.hint = null;
  return lines;
}

/** Mark the cards just drawn, and forget selections of cards no longer held. */
function noteFreshCards(state, old, sameDeal) {
  const view = state.view;
  const keys = handKeys(view.hand).map((c) => c.key);
  if (sameDeal) {
    const before = new Set(handKeys(old.hand).map((c) => c.key));
    const added = keys.filter((k) => !before.has(k));
    if (added.length) state.fresh = new Set(added);
    else if (view.hand.length < old.hand.length) state.fresh = new Set();
  } else {
    state.fresh = new Set();
  }
  for (const key of [...state.selected]) if (!keys.includes(key)) state.selected.delete(key);
}
