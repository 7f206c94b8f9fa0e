// The party's lobby read off its view (web/party/model.js) and the table's reactions list
// (web/table/reactions.js), without a browser. Run by tests/web/test_javascript.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../../src/rummykit/web/i18n.js";

import {
  cleanCode,
  isHost,
  memberMarks,
  partyKey,
  partyReference,
  readyClearedNote,
  startProblem,
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

test("a table size the rules cannot deal is said before the start", () => {
  const three = [person(1, "Ada"), person(2, "Bo", { ready: true }), person(3, "Cy", { ready: true })];
  assert.equal(startProblem(party({ members: three, seats: [2, 3, 4] })), null);
  assert.equal(startProblem(party({ members: three, seats: [2] })), "These house rules cannot deal to 3 players: change the hand size or the decks.");
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
  } finally {
    setLang("en", { remember: false });
  }
});

test("a link's reference keeps its key as it is and upper-cases the code", () => {
  assert.deepEqual(partyReference("ab12cd.Key_-0123456789abcdefghij"), { code: "AB12CD", path: "AB12CD.Key_-0123456789abcdefghij" });
  assert.deepEqual(partyReference("ab12cd"), { code: "AB12CD", path: "AB12CD" });
  assert.equal(partyKey(partyReference("ab12cd.Key").code), partyKey("AB12CD")); // one seat per party on a device
});
