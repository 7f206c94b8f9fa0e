// Events, notices, the deal's log and refusals worded in the page's language from their kind
// or reason and params (web/table/event_words.js, refusal_words.js): seats named the way the
// table names them, cards shown as the table shows them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { CATALOGUES, setLang } from "../../../src/rummykit/web/i18n.js";
import { eventText, logLines, sentence } from "../../../src/rummykit/web/table/event_words.js";
import { refusalText } from "../../../src/rummykit/web/table/refusal_words.js";

const view = {
  seat: 0,
  players: [
    { name: "You", kind: "human", position: "you" },
    { name: "Mira", kind: "bot", level: "basic", position: "left" },
    { name: "Otto", kind: "bot", level: "basic", position: "across" },
  ],
  deal_result: null,
};

function inLang(code, body) {
  setLang(code, { remember: false });
  try {
    body();
  } finally {
    setLang("en", { remember: false });
  }
}

test("an out-of-turn refusal names the seats as the table does, not 'seat 1'", () => {
  const refused = { code: "not_your_turn", reason: "not_seat_turn", params: { turn: 1, seat: 0 }, message: "It is seat 1's turn, not seat 0's." };
  assert.equal(refusalText(view, refused), "It is Mira's turn, not yours.");
  inLang("ja", () => assert.equal(refusalText(view, refused), "今はMiraの番です（あなたの番ではありません）。"));
});

test("cards are shown as the table shows them; lists and plurals follow the language", () => {
  const missing = { code: "invalid_meld", reason: "run_missing", params: { cards: ["4h", "5h", "8h"], missing: ["6h", "7h"], count: 2 }, message: "" };
  assert.equal(refusalText(view, missing), "4♥ 5♥ 8♥ is not a run: the 6♥ and 7♥ are missing.");
  const one = { ...missing, params: { cards: ["4h", "X", "7h"], missing: ["6h"], count: 1 } };
  assert.equal(refusalText(view, one), "4♥ Joker 7♥ is not a run: the 6♥ is missing.");
  const held = { code: "card_not_in_hand", reason: "not_held", params: { card: "Td" }, message: "" };
  inLang("ja", () => assert.equal(refusalText(view, held), "10♦を持っていません。"));
});

test("a reason this page does not know shows the server's message", () => {
  assert.equal(refusalText(view, { code: "stale", reason: "something_new", params: {}, message: "As sent." }), "As sent.");
  assert.equal(refusalText(view, { code: "stale", message: "Old server." }), "Old server.");
});

test("a party's refusal words the rules' own reason into its detail, in every language", () => {
  const refused = {
    code: "rules_refused",
    reason: "seats_refused",
    params: { detail_reason: "seats_two_decks", seats: 7, min: 2, max: 6 },
    message: "These rules cannot deal to this many seats: 7 seats need two decks: one deck serves 2 to 6 seats.",
  };
  assert.equal(refusalText(null, refused), refused.message);
  inLang("ja", () => assert.equal(refusalText(null, refused), "このルールではこの人数に配れません：7席にはデッキが2組必要です。1組で遊べるのは2〜6席です。"));
  const unknown = { ...refused, params: { ...refused.params, detail_reason: "something_new" } };
  inLang("ja", () => assert.equal(refusalText(null, unknown), refused.message));
});

test("an option's refusal offers its choices in the language's way; an answer's body words too", () => {
  const body = { error: "aces must be \"low\", \"high\" or \"around\", not 3.", reason: "option_choice", params: { option: "aces", choices: ['"low"', '"high"', '"around"'], value: "3" } };
  assert.match(refusalText(null, body), /^aces must be "low", "high",? or "around", not 3\.$/u);
  inLang("ja", () => assert.equal(refusalText(null, body), "acesは\"low\"、\"high\"、または\"around\"のどれかです（3ではありません）。"));
  assert.equal(refusalText(null, { error: "Plain.", reason: "", params: {} }), "Plain.");
  const name = { error: "name: Value error, A name may not hold the mark BOT.", reason: "name_bot_mark", params: { field: "name" } };
  inLang("ja", () => assert.match(refusalText(null, name), /^名前に「BOT」/u));
});

test("events say You or the seat's name, in English and Japanese", () => {
  const mine = { seat: 0, kind: "discard", params: { seat: 0, card: "Kc" }, text: "You discarded the K♣." };
  const theirs = { seat: 1, kind: "take_discard", params: { seat: 1, card: "9c" }, text: "" };
  assert.equal(eventText(view, mine), "You discarded the K♣.");
  assert.equal(eventText(view, theirs), "Mira took the 9♣ from the discard pile.");
  inLang("ja", () => assert.equal(eventText(view, theirs), "Miraが捨て札から9♣を取りました。"));
  const low = { seat: null, kind: "stock_low", params: { count: 3 }, text: "" };
  assert.equal(eventText(view, low), "3 cards left in the stock.");
  assert.equal(eventText(view, { ...low, params: { count: 1 } }), "1 card left in the stock.");
  const blocked = { seat: 0, kind: "blocked_collects", params: { seat: 0, points: 12 }, text: "" };
  assert.equal(eventText(view, blocked), "The deal is blocked: 12 points to you, who held the cheapest hand.");
  assert.equal(eventText(null, mine), mine.text);
});

test("the log frame's lines are worded and classed like the live ones", () => {
  const log = {
    deal: 0,
    lines: [
      { kind: "deal", seat: 2, params: { number: 1, seat: 2 }, text: "" },
      { kind: "draw_stock", seat: 0, params: { seat: 0 }, text: "" },
      { kind: "renewed_flip", seat: null, params: { count: 1 }, text: "" },
    ],
  };
  assert.deepEqual(logLines(view, log), [
    { text: "Deal 1: Otto deals.", kind: "deal" },
    { text: "You drew from the stock.", kind: "mine" },
    { text: "The discard pile was turned over to make a new stock (this happens once a deal).", kind: "result" },
  ]);
});

test("every template of events and refusals words without a placeholder left over", () => {
  const params = { seat: 1, turn: 2, card: "7h", stock_card: "As", cards: ["7h", "8h", "9h"], meld: ["7h", "8h", "9h"], missing: ["6h"], count: 2, number: 0, last: 3, held: 1, depth: 4, points: 9, grace: 30, seconds: 10, detail: "x", name: "Ann", limit: 10, value: 22, names: ["Ann"], min: 2, max: 8, text: "1 fly", verb: "fly", option: "decks", choices: ["1", "2"], preset: "gin", seats: 7, hand: 10, needed: 81, jokers: 2, size: 54, error: "RuntimeError", sent: 9, table: 3, party: 3 };
  for (const code of ["en", "ja"]) {
    inLang(code, () => {
      for (const key of [...Object.keys(CATALOGUES.en.events), ...Object.keys(CATALOGUES.en.refusals)]) {
        const text = sentence(key, view, params);
        assert.doesNotMatch(text, /[{}]/u, `${code} ${key}: ${text}`);
        assert.ok(!text.includes("\u0000"), `${code} ${key}: ${text}`);
      }
    });
  }
});

test("the practice game stops explaining a rule that no longer applies", async () => {
  const { Topics } = await import("../../../src/rummykit/web/practice.js");
  const topics = new Topics(`t${Date.now()}`);
  assert.deepEqual(topics.take(["draw", "meld"]), ["draw", "meld"]);
  assert.deepEqual(topics.take(["meld", "discard"]), ["discard"]);
  assert.deepEqual(topics.take(["meld"]), []); // the meld was shown; discard no longer applies
  topics.last = ["meld", "no_throwback"]; // as a page left them before "New deal"
  assert.deepEqual(topics.take(["draw"]), []); // a new deal: neither applies now
});
