// The replay's deal navigation and speeds (web/replay/steps.js), without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  DEFAULT_SPEED,
  SPEEDS,
  dealOf,
  dealStarts,
  knownSpeed,
  nextDeal,
  previousDeal,
  stepMs,
} from "../../../src/rummykit/web/replay/steps.js";

const frames = [0, 0, 0, 1, 1, 2, 2, 2].map((deal) => ({ deal }));

test("each deal starts where the frames' deal number changes", () => {
  assert.deepEqual(dealStarts(frames), [0, 3, 5]);
  assert.deepEqual(dealStarts([]), []);
});

test("a step belongs to the last deal that started at or before it", () => {
  const starts = dealStarts(frames);
  assert.deepEqual(frames.map((_, index) => dealOf(starts, index)), [0, 0, 0, 1, 1, 2, 2, 2]);
});

test("previous deal goes to the start of the deal before, and stays in the first", () => {
  const starts = dealStarts(frames);
  assert.equal(previousDeal(starts, 6), 3);
  assert.equal(previousDeal(starts, 5), 3);
  assert.equal(previousDeal(starts, 4), 0);
  assert.equal(previousDeal(starts, 1), 0);
});

test("next deal goes to the start of the deal after, and nowhere from the last", () => {
  const starts = dealStarts(frames);
  assert.equal(nextDeal(starts, 0), 3);
  assert.equal(nextDeal(starts, 4), 5);
  assert.equal(nextDeal(starts, 7), null);
});

test("speeds run from a quarter to eight steps a second, and a stale one falls back", () => {
  assert.equal(stepMs(1), 1000);
  assert.equal(stepMs(8), 125);
  assert.equal(stepMs(0.25), 4000);
  assert.equal(knownSpeed("4"), 4);
  assert.equal(knownSpeed(3), DEFAULT_SPEED);
  assert.equal(knownSpeed(null), DEFAULT_SPEED);
  assert.ok(SPEEDS.includes(DEFAULT_SPEED));
});
