// When the table's sound plays (web/sound.js's cueFor), without a browser: a tone when it has
// just become your turn and when a deal has just ended; silence on a page's first view.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cueFor, playCue } from "../../../src/rummykit/web/sound.js";

const view = (changes = {}) => ({ seat: 0, turn: 1, phase: "draw", deal: 0, ...changes });

test("a tone when your turn comes, not while it lasts", () => {
  assert.equal(cueFor(view(), view({ turn: 0 })), "turn");
  assert.equal(cueFor(view({ turn: 0 }), view({ turn: 0, phase: "play" })), null);
  assert.equal(cueFor(view(), view({ turn: 1, phase: "play" })), null);
});

test("a tone when the deal ends; the next deal's first turn is a new turn", () => {
  assert.equal(cueFor(view({ turn: 0, phase: "play" }), view({ phase: "over" })), "end");
  assert.equal(cueFor(view({ phase: "over" }), view({ phase: "over" })), null);
  assert.equal(cueFor(view({ phase: "over" }), view({ turn: 0, deal: 1 })), "turn");
  assert.equal(cueFor(view({ turn: 0, phase: "play" }), view({ turn: 0, deal: 1 })), "turn");
});

test("silent on the first view, for a spectator, and while the sound is off", () => {
  assert.equal(cueFor(null, view({ turn: 0 })), null);
  assert.equal(cueFor(view({ seat: null }), view({ seat: null, turn: 0 })), null);
  let made = 0;
  globalThis.AudioContext = class {
    constructor() {
      made += 1;
    }
  };
  try {
    playCue("turn"); // no localStorage here: the sound is off
    assert.equal(made, 0);
  } finally {
    delete globalThis.AudioContext;
  }
});
