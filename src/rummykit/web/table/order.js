// The order of your hand: the player's own arrangement (drag, Shift+arrows) or a sort, kept
// across draws and discards and remembered per table (localStorage), so a reload keeps it.
// No DOM here: Node's unit tests run it as it is.
//
// An order is {sort, keys, lastSort, deal}: `sort` is "suit" or "rank" while the player's last
// choice was a sort (the whole hand is kept sorted, a new card goes to its sorted place), or
// null for the player's own arrangement `keys` (card keys "7h#0"; a new card goes to the right
// end). `lastSort` is the last sort chosen, for the next deal's fresh hand.
import { sortKey } from "../cards.js";
import { store } from "../util.js";

const ORDERS_KEY = "rummykit.handOrder";

/** How many tables' orders are remembered (the most recently used ones). */
const KEEP_TABLES = 20;

/** The sorts the buttons offer. */
export const SORTS = ["suit", "rank"];

/** A fresh order: sorted by `sort` ("rank" or "suit"). */
export function newOrder(sort = "rank") {
  const mode = SORTS.includes(sort) ? sort : "rank";
  return { sort: mode, keys: [], lastSort: mode, deal: null };
}

/** Whether `value` is an order as stored (a hand-edited or older entry is not). */
function isOrder(value) {
  return !!value && typeof value === "object" && (value.sort === null || SORTS.includes(value.sort))
    && Array.isArray(value.keys) && value.keys.every((key) => typeof key === "string") && SORTS.includes(value.lastSort);
}

/** The order remembered for table `tableId`, or a fresh one sorted by `fallbackSort`. */
export function loadOrder(tableId, fallbackSort = "rank", storage = store) {
  const saved = (storage.get(ORDERS_KEY, {}) || {})[tableId];
  if (!isOrder(saved)) return newOrder(fallbackSort);
  return { sort: saved.sort, keys: [...saved.keys], lastSort: saved.lastSort, deal: Number.isInteger(saved.deal) ? saved.deal : null };
}

/** Remember `order` for table `tableId`, forgetting the least recently used tables past a few. */
export function saveOrder(tableId, order, storage = store, now = Date.now()) {
  const all = storage.get(ORDERS_KEY, {}) || {};
  all[tableId] = { sort: order.sort, keys: order.keys, lastSort: order.lastSort, deal: order.deal, at: now };
  const kept = Object.entries(all)
    .filter(([, entry]) => entry && typeof entry === "object")
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .slice(0, KEEP_TABLES);
  storage.set(ORDERS_KEY, Object.fromEntries(kept));
}

/**
 * The hand's cards ({code, key, ...} in the server's order) in the order's arrangement.
 * Sorted: by the sort, ties in the server's order. Own order: the cards `keys` names, in that
 * order, then the cards it does not name (new ones) at the right end; keys of cards no longer
 * held are ignored.
 */
export function arrange(order, cards) {
  if (order.sort) {
    const mode = order.sort;
    return cards.map((card, i) => ({ card, i }))
      .sort((a, b) => sortKey(a.card.code, mode) - sortKey(b.card.code, mode) || a.i - b.i)
      .map(({ card }) => card);
  }
  const place = new Map(order.keys.map((key, i) => [key, i]));
  const known = cards.filter((card) => place.has(card.key)).sort((a, b) => place.get(a.key) - place.get(b.key));
  return [...known, ...cards.filter((card) => !place.has(card.key))];
}

/**
 * Bring the order up to the hand shown for deal `deal`: a new deal's hand starts from the last
 * sort; in the player's own order, `keys` becomes the arrangement shown (so a new card keeps the
 * place it was given). True when the order changed (and should be saved).
 */
export function settle(order, cards, deal) {
  let moved = false;
  if (order.deal !== deal) {
    if (order.deal !== null && !order.sort) {
      order.sort = order.lastSort;
      order.keys = [];
    }
    order.deal = deal;
    moved = true;
  }
  if (!order.sort) {
    const keys = arrange(order, cards).map((card) => card.key);
    if (keys.join() !== order.keys.join()) {
      order.keys = keys;
      moved = true;
    }
  }
  return moved;
}

/** The player chose a sort: the hand is sorted by `mode` from now on, new cards included. */
export function chooseSort(order, mode) {
  if (!SORTS.includes(mode)) throw new Error(`No such sort: ${mode}`);
  order.sort = mode;
  order.lastSort = mode;
  order.keys = [];
}

/**
 * Move the card `key` to place `to` (0 = leftmost) of the hand as arranged now (`cards`): the
 * player's own order from now on. False when nothing moved.
 */
export function moveCard(order, cards, key, to) {
  const keys = arrange(order, cards).map((card) => card.key);
  const from = keys.indexOf(key);
  if (from < 0) return false;
  const place = Math.max(0, Math.min(keys.length - 1, to));
  if (place === from) return false;
  keys.splice(from, 1);
  keys.splice(place, 0, key);
  order.sort = null;
  order.keys = keys;
  return true;
}

// The same, on a table page's state ({tableId, view, order, sort, shown}; see state.js).

/** The hand's cards in the player's order for the page's state (saved when it changed). */
export function orderedHand(state, cards, storage = store) {
  if (settle(state.order, cards, state.view.deal)) saveOrder(state.tableId, state.order, storage);
  state.sort = state.order.sort;
  return arrange(state.order, cards);
}

/** Sort the page's hand by `mode` ("suit" or "rank"), remembered for this table. */
export function sortHand(state, mode, storage = store) {
  chooseSort(state.order, mode);
  state.sort = mode;
  saveOrder(state.tableId, state.order, storage);
}

/** Move the card `key` of the page's hand to place `to`; true when it moved (the hand is then
 * drawn again: its part's memory in `state.shown` is dropped). */
export function moveInHand(state, cards, key, to, storage = store) {
  if (!moveCard(state.order, cards, key, to)) return false;
  state.sort = null;
  delete state.shown.hand;
  saveOrder(state.tableId, state.order, storage);
  return true;
}
