// The table's state: the server's latest view, this page's own choices (selection, sort,
// open panels, flashes), and how each frame from the server changes them. No DOM here.
import { bare, short } from "../cards.js";
import { t } from "../i18n.js";
import { Topics } from "../practice.js";
import { DEFAULT_HINT_LEVEL, TABLE_HINT_LEVELS } from "../protocol.js";
import { store } from "../util.js";
import { loadOrder, orderedHand, sortHand } from "./order.js";
import { eventText, sentence } from "./event_words.js";
import { reactionText, resultText } from "./texts.js";
import { takeServerClock } from "./timer.js";

const SORT_KEY = "rummykit.sort";
const HINT_LEVEL_KEY = "rummykit.hintLevel";

/** Whom the hint button asks: the level chosen last, while the server still offers it. */
export function hintLevel() {
  const level = store.get(HINT_LEVEL_KEY, DEFAULT_HINT_LEVEL);
  return TABLE_HINT_LEVELS.includes(level) ? level : DEFAULT_HINT_LEVEL;
}

/** Remember whom the hint button asks, on every table of this browser. */
export function setHintLevel(level) {
  store.set(HINT_LEVEL_KEY, level);
}

/** A fresh state for one table page. */
export function newTableState(tableId) {
  const order = loadOrder(tableId, store.get(SORT_KEY, "rank"));
  return {
    tableId,
    view: null,
    version: -1,
    selected: new Set(), // keys "7h#0" (the first 7♥ in the hand)
    sort: order.sort, // "suit", "rank", or null while the player's own order holds
    order, // the hand's order, remembered per table (order.js)
    pileOpen: false,
    notes: {}, // seat -> {moves: [{verb, card, count}], stamp}: that seat's last turn so far
    message: null, // {kind: "refusal"|"notice", code, text, version}: what the message line says
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
  sortHand(state, mode);
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

/** The hand in the player's order (order.js), each card marked when the hint names it. */
export function displayHand(state) {
  const hinted = hintCards(state.hint);
  return orderedHand(state, handKeys(state.view.hand).map((c, i) => ({ ...c, i, hinted: hinted.has(c.code) })));
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
  noteMove(state, event, text);
  if (verb === "discard") state.flash = { kind: "discard" };
  else if (verb === "meld") state.flash = { kind: "meld", meld: -1 };
  else if (verb === "layoff") state.flash = { kind: "meld", meld: Number(event.action.split(" ").at(-1)) };
  else if (verb === "draw" && !fromStock) state.flash = { kind: "took" };
  else state.flash = { kind: "stock" };
  if (mine && verb !== "draw") state.selected.clear();
  return { text, kind: mine ? "mine" : "" };
}

/**
 * Keep what a seat did at its seat until its next turn: a draw begins a new turn, and each
 * move after it joins the list ("drew from the stock · melded 3 cards · discarded 7♥").
 */
function noteMove(state, event, text) {
  const words = event.action.split(" ");
  const verb = words[0];
  let move;
  if (verb === "draw" && words[1] === "stock") move = { verb: "draw_stock" };
  else if (verb === "draw") move = { verb: "draw_discard", card: event.card, count: Number(words[2] || 1) };
  else if (verb === "meld") move = { verb: "meld", count: words.length - 1 };
  else if (verb === "layoff") move = { verb: "layoff", card: event.card || words[1] };
  else if (verb === "discard") move = { verb: "discard", card: event.card || words[1] };
  else move = { verb: "other", text };
  const note = state.notes[event.seat];
  const moves = verb === "draw" || !note ? [] : note.moves;
  // Boathouse: the take from the pile brought the stock's top card too ("take_…_stock"
  // kinds; a plain draw from the stock, "draw_stock", is the move itself, not an extra)
  const extra = verb === "draw" && /^take_.*_stock(_card)?$/u.test(event.kind || "") ? [{ verb: "draw_stock" }] : [];
  state.notes[event.seat] = { moves: [...moves, move, ...extra], stamp: Date.now() };
}

/** One move of a seat's last turn, in a few words for its seat. */
function moveText(move) {
  switch (move.verb) {
    case "draw_stock":
      return t("table.last_draw_stock");
    case "draw_discard":
      if (!move.card) return t("table.last_draw_discard_any");
      return move.count > 1 ? t("table.last_draw_deep", { count: move.count, card: short(move.card) }) : t("table.last_draw_discard", { card: short(move.card) });
    case "meld":
      return t("table.last_meld", { count: move.count });
    case "layoff":
      return t("table.last_layoff", { card: short(move.card) });
    case "discard":
      return t("table.last_discard", { card: short(move.card) });
    default:
      return move.text;
  }
}

/** What a seat did on its last turn (so far), for the note at its seat; "" when nothing. */
export function noteText(note) {
  return note ? note.moves.map(moveText).join(t("table.last_joiner")) : "";
}

/** Whether it is this seat's turn to act (a deal in play, not a spectator). */
export const myTurn = (view) => !!view && view.seat !== null && view.seat !== undefined && view.turn === view.seat && view.phase !== "over";

/**
 * Whether the message on show has stopped being true, now that the view at `state.version`
 * has come. `message` is {kind, code, version}: a notice stays until you act (sending clears
 * it); "not your turn" goes when your turn comes; any other refusal, or a word of the page's
 * own, goes once the table has moved on from the version it was said at.
 */
export function messageMoot(state, message) {
  if (message.kind === "notice") return false;
  if (message.code === "not_your_turn") return myTurn(state.view);
  return state.version > message.version;
}

/** A quick reaction from a seat, worded from its code in the page's language (its English
 * `text` if the page has no words for it): shown at that seat for a moment (board.js's
 * BUBBLE_MS). */
export function takeReaction(state, reaction) {
  state.bubbles[reaction.seat] = { text: reactionText(reaction.reaction, reaction.text), stamp: Date.now() };
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
    lines.push({ text: t("table.redealt"), kind: "result" });
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
      lines.push({ text: dealText(view), kind: "deal" });
    }
  }
  const newlyOver = view.phase === "over" && (!old || old.phase !== "over" || old.deal !== view.deal);
  if (newlyOver && old) lines.push({ text: resultText(view), kind: "result" });
  if (state.hint && version > state.hint.version) state.hint = null;
  return lines;
}

/** The log's first line of a deal, in the server's words for it (server/table_words.py's
 * `deal_said`: the same kinds and params as a reloaded page's log). */
function dealText(view) {
  const number = view.deal + 1;
  if (view.dealer === view.seat) return sentence("events.deal_you", view, { number });
  return sentence("events.deal", view, { number, seat: view.dealer });
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
