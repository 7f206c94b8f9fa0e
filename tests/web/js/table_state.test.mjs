// The table page's state and sentences (web/table/state.js, texts.js) without a browser:
// they hold no DOM, so Node runs them as they are. Run by tests/web/test_js_units.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import { displayHand, newTableState, selectedCodes, takeEvent, takeView } from "../../../src/rummykit/web/table/state.js";
import { statusText, who } from "../../../src/rummykit/web/table/texts.js";

/** A two-seat view of seat 0, in the shape of server/views.py's seat_view, with `changes`. */
function view(changes = {}) {
  return {
    seat: 0,
    practice: false,
    rules: { rummy_bonus: "none" },
    players: [
      { name: "Ada", kind: "human", level: null, position: "You" },
      { name: "Basic", kind: "bot", level: "basic", position: "Across" },
    ],
    deal: 0,
    dealer: 1,
    turn: 0,
    phase: "draw",
    hand: ["7h", "2c", "Kd"],
    hand_value: 19,
    hand_sizes: [3, 3],
    melds: [],
    discard: ["9s"],
    stock: 20,
    scores: [0, 0],
    taken: null,
    legal: ["draw stock", "draw discard"],
    deal_result: null,
    game_over: false,
    winner: null,
    ...changes,
  };
}

test("a view older than the one held is ignored", () => {
  const state = newTableState("t");
  takeView(state, view({ stock: 20 }), 5);
  assert.equal(takeView(state, view({ stock: 30 }), 4), null);
  assert.equal(state.view.stock, 20);
});

test("the first view of a deal logs who deals", () => {
  const state = newTableState("t");
  assert.deepEqual(takeView(state, view(), 1), [{ text: "Deal 1: Across deals.", kind: "deal" }]);
  assert.deepEqual(takeView(state, view({ stock: 19 }), 2), []);
});

test("the card just drawn is marked fresh, and a discard clears the mark", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  takeView(state, view({ phase: "play", hand: ["7h", "2c", "Kd", "7h"] }), 2);
  assert.deepEqual([...state.fresh], ["7h#1"]);
  takeView(state, view({ phase: "play", turn: 1, hand: ["7h", "2c", "7h"] }), 3);
  assert.deepEqual([...state.fresh], []);
});

test("a selected card that leaves the hand is no longer selected", () => {
  const state = newTableState("t");
  takeView(state, view({ phase: "play" }), 1);
  state.selected.add("Kd#0");
  state.selected.add("2c#0");
  takeView(state, view({ phase: "play", hand: ["7h", "2c"] }), 2);
  assert.deepEqual(selectedCodes(state), ["2c"]);
});

test("a new deal forgets the notes and the selection of the last one", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  takeEvent(state, { seat: 1, action: "discard 9s", card: "9s", text: "Basic (Across) discarded 9♠." });
  state.selected.add("7h#0");
  const lines = takeView(state, view({ deal: 1, dealer: 0 }), 9);
  assert.deepEqual(lines, [{ text: "Deal 2: you deal.", kind: "deal" }]);
  assert.deepEqual(state.notes, {});
  assert.equal(state.selected.size, 0);
});

test("a redeal is the new view that no event announced", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  state.redealing = true;
  const lines = takeView(state, view({ hand: ["As", "4d", "Qc"] }), 2);
  assert.deepEqual(lines.map((line) => line.text), ["That deal was thrown away; here is a new one.", "Deal 1: Across deals."]);
  assert.equal(state.redealing, false);
});

test("an event's note and log line are the server's text, never the page's words", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  const text = "Basic (Across) took 9♠ from the discard pile.";
  const line = takeEvent(state, { seat: 1, action: "draw discard", card: "9s", text });
  assert.deepEqual(line, { text, kind: "" });
  assert.equal(state.notes[1].text, text);
  assert.deepEqual(state.flash, { kind: "took" });
  assert.equal(takeEvent(state, { seat: 0, action: "layoff 7h 1", card: "7h", text: "You laid off 7♥." }).kind, "mine");
  assert.deepEqual(state.flash, { kind: "meld", meld: 1 });
});

test("a hint is dropped once the table has moved on", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  state.hint = { action: "draw stock", reason: "Draw from the stock.", version: 1 };
  takeView(state, view(), 1);
  assert.notEqual(state.hint, null);
  takeView(state, view({ phase: "play" }), 2);
  assert.equal(state.hint, null);
});

test("the hand sorts by rank or by suit, jokers last, two copies apart", () => {
  const state = newTableState("t");
  takeView(state, view({ hand: ["X", "Kd", "2c", "7h", "2c"] }), 1);
  state.sort = "rank";
  assert.deepEqual(displayHand(state).map((c) => c.key), ["2c#0", "2c#1", "7h#0", "Kd#0", "X#0"]);
  state.sort = "suit";
  assert.deepEqual(displayHand(state).map((c) => c.code), ["7h", "2c", "2c", "Kd", "X"]);
});

test("the status line follows the legal actions sent", () => {
  assert.equal(statusText(view()), "Your turn: draw from the stock or take the 9♠.");
  assert.equal(statusText(view({ turn: 1 })), "Across is thinking…");
  const noThrowback = view({ phase: "play", taken: "9s", hand: ["9s", "7h"], legal: ["discard 7h"] });
  assert.match(statusText(noThrowback), /The 9♠ you just took may not go straight back\.$/);
  assert.equal(who(view(), 0), "You");
});
