// The hand's order (web/table/order.js) without a browser: the player's own order kept across
// draws and discards, the two sorts, where a new card goes, and the order remembered per table.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  arrange,
  chooseSort,
  loadOrder,
  moveCard,
  moveInHand,
  newOrder,
  orderedHand,
  saveOrder,
  settle,
  sortHand,
} from "../../../src/rummykit/web/table/order.js";

/** The hand's cards as state.js's displayHand gives them: {code, key}, a key per copy. */
function cards(...codes) {
  const seen = {};
  return codes.map((code) => {
    seen[code] = (seen[code] || 0) + 1;
    return { code, key: `${code}#${seen[code] - 1}` };
  });
}

const codes = (list) => list.map((card) => card.code);

/** localStorage as util.js's `store` reads it, in memory. */
function memoryStore() {
  const data = new Map();
  return {
    data,
    get: (key, fallback = null) => (data.has(key) ? JSON.parse(data.get(key)) : fallback),
    set: (key, value) => data.set(key, JSON.stringify(value)),
  };
}

test("a sort by rank or by suit (suits alternate colours, jokers last)", () => {
  const hand = cards("Kd", "X", "2c", "7h", "2s", "7s");
  assert.deepEqual(codes(arrange(newOrder("rank"), hand)), ["2s", "2c", "7s", "7h", "Kd", "X"]);
  assert.deepEqual(codes(arrange(newOrder("suit"), hand)), ["2s", "7s", "7h", "2c", "Kd", "X"]);
});

test("the player's own order is kept across a draw; the new card goes to the right end", () => {
  const order = newOrder("rank");
  const hand = cards("Kd", "2c", "7h", "5s");
  settle(order, hand, 0);
  assert.ok(moveCard(order, hand, "Kd#0", 0));
  assert.equal(order.sort, null);
  assert.deepEqual(codes(arrange(order, hand)), ["Kd", "2c", "5s", "7h"]);
  // the server's order of the hand does not matter: a drawn ace goes last, not first
  const drawn = cards("Ac", "Kd", "2c", "7h", "5s");
  assert.ok(settle(order, drawn, 0));
  assert.deepEqual(codes(arrange(order, drawn)), ["Kd", "2c", "5s", "7h", "Ac"]);
  // and stays where it was put when the next card comes
  const again = cards("3d", "Ac", "Kd", "2c", "7h", "5s");
  settle(order, again, 0);
  assert.deepEqual(codes(arrange(order, again)), ["Kd", "2c", "5s", "7h", "Ac", "3d"]);
});

test("a discard keeps the order of the cards left", () => {
  const order = newOrder("rank");
  const hand = cards("Kd", "2c", "7h", "5s");
  settle(order, hand, 0);
  moveCard(order, hand, "2c#0", 3);
  assert.deepEqual(codes(arrange(order, hand)), ["5s", "7h", "Kd", "2c"]);
  const after = cards("Kd", "2c", "5s");
  settle(order, after, 0);
  assert.deepEqual(codes(arrange(order, after)), ["5s", "Kd", "2c"]);
  assert.deepEqual(order.keys, ["5s#0", "Kd#0", "2c#0"]);
});

test("after a sort a new card goes to its sorted place", () => {
  const order = newOrder("rank");
  const hand = cards("Kd", "2c", "7h");
  moveCard(order, hand, "Kd#0", 0);
  chooseSort(order, "suit");
  const drawn = cards("Kd", "2c", "7h", "3h", "As");
  settle(order, drawn, 0);
  assert.deepEqual(codes(arrange(order, drawn)), ["As", "3h", "7h", "2c", "Kd"]);
  assert.equal(order.sort, "suit");
});

test("moving a card to its own place changes nothing, nor does an unknown card", () => {
  const order = newOrder("rank");
  const hand = cards("2c", "7h", "Kd");
  assert.equal(moveCard(order, hand, "7h#0", 1), false);
  assert.equal(order.sort, "rank");
  assert.equal(moveCard(order, hand, "9s#0", 0), false);
  assert.ok(moveCard(order, hand, "7h#0", 99)); // past the end: the last place
  assert.deepEqual(codes(arrange(order, hand)), ["2c", "Kd", "7h"]);
});

test("two copies of a card (two decks) each keep a place", () => {
  const order = newOrder("rank");
  const hand = cards("7h", "2c", "7h");
  moveCard(order, hand, "7h#1", 0);
  assert.deepEqual(arrange(order, hand).map((card) => card.key), ["7h#1", "2c#0", "7h#0"]);
});

test("a stored order with cards no longer in hand ignores them", () => {
  const order = { sort: null, keys: ["9s#0", "Kd#0", "Qh#0", "2c#0"], lastSort: "rank", deal: 2 };
  const hand = cards("2c", "Kd", "5d");
  assert.deepEqual(codes(arrange(order, hand)), ["Kd", "2c", "5d"]);
  settle(order, hand, 2);
  assert.deepEqual(order.keys, ["Kd#0", "2c#0", "5d#0"]);
});

test("a new deal's hand starts from the last sort chosen", () => {
  const order = newOrder("suit");
  const hand = cards("2c", "7h", "Kd");
  settle(order, hand, 0);
  moveCard(order, hand, "Kd#0", 0);
  const next = cards("Ah", "2s", "Qd");
  assert.ok(settle(order, next, 1));
  assert.equal(order.sort, "suit");
  assert.deepEqual(codes(arrange(order, next)), ["2s", "Ah", "Qd"]);
});

test("the order is remembered per table; a damaged entry gives the fallback sort", () => {
  const storage = memoryStore();
  const order = newOrder("rank");
  const hand = cards("2c", "7h", "Kd");
  settle(order, hand, 4);
  moveCard(order, hand, "Kd#0", 0);
  saveOrder("t1", order, storage);
  assert.deepEqual(loadOrder("t1", "rank", storage), { sort: null, keys: ["Kd#0", "2c#0", "7h#0"], lastSort: "rank", deal: 4 });
  assert.deepEqual(loadOrder("t2", "suit", storage), newOrder("suit"));
  storage.set("rummykit.handOrder", { t1: { sort: "sideways", keys: "no" } });
  assert.deepEqual(loadOrder("t1", "rank", storage), newOrder("rank"));
});

test("only the most recently used tables' orders are kept", () => {
  const storage = memoryStore();
  for (let i = 0; i < 25; i++) saveOrder(`t${i}`, newOrder("rank"), storage, 1000 + i);
  const kept = Object.keys(storage.get("rummykit.handOrder"));
  assert.equal(kept.length, 20);
  assert.ok(kept.includes("t24") && !kept.includes("t4"));
});

test("the page's state: sorted, moved, and the hand part drawn again", () => {
  const storage = memoryStore();
  const state = { tableId: "t", view: { deal: 0 }, order: newOrder("rank"), sort: "rank", shown: { hand: "[...]" } };
  const hand = cards("Kd", "2c", "7h");
  assert.deepEqual(codes(orderedHand(state, hand, storage)), ["2c", "7h", "Kd"]);
  assert.ok(moveInHand(state, orderedHand(state, hand, storage), "Kd#0", 0, storage));
  assert.equal(state.sort, null);
  assert.ok(!("hand" in state.shown));
  assert.deepEqual(codes(orderedHand(state, hand, storage)), ["Kd", "2c", "7h"]);
  assert.deepEqual(loadOrder("t", "rank", storage).keys, ["Kd#0", "2c#0", "7h#0"]);
  sortHand(state, "suit", storage);
  assert.equal(state.sort, "suit");
  assert.deepEqual(codes(orderedHand(state, hand, storage)), ["7h", "2c", "Kd"]);
});
