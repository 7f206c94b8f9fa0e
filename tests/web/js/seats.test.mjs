// The seat switch's new table (web/table/seats.js), without a browser; the table sizes the
// rules deal are the server's (POST /api/rules, tests/server/test_rules_api.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { levelsFor, offersSeats, sameTableWith } from "../../../src/rummykit/web/table/seats.js";

const RULES = { hand_size: "by_seats", decks: 1, jokers: 0, aces: "low", target: 100 };
const bot = (level) => ({ name: level, kind: "bot", level, position: "" });
const me = { name: "Ada", kind: "human", level: null, position: "You" };

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
  assert.deepEqual(sameTableWith(view, { target: 250 }, 4), {
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
