// The ratings pages' DOM-free parts: the chart's round ticks, scale and path (web/ratings/
// chart.js), and the words for places, changes and figures (web/ratings/words.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../../src/rummykit/web/i18n.js";
import { MARGIN, chartModel, niceStep, scale, summary, ticks } from "../../../src/rummykit/web/ratings/chart.js";
import { FIGURES, changeText, countingText, figures, ordinal, placeText, shareText } from "../../../src/rummykit/web/ratings/words.js";

const history = (...ratings) => ratings.map((rating, i) => ({ table: `t${i}`, at: 1_760_000_000 + i * 86_400, rating }));

test("a round step is 1, 2 or 5 times a power of ten, cutting the span in about four", () => {
  assert.equal(niceStep(100), 20); // 25 rounds down to 20
  assert.equal(niceStep(37), 10);
  assert.equal(niceStep(230), 50);
  assert.equal(niceStep(400), 100);
  assert.equal(niceStep(3), 1); // 0.75 → 1
  assert.equal(niceStep(3, 4, 1), 1);
  assert.equal(niceStep(1, 4, 1), 1); // game numbers never step by a fraction
  assert.equal(niceStep(0), 1);
  for (let span = 1; span < 5000; span += 7) {
    const step = niceStep(span);
    const mantissa = step / 10 ** Math.floor(Math.log10(step));
    assert.ok([1, 2, 5].includes(Math.round(mantissa * 1e9) / 1e9), `step ${step} for ${span}`);
    assert.ok(span / step >= 2 && span / step <= 8, `${span} / ${step} parts`);
  }
});

test("ticks are the step's multiples within the range, ends included", () => {
  assert.deepEqual(ticks(1480, 1560, 20), [1480, 1500, 1520, 1540, 1560]);
  assert.deepEqual(ticks(1483, 1559, 20), [1500, 1520, 1540]);
  assert.deepEqual(ticks(0, 1, 0.2), [0, 0.2, 0.4, 0.6, 0.8, 1]);
});

test("a scale maps the domain's ends onto the range's, and a single value to the middle", () => {
  const y = scale(1400, 1600, 200, 0);
  assert.equal(y(1400), 200);
  assert.equal(y(1600), 0);
  assert.equal(y(1500), 100);
  assert.equal(scale(5, 5, 0, 100)(5), 50);
});

test("the chart has a dot per game, left to right, higher ratings higher up", () => {
  const points = history(1500, 1540, 1520, 1610, 1590);
  const model = chartModel(points, { width: 360, firstGame: 8 });
  assert.equal(model.dots.length, points.length);
  assert.deepEqual(model.dots.map((dot) => dot.game), [8, 9, 10, 11, 12]);
  assert.equal(model.dots[0].x, MARGIN.left);
  assert.equal(model.dots.at(-1).x, 360 - MARGIN.right);
  for (let i = 1; i < points.length; i += 1) {
    assert.ok(model.dots[i].x > model.dots[i - 1].x);
    assert.equal(Math.sign(model.dots[i - 1].y - model.dots[i].y), Math.sign(points[i].rating - points[i - 1].rating));
  }
  // the rating ticks are round and span the whole history, inside the plot
  const values = model.yTicks.map((tick) => tick.value);
  assert.deepEqual(values, [1500, 1520, 1540, 1560, 1580, 1600, 1620]);
  for (const tick of model.yTicks) assert.ok(tick.y >= model.plot.top && tick.y <= model.plot.bottom);
  for (const dot of model.dots) assert.ok(dot.y >= model.plot.top && dot.y <= model.plot.bottom);
  assert.deepEqual(model.xTicks.map((tick) => tick.value), [8, 9, 10, 11, 12]);
  assert.equal(model.path, model.dots.map((dot, i) => `${i ? "L" : "M"}${dot.x},${dot.y}`).join(" "));
});

test("a long history gets a few round game numbers", () => {
  const points = history(...Array.from({ length: 37 }, (_, i) => 1500 + ((i * 37) % 90)));
  const model = chartModel(points, { width: 300, firstGame: 1 });
  assert.deepEqual(model.xTicks.map((tick) => tick.value), [10, 20, 30]);
  assert.ok(model.yTicks.length >= 3 && model.yTicks.length <= 9);
});

test("one game is a dot in the middle, between round ratings around it", () => {
  const model = chartModel(history(1512), { width: 300, firstGame: 1 });
  assert.equal(model.dots.length, 1);
  const [dot] = model.dots;
  assert.equal(dot.x, (MARGIN.left + 300 - MARGIN.right) / 2);
  assert.deepEqual(model.xTicks.map((tick) => tick.value), [1]); // no game 0 or 2
  assert.equal(model.xTicks[0].x, dot.x);
  const values = model.yTicks.map((tick) => tick.value);
  assert.ok(values[0] < 1512 && values.at(-1) > 1512, String(values));
  assert.equal(model.path, `M${dot.x},${dot.y}`);
});

test("the summary is the first, last and highest rating", () => {
  assert.deepEqual(summary(history(1500, 1620, 1580)), { first: 1500, last: 1580, high: 1620 });
  assert.equal(summary([]), null);
});

test("places in English: ordinals, the table's size, and '=' for a shared place", () => {
  setLang("en", { remember: false });
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22].map((n) => ordinal(n)), ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]);
  assert.equal(placeText(0, 3, false), "1st of 3");
  assert.equal(placeText(0, 3, true), "=1st of 3");
  assert.equal(placeText(2, 4, false), "3rd of 4");
});

test("places in Japanese", () => {
  assert.equal(placeText(0, 3, false, "ja"), "3人中1位");
  assert.equal(placeText(1, 4, true, "ja"), "4人中2位（同点）");
});

test("a rating's change has its sign: plus, a true minus, or ±0", () => {
  assert.equal(changeText(1500, 1512), "+12");
  assert.equal(changeText(1512, 1504), "−8");
  assert.equal(changeText(1500, 1500), "±0");
});

test("figures read as counts, decimals, percentages and seconds; a missing one is a dash", () => {
  setLang("en", { remember: false });
  const record = {
    games: 1234, deals: 2000, wins: 5, draws: 1, losses: 3, average_place: 1.8333,
    points_per_deal: 12.25, going_out_rate: 0.375, rummies: 2, seconds_per_turn: 4.44,
    timeouts: 0, computer_share: null,
  };
  const shown = Object.fromEntries(figures(record).map(([field, , value]) => [field, value]));
  assert.deepEqual(shown, {
    games: "1,234", deals: "2,000", wins: "5", draws: "1", losses: "3", average_place: "1.8",
    points_per_deal: "12.3", going_out_rate: "38%", rummies: "2", seconds_per_turn: "4.4 s",
    timeouts: "0", computer_share: "—",
  });
  // what the server does not send yet is a dash too, every figure still listed
  const early = figures({ games: 3, wins: 1, draws: 0, losses: 2, average_place: 2 });
  assert.equal(early.length, FIGURES.length);
  assert.deepEqual(early.map(([, , value]) => value), ["3", "—", "1", "0", "2", "2.0", ...Array(FIGURES.length - 6).fill("—")]);
  assert.equal(figures(record, "ja").find(([field]) => field === "seconds_per_turn")[2], "4.4秒");
});

test("what a game counts is said in the numbers of the server's answer, none of our own", () => {
  setLang("en", { remember: false });
  const answer = { trusted_games: 7, trusted_opponents: 3, repeat_days: 9 };
  const said = countingText(answer);
  for (const part of ["played 7 ranked games", "met 3 other people", "within 9 days"]) assert.ok(said.includes(part), said);
  const japanese = countingText(answer, "ja");
  for (const part of ["7ゲーム", "3人", "9日"]) assert.ok(japanese.includes(part), japanese);
  assert.equal(shareText(0), "0%");
  assert.equal(shareText(0.25), "25%");
});
