// A rating's history as an inline SVG line chart (player.js): a few round ticks on each axis,
// the line, a dot per game with its <title>. The geometry (`niceStep`, `ticks`, `chartModel`)
// is plain arithmetic, tested in Node; only `ratingChart` makes elements. Colours come from
// the stylesheet (.rating-chart), so the dark theme applies.

const SVG = "http://www.w3.org/2000/svg";

/** The space kept around the plot for the tick labels (px): a rating's four digits on the
 * left, a game number below. */
export const MARGIN = Object.freeze({ top: 12, right: 14, bottom: 26, left: 46 });

/** The chart's height (px); the width is the space the page gives it. */
export const CHART_HEIGHT = 200;

/** The ticks an axis aims for: enough to read values off, few enough for a phone. */
const TICKS_WANTED = 4;

/** Half the rating span drawn around a history that never moved (one game, or all equal). */
const FLAT_PAD = 10;

/**
 * A round step (1, 2 or 5 times a power of ten) that cuts `span` into about `count` parts;
 * never below `least` (game numbers step by whole games).
 */
export function niceStep(span, count = TICKS_WANTED, least = 0) {
  if (!(span > 0)) return Math.max(least, 1);
  const rough = span / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const nice = fraction < 1.5 ? 1 : fraction < 3.5 ? 2 : fraction < 7.5 ? 5 : 10;
  return Math.max(least, nice * power);
}

/** The multiples of `step` from `low` to `high`, both included when they are multiples. */
export function ticks(low, high, step) {
  const values = [];
  const first = Math.ceil(low / step - 1e-9);
  const last = Math.floor(high / step + 1e-9);
  for (let i = first; i <= last; i += 1) values.push(Math.round(i * step * 1e6) / 1e6 + 0); // + 0: no -0
  return values;
}

/** A map from [d0, d1] onto [r0, r1]; a domain of one value maps to the middle. */
export function scale(d0, d1, r0, r1) {
  if (d1 === d0) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) / (d1 - d0)) * (r1 - r0);
}

const round1 = (value) => Math.round(value * 10) / 10;

/** The first, last and highest ratings of a history (oldest first); null for none. */
export function summary(points) {
  if (!points.length) return null;
  return {
    first: points[0].rating,
    last: points[points.length - 1].rating,
    high: Math.max(...points.map((point) => point.rating)),
  };
}

/**
 * Where everything goes on a chart `width` × `height` of `points` ({at, rating}, oldest first),
 * the first of them the game numbered `firstGame`: the y ticks (round ratings spanning the
 * history), the x ticks (round game numbers), the line's path and a dot per game.
 */
export function chartModel(points, { width, height = CHART_HEIGHT, firstGame = 1, margin = MARGIN }) {
  const plot = { left: margin.left, right: width - margin.right, top: margin.top, bottom: height - margin.bottom };
  const ratings = points.map((point) => point.rating);
  let low = Math.min(...ratings);
  let high = Math.max(...ratings);
  if (high === low) {
    low -= FLAT_PAD;
    high += FLAT_PAD;
  }
  const yStep = niceStep(high - low);
  const yLow = Math.floor(low / yStep) * yStep;
  const yHigh = Math.ceil(high / yStep) * yStep;
  const y = scale(yLow, yHigh, plot.bottom, plot.top);
  const lastGame = firstGame + points.length - 1;
  // a lone game sits in the middle, between its neighbours' numbers
  const xLow = points.length > 1 ? firstGame : firstGame - 1;
  const xHigh = points.length > 1 ? lastGame : lastGame + 1;
  const x = scale(xLow, xHigh, plot.left, plot.right);
  const xTicks = ticks(firstGame, lastGame, niceStep(xHigh - xLow, TICKS_WANTED, 1));
  const dots = points.map((point, i) => ({ x: round1(x(firstGame + i)), y: round1(y(point.rating)), game: firstGame + i, at: point.at, rating: point.rating, table: point.table }));
  return {
    width,
    height,
    plot,
    yTicks: ticks(yLow, yHigh, yStep).map((value) => ({ value, y: round1(y(value)) })),
    xTicks: xTicks.map((value) => ({ value, x: round1(x(value)) })),
    path: dots.map((dot, i) => `${i ? "L" : "M"}${dot.x},${dot.y}`).join(" "),
    dots,
  };
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

/**
 * The chart as an <svg role="img">: `words.label` names it for screen readers (a summary of
 * first, last and highest), `words.dot(dot)` titles each dot, `words.tick(value)` writes a
 * rating tick.
 */
export function ratingChart(points, { width, firstGame, words }) {
  const model = chartModel(points, { width, firstGame });
  const { plot } = model;
  return svg("svg", {
    class: "rating-chart", role: "img", "aria-label": words.label,
    width: model.width, height: model.height, viewBox: `0 0 ${model.width} ${model.height}`,
    "data-testid": "rating-chart-svg",
  },
  ...model.yTicks.map((tick) => svg("g", { class: "tick" },
    svg("line", { class: "grid", x1: plot.left, x2: plot.right, y1: tick.y, y2: tick.y }),
    svg("text", { x: plot.left - 6, y: tick.y, "text-anchor": "end", "dominant-baseline": "middle" }, words.tick(tick.value)))),
  ...model.xTicks.map((tick) => svg("text", { class: "tick", x: tick.x, y: plot.bottom + 17, "text-anchor": "middle" }, String(tick.value))),
  svg("line", { class: "axis", x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom }),
  svg("line", { class: "axis", x1: plot.left, x2: plot.left, y1: plot.top, y2: plot.bottom }),
  svg("path", { class: "line", d: model.path }),
  ...model.dots.map((dot) => svg("circle", { class: "dot", cx: dot.x, cy: dot.y, r: 3.5, "data-testid": "rating-dot" },
    svg("title", {}, words.dot(dot)))));
}
