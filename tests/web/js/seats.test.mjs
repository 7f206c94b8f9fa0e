// The seat switch's choices and the table it asks for (web/table/seats.js), without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import { changedRules, levelsFor, offersSeats, sameTableWith, seatCounts } from "../../../src/rummykit/web/table/seats.js";

const RULES = { hand_size: "by_seats", decks: 1, jokers: 0, aces: "low", target: 100 };
const CLASSIC = { min_seats: 2, max_seats: 6, rules: RULES };
const bot = (level) => ({ name: level, kind: "bot", level, position: "" });
const me = { name: "Ada", kind: "human", level: null, position: "You" };

test("every size the preset is made for and one deck can deal is offered", () => {
  assert.deepEqual(seatCounts(CLASSIC, RULES), [2, 3, 4, 5, 6]);
  assert.deepEqual(seatCounts({ ...CLASSIC, min_seats: 2, max_seats: 2 }, RULES), [2]);
});

test("a size the deck cannot deal is not offered", () => {
  // ten cards each: six seats need 61 cards with the up-card, five need 51
  const tens = { ...RULES, hand_size: 10 };
  assert.deepEqual(seatCounts(CLASSIC, tens), [2, 3, 4, 5]);
  assert.deepEqual(seatCounts(CLASSIC, { ...tens, decks: 2 }), [2, 3, 4, 5, 6]);
});

test("extra seats get the last computer's level, fewer seats drop the last ones", () => {
  const players = [me, bot("basic"), bot("expert")];
  assert.deepEqual(levelsFor(players, 5), ["basic", "expert", "expert", "expert"]);
  assert.deepEqual(levelsFor(players, 2), ["basic"]);
  assert.deepEqual(levelsFor(players, 3), ["basic", "expert"]);
});

test("the new table keeps the name, the preset, the changed rules and the timer", () => {
  const view = {
    seat: 0, preset: "classic", rules: { ...RULES, target: 250 }, turn_timer: 30,
    players: [me, bot("strong")], party: null, practice: false,
  };
  assert.deepEqual(changedRules(RULES, view.rules), { target: 250 });
  assert.deepEqual(sameTableWith(view, CLASSIC, 4), {
    name: "Ada", preset: "classic", rules: { target: 250 }, opponents: ["strong", "strong", "strong"], turn_timer: 30,
  });
});

test("only your own table against the computer offers the switch", () => {
  const view = { seat: 0, party: null, practice: false };
  assert.equal(offersSeats(view), true);
  assert.equal(offersSeats({ ...view, party: "ABCDEF" }), false);
  assert.equal(offersSeats({ ...view, practice: true }), false);
  assert.equal(offersSeats({ ...view, seat: null }), false);
  assert.equal(offersSeats(null), false);
});
