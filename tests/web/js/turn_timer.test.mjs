// The turn timer's countdown (web/table/timer.js) without a browser: it counts on the
// server's clock, whatever this device's clock says. Run by tests/web/test_javascript.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockText, nextDealLeft, nextWaitText, secondsLeft, takeServerClock } from "../../../src/rummykit/web/table/timer.js";

test("the countdown is measured on the server's clock, not this device's", () => {
  const here = Date.now() / 1000;
  for (const skew of [-3600, 0, 42.5, 86400]) {
    // the server's clock is `skew` seconds ahead of this device's; 25 s are left there
    const view = { deadline: here + skew + 25, server_now: here + skew, turn: 0, seat: 0 };
    const state = { view, clockOffset: 0 };
    takeServerClock(state, view);
    const left = secondsLeft(state);
    assert.ok(left > 24 && left <= 25, `skew ${skew}: ${left} s left`);
  }
});

test("no deadline: no countdown; a deadline gone by: zero, never less", () => {
  assert.equal(secondsLeft({ view: { deadline: null, server_now: null }, clockOffset: 0 }), null);
  const state = { view: { deadline: 100, server_now: 130 }, clockOffset: 0 };
  takeServerClock(state, state.view);
  assert.equal(secondsLeft(state), 0);
});

test("the clock reads minutes and seconds, rounded up", () => {
  assert.equal(clockText(60), "1:00");
  assert.equal(clockText(29.2), "0:30");
  assert.equal(clockText(9), "0:09");
  assert.equal(clockText(0), "0:00");
});

test("between two deals of a party: the wait counts down to the next deal on the server's clock", () => {
  const players = [
    { name: "Ann", kind: "human", position: "you" },
    { name: "Bo", kind: "human", position: "left" },
    { name: "Cy", kind: "human", position: "right" },
  ];
  // the server's clock is far from this device's: 17 s are left there
  const view = { seat: 0, players, phase: "over", game_over: false, next_ready: [0], next_waiting: [1, 2], next_deadline: 5017, server_now: 5000 };
  const state = { view, clockOffset: 0 };
  takeServerClock(state, view);
  const left = nextDealLeft(state);
  assert.ok(left > 16 && left <= 17, `${left} s left`);
  // who pressed reads who is still reading; who reads sees the others reading, not themself
  assert.equal(nextWaitText(view, 17), "You are ready: waiting for Bo and Cy, at most 0:17.");
  const bo = { ...view, seat: 1, players: players.map((p, i) => ({ ...p, position: ["right", "you", "left"][i] })) };
  assert.equal(nextWaitText(bo, 9.5), "Still reading: Cy. The next deal starts in 0:10.");
  assert.equal(nextWaitText({ ...bo, next_waiting: [1] }, 3), "The next deal starts in 0:03.");
  // no countdown: a deal in play, the game over, or nobody pressed yet
  assert.equal(nextDealLeft({ view: { ...view, phase: "play" }, clockOffset: 0 }), null);
  assert.equal(nextDealLeft({ view: { ...view, game_over: true }, clockOffset: 0 }), null);
  assert.equal(nextDealLeft({ view: { ...view, next_deadline: null }, clockOffset: 0 }), null);
  assert.equal(nextWaitText(view, null), "");
});
