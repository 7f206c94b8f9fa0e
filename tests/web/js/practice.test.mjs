// The practice table's explanations (web/practice.js) in the page's language: the English
// reads as it always has, the Japanese has a sentence for every rule's case.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../../src/rummykit/web/i18n.js";
import { explainTopic, topicTitle } from "../../../src/rummykit/web/practice.js";

const classic = {
  discard_take: "top", renew: "flip", empty_stock_choice: false, renewals: 2, aces: "low", jokers: 0,
  melds_per_turn: 0, layoff: "any", go_out: "any", blocked: "nobody", rummy_bonus: "double", scoring: "collect",
};
const TOPICS = ["draw", "empty_stock", "meld", "layoff", "no_throwback", "discard", "renewed", "blocked", "rummy", "out"];

test("the English explanations read as before", () => {
  setLang("en", { remember: false });
  assert.equal(topicTitle("empty_stock"), "An empty stock");
  assert.equal(
    explainTopic("empty_stock", { ...classic, empty_stock_choice: true }),
    "The stock is empty. Drawing from it now turns the discard pile face down, in the same order, as a new stock. You may take the top discard instead. A deal can do this twice; after that, the deal is blocked.",
  );
  assert.equal(
    explainTopic("renewed", { ...classic, renew: "none", renewals: 3 }),
    "The stock ran out, so the game made a new stock from the discard pile. That may happen 3 times a deal; if the stock runs dry after that, the deal is blocked.",
  );
  assert.match(explainTopic("meld", { ...classic, jokers: 2, melds_per_turn: 1 }), /count against you\. At this table the ace only goes below the two: A-2-3 counts, Q-K-A does not\. A joker stands in for any one card of a meld\. You may put down one new meld a turn\.$/);
  assert.match(explainTopic("meld", { ...classic, melds_per_turn: 2 }), / You may put down 2 new melds a turn\.$/);
  assert.equal(explainTopic("rummy", classic), "Going rummy means putting your whole hand down in one turn, having laid nothing earlier in the deal. It pays double.");
  assert.equal(explainTopic("nothing", classic), "");
});

test("the Japanese explanations are Japanese, for every topic", () => {
  setLang("ja", { remember: false });
  for (const topic of TOPICS) {
    const text = explainTopic(topic, { ...classic, renewals: 1, melds_per_turn: 2, jokers: 1, empty_stock_choice: true });
    assert.ok(text.length > 10, topic);
    // card names (A-2-3, K-A-2) are the only Latin letters
    assert.equal(text.replace(/[AKQJ2-9]-[AKQJ2-9]-[AKQJ2-9]/g, "").match(/[A-Za-z]/), null, `${topic}: ${text}`);
    assert.doesNotMatch(text, / {2}|^ | $/, topic);
    assert.doesNotMatch(topicTitle(topic), /[A-Za-z]/, topic);
  }
  assert.match(explainTopic("renewed", { ...classic, renewals: 1 }), /1回まで/);
  setLang("en", { remember: false });
});
