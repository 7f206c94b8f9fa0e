// The turn timer's countdown (web/table/timer.js) without a browser: it counts on the
// server's clock, whatever this device's clock says. Run by tests/web/test_javascript.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockText, secondsLeft, takeServerClock } from "../../../src/rummykit/web/table/timer.js";

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
