// The page's intent numbers (web/api.js IntentBook): which server message answers the intent
// still waiting, by its number `n` (a refusal or an `applied`) or by a newer view.
import assert from "node:assert/strict";
import { test } from "node:test";

import { IntentBook } from "../../../src/rummykit/web/api.js";

test("intents that change the table are numbered; the others are not", () => {
  const book = new IntentBook("page-1");
  assert.deepEqual(book.message("act", 4, { action: "draw stock" }), { t: "act", v: 4, n: 1, d: { action: "draw stock" } });
  assert.equal(book.message("next", 5, {}).n, 2);
  assert.equal(book.message("hint", 5, {}).n, undefined);
});

test("a refusal or an applied for another intent does not answer the one waiting", () => {
  const book = new IntentBook("page-1");
  book.message("act", 4, { action: "draw stock" }); // n 1
  book.message("act", 4, { action: "discard 2C" }); // n 2, waiting
  book.received({ t: "refused", v: 5, n: 1, d: { code: "stale" } });
  assert.equal(book.pending.n, 2);
  book.received({ t: "applied", v: 5, n: 1 });
  assert.equal(book.pending.n, 2);
  book.received({ t: "applied", v: 6, n: 2 });
  assert.equal(book.pending, null);
});

test("a refusal that names no intent, or a view past the intent's version, answers it", () => {
  const book = new IntentBook("page-1");
  book.message("act", 4, { action: "draw stock" });
  book.received({ t: "refused", v: 4, d: { code: "watching" } });
  assert.equal(book.pending, null);
  book.message("act", 4, { action: "draw stock" });
  book.received({ t: "view", v: 4, d: {} });
  assert.notEqual(book.pending, null, "a view at the same version does not");
  book.received({ t: "view", v: 5, d: {} });
  assert.equal(book.pending, null);
});
