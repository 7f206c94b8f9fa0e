// The party's lobby read off its view (web/party/model.js) and the table's reactions list
// (web/table/reactions.js), without a browser. Run by tests/web/test_javascript.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../../src/rummykit/web/i18n.js";

import {
  HOUSE_RULES,
  cleanCode,
  houseChoices,
  isHost,
  memberMarks,
  partyKey,
  partyReference,
  readyClearedNote,
  ruleValue,
  startProblem,
  withRule,
} from "../../../src/rummykit/web/party/model.js";
import { reactionList } from "../../../src/rummykit/web/table/reactions.js";

setLang("en", { remember: false }); // the sentences below are the English catalogue's

const person = (id, name, changes = {}) => ({ id, name, kind: "human", level: null, ready: false, connected: true, host: id === 1, ...changes });
const cpu = (id, level = "basic") => ({ id, name: level, kind: "bot", level, ready: true, connected: true, host: false });

/** A party view in the shape of party_messages.PartyView, seen by member 1 (the host). */
function party(changes = {}) {
  return {
    code: "AB12CD", url: "/#/party/AB12CD", state: "lobby", host: 1, me: 1,
    members: [person(1, "Ada"), person(2, "Bo")],
    preset: "party", rules: {}, turn_timer: null, spectators: true, table: null, games: 0,
    max_seats: 8, min_seats: 2,
    ...changes,
  };
}

/** The party preset's part of /api/options that the rules panel reads. */
const PRESET = {
  rules: { target: 100, aces: "low", ace_points: 1, renewals: 15, hand_size: "by_seats", rummy_bonus: "double" },
  ties: [{ option: "aces", follower: "ace_points", values: [["low", 1], ["low_or_high", 15]] }],
};

test("the host may start with 2-8 seats once every other person is ready; else it says why", () => {
  assert.equal(startProblem(party({ members: [person(1, "Ada", { ready: true })] })), "A game needs at least 2 players: share the link, or add a computer player.");
  // issue 27: ranked play refuses computers, so the page does not suggest one
  assert.equal(startProblem(party({ ranked: true, members: [person(1, "Ada", { ready: true })] })), "A ranked game needs at least 2 players: share the link.");
  assert.equal(startProblem(party()), "Waiting for Bo to be ready.");
  assert.equal(startProblem(party({ me: 2, members: [person(1, "Ada"), person(2, "Bo"), person(3, "Cy")] })), "Waiting for you and Cy to be ready.");
  const ready = party({ members: [person(1, "Ada"), person(2, "Bo", { ready: true }), cpu(3)] });
  assert.equal(startProblem(ready), null, "the host's Start is their ready");
  const nine = party({ members: [person(1, "Ada", { ready: true }), ...[2, 3, 4, 5, 6, 7, 8, 9].map((id) => cpu(id))] });
  assert.equal(startProblem(nine), "A table holds at most 8 players.");
});

test("members show who is host, ready, away or a computer", () => {
  const view = party();
  assert.ok(isHost(view));
  assert.ok(!isHost({ ...view, me: 2 }));
  assert.ok(!isHost({ ...view, me: null }));
  const texts = (marks) => marks.map((mark) => mark.text);
  assert.deepEqual(memberMarks(view, view.members[0]), [{ kind: "you", text: "you" }, { kind: "host", text: "host" }]);
  assert.deepEqual(texts(memberMarks(view, person(2, "Bo", { ready: true, connected: false }))), ["ready", "away"]);
  assert.deepEqual(memberMarks(view, person(2, "Bo")).map((mark) => mark.kind), ["not-ready"]);
  assert.deepEqual(texts(memberMarks(view, cpu(3, "strong"))), ["computer · strong"]);
});

test("a rules change that cleared your ready is said; a change of members is not", () => {
  const readyBo = party({ me: 2, members: [person(1, "Ada"), person(2, "Bo", { ready: true })] });
  const changed = party({ me: 2, rules: { target: 50 } });
  assert.equal(readyClearedNote(readyBo, changed), "The host changed the rules: look them over and mark ready again.");
  assert.equal(readyClearedNote(readyBo, { ...readyBo, members: [...readyBo.members, cpu(3)] }), null);
  assert.equal(readyClearedNote(party(), changed), null, "not ready before: nothing was cleared");
  assert.equal(readyClearedNote(null, changed), null);
  const boReady = party({ members: [person(1, "Ada"), person(2, "Bo", { ready: true })] });
  assert.match(readyClearedNote(boReady, party({ turn_timer: 30 })), /^You changed the rules/);
  assert.equal(readyClearedNote(party(), party({ turn_timer: 30 })), null, "nobody was ready");
});

test("an option's value: its override, else its tie, else the preset's", () => {
  assert.equal(ruleValue(PRESET, {}, "target"), 100);
  assert.equal(ruleValue(PRESET, { target: 50 }, "target"), 50);
  assert.equal(ruleValue(PRESET, { aces: "low_or_high" }, "ace_points"), 15, "Q-K-A makes an ace cost 15");
  assert.equal(ruleValue(PRESET, { aces: "low_or_high", ace_points: 11 }, "ace_points"), 11);
});

test("setting a rule keeps only the overrides that differ from the preset", () => {
  assert.deepEqual(withRule(PRESET, {}, "target", 200), { target: 200 });
  assert.deepEqual(withRule(PRESET, { target: 200 }, "target", 100), {});
  assert.deepEqual(withRule(PRESET, { target: 50 }, "aces", "low_or_high"), { target: 50, aces: "low_or_high" });
  assert.deepEqual(withRule(PRESET, { aces: "low_or_high" }, "ace_points", 15), { aces: "low_or_high" });
});

test("the rule text's house rules name engine options, with its values", () => {
  assert.deepEqual(HOUSE_RULES.map((rule) => rule.option), [
    "target", "scoring", "hand_size", "aces", "layoff", "melds_per_turn", "go_out", "rummy_bonus", "renewals",
  ]);
  const target = HOUSE_RULES[0];
  const field = { choices: [], none: null };
  assert.deepEqual(houseChoices(target, field, 100).map(([v]) => v), [50, 100, 200]);
  assert.deepEqual(houseChoices(target, field, 150).map(([v]) => v), [50, 100, 200, 150], "another preset's value is kept");
  const renewals = HOUSE_RULES.find((rule) => rule.option === "renewals");
  const labelled = { choices: [{ value: 15, label: "No limit" }, { value: 1, label: "Once" }, { value: 3, label: "Three times" }] };
  assert.deepEqual(houseChoices(renewals, labelled, 15), [[15, "No limit"], [1, "Once"], [3, "Three times"]]);
});

test("codes are read without case, spaces or dashes; each has its own storage key", () => {
  assert.equal(cleanCode(" ab-12 cd "), "AB12CD");
  assert.equal(partyKey("ab12cd"), "rummykit.party.AB12CD");
});

test("the reactions offered come from /api/options in any of its shapes", () => {
  const expected = [{ key: "good_luck", text: "Good luck" }, { key: "thanks", text: "Thanks" }];
  assert.deepEqual(reactionList({ reactions: { good_luck: "Good luck", thanks: "Thanks" } }), expected);
  assert.deepEqual(reactionList({ reactions: [["good_luck", "Good luck"], ["thanks", "Thanks"]] }), expected);
  assert.deepEqual(reactionList({ reactions: expected }), expected);
  assert.deepEqual(reactionList({}), []);
});

test("the party's sentences and marks in Japanese", () => {
  setLang("ja", { remember: false });
  try {
    assert.equal(startProblem(party({ me: 2, members: [person(1, "Ada"), person(2, "Bo"), person(3, "Cy")] })), "あなた、Cyの準備OKを待っています。");
    assert.deepEqual(memberMarks(party(), cpu(3, "expert")), [{ kind: "computer", text: "CPU・上級" }]);
    const target = HOUSE_RULES.find((rule) => rule.option === "target");
    assert.deepEqual(houseChoices(target, { choices: [] }).map(([, label]) => label), ["50点", "100点", "200点"]);
  } finally {
    setLang("en", { remember: false });
  }
});

test("a link's reference keeps its key as it is and upper-cases the code", () => {
  assert.deepEqual(partyReference("ab12cd.Key_-0123456789abcdefghij"), { code: "AB12CD", path: "AB12CD.Key_-0123456789abcdefghij" });
  assert.deepEqual(partyReference("ab12cd"), { code: "AB12CD", path: "AB12CD" });
  assert.equal(partyKey(partyReference("ab12cd.Key").code), partyKey("AB12CD")); // one seat per party on a device
});
