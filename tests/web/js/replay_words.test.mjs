// The replay's step sentences (web/replay/words.js): the frames' kinds and params (as
// server/frames.py sends them) worded in the page's language, as the live table words them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../../src/rummykit/web/i18n.js";
import { stepText } from "../../../src/rummykit/web/replay/words.js";

const players = ["Ann", "Bob"];
const rules = { rummy_bonus: "none" };
const dealt = { kind: "deal", params: { number: 2, seat: 1 }, notices: [], text: "Deal 2: Bob deals." };
const renewed = {
  kind: "draw_stock", params: { seat: 0 }, text: "Ann draws from the stock.",
  notices: [{ kind: "renewed_flip", params: { count: 1 } }, { kind: "stock_low", params: { count: 5 } }],
};
const out = {
  kind: "discard", params: { seat: 1, card: "Js" }, text: "Bob discards the J♠. The deal is over (out): Bob 12.",
  notices: [{ kind: "deal_over", params: {} }], deal_result: { result: "out", winner: 1, points: [0, 12] },
};

test("a frame's line in English, as the live table says it", () => {
  setLang("en", { remember: false });
  assert.equal(stepText(dealt, players, rules), "Deal 2: Bob deals.");
  assert.equal(
    stepText(renewed, players, rules),
    "Ann drew from the stock. The discard pile was turned over to make a new stock (this happens once a deal). 5 cards left in the stock.",
  );
  assert.equal(stepText(out, players, rules), "Bob discarded the J♠. Bob went out. Points: Bob 12.");
});

test("a frame's line in Japanese, names kept as they are", () => {
  setLang("ja", { remember: false });
  assert.equal(stepText(dealt, players, rules), "第2ディール：Bobが親です。");
  const line = stepText(renewed, players, rules);
  assert.match(line, /^Ann/);
  assert.equal(line.replace(/Ann/g, "").match(/[A-Za-z]/), null, line);
  assert.equal(stepText(out, players, rules), "BobがJ♠を捨てました。Bobが上がりました。得点：Bob 12点。");
  setLang("en", { remember: false });
});

test("a frame from a server that sends no kind shows its English text", () => {
  setLang("ja", { remember: false });
  assert.equal(stepText({ text: "Ann draws from the stock." }, players, rules), "Ann draws from the stock.");
  assert.equal(stepText({}, players, rules), "");
  setLang("en", { remember: false });
});
