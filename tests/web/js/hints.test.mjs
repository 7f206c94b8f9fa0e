// The hint worded in the page's language from its kinds and params (web/table/advice.js's
// hintText): the advice put in the reason's {action}, cards and melds shown as the table shows
// them (short names, a joker by its word), the server's English when a kind is unknown.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../../src/rummykit/web/i18n.js";
import { hintText } from "../../../src/rummykit/web/table/advice.js";

function inLang(code, body) {
  setLang(code, { remember: false });
  try {
    body();
  } finally {
    setLang("en", { remember: false });
  }
}

const discard = {
  action: "discard Kc",
  reason: "Discard the K♣: it belongs to nothing and costs 10.",
  kind: "deadwood",
  params: { points: 10 },
  action_kind: "discard",
  action_params: { card: "Kc" },
};

test("a hint reads in English as the server's sentence, in Japanese from the same kinds", () => {
  assert.equal(hintText(discard), discard.reason);
  inLang("ja", () => assert.equal(hintText(discard), "K♣を捨てる：どのメルドにもならず、10点の失点になるカードです。"));
});

test("a take names its card; a meld and a lay-off show their cards by their short names", () => {
  const take = {
    action: "draw discard",
    reason: "Take the 9♣ from the discard pile: it makes 7♣ 🃏(8♣) 9♣.",
    kind: "take_makes",
    params: { meld: ["7c", "X=8c", "9c"] },
    action_kind: "take_discard",
    action_params: { card: "9c" },
  };
  assert.equal(hintText(take), "Take the 9♣ from the discard pile: it makes 7♣ Joker (8♣) 9♣.");
  inLang("ja", () => assert.equal(hintText(take), "捨て札から9♣を取る：7♣ ジョーカー（8♣） 9♣ができます。"));
  const layoff = {
    action: "layoff Th 1",
    reason: "Lay off the 10♥ on meld 1: it fits 7♥ 8♥ 9♥, one card less.",
    kind: "layoff_fits",
    params: { meld: ["7h", "8h", "9h"] },
    action_kind: "layoff",
    action_params: { card: "Th", number: 1 },
  };
  assert.equal(hintText(layoff), layoff.reason);
  inLang("ja", () => assert.equal(hintText(layoff), "10♥をメルド1に付け札する：7♥ 8♥ 9♥に付けられるので、手札が1枚減ります。"));
  const meld = {
    action: "meld 5h X=6h 7h",
    reason: "Meld 5♥ 🃏(6♥) 7♥: cards on the table cannot be caught in your hand.",
    kind: "meld_now",
    params: {},
    action_kind: "meld",
    action_params: { meld: ["5h", "X=6h", "7h"] },
  };
  assert.equal(hintText(meld), "Meld 5♥ Joker (6♥) 7♥: cards on the table cannot be caught in your hand.");
  inLang("ja", () => assert.equal(hintText(meld), "5♥ ジョーカー（6♥） 7♥をメルドする：場に出したカードは、誰かが上がっても失点になりません。"));
});

test("going out, several cards taken, and a hand improved by points", () => {
  const out = { action: "discard Ks", reason: "Discard the K♠ and go out.", kind: "go_out", params: {}, action_kind: "discard", action_params: { card: "Ks" } };
  assert.equal(hintText(out), out.reason);
  inLang("ja", () => assert.equal(hintText(out), "K♠を捨てると上がりです。"));
  const improves = {
    action: "draw discard 2",
    reason: "Take 9♣ 10♦ from the discard pile: it brings your hand from 31 to 12 points, with better chances.",
    kind: "take_improves",
    params: { before: 31, after: 12 },
    action_kind: "take_discards",
    action_params: { cards: ["9c", "Td"] },
  };
  assert.equal(hintText(improves), improves.reason);
  inLang("ja", () => assert.equal(hintText(improves), "捨て札から9♣ 10♦を取る：手札の失点が31点から12点に減り、上がりの見込みも良くなります。"));
});

test("a kind this page does not know, or a server without kinds, shows the server's English", () => {
  inLang("ja", () => {
    assert.equal(hintText({ ...discard, kind: "something_new" }), discard.reason);
    assert.equal(hintText({ ...discard, action_kind: "something_new" }), discard.reason);
    assert.equal(hintText({ action: "discard Kc", reason: "As sent." }), "As sent.");
  });
});
