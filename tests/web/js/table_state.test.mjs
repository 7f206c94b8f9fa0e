// The table page's state and sentences (web/table/state.js, texts.js) without a browser:
// they hold no DOM, so Node runs them as they are. Run by tests/web/test_js_units.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../../src/rummykit/web/i18n.js";

import { displayHand, newTableState, noteText, selectedCodes, setSort, takeEvent, takeReaction, takeView } from "../../../src/rummykit/web/table/state.js";
import { gameOverText, nameOf, pastDealText, positionName, resultText, seatLine, seatMarkText, seatMarks, statusText, who } from "../../../src/rummykit/web/table/texts.js";
import { cardName, short } from "../../../src/rummykit/web/cards.js";
import { logLines } from "../../../src/rummykit/web/table/event_words.js";

setLang("en", { remember: false }); // the sentences below are the English catalogue's

/** A two-seat view of seat 0, in the shape of server/views.py's seat_view, with `changes`. */
function view(changes = {}) {
  return {
    seat: 0,
    practice: false,
    rules: { rummy_bonus: "none" },
    players: [
      { name: "Ada", kind: "human", level: null, position: "you" },
      { name: "Basic", kind: "bot", level: "basic", position: "across" },
    ],
    deal: 0,
    dealer: 1,
    turn: 0,
    phase: "draw",
    hand: ["7h", "2c", "Kd"],
    hand_value: 19,
    hand_sizes: [3, 3],
    melds: [],
    discard: ["9s"],
    stock: 20,
    scores: [0, 0],
    taken: null,
    legal: ["draw stock", "draw discard"],
    deal_result: null,
    game_over: false,
    winner: null,
    ...changes,
  };
}

test("a view older than the one held is ignored", () => {
  const state = newTableState("t");
  takeView(state, view({ stock: 20 }), 5);
  assert.equal(takeView(state, view({ stock: 30 }), 4), null);
  assert.equal(state.view.stock, 20);
});

test("the first view of a deal logs who deals", () => {
  const state = newTableState("t");
  assert.deepEqual(takeView(state, view(), 1), [{ text: "Deal 1: Basic deals.", kind: "deal" }]);
  assert.deepEqual(takeView(state, view({ stock: 19 }), 2), []);
});

test("a deal's first line is the one a reloaded page's log shows, in either language", () => {
  for (const lang of ["en", "ja"]) {
    setLang(lang, { remember: false });
    for (const [dealer, said] of [[1, { kind: "deal", params: { number: 3, seat: 1 } }], [0, { kind: "deal_you", params: { number: 3 } }]]) {
      const state = newTableState("t");
      const [line] = takeView(state, view({ deal: 2, dealer }), 1);
      assert.deepEqual(line, logLines(view(), { lines: [{ ...said, text: "(server)", seat: dealer }] })[0]);
    }
  }
  const state = newTableState("t");
  assert.deepEqual(takeView(state, view(), 1), [{ text: "第1ディール：Basicが親です。", kind: "deal" }]);
  state.redealing = true;
  assert.deepEqual(takeView(state, view({ hand: ["As"] }), 2).map((line) => line.text), ["このディールは取り消して、配り直しました。", "第1ディール：Basicが親です。"]);
  setLang("en", { remember: false });
});

test("the card just drawn is marked fresh, and a discard clears the mark", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  takeView(state, view({ phase: "play", hand: ["7h", "2c", "Kd", "7h"] }), 2);
  assert.deepEqual([...state.fresh], ["7h#1"]);
  takeView(state, view({ phase: "play", turn: 1, hand: ["7h", "2c", "7h"] }), 3);
  assert.deepEqual([...state.fresh], []);
});

test("a selected card that leaves the hand is no longer selected", () => {
  const state = newTableState("t");
  takeView(state, view({ phase: "play" }), 1);
  state.selected.add("Kd#0");
  state.selected.add("2c#0");
  takeView(state, view({ phase: "play", hand: ["7h", "2c"] }), 2);
  assert.deepEqual(selectedCodes(state), ["2c"]);
});

test("a new deal forgets the notes and the selection of the last one", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  takeEvent(state, { seat: 1, action: "discard 9s", card: "9s", text: "Basic (Across) discarded 9♠." });
  state.selected.add("7h#0");
  const lines = takeView(state, view({ deal: 1, dealer: 0 }), 9);
  assert.deepEqual(lines, [{ text: "Deal 2: you deal.", kind: "deal" }]);
  assert.deepEqual(state.notes, {});
  assert.equal(state.selected.size, 0);
});

test("a redeal is the new view that no event announced", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  state.redealing = true;
  const lines = takeView(state, view({ hand: ["As", "4d", "Qc"] }), 2);
  assert.deepEqual(lines.map((line) => line.text), ["That deal was thrown away; here is a new one.", "Deal 1: Basic deals."]);
  assert.equal(state.redealing, false);
});

test("an event's log line is the server's text; its seat's note says the move in a few words", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  const text = "Basic (Across) took 9♠ from the discard pile.";
  const line = takeEvent(state, { seat: 1, action: "draw discard", card: "9s", text });
  assert.deepEqual(line, { text, kind: "" });
  assert.equal(noteText(state.notes[1]), "took 9♠");
  assert.deepEqual(state.flash, { kind: "took" });
  assert.equal(takeEvent(state, { seat: 0, action: "layoff 7h 1", card: "7h", text: "You laid off 7♥." }).kind, "mine");
  assert.deepEqual(state.flash, { kind: "meld", meld: 1 });
});

test("a Boathouse take's note says the stock card came too, never which", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  const text = "Basic (Across) took 9♠ from the discard pile and the top card of the stock.";
  takeEvent(state, { seat: 1, action: "draw discard", card: "9s", kind: "take_discard_stock", params: { seat: 1, card: "9s" }, text });
  assert.equal(noteText(state.notes[1]), "took 9♠ · drew from the stock");
});

test("a draw from the stock is noted once at its seat, its kind being no Boathouse take", () => {
  const state = newTableState("t");
  takeView(state, view({ turn: 1 }), 1);
  const text = "Basic (Across) drew from the stock.";
  takeEvent(state, { seat: 1, action: "draw stock", kind: "draw_stock", params: { seat: 1 }, text });
  takeEvent(state, { seat: 1, action: "discard 7c", card: "7c", kind: "discard", params: { seat: 1, card: "7c" }, text: "Basic (Across) discarded 7♣." });
  assert.equal(noteText(state.notes[1]), "drew from the stock · discarded 7♣");
});

test("a hint is dropped once the table has moved on", () => {
  const state = newTableState("t");
  takeView(state, view(), 1);
  state.hint = { action: "draw stock", reason: "Draw from the stock.", version: 1 };
  takeView(state, view(), 1);
  assert.notEqual(state.hint, null);
  takeView(state, view({ phase: "play" }), 2);
  assert.equal(state.hint, null);
});

test("the hand sorts by rank or by suit, jokers last, two copies apart", () => {
  const state = newTableState("t");
  takeView(state, view({ hand: ["X", "Kd", "2c", "7h", "2c"] }), 1);
  setSort(state, "rank");
  assert.deepEqual(displayHand(state).map((c) => c.key), ["2c#0", "2c#1", "7h#0", "Kd#0", "X#0"]);
  setSort(state, "suit");
  assert.deepEqual(displayHand(state).map((c) => c.code), ["7h", "2c", "2c", "Kd", "X"]);
});

test("the status line follows the legal actions sent", () => {
  assert.equal(statusText(view()), "Your turn: draw from the stock or take the 9♠.");
  assert.equal(statusText(view({ turn: 1 })), "Basic is thinking…");
  const noThrowback = view({ phase: "play", taken: "9s", hand: ["9s", "7h"], legal: ["discard 7h"] });
  assert.match(statusText(noThrowback), /The 9♠ you just took may not go straight back\.$/);
  assert.equal(who(view(), 0), "You");
});

test("seats go by their names; positions only on the small line; twins told apart", () => {
  const three = view({
    players: [
      { name: "Ada", kind: "human", level: null, position: "you" },
      { name: "Basic", kind: "bot", level: "basic", position: "left" },
      { name: "Basic", kind: "bot", level: "basic", position: "right" },
    ],
    hand_sizes: [3, 3, 3],
    scores: [0, 0, 0],
  });
  assert.equal(who(three, 0), "You");
  assert.equal(who(three, 1), "Basic (left)");
  assert.equal(nameOf(three, 2), "Basic (right)");
  assert.equal(seatLine(three, 1), "Left · computer · basic");
  assert.equal(seatLine(three, 0), "");
  // a spectator sees no positions: twins get numbers
  const watched = { ...three, seat: null, players: three.players.map((p) => ({ ...p, position: "" })) };
  assert.equal(who(watched, 0), "Ada");
  assert.equal(who(watched, 2), "Basic 2");
});

test("a seat's marks: away, the computer playing for them, gone for good", () => {
  const person = { name: "Bo", kind: "human", level: null, position: "left", connected: true, stand_in: false, left: false };
  assert.deepEqual(seatMarks(person), []);
  assert.deepEqual(seatMarks({ ...person, connected: false }), ["disconnected"]);
  assert.deepEqual(seatMarks({ ...person, connected: false, stand_in: true }), ["disconnected", "computer playing"]);
  assert.deepEqual(seatMarks({ ...person, left: true, stand_in: true, connected: false }), ["left"]);
  assert.deepEqual(seatMarks({ name: "Basic", kind: "bot", level: "basic", position: "left" }), []);
});

test("the status line says when the table is paused, and who the computer plays for", () => {
  // issue 27: not "Paused: waiting for a player to come back. Basic is thinking…"
  const paused = "Paused: waiting for a player to come back. Nothing is played until then.";
  assert.equal(statusText(view({ paused: true, turn: 1 })), paused);
  assert.equal(statusText(view({ paused: true, turn: 1, seat: null })), paused);
  assert.equal(statusText(view({ paused: true, phase: "over", seat: null })), paused);
  const friends = view({
    turn: 1,
    players: [
      { name: "Ada", kind: "human", level: null, position: "you" },
      { name: "Bo", kind: "human", level: null, position: "across", connected: false, stand_in: true },
    ],
  });
  assert.equal(statusText(friends), "The computer is playing for Bo…");
  assert.match(statusText(view({ game_over: true, winner: 0, party: "ABCD" })), /Rematch\.$/);
  assert.doesNotMatch(statusText(view({ seat: null, phase: "over", deal_result: null })), /\(N\)/);
});

test("a reaction shows at its sender's seat; events before the first view are logged only", () => {
  const state = newTableState("t");
  const line = takeEvent(state, { seat: 1, action: "discard 9s", card: "9s", text: "Bo discarded 9♠." });
  assert.deepEqual(line, { text: "Bo discarded 9♠.", kind: "" });
  assert.deepEqual(state.notes, {});
  assert.equal(state.flash, null);
  takeReaction(state, { seat: 1, reaction: "good_luck", text: "Good luck" });
  assert.equal(state.bubbles[1].text, "Good luck");
});

/** Run `check` with the page in `code`, then back in English. */
function inLanguage(code, check) {
  setLang(code, { remember: false });
  try {
    check();
  } finally {
    setLang("en", { remember: false });
  }
}

test("a deal's end and the game's end, worded from the view", () => {
  const over = view({ phase: "over", deal_result: { result: "out", winner: 1, points: [0, 12], hands: [[], []], values: [12, 0] } });
  assert.equal(resultText(over), "Basic went out. Points: Basic 12.");
  const blocked = view({ phase: "over", deal_result: { result: "blocked", winner: null, points: [0, 0], hands: [[], []], values: [3, 4] } });
  assert.equal(resultText(blocked), "The deal is blocked: the stock has run out for good. Nobody scores.");
  assert.equal(gameOverText(view({ game_over: true, winner: 0, scores: [104, 3] })), "The game is over: you win with 104 points.");
  assert.equal(gameOverText(view({ game_over: true, winner: 1, scores: [4, 103] })), "The game is over: Basic wins with 103 points.");
  assert.equal(pastDealText(view(), { result: "rummy", winner: 0, points: [20, 0] }), "You went rummy: You +20");
});

test("in Japanese: positions by value, card names, the status line and a deal's end", () => {
  inLanguage("ja", () => {
    assert.equal(positionName("far_left"), "左奥");
    assert.equal(positionName("Somewhere"), "Somewhere", "an unknown position shows as it came");
    assert.equal(cardName("7h"), "ハートの7");
    assert.equal(cardName("X=Ad"), "ジョーカー（ダイヤのエースとして）");
    assert.equal(short("X"), "ジョーカー");
    assert.equal(who(view(), 0), "あなた");
    assert.equal(statusText(view()), "あなたの番：山札から引くか、9♠を取ってください。");
    assert.equal(statusText(view({ turn: 1 })), "Basicが考えています…");
    const twins = view({
      players: [
        { name: "Ada", kind: "human", level: null, position: "you" },
        { name: "Basic", kind: "bot", level: "basic", position: "left" },
        { name: "Basic", kind: "bot", level: "basic", position: "right" },
      ],
    });
    assert.equal(nameOf(twins, 1), "Basic（左）");
    assert.equal(seatLine(twins, 2), "右・CPU・初級");
    assert.equal(seatMarkText("computer playing"), "CPU代打ち中");
    const over = view({ phase: "over", deal_result: { result: "out", winner: 0, points: [12, 0], hands: [[], []], values: [0, 12] } });
    assert.equal(resultText(over), "あなたが上がりました。得点：あなた 12点。");
  });
  assert.equal(cardName("7h"), "seven of hearts");
});
