// The post-game review against the replay (web/review/model.js, web/review/words.js): which
// step a judged decision is, the next and previous marked decision, actions in record notation
// worded as the table's hints word them, a loss with its interval, and the progress.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../../src/rummykit/web/i18n.js";
import { dealStarts } from "../../../src/rummykit/web/replay/steps.js";
import {
  actionWords, decisionStep, decisionsByStep, defaultSeat, markedSteps, nextMarked, previousMarked, progressOf, seatParam, stepAction,
} from "../../../src/rummykit/web/review/model.js";
import { actionText, failedText, judgementText, itemText, lossText, markMeaning, markName, problemText, progressText } from "../../../src/rummykit/web/review/words.js";

/** Frames as the server makes them: a deal's first frame, then one a recorded action. */
function framesOf(actionsPerDeal) {
  const frames = [];
  actionsPerDeal.forEach((count, deal) => {
    frames.push({ deal, kind: "deal" });
    for (let action = 0; action < count; action += 1) frames.push({ deal, kind: "action", action });
  });
  return frames;
}

const decision = (deal, action, mark = null, extra = {}) => ({
  deal, action, played: "0 discard 7h", best: "0 discard 7h", loss: 0, loss_ci95: 0, mark, ...extra,
});

test("a decision's step is its deal's first frame plus its action plus one", () => {
  const frames = framesOf([5, 3, 4]);
  const starts = dealStarts(frames);
  assert.deepEqual(starts, [0, 6, 10]);
  for (const [deal, action] of [[0, 0], [0, 4], [1, 0], [1, 2], [2, 3]]) {
    const step = decisionStep(starts, frames.length, decision(deal, action));
    assert.equal(frames[step].deal, deal);
    assert.equal(frames[step].action, action, `deal ${deal} action ${action}`);
  }
});

test("a step's action is the decision that step shows, and its seat the one to act before", () => {
  const frames = framesOf([5, 3, 4]).map((frame, index) => ({ ...frame, turn: index % 2 }));
  const starts = dealStarts(frames);
  for (let at = 0; at < frames.length; at += 1) {
    const place = stepAction(starts, frames, at);
    if (frames[at].kind === "deal") {
      assert.equal(place, null, `step ${at} starts a deal`);
      continue;
    }
    assert.deepEqual([place.deal, place.action], [frames[at].deal, frames[at].action]);
    assert.equal(decisionStep(starts, frames.length, place), at); // both ways
    assert.equal(place.seat, frames[at - 1].turn);
  }
});

test("a decision outside the frames has no step (never another deal's frame)", () => {
  const frames = framesOf([5, 3]);
  const starts = dealStarts(frames);
  assert.equal(decisionStep(starts, frames.length, decision(0, 5)), null); // past deal 0's actions
  assert.equal(decisionStep(starts, frames.length, decision(1, 3)), null); // past the last frame
  assert.equal(decisionStep(starts, frames.length, decision(2, 0)), null); // no such deal
  assert.equal(decisionStep(starts, frames.length, decision(0, -1)), null);
});

test("next and previous marked decision go to the nearest marked step either way", () => {
  const frames = framesOf([6, 6]);
  const starts = dealStarts(frames);
  const review = { decisions: [decision(0, 1, "mistake"), decision(0, 2), decision(1, 0, "blunder"), decision(0, 4, "inaccuracy")] };
  const byStep = decisionsByStep(review, starts, frames.length);
  assert.deepEqual([...byStep.keys()].sort((a, b) => a - b), [2, 3, 5, 8]);
  const steps = markedSteps(byStep);
  assert.deepEqual(steps, [2, 5, 8]); // in order, the unmarked one left out
  assert.equal(nextMarked(steps, 0), 2);
  assert.equal(nextMarked(steps, 2), 5);
  assert.equal(nextMarked(steps, 8), null);
  assert.equal(previousMarked(steps, 8), 5);
  assert.equal(previousMarked(steps, 6), 5);
  assert.equal(previousMarked(steps, 2), null);
});

test("an action in notation is read as the advice's kind, its cards from the position before", () => {
  const before = { discard: ["2c", "9d", "Js"], melds: [{ owner: 1, cards: ["6s", "7s", "8s"] }] };
  assert.deepEqual(actionWords("0 draw stock", before), { kind: "draw_stock", params: {} });
  assert.deepEqual(actionWords("0 draw discard", before), { kind: "take_discard", params: { card: "Js" } });
  assert.deepEqual(actionWords("0 draw discard 2", before), { kind: "take_discards", params: { cards: ["9d", "Js"] } });
  assert.deepEqual(actionWords("0 draw discard 4", before), { kind: "take_deep", params: { depth: 4 } });
  assert.deepEqual(actionWords("0 draw discard", { discard: [] }), { kind: "take_top", params: {} });
  assert.deepEqual(actionWords("0 meld 3c 4c X=5c", before), { kind: "meld", params: { meld: ["3c", "4c", "X=5c"] } });
  assert.deepEqual(actionWords("0 layoff 9s 0", before), { kind: "layoff", params: { card: "9s", number: 1, meld: ["6s", "7s", "8s"] } });
  assert.deepEqual(actionWords("0 discard Kc", before), { kind: "discard", params: { card: "Kc" } });
  assert.deepEqual(actionWords("0 knock 3d", before), { kind: "knock", params: { card: "3d" } });
  for (const bad of ["", "0", "0 dance Kc", "0 layoff 9s x", "0 discard", "0 draw discard 0"]) assert.equal(actionWords(bad, before), null, bad);
});

test("actions, losses and a decision's line in English", () => {
  setLang("en", { remember: false });
  const before = { discard: ["2c", "9d"], melds: [{ owner: 1, cards: ["6s", "7s", "8s"] }] };
  assert.equal(actionText("0 discard Th", before), "Discard the 10♥");
  assert.equal(actionText("0 draw discard", before), "Take the 9♦ from the discard pile");
  assert.equal(actionText("0 meld 3c 4c 5c", before), "Meld 3♣ 4♣ 5♣");
  assert.equal(actionText("0 layoff 9s 0", before), "Lay off the 9♠ on 6♠ 7♠ 8♠");
  assert.equal(actionText("0 knock 3d", before), "Knock, discarding the 3♦");
  assert.equal(actionText("not notation", before), "not notation");
  const costly = decision(0, 3, "mistake", { played: "0 discard Th", best: "0 draw discard", loss: 6.24, loss_ci95: 1.1 });
  assert.equal(lossText(costly), "6.2 ± 1.1 points");
  assert.equal(lossText({ ...costly, exact: true }), "6.2 ± 1.1 points, settled within the turn");
  assert.equal(lossText({ ...costly, exact: true, loss_ci95: 0 }), "6.2 points, counted exactly");
  assert.equal(judgementText(costly, before, "Ann"), "Ann: Discard the 10♥. Best found: Take the 9♦ from the discard pile. Cost: 6.2 ± 1.1 points.");
  assert.equal(itemText(costly, before), "Deal 1: Discard the 10♥. Better: Take the 9♦ from the discard pile (6.2 ± 1.1 points)");
  assert.equal(judgementText(decision(0, 1, null, { played: "0 draw stock", best: "0 draw stock" }), before, "Ann"), "Ann: Draw from the stock, the best choice found.");
  assert.equal(markName("blunder"), "Blunder");
  assert.equal(markMeaning("mistake", { inaccuracy: 2, mistake: 5, blunder: 12 }), "a choice that gave away at least 5 points: a clear error");
});

test("a decision's line in Japanese, cards and numbers as the page shows them", () => {
  setLang("ja", { remember: false });
  const before = { discard: ["9d"], melds: [] };
  const costly = decision(1, 0, "blunder", { played: "0 discard Th", best: "0 draw discard", loss: 14, loss_ci95: 1.25 });
  assert.equal(judgementText(costly, before, "Ann"), "Ann: 10♥を捨てる。見つかった最善の手: 捨て札から9♦を取る。損失: 14.0 ± 1.3点。");
  assert.equal(markName("inaccuracy"), "疑問手");
  setLang("en", { remember: false });
});

test("the progress: a bar once the decisions are counted, words either way", () => {
  setLang("en", { remember: false });
  assert.deepEqual(progressOf({ state: "running", done: 0, total: null }), { value: null, max: null });
  assert.deepEqual(progressOf({ state: "running", done: 3, total: 40 }), { value: 3, max: 40 });
  assert.deepEqual(progressOf({ state: "running", done: 0, total: 0 }), { value: 0, max: 1 }); // a game without decisions
  assert.equal(progressText({ done: 0, total: null }), "Finding the decisions…");
  assert.equal(progressText({ done: 3, total: 40 }), "Judging decision 3 of 40…");
});

test("a refused request reads as a sentence, by its status", () => {
  setLang("en", { remember: false });
  const refused = (status, message) => Object.assign(new Error(message), { status });
  assert.match(problemText(refused(503, "busy")), /^Too many games are being reviewed/);
  assert.match(problemText(refused(404, "No finished game here")), /cannot be reviewed from this browser/);
  assert.equal(problemText(new Error("Failed to fetch")), "The review could not be made: Failed to fetch");
  const own = Object.assign(new Error("2 reviews"), { status: 429, body: { error: "2 reviews", reason: "own_reviews_busy", params: { count: 2 } } });
  assert.equal(problemText(own), "You have 2 reviews under way already: ask again once one of them is done.");
  setLang("ja", { remember: false });
  assert.equal(problemText(own), "すでに2件のレビューが進行中です。どれかが終わってから、もう一度どうぞ。");
  setLang("en", { remember: false });
});

test("a review that broke is worded from its reason; one without, by the server's sentence", () => {
  const broke = { state: "failed", error: "The review could not be made (RuntimeError): ask again.", reason: "review_broke", params: { error: "RuntimeError" } };
  setLang("ja", { remember: false });
  assert.equal(failedText(broke), "レビューを作れませんでした（RuntimeError）。もう一度お試しください。");
  setLang("en", { remember: false });
  assert.equal(failedText(broke), broke.error);
  assert.equal(failedText({ state: "failed", error: "No seat 3." }), "The review could not be made: No seat 3.");
});

test("the seat reviewed first: the address's, else the one held here, else seat 0", () => {
  assert.equal(defaultSeat(2, 1, 0), 1);
  assert.equal(defaultSeat(2, null, 1), 1);
  assert.equal(defaultSeat(2, 5, null), 0); // not a seat of this game
  assert.equal(defaultSeat(3, null, null), 0);
  assert.equal(seatParam("2"), 2);
  assert.equal(seatParam(""), null);
  assert.equal(seatParam(null), null);
  assert.equal(seatParam("me"), null);
  assert.equal(seatParam("-1"), null);
});
