// A post-game review against the replay's frames, without the DOM or words: which step of the
// replay each judged decision is, where "next / previous marked decision" go, what an action
// in record notation was (as a kind and params the catalogues word), and how far a review
// being made has come.

/** The marks from the least to the most costly (the review JSON's `marks` gives their
 * thresholds). */
export const MARKS = ["inaccuracy", "mistake", "blunder"];

/** About once a second: a review takes seconds to minutes, and each answer is a small JSON. */
export const POLL_MS = 1000;

/**
 * The replay step (frame index) of a decision: the frames hold one frame per deal start and
 * then one per action, so the frame just after the action is its deal's start + action + 1.
 * Null when the decision lies outside the frames (a review of another record).
 */
export function decisionStep(starts, frameCount, decision) {
  const start = starts[decision.deal];
  if (start === undefined || !Number.isInteger(decision.action) || decision.action < 0) return null;
  const end = decision.deal + 1 < starts.length ? starts[decision.deal + 1] : frameCount;
  const step = start + decision.action + 1;
  return step < end ? step : null;
}

/**
 * The action a step shows, as a decision names it ({deal, action}), with the seat that took
 * it (the seat to act in the frame before): `decisionStep` the other way round. Null for the
 * first frame of a deal, which shows the deal, not an action.
 */
export function stepAction(starts, frames, at) {
  let deal = starts.length - 1;
  while (deal > 0 && starts[deal] > at) deal -= 1;
  const action = at - starts[deal] - 1;
  if (deal < 0 || action < 0 || !frames[at - 1]) return null;
  return { deal, action, seat: frames[at - 1].turn };
}

/** The review's decisions by the step they were played at. */
export function decisionsByStep(review, starts, frameCount) {
  const found = new Map();
  for (const decision of review.decisions || []) {
    const step = decisionStep(starts, frameCount, decision);
    if (step !== null) found.set(step, decision);
  }
  return found;
}

/** The steps of the marked decisions, in order. */
export function markedSteps(byStep) {
  return [...byStep.entries()].filter(([, decision]) => decision.mark).map(([step]) => step).sort((a, b) => a - b);
}

/** The first marked step after `at`, or null. */
export function nextMarked(steps, at) {
  return steps.find((step) => step > at) ?? null;
}

/** The last marked step before `at`, or null. */
export function previousMarked(steps, at) {
  let found = null;
  for (const step of steps) if (step < at) found = step;
  return found;
}

/** Whether the decision played was the best found (then it gave nothing away). */
export const isBest = (decision) => decision.played === decision.best || decision.loss <= 0;

/**
 * An action in record notation ("0 discard 7h", "0 draw discard 2", "0 layoff 8s 1") as the
 * kind and params of the advice words (bots/hint_words.py's ADVICE), the cards it names read
 * from `before`, the frame of the position it was chosen in: the discard pile's top cards
 * for a take, the meld's cards for a lay-off. Null for text that is not an action.
 */
export function actionWords(notation, before) {
  const words = String(notation || "").trim().split(/\s+/);
  const [, verb, ...rest] = words;
  const pile = (before && before.discard) || [];
  if (verb === "draw" && rest[0] === "stock") return { kind: "draw_stock", params: {} };
  if (verb === "draw" && rest[0] === "discard") {
    const depth = rest.length > 1 ? Number(rest[1]) : 1;
    if (!Number.isInteger(depth) || depth < 1) return null;
    if (pile.length >= depth) {
      const taken = pile.slice(pile.length - depth);
      return depth === 1 ? { kind: "take_discard", params: { card: taken[0] } } : { kind: "take_discards", params: { cards: taken } };
    }
    return depth === 1 ? { kind: "take_top", params: {} } : { kind: "take_deep", params: { depth } };
  }
  if (verb === "meld" && rest.length) return { kind: "meld", params: { meld: rest } };
  if (verb === "layoff" && rest.length === 2) {
    const number = Number(rest[1]);
    if (!Number.isInteger(number) || number < 0) return null;
    const meld = before && before.melds && before.melds[number];
    // the replay lists the melds from 1 ("1. Ann"), the notation from 0
    return { kind: "layoff", params: { card: rest[0], number: number + 1, meld: meld ? meld.cards : null } };
  }
  if ((verb === "discard" || verb === "knock") && rest.length === 1) return { kind: verb, params: { card: rest[0] } };
  return null;
}

/**
 * Where a review being made stands, from the server's answer ({state, done, total}):
 * `{value, max}` for a bar, or `{value: null}` while the decisions are still being found.
 */
export function progressOf(answer) {
  const total = answer && Number.isInteger(answer.total) ? answer.total : null;
  if (total === null) return { value: null, max: null };
  return { value: Math.min(answer.done || 0, total), max: Math.max(total, 1) };
}

/** The seat a review is asked for first: `wanted` when it is a seat of the game, else the
 * seat this browser holds, else seat 0. */
export function defaultSeat(seatCount, wanted, held) {
  const fits = (seat) => Number.isInteger(seat) && seat >= 0 && seat < seatCount;
  if (fits(wanted)) return wanted;
  if (fits(held)) return held;
  return 0;
}

/** A seat written in an address ("?review=1") as a number, or null. */
export function seatParam(text) {
  return text !== null && text !== undefined && /^[0-9]{1,2}$/.test(String(text)) ? Number(text) : null;
}
