// The seat switch's choices and the table it asks for (web/table/seats.js), without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import { changedRules, handSizeFor, levelsFor, offersSeats, sameTableWith, seatCounts } from "../../../src/rummykit/web/table/seats.js";

const RULES = { hand_size: "by_seats", decks: 1, jokers: 0, aces: "low", target: 100 };
const CLASSIC = { min_seats: 2, max_seats: 8, rules: RULES };
/** The server's table sizes (`GET /api/options` `seats`, from rummykit.core.rules). */
const LIMITS = {
  min: 2,
  max: 8,
  one_deck: 6,
  hand_by_seats: { 2: 10, 3: 7, 4: 7, 5: 6, 6: 6, 7: 7, 8: 7 },
  hand_by_seats_500: { 2: 13, 3: 7, 4: 7, 5: 7, 6: 7, 7: 7, 8: 7 },
};
const bot = (level) => ({ name: level, kind: "bot", level, position: "" });
const me = { name: "Ada", kind: "human", level: null, position: "You" };

test("every size the preset is made for and one deck can deal is offered", () => {
  assert.deepEqual(seatCounts(CLASSIC, RULES, LIMITS), [2, 3, 4, 5, 6]);
  assert.deepEqual(seatCounts({ ...CLASSIC, min_seats: 2, max_seats: 2 }, RULES, LIMITS), [2]);
});

test("seven or eight seats are offered with two decks only, dealt seven cards each", () => {
  assert.deepEqual(seatCounts(CLASSIC, { ...RULES, decks: 2 }, LIMITS), [2, 3, 4, 5, 6, 7, 8]);
  assert.equal(handSizeFor(RULES, 8, LIMITS), 7);
  assert.deepEqual(seatCounts({ ...CLASSIC, max_seats: 6 }, { ...RULES, decks: 2 }, LIMITS), [2, 3, 4, 5, 6]);
});

test("500 Rum deals thirteen cards to two and seven to three or more", () => {
  const fiveHundred = { ...RULES, hand_size: "by_seats_500" };
  assert.equal(handSizeFor(fiveHundred, 2, LIMITS), 13);
  assert.equal(handSizeFor(fiveHundred, 6, LIMITS), 7);
  assert.deepEqual(seatCounts(CLASSIC, fiveHundred, LIMITS), [2, 3, 4, 5, 6]);
  assert.deepEqual(seatCounts(CLASSIC, { ...fiveHundred, decks: 2 }, LIMITS), [2, 3, 4, 5, 6, 7, 8]);
});

test("a size the deck cannot deal is not offered", () => {
  // ten cards each: six seats need 61 cards with the up-card, five need 51
  const tens = { ...RULES, hand_size: 10 };
  assert.deepEqual(seatCounts(CLASSIC, tens, LIMITS), [2, 3, 4, 5]);
  assert.deepEqual(seatCounts(CLASSIC, { ...tens, decks: 2 }, LIMITS), [2, 3, 4, 5, 6, 7, 8]);
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
